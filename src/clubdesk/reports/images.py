"""Images to share in the club's group chat (issue 28): plain tables drawn with Qt's QPainter on a QImage.

Every image is 1080 px wide and at most 1350 px tall (a phone's 4:5 portrait); a long list is split into
numbered images ("1/3"). The text is DejaVu Sans (ğ ş ı İ ñ), never smaller than 28 px. Each image carries
the club's name and logo, the event, the round and the date. No database here: the service hands over
:class:`Sheet` objects filled from the same report data as the PDFs (``services/reports.py``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from clubdesk.i18n import _
from clubdesk.reports.data import ReportHeader
from clubdesk.reports.fonts import fonts_dir
from clubdesk.reports.frame import fmt_date

WIDTH = 1080
MAX_HEIGHT = 1350
MARGIN = 40
TEXT_PX = 30  # body text: never below 28 px, readable on a phone
SMALL_PX = 28
TITLE_PX = 40
ROW_H = 50
HEAD_H = 54
ACCENT = "#1f4e79"
INK = "#111111"
ZEBRA = "#eef3f8"

Align = Literal["l", "r", "c"]


@dataclass(frozen=True)
class Column:
    title: str
    weight: float = 1.0  # share of the free width (0: exactly ``width`` px)
    align: Align = "l"
    width: int = 0  # fixed width in px (0: by weight)


@dataclass(frozen=True)
class Sheet:
    """One titled table; split over as many images as its rows need."""

    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()  # printed under the table on its last image
    rules_after: frozenset[int] = field(default_factory=frozenset)  # a line under these row indexes


_app: Any = None
_families: dict[str, str] = {}
# PySide6 6.12 on Python 3.11 takes one reference from None on every call of a method returning void
# (QPainter.setPen, fillRect, drawLine...): thousands per image, until the interpreter aborts
# ("none_dealloc", at the latest when it exits). Each image gives back what it took, in None's own count
# (None lives as long as the interpreter; from Python 3.12 on it is immortal and needs nothing).
_CUSHION = 1_000_000


def _give_back_none(taken: int) -> None:
    if taken > 0 and sys.version_info < (3, 12):
        import ctypes

        ctypes.c_ssize_t.from_address(id(None)).value += taken


def _gui() -> None:
    """A Qt application for the fonts (offscreen when there is no display), and the DejaVu faces."""
    global _app
    from PySide6.QtGui import QFontDatabase
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        # a QApplication (not only a QGuiApplication), so that the same process may still open windows
        _app = QApplication([])
    if not _families:
        for key, file in (
            ("sans", "DejaVuSans.ttf"),
            ("bold", "DejaVuSans-Bold.ttf"),
            ("cond", "DejaVuSansCondensed.ttf"),
            ("condbold", "DejaVuSansCondensed-Bold.ttf"),
        ):
            fid = QFontDatabase.addApplicationFont(str(fonts_dir() / file))
            names = QFontDatabase.applicationFontFamilies(fid) if fid >= 0 else []
            _families[key] = names[0] if names else "DejaVu Sans"


def _font(px: int, bold: bool = False, condensed: bool = False) -> Any:
    from PySide6.QtGui import QFont

    key = ("cond" if condensed else "sans") + ("bold" if bold else "")
    key = {"sansbold": "bold"}.get(key, key)
    f = QFont(_families.get(key, "DejaVu Sans"))
    f.setPixelSize(px)
    f.setBold(bold)
    return f


def header_lines(header: ReportHeader) -> tuple[str, str]:
    """The event line and the "Round 3 · 4 May 2025" line of every image."""
    bits = []
    if header.round is not None:
        bits.append(_("Round {n}").format(n=header.round))
    if header.date is not None:
        bits.append(fmt_date(header.date, header.language))
    return header.event_name, " · ".join(bits)


def _header_height(header: ReportHeader, lines: tuple[str, str] | None = None) -> int:
    event, when = lines or header_lines(header)
    return 20 + 48 + (40 if event else 0) + (38 if when else 0) + 16


def _widths(columns: Sequence[Column], room: int) -> list[int]:
    """Fixed columns as wide as asked and at least as wide as their heading; the rest by weight."""
    from PySide6.QtGui import QFontMetrics

    fm = QFontMetrics(_font(SMALL_PX, bold=True, condensed=True))
    need = [max(c.width, fm.horizontalAdvance(c.title) + 16) if c.width else 0 for c in columns]
    fixed = sum(need)
    weights = sum(c.weight for c in columns if not c.width) or 1.0
    free = max(0, room - fixed)
    out = [n if c.width else int(free * c.weight / weights) for c, n in zip(columns, need, strict=True)]
    out[-1] += room - sum(out)
    return out


def wrap(text: str, px: int = SMALL_PX, room: int = WIDTH - 2 * MARGIN) -> list[str]:
    """The note's lines at ``px``: broken between words, none wider than ``room``."""
    from PySide6.QtGui import QFontMetrics

    fm = QFontMetrics(_font(px))
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and fm.horizontalAdvance(trial) > room:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def _note_lines(sheet: Sheet) -> list[str]:
    return [line for note in sheet.notes for line in wrap(note)]


def paginate(
    header: ReportHeader, sheets: Sequence[Sheet], lines: tuple[str, str] | None = None
) -> list[tuple[Sheet, int, int, bool]]:
    """(sheet, first row, last row + 1, is its last part) per image: as many rows as 1350 px hold."""
    _gui()
    top = _header_height(header, lines) + TITLE_PX + 24 + HEAD_H
    footer = 56
    out: list[tuple[Sheet, int, int, bool]] = []
    for sheet in sheets:
        notes = _note_lines(sheet)
        notes_h = len(notes) * 40 + (12 if notes else 0)
        per = max(1, (MAX_HEIGHT - top - footer) // ROW_H)
        start = 0
        n = len(sheet.rows)
        while True:
            end = min(n, start + per)
            last = end >= n
            if last and top + (end - start) * ROW_H + notes_h + footer > MAX_HEIGHT and end - start > 1:
                end = max(start + 1, end - (notes_h + ROW_H - 1) // ROW_H)
                last = end >= n
            out.append((sheet, start, end, last))
            if last:
                break
            start = end
    return out


def render(header: ReportHeader, sheets: Sequence[Sheet], out_dir: Path, stem: str) -> list[Path]:
    """Draw the sheets as PNG images ``{stem}-01.png``... in ``out_dir``; the paths, in order."""
    _gui()
    from PySide6.QtCore import QRect, QRectF, Qt
    from PySide6.QtGui import QColor, QFontMetrics, QImage, QPainter, QPen

    event, when = header_lines(header)
    top_h = _header_height(header, (event, when))
    parts = paginate(header, sheets, (event, when))
    total = len(parts)
    paths: list[Path] = []
    logo = QImage(header.logo_path) if header.logo_path and Path(header.logo_path).is_file() else None
    align_flags = {
        "l": Qt.AlignmentFlag.AlignLeft,
        "r": Qt.AlignmentFlag.AlignRight,
        "c": Qt.AlignmentFlag.AlignHCenter,
    }
    if sys.getrefcount(None) < _CUSHION:
        _give_back_none(_CUSHION)  # room for one image's calls before it gives them back
    for k, (sheet, a, b, last) in enumerate(parts, start=1):
        before = sys.getrefcount(None)
        rows = sheet.rows[a:b]
        height = top_h + TITLE_PX + 24 + HEAD_H + len(rows) * ROW_H + 56
        notes = _note_lines(sheet) if last else []
        if notes:
            height += len(notes) * 40 + 12
        height = min(MAX_HEIGHT, height)
        img = QImage(WIDTH, height, QImage.Format.Format_RGB32)
        img.fill(QColor("white"))
        p = QPainter(img)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        y = 20
        x = MARGIN
        if logo is not None and not logo.isNull():
            size = 110
            scaled = logo.scaled(
                size, size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
            )
            p.drawImage(x, y, scaled)
            x += size + 20

        def text(
            px: int, s: str, top: int, bold: bool = False, color: str = INK, left: int = x, p: Any = p
        ) -> None:
            f = _font(px, bold)
            p.setFont(f)
            p.setPen(QColor(color))
            shown = QFontMetrics(f).elidedText(s, Qt.TextElideMode.ElideRight, WIDTH - MARGIN - left)
            p.drawText(
                QRect(left, top, WIDTH - MARGIN - left, px + 14), int(Qt.AlignmentFlag.AlignLeft), shown
            )

        text(36, header.club_name, y, bold=True, color=ACCENT)
        y += 48
        if event:
            text(SMALL_PX + 2, event, y)
            y += 40
        if when:
            text(SMALL_PX, when, y, color="#333333")
            y += 38
        y = max(y, 20 + 110 if logo is not None and not logo.isNull() else y) + 8
        p.setPen(QPen(QColor(ACCENT), 4))
        p.drawLine(MARGIN, y, WIDTH - MARGIN, y)
        y += 12
        title = sheet.title if total == 1 else f"{sheet.title}   {k}/{total}"
        text(TITLE_PX - 4, title, y, bold=True, left=MARGIN)
        y += TITLE_PX + 16
        widths = _widths(sheet.columns, WIDTH - 2 * MARGIN)
        # the column heads
        p.fillRect(QRectF(MARGIN, y, WIDTH - 2 * MARGIN, HEAD_H), QColor(ACCENT))
        hf = _font(SMALL_PX, bold=True, condensed=True)
        p.setFont(hf)
        p.setPen(QColor("white"))
        cx = MARGIN
        for col, w in zip(sheet.columns, widths, strict=True):
            shown = QFontMetrics(hf).elidedText(col.title, Qt.TextElideMode.ElideRight, w - 12)
            p.drawText(
                QRect(cx + 6, y, w - 12, HEAD_H),
                int(align_flags[col.align] | Qt.AlignmentFlag.AlignVCenter),
                shown,
            )
            cx += w
        y += HEAD_H
        bf = _font(TEXT_PX, condensed=True)
        fm = QFontMetrics(bf)
        for i, row in enumerate(rows):
            if i % 2 == 1:
                p.fillRect(QRectF(MARGIN, y, WIDTH - 2 * MARGIN, ROW_H), QColor(ZEBRA))
            p.setFont(bf)
            p.setPen(QColor(INK))
            cx = MARGIN
            for col, w, cell in zip(sheet.columns, widths, row, strict=False):
                shown = fm.elidedText(cell, Qt.TextElideMode.ElideRight, w - 12)
                p.drawText(
                    QRect(cx + 6, y, w - 12, ROW_H),
                    int(align_flags[col.align] | Qt.AlignmentFlag.AlignVCenter),
                    shown,
                )
                cx += w
            y += ROW_H
            if a + i in sheet.rules_after:
                p.setPen(QPen(QColor(ACCENT), 3))
                p.drawLine(MARGIN, y, WIDTH - MARGIN, y)
        if notes:
            y += 12
            for note in notes:
                text(SMALL_PX, note, y, color="#333333", left=MARGIN)
                y += 40
        # the footer: ClubDesk and the image's number
        ff = _font(SMALL_PX)
        p.setFont(ff)
        p.setPen(QColor("#555555"))
        p.drawText(
            QRect(MARGIN, height - 50, WIDTH - 2 * MARGIN, 40),
            int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
            f"{k}/{total}",
        )
        p.end()
        path = out_dir / f"{stem}-{k:02d}.png"
        # PNG by the suffix; quality 60: light zlib compression, a tenth of the default's time, a larger file
        if not img.save(str(path), None, 60):
            raise OSError(str(path))
        paths.append(path)
        _give_back_none(before - sys.getrefcount(None))
    return paths
