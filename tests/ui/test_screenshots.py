"""Issue 30: the screenshot script makes every picture the guide shows, from the demo club, in a language
(the pictures cannot go stale: a screen the script can no longer reach fails here)."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader
from PySide6.QtGui import QImage

from tests.guide_helpers import script


def test_the_script_makes_every_picture_in_turkish(qapp, demo_file: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    shots = script("screenshots")
    out = tmp_path / "tr"
    shots.shoot("tr", demo_file, out)
    made = {p.name for p in out.iterdir()}
    assert made == shots.names()
    for name in made - {"deskcard.pdf"}:
        image = QImage(str(out / name))
        assert not image.isNull() and image.width() >= 300, name
    window = QImage(str(out / "members.png"))
    assert (window.width(), window.height()) == shots.SIZE  # the 1366-pixel laptop
    card = PdfReader(str(out / "deskcard.pdf"))
    assert len(card.pages) == 1
    # the window was in Turkish: the card's words are the Turkish catalog's
    text = " ".join(card.pages[0].extract_text().split())
    assert "F2" in text
    assert "işlemi yapan kişiyi değiştir" in text and "change the person acting" not in text
