"""DejaVu Sans for every PDF (Helvetica cannot print ğ ş ı İ); registered once, embedded by ReportLab.

The fonts and their licence (``LICENSE-DejaVu.txt``) ship in ``clubdesk/resources/fonts/``.
"""

from __future__ import annotations

from pathlib import Path

import clubdesk

SANS = "DejaVuSans"
SANS_BOLD = "DejaVuSans-Bold"
COND = "DejaVuSansCondensed"
COND_BOLD = "DejaVuSansCondensed-Bold"

_FILES = {
    SANS: "DejaVuSans.ttf",
    SANS_BOLD: "DejaVuSans-Bold.ttf",
    COND: "DejaVuSansCondensed.ttf",
    COND_BOLD: "DejaVuSansCondensed-Bold.ttf",
}

_registered = False


def fonts_dir() -> Path:
    """The folder holding the DejaVu TTF files and their licence."""
    return Path(clubdesk.__file__).parent / "resources" / "fonts"


def register_fonts() -> None:
    """Register the four DejaVu faces (and the bold family mapping for ``<b>`` in paragraphs)."""
    global _registered
    if _registered:
        return
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, file in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(fonts_dir() / file)))
    for family, regular, bold in ((SANS, SANS, SANS_BOLD), (COND, COND, COND_BOLD)):
        addMapping(family, 0, 0, regular)
        addMapping(family, 1, 0, bold)
        addMapping(family, 0, 1, regular)
        addMapping(family, 1, 1, bold)
    _registered = True
