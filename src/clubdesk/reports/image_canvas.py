"""The canvas of the images to share: their sizes and colours, the Qt application and the DejaVu faces they
are drawn with, the heading's lines and text wrapped to a width."""

from __future__ import annotations

import os
from typing import Any

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

_app: Any = None
_families: dict[str, str] = {}


def start_gui() -> None:
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


def font(px: int, bold: bool = False, condensed: bool = False) -> Any:
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


def header_height(header: ReportHeader, lines: tuple[str, str] | None = None) -> int:
    event, when = lines or header_lines(header)
    return 20 + 48 + (40 if event else 0) + (38 if when else 0) + 16


def wrap(text: str, px: int = SMALL_PX, room: int = WIDTH - 2 * MARGIN) -> list[str]:
    """The note's lines at ``px``: broken between words, none wider than ``room``."""
    from PySide6.QtGui import QFontMetrics

    fm = QFontMetrics(font(px))
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
