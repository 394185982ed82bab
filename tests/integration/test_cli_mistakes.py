"""The command line meets a typing mistake with a way out: "did you mean" for a mistyped command, an
unknown ``--lang`` refused with the four codes (any case accepted), a second ``member add`` of the same
person refused unless ``--force``, and a refused phone number shown with a form that is accepted. Every
message in the chosen language."""

from __future__ import annotations

from pathlib import Path

import pytest

from clubdesk import i18n
from clubdesk.cli import main
from clubdesk.i18n_tools import catalogs
from clubdesk.services.members import records, search
from clubdesk.storage import Database

LANGS = ["en", "id", "es", "tr"]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as stop:
        code = int(stop.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def _in(lang: str, message: str) -> str:
    i18n.set_language(lang)
    return i18n._(message)


@pytest.fixture(autouse=True)
def _english_after() -> object:
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", LANGS)
def test_a_mistyped_command_gets_a_suggestion(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    if lang != "en" and lang not in catalogs():
        pytest.skip("no catalogs")
    code, _out, err = _run(capsys, "--lang", lang, "membr", "list")
    assert code == 2
    last = err.strip().splitlines()[-1]
    said = _in(lang, "invalid choice: {value} (did you mean {names}?)").format(
        value="'membr'", names="member"
    )
    assert last.endswith(said)
    assert "invalid choice" not in last or lang == "en"
    assert "round-robin" not in last and "standings" not in last  # not the list of every command
    # an action of a command group too
    code, _out, err = _run(capsys, "--lang", lang, "member", "ad", "--name", "X")
    assert code == 2 and err.strip().endswith(
        _in(lang, "invalid choice: {value} (did you mean {names}?)").format(value="'ad'", names="add")
    )


@pytest.mark.parametrize("given", ["de", "english", "t"])
def test_an_unknown_language_is_refused_with_the_four_codes(
    given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, "--lang", given, "version")
    assert code == 2 and out == ""
    assert "en, id, es, tr" in err and repr(given) in err
    code, _out, err = _run(capsys, f"--lang={given}", "version")
    assert code == 2 and "en, id, es, tr" in err


@pytest.mark.parametrize("given", ["TR", "Tr", " es ", "ID"])
def test_a_language_code_in_any_case(given: str, capsys: pytest.CaptureFixture[str]) -> None:
    lang = given.strip().lower()
    if lang not in catalogs():
        pytest.skip("no catalogs")
    code, _out, err = _run(capsys, "--lang", given, "no-such-command")
    assert code == 2
    assert _in(lang, "usage: ") in err and _in(lang, "usage: ") != "usage: "


def test_the_same_member_twice_is_refused_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "c.sqlite3")
    add = ("--db", db, "member", "add", "--club", "Kadıköy Tavla Kulübü")
    assert _run(capsys, *add, "--name", "Şükrü Işık")[0] == 0
    # the same name folded (case, accents, spaces), the same club folded: most likely the same person
    code, out, err = _run(
        capsys, "--db", db, "member", "add", "--name", "sukru  ISIK", "--club", "kadikoy tavla kulubu"
    )
    assert code == 1 and out == ""
    assert "1001 Şükrü Işık (Kadıköy Tavla Kulübü)" in err and "--force" in err
    # another club, or no club: another person
    assert _run(capsys, "--db", db, "member", "add", "--name", "Şükrü Işık", "--club", "Moda")[0] == 0
    assert _run(capsys, "--db", db, "member", "add", "--name", "Şükrü Işık")[0] == 0
    # a namesake in the same club, said so
    assert _run(capsys, *add, "--name", "Şükrü Işık", "--force")[0] == 0
    # two of them now: both named, in Turkish
    code, _out, err = _run(capsys, "--lang", "tr", *add, "--name", "Şükrü Işık")
    assert code == 1 and "--force" in err and "1001" in err and "1004" in err
    if "tr" in catalogs():
        assert "Aynı ad ve kulüpte" in err
    database = Database(tmp_path / "c.sqlite3")
    try:
        assert search.count_members(database) == 4
        same = search.likely_duplicates(database, "ŞÜKRÜ ışık", "Kadıköy Tavla Kulübü")
        assert sorted(m.number for m in same) == ["1001", "1004"]
    finally:
        database.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_malformed_phone_shows_an_accepted_form(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if lang != "en" and lang not in catalogs():
        pytest.skip("no catalogs")
    db = str(tmp_path / "c.sqlite3")
    code, _out, err = _run(
        capsys, "--lang", lang, "--db", db, "member", "add", "--name", "Nur", "--phone", "12ab"
    )
    assert code == 1
    assert records.PHONE_EXAMPLE in err and "12ab" in err
    assert records.phone_ok(records.PHONE_EXAMPLE)  # the example is a form that is accepted
    if lang != "en":
        assert "Malformed phone number" not in err
