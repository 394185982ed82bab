"""The desk card: one A4 page with the keyboard shortcuts, screen by screen, in one language.

The rows come from :func:`clubdesk.ui.shell.keymap.collect` (the keys the live window binds); this module only
lays them out, in DejaVu Sans, two columns. Keys doing the same thing share a row ("Return / Enter").
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen import canvas

from clubdesk.reports.fonts import SANS, SANS_BOLD, register_fonts

KEY_SEPARATOR = " / "


def write_desk_card(
    path: Path,
    title: str,
    subtitle: str,
    groups: Sequence[tuple[str, Sequence[tuple[Sequence[str], str]]]],
) -> Path:
    """``groups``: (heading, rows); a row is (keys, what they do). Everything on one page: the type gets
    smaller until it fits."""
    register_fonts()
    width, height = A4
    margin = 36.0
    column_w = (width - 2 * margin - 18) / 2
    lines = sum(len(rows) * 1.3 + 2 for _h, rows in groups)
    size = 9.5
    while size > 6 and lines * size * 1.45 > 2 * (height - 2 * margin - 50):
        size -= 0.5
    lead = size * 1.45
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setTitle(title)
    c.setFont(SANS_BOLD, 16)
    c.drawString(margin, height - margin - 8, title)
    c.setFont(SANS, 9)
    c.drawString(margin, height - margin - 24, subtitle)
    top = height - margin - 50
    x, y = margin, top
    key_w = 8 + max(
        (
            c.stringWidth(KEY_SEPARATOR.join(keys), SANS_BOLD, size)
            for _h, rows in groups
            for keys, _t in rows
        ),
        default=0.0,
    )
    text_w = column_w - key_w - 6
    for heading, rows in groups:
        wrapped = [(keys, simpleSplit(text, SANS, size, text_w) or [""]) for keys, text in rows]
        need = (sum(len(w) for _k, w in wrapped) + 2) * lead
        if y - need < margin and x == margin:
            x, y = margin + column_w + 18, top
        c.setFont(SANS_BOLD, size + 1)
        c.drawString(x, y, heading)
        y -= lead * 1.1
        for keys, text_lines in wrapped:
            c.setFont(SANS_BOLD, size)
            c.drawString(x + 4, y, KEY_SEPARATOR.join(keys))
            c.setFont(SANS, size)
            for line in text_lines:
                c.drawString(x + 4 + key_w, y, line)
                y -= lead
        y -= lead * 0.6
    c.showPage()
    c.save()
    return path
