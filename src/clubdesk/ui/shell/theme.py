"""Colours that read in light and dark system palettes, and icons that exist.

The screens write their colours as the light-theme hex values they were designed with (``#b00020`` for an
error ...); :func:`themed` turns a style sheet into the same sheet for the palette in use: on a dark palette
each known light-theme colour becomes its readable dark-theme counterpart, and the pale backgrounds become
dark ones. :func:`is_dark` reads the application palette. :func:`icon` loads an SVG from
``resources/icons`` (no emoji: a lock drawn by a font that lacks it shows as "▯"). :func:`load_fonts` adds the
bundled DejaVu fonts, so ✔, ✗, – and the Turkish and Spanish letters always have a glyph.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from PySide6.QtGui import QColor, QFontDatabase, QGuiApplication, QIcon, QPalette

from clubdesk.ui.shell.none_refs import kept_color

RESOURCES = Path(__file__).resolve().parents[2] / "resources"

# light-theme colour -> its dark-theme counterpart (text colours get lighter, pale backgrounds darker)
DARK: dict[str, str] = {
    "#b00020": "#ff8a80",  # error text
    "#1e3a8a": "#93c5fd",  # information, hints
    "#14532d": "#86efac",  # done, saved
    "#1b5e20": "#86efac",
    "#92400e": "#fcd34d",  # warnings
    "#8a5a00": "#fcd34d",
    "#6b7280": "#9ca3af",  # muted
    "#666666": "#a3a3a3",
    "#666": "#a3a3a3",
    "#444444": "#cbd5e1",
    "#444": "#cbd5e1",
    "#888888": "#9ca3af",
    "#777777": "#a3a3a3",
    "#fff4d6": "#4a3b0a",  # pale backgrounds
    "#fef3c7": "#4a3b0a",
    "#fdecea": "#4c1d1d",
    "#e8f5e9": "#14331f",
    "#f3f4f6": "#2b2f36",
}
_HEX = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b")


def is_dark(palette: QPalette | None = None) -> bool:
    """The palette's window is dark (its text light): a dark system theme."""
    if palette is None:
        app = QGuiApplication.instance()
        if not isinstance(app, QGuiApplication):
            return False
        palette = app.palette()
    window = palette.color(QPalette.ColorRole.Window)
    text = palette.color(QPalette.ColorRole.WindowText)
    return window.lightness() < text.lightness()


def themed(css: str, palette: QPalette | None = None) -> str:
    """``css`` for the palette in use: unchanged on a light palette, dark-theme colours on a dark one."""
    if not is_dark(palette):
        return css
    return _HEX.sub(lambda m: DARK.get(m.group(0).lower(), m.group(0)), css)


def color(hex_light: str, palette: QPalette | None = None) -> QColor:
    """A colour of the light design, as the palette in use needs it (built once: never change it)."""
    return kept_color(themed(hex_light, palette))


def contrast(a: QColor, b: QColor) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""

    def lum(c: QColor) -> float:
        def ch(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF())

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@cache
def icon(name: str) -> QIcon:
    """An icon from ``resources/icons/<name>.svg``."""
    return QIcon(str(RESOURCES / "icons" / f"{name}.svg"))


def load_fonts() -> list[str]:
    """Add the bundled fonts to the application (glyph fallback for ✔, –, ı, ş, ñ …); their families."""
    families: list[str] = []
    for path in sorted((RESOURCES / "fonts").glob("*.ttf")):
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id >= 0:
            families += QFontDatabase.applicationFontFamilies(font_id)
    return families
