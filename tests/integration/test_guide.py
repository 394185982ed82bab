"""Issue 30: the user guide builds in en, id, es, tr with warnings as errors; every picture it shows is one
the screenshot script makes; no internal link is broken; every msgid of its catalogs is translated;
``clubdesk-cli guide`` says where it is."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from clubdesk.cli import main
from tests.guide_helpers import LANGUAGES, ROOT, script

GUIDE = ROOT / "docs" / "guide"
PAGES = sorted(p.stem for p in GUIDE.glob("*.md"))


def test_every_file_a_page_shows_is_made_by_the_screenshot_script() -> None:
    shown: dict[str, list[str]] = {}
    for page in GUIDE.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        # every picture and download of a page is under /_shots/ (the staged screenshots of its language)
        for ref in re.findall(
            r"(?:\{figure\}|\{image\}|!\[[^\]]*\]\(|\{download\}`[^<`]*<)\s*([^\s)>`]+)", text
        ):
            shown.setdefault(ref, []).append(page.name)
    assert shown, "the guide shows no picture at all"
    made = script("screenshots").names()
    outside = {ref: pages for ref, pages in shown.items() if not ref.startswith("/_shots/")}
    assert outside == {}, "pictures must come from the screenshot script (/_shots/…)"
    missing = {ref: pages for ref, pages in shown.items() if ref.removeprefix("/_shots/") not in made}
    assert missing == {}


def test_the_guide_builds_in_every_language(built_guide: Path) -> None:
    for lang in LANGUAGES:
        folder = built_guide / lang
        for page in PAGES:
            assert (folder / f"{page}.html").is_file(), f"{lang}/{page}.html"
        index = (folder / "index.html").read_text(encoding="utf-8")
        assert f'lang="{lang}"' in index
        assert list((folder / "_images").glob("*.png")), f"{lang}: no picture in the built guide"


def _internal_links(folder: Path) -> list[tuple[str, str, str]]:
    """(page, target file, anchor) of every link from one built page to another."""
    links = []
    for html in folder.glob("*.html"):
        for href in re.findall(r'href="([^"]+)"', html.read_text(encoding="utf-8")):
            if "://" in href or href.startswith(("mailto:", "_static", "#")):
                continue
            target, _sep, anchor = href.partition("#")
            links.append((html.name, target, anchor))
    return links


def test_no_internal_link_of_the_built_guide_is_broken(built_guide: Path) -> None:
    broken = []
    for lang in LANGUAGES:
        folder = built_guide / lang
        links = _internal_links(folder)
        assert len(links) > 50
        for page, target, anchor in links:
            path = folder / target
            if not path.is_file():
                broken.append(f"{lang}/{page} -> {target}")
            elif anchor and f'id="{anchor}"' not in path.read_text(encoding="utf-8"):
                broken.append(f"{lang}/{page} -> {target}#{anchor}")
    assert broken == []


def test_the_templates_hold_the_english_text() -> None:
    """The .pot files are extracted from the pages as they are now (``scripts/guide.py pot``)."""
    pots = sorted(p.stem for p in (GUIDE / "locale").glob("*.pot"))
    assert pots == PAGES
    for page in PAGES:
        with open(GUIDE / "locale" / f"{page}.pot", "rb") as f:
            ids = {m.id for m in read_po(f) if m.id}
        text = (GUIDE / f"{page}.md").read_text(encoding="utf-8")
        heading = next(line[2:] for line in text.splitlines() if line.startswith("# "))
        assert heading in ids, f"{page}.pot is stale: run python scripts/guide.py pot"


@pytest.mark.parametrize("lang", ["id", "es", "tr"])
def test_every_msgid_of_the_guide_is_translated(lang: str) -> None:
    """The completeness guard of the guide's catalogs (like test_catalogs.py for the app's)."""
    problems = []
    for pot in sorted((GUIDE / "locale").glob("*.pot")):
        with open(pot, "rb") as f:
            wanted = [m.id for m in read_po(f) if m.id]
        po = GUIDE / "locale" / lang / "LC_MESSAGES" / f"{pot.stem}.po"
        if not po.is_file():
            problems.append(f"{po.relative_to(ROOT)} missing ({len(wanted)} msgids)")
            continue
        with open(po, "rb") as f:
            catalog = read_po(f)
        for msgid in wanted:
            msg = catalog.get(msgid)
            if msg is None or not msg.string or msg.fuzzy:
                problems.append(f"{pot.stem} [{lang}]: {msgid[:70]!r}")
    assert problems == [], f"{len(problems)} untranslated:\n" + "\n".join(problems[:40])


def test_cli_guide_prints_the_start_page_of_the_language(
    built_guide: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CLUBDESK_GUIDE_DIR", str(built_guide))
    assert main(["guide", "--lang", "tr", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert Path(data["index"]) == built_guide / "tr" / "index.html"
    assert data["lang"] == "tr" and sorted(data["languages"]) == sorted(LANGUAGES)
    assert main(["guide"]) == 0
    assert capsys.readouterr().out.strip() == str(built_guide / "en" / "index.html")


def test_cli_guide_not_built_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CLUBDESK_GUIDE_DIR", str(tmp_path / "nothing"))
    assert main(["guide", "--lang", "es"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "scripts/dev.sh guide" in err[0]
    assert main(["guide", "--lang", "xx"]) == 1


@pytest.mark.parametrize("lang", ["id", "es", "tr"])
def test_a_translated_guide_shows_its_catalog_words(built_guide: Path, lang: str) -> None:
    po = GUIDE / "locale" / lang / "LC_MESSAGES" / "first-night.po"
    if not po.is_file():
        pytest.skip(f"no {lang} catalog yet (test_every_msgid_of_the_guide_is_translated fails for it)")
    with open(po, "rb") as f:
        catalog = read_po(f)
    title = catalog.get("Your first club night")
    assert title is not None and title.string
    html = (built_guide / lang / "first-night.html").read_text(encoding="utf-8")
    assert f"<h1>{title.string}" in html
    assert "<h1>Your first club night" not in html


def _app_labels(lang: str) -> dict[str, str]:
    """The app's msgid -> msgstr, mnemonic '&' removed (what the window shows)."""
    with open(ROOT / "resources" / "locale" / lang / "LC_MESSAGES" / "clubdesk.po", "rb") as f:
        catalog = read_po(f)
    labels = {}
    for m in catalog:
        if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string:
            labels.setdefault(m.id.replace("&", ""), m.string.replace("&", ""))
    return labels


def _cases(label: str, lang: str) -> set[str]:
    """The label as is, and with its first letter capital or small (a sentence may start with it)."""
    first, rest = label[:1], label[1:]
    upper = {"i": "İ", "ı": "I"}.get(first, first.upper()) if lang == "tr" else first.upper()
    lower = {"İ": "i", "I": "ı"}.get(first, first.lower()) if lang == "tr" else first.lower()
    return {label, upper + rest, lower + rest}


@pytest.mark.parametrize("lang", ["id", "es", "tr"])
def test_the_guide_names_buttons_as_the_translated_window_shows_them(lang: str) -> None:
    """A **label** of the English guide that is a label of the app is, in the translated guide, the app's own
    translation of it (so that a Turkish secretary finds the button the page names)."""
    folder = GUIDE / "locale" / lang / "LC_MESSAGES"
    if not folder.is_dir():
        pytest.skip(f"no {lang} catalogs yet")
    app = _app_labels(lang)
    wrong = []
    for po in sorted(folder.glob("*.po")):
        with open(po, "rb") as f:
            catalog = read_po(f)
        for m in catalog:
            if not m.id or not m.string or m.fuzzy:
                continue
            for label in re.findall(r"\*\*([^*]+)\*\*", m.id):
                want = app.get(label)
                if want and want != label and not any(f"**{w}**" in m.string for w in _cases(want, lang)):
                    wrong.append(f"{po.stem} [{lang}]: **{label}** should be **{want}** in {m.string[:80]!r}")
    assert wrong == [], "\n".join(wrong[:30])


def test_no_markup_of_the_pages_is_left_as_text_in_a_translation(built_guide: Path) -> None:
    """A translation that breaks a role or a bold mark shows it as text: {kbd}`F1`, **Save."""
    leftovers = []
    for lang in LANGUAGES:
        for html in (built_guide / lang).glob("*.html"):
            body = html.read_text(encoding="utf-8").split('<div class="body"', 1)[-1]
            for mark in re.findall(r"\{(?:kbd|ref|doc|download)\}`|\*\*\w|\w\*\*", body):
                leftovers.append(f"{lang}/{html.name}: {mark}")
    assert leftovers == []
