"""The guide's pictures and the words around its text: every screenshot opens at full size, its alt text
says what it shows in the page's language (never a file name), no picture shows a temporary path, and the
sidebar's search box and headings are in the guide's language."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.guide_helpers import LANGUAGES, script

# Sphinx's and the theme's English words that a translated page must not show
ENGLISH_AROUND = (
    "Related Topics",
    "Documentation overview",
    'placeholder="Search"',
    "Quick search",
    "Link to this heading",
    "Powered by",
)


def images(html: str) -> list[tuple[str, str, str]]:
    """(the link around the picture, its src, its alt) of every picture of a built page."""
    found = []
    for m in re.finditer(r"(<a [^>]*>)?\s*<img ([^>]*)/?>", html):
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
        found.append((m.group(1) or "", attrs.get("src", ""), attrs.get("alt", "")))
    return found


def test_every_picture_opens_at_full_size_and_says_what_it_shows(built_guide: Path) -> None:
    english: dict[str, str] = {}
    for lang in LANGUAGES:
        seen = 0
        for page in sorted((built_guide / lang).glob("*.html")):
            for link, src, alt in images(page.read_text(encoding="utf-8")):
                where = f"{lang}/{page.name}: {src}"
                seen += 1
                # a link to the picture's own file: the browser shows it 1:1
                assert f'href="{src}"' in link, f"{where} does not open at full size ({link!r})"
                assert (page.parent / src).is_file(), where
                name = Path(src).name
                assert alt and name not in alt and ".png" not in alt, f"{where}: alt {alt!r} is a file name"
                assert len(alt.split()) >= 2, f"{where}: alt {alt!r} says too little"
                if lang == "en":
                    english[name] = alt
                else:
                    assert alt != english.get(name), f"{where}: alt text not translated ({alt!r})"
        assert seen >= 20, f"{lang}: {seen} pictures"


@pytest.mark.parametrize("lang", ["id", "es", "tr"])
def test_the_search_box_and_the_sidebar_are_in_the_guides_language(built_guide: Path, lang: str) -> None:
    words = {"id": "Cari", "es": "Buscar", "tr": "Ara"}[lang]
    for page in ("index.html", "first-night.html", "search.html"):
        html = (built_guide / lang / page).read_text(encoding="utf-8")
        left = [w for w in ENGLISH_AROUND if w in html]
        assert left == [], f"{lang}/{page}: English left around the text: {left}"
        if page != "search.html":
            assert f'placeholder="{words}"' in html  # the search field says it in the page's language
            assert '<h3 id="searchlabel">' in html  # and it has the label it is named by


def test_no_picture_shows_a_temporary_path(tmp_path: Path, demo_file: Path) -> None:
    """The screenshot script's window names the demo club's own file (``~/…/demo.sqlite3``), not the
    temporary copy it opens: read back from the status bar of a picture (Debian's ``tesseract-ocr``). The
    demo club is the run's (a file under /tmp, as the script's own is): the script shoots a copy of it."""
    from PIL import Image

    assert shutil.which("tesseract"), "scripts/dev.sh installs tesseract-ocr"
    shots = script("screenshots")
    shots.shoot("en", demo_file, tmp_path / "en", {"members", "settings"})
    assert "demo.sqlite3" in shots.shown_path() and "tmp" not in shots.shown_path()
    for name in ("members", "settings"):
        picture = Image.open(tmp_path / "en" / f"{name}.png")
        bar = picture.crop((0, picture.height - 28, picture.width // 2, picture.height))
        bar = bar.resize((bar.width * 3, bar.height * 3))
        bar.save(tmp_path / f"{name}-bar.png")
        read = subprocess.run(
            ["tesseract", str(tmp_path / f"{name}-bar.png"), "-", "--psm", "7"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert "demo.sqlite" in read, f"{name}: the status bar reads {read!r}"
        assert "tmp" not in read and "shots" not in read, f"{name}: {read!r}"
