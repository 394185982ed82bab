"""Layouts that fit (issue 18): headers never break inside a word, the whole club name in the page header,
long names wrap inside their cells, in English and under a translation with much longer words."""

from __future__ import annotations

import dataclasses
import datetime as dt
import gettext
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from clubdesk import i18n
from clubdesk.reports import data as d
from clubdesk.reports.fonts import COND_BOLD, SANS_BOLD, register_fonts
from clubdesk.reports.frame import CELL_PAD, HEAD_MIN, fit_lines, heads
from clubdesk.reports.score_sheets import score_sheets

NAMES = ("Ayşe Yılmaz", "Iğdır Şahin", "İsmail Güneş", "Peña Núñez")
LONG_CLUB = "Kulübü Ağaçlı İzmir Tavla, Dominó ve Gaple Oyunları Spor Kulübü Derneği Şubesi 1923"


def header(club: str = "Kulübü Ağaçlı İzmir") -> d.ReportHeader:
    return d.ReportHeader(
        club, "Bahar Turnuvası", round=3, date=dt.date(2025, 5, 4), printed_on=dt.datetime(2025, 5, 4)
    )


def flat(path: Path) -> str:
    return " ".join(" ".join(p.extract_text() or "" for p in PdfReader(path).pages).split())


def test_headers_shrink_until_their_longest_word_fits() -> None:
    register_fonts()
    for label in ("Dropped", "Siegerinnenauszeichnung", "2 ends", "Σ A", "Ausgeschiedenenspielrunde Nr"):
        for width in (18.0, 26.0, 40.0, 90.0):
            (cell,) = heads([label], [width], size=7)
            size = cell.style.fontSize
            longest = max(stringWidth(w, COND_BOLD, size) for w in label.split())
            # every word fits whole (down to the floor), and nothing shrinks that already fit
            assert longest <= width - CELL_PAD + 0.01 or size == HEAD_MIN
            if max(stringWidth(w, COND_BOLD, 7) for w in label.split()) <= width - CELL_PAD:
                assert size == 7


def test_club_name_is_never_cut() -> None:
    register_fonts()
    size, lines = fit_lines(LONG_CLUB, SANS_BOLD, 250, (12, 9), max_lines=3)
    assert " ".join(lines) == LONG_CLUB and size >= 5
    assert all(stringWidth(line, SANS_BOLD, size) <= 250 for line in lines)
    assert fit_lines("My club", SANS_BOLD, 250, (12, 9)) == (12, ["My club"])


def test_the_page_header_prints_the_whole_club_name(tmp_path: Path) -> None:
    f = tmp_path / "s.pdf"
    score_sheets(f, header(LONG_CLUB), [d.TavlaSheetData("1", 1, 1, (NAMES[0], NAMES[1]))])
    assert LONG_CLUB in flat(f) and "…" not in flat(f)


class _Long(gettext.NullTranslations):
    """A translation whose longer words are half as long again (many languages are longer than English)."""

    def gettext(self, message: str) -> str:
        return " ".join(w + "ungs" if w.isalpha() and len(w) > 3 else w for w in message.split(" "))

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.gettext(msgid1 if n == 1 else msgid2)


@pytest.fixture
def long_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "set_language", lambda lang=None: i18n._current_lang)
    monkeypatch.setattr(i18n, "_current", _Long())


def test_sheets_under_long_translations_keep_whole_words_and_one_page(
    tmp_path: Path, long_words: None
) -> None:
    sheets = [
        d.GapleSheetData("9", 2, 1, NAMES, ("Kusumawardhani Setyaningrum / Bambang Prasetyo", "Budi / Sari")),
        d.DominoSheetData("9", 2, 2, NAMES, ("Peña Dominó Chamberí de Madrid Centro Norte", "Club Ñandú")),
        d.TavlaSheetData("9", 2, 3, (NAMES[0], NAMES[1])),
    ]
    f = tmp_path / "long.pdf"
    assert score_sheets(f, header(), sheets) == 3
    text = flat(f)
    for word in ("Dropped", "Crawford", "Initials", "Outcome", "Leader", "Notes", "Winner"):
        assert word + "ungs" in text  # printed whole, never split over two lines
    for name in ("Kusumawardhani", "Setyaningrum", "Chamberí"):
        assert name in text


@pytest.mark.parametrize("lang", ["en", "es", "id", "tr"])
def test_sheets_with_the_sides_approval_boxes_stay_one_page(tmp_path: Path, lang: str) -> None:
    """Rules G13, E6, T8c: while table entry is on each side's box carries its approval code and QR; the
    gaple, Spanish and tavla sheets (a match to 11) still print on one page each, codes readable."""
    codes = {"side_codes": ("123456", "654321"), "side_qr": ("http://h/t/x?side=0", "http://h/t/x?side=1")}
    sheets = [
        d.GapleSheetData("9", 2, 1, NAMES, ("Kusumawardhani Setyaningrum / Bambang", "Budi"), **codes),
        d.DominoSheetData("9", 2, 2, NAMES, ("Peña Dominó Chamberí de Madrid", "Club"), **codes),
        d.TavlaSheetData("9", 2, 3, (NAMES[0], NAMES[1]), params={"match_length": 11}, **codes),
    ]
    f = tmp_path / "codes.pdf"
    assert score_sheets(f, dataclasses.replace(header(), language=lang), sheets) == 3
    text = flat(f)
    assert text.count("123 456") == 3 and text.count("654 321") == 3
