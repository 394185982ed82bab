"""The command line in the user's language (issue 17): every --help text, argparse's own words and the
refusals. With the pseudo-locale ``xx`` every translated string is wrapped in ⟦…⟧, so a word outside the
brackets that is not an option, a metavar, a choice or a command name was never marked for translation."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from clubdesk import i18n
from clubdesk.cli import argparse_i18n
from clubdesk.cli.core import build_parser, main
from clubdesk.i18n_tools import catalogs


def _parsers(
    p: argparse.ArgumentParser, path: list[str]
) -> Iterator[tuple[list[str], argparse.ArgumentParser]]:
    yield path, p
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, [*path, name])


def _unmarked(path: list[str], p: argparse.ArgumentParser) -> list[str]:
    rest = re.sub(r"⟦[^⟧]*⟧", " ", p.format_help(), flags=re.S)
    allowed = {"clubdesk-cli", *path}
    for a in p._actions:
        allowed.update(o.lstrip("-") for o in a.option_strings)
        allowed.update(re.findall(r"[\w-]+", str(a.metavar or "")))
        allowed.update({a.dest, a.dest.upper()} if a.dest else set())
        allowed.update(str(c) for c in (a.choices or ()))
    words = re.findall(r"[^\W\d_][\w'-]*", rest)
    return sorted({w for w in words if w not in allowed and w.lstrip("-") not in allowed and not w.isupper()})


def test_every_help_text_and_argparse_word_is_marked() -> None:
    i18n.set_language("xx")
    argparse_i18n.install()
    parser = build_parser()
    found = {" ".join(path): _unmarked(path, p) for path, p in _parsers(parser, ["clubdesk-cli"])}
    assert len(found) >= 40  # the whole tree of commands was walked
    assert {k: v for k, v in found.items() if v} == {}
    assert parser.format_usage().startswith("⟦usage: ⟧")


def test_a_bad_command_is_refused_in_the_pseudo_locale(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--lang", "xx", "no-such-command"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "⟦usage: ⟧" in err and "⟦invalid choice:" in err and "⟦clubdesk-cli: wrong usage:" in err


@pytest.mark.parametrize("lang", ["id", "es", "tr"])
def test_a_bad_command_is_refused_in_each_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    if lang not in catalogs():
        pytest.skip("no catalogs in resources/locale yet")
    with pytest.raises(SystemExit):
        main(["--lang", lang, "no-such-command"])
    err = capsys.readouterr().err
    i18n.set_language(lang)
    assert i18n._("usage: ") in err and i18n._("usage: ") != "usage: "
    assert "wrong usage" not in err and "invalid choice" not in err
    with pytest.raises(SystemExit):
        main(["--lang", lang, "event", "create", "--name", "x"])  # required options missing
    err = capsys.readouterr().err
    assert "the following arguments are required" not in err
