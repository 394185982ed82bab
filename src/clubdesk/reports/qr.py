"""QR codes with ReportLab's own barcode module, and the payloads of CONTRACTS.md §4."""

from __future__ import annotations

from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing

from clubdesk.reports.fonts import SANS, register_fonts


def table_payload(event: str | int, round_no: int, table: int) -> str:
    """What a score sheet's QR encodes: ``CLUBDESK:TABLE:<event>:<round>:<table>``."""
    return f"CLUBDESK:TABLE:{event}:{round_no}:{table}"


def checkin_payload(event: str | int, code: str) -> str:
    """What a receipt's QR encodes: ``CLUBDESK:CHECKIN:<event>:<code>``."""
    return f"CLUBDESK:CHECKIN:{event}:{code}"


def qr_drawing(payload: str, size: float = 72.0) -> Drawing:
    """A square drawing of ``size`` points holding the QR code of ``payload`` (quiet zone included)."""
    widget = QrCodeWidget(payload, barLevel="M")
    x1, y1, x2, y2 = widget.getBounds()
    w, h = x2 - x1, y2 - y1
    drawing = Drawing(size, size, transform=[size / w, 0, 0, size / h, -x1 * size / w, -y1 * size / h])
    drawing.add(widget)
    register_fonts()
    drawing.initialFontName = SANS  # the renderer's default state would otherwise name Helvetica
    return drawing
