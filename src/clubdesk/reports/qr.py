"""QR codes (``segno``: twice as fast as ReportLab's pure-Python encoder, which stays the fallback),
and the payloads of CONTRACTS.md §4."""

from __future__ import annotations

import functools
import itertools

from reportlab.graphics.barcode import qrencoder
from reportlab.lib.rl_accel import fp_str
from reportlab.platypus import Flowable


def table_payload(event: str | int, round_no: int, table: int) -> str:
    """What a score sheet's QR encodes: ``CLUBDESK:TABLE:<event>:<round>:<table>``."""
    return f"CLUBDESK:TABLE:{event}:{round_no}:{table}"


def checkin_payload(event: str | int, code: str) -> str:
    """What a receipt's QR encodes: ``CLUBDESK:CHECKIN:<event>:<code>``."""
    return f"CLUBDESK:CHECKIN:{event}:{code}"


class QrFlowable(Flowable):  # type: ignore[misc]
    """A square QR code of ``size`` points (quiet zone of 4 modules included).

    The code is encoded once and drawn as one filled path of horizontal runs; ReportLab's own widget encodes
    twice (bounds, then drawing) and builds a shape tree, which made 64 score sheets take seconds.
    """

    BORDER = 4

    def __init__(self, payload: str, size: float) -> None:
        super().__init__()
        self.payload = payload
        self.width = self.height = size

    @property
    def modules(self) -> list[list[bool]]:
        return [list(row) for row in _matrix(self.payload)]

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 - ReportLab API
        return self.width, self.height

    def draw(self) -> None:
        path = self.canv.beginPath()
        rects = _rects(self.payload, self.width, self.BORDER)
        if rects:  # a path opens with "n", as PDFPathObject's first operator writes it
            path._code.extend(["n", *rects])
        canvas = self.canv
        canvas.saveState()
        canvas.setFillColorRGB(0, 0, 0)
        canvas.drawPath(path, stroke=0, fill=1)
        canvas.restoreState()


@functools.lru_cache(maxsize=1024)
def _matrix(payload: str) -> tuple[tuple[bool, ...], ...]:
    """A payload's modules, encoded once per process (a round's sheets are printed blank, then
    filled, and again after a correction, each time with the same table codes)."""
    return tuple(tuple(row) for row in _modules(payload))


@functools.lru_cache(maxsize=1024)
def _rects(payload: str, size: float, border: int) -> tuple[str, ...]:
    """The code's dark runs as "x y w h re" path operators (as PDFPathObject.rect writes them), for a
    code of ``size`` points with a quiet zone of ``border`` modules."""
    modules = _matrix(payload)
    box = size / (len(modules) + 2 * border)
    rects = []
    for r, row in enumerate(modules):
        y = size - (r + border + 1) * box
        c = 0
        for dark, run in itertools.groupby(row):
            n = sum(1 for _ in run)
            if dark:
                rects.append(f"{fp_str((c + border) * box, y, n * box, box)} re")
            c += n
    return tuple(rects)


def _modules(payload: str) -> list[list[bool]]:
    """The dark modules of ``payload``'s QR code (error correction M, never a micro QR), row by row."""
    try:
        import segno
    except ImportError:  # pragma: no cover - segno is a dependency; ReportLab's encoder gives the same code
        code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
        code.addData(payload)
        code.make()
        return [[bool(m) for m in row] for row in code.modules]
    # one fixed mask: segno otherwise scores all eight on every code, most of its time; any
    # mask is valid for readers (ISO/IEC 18004 §7.8), the tests decode every printed code
    qr = segno.make_qr(payload, error="m", boost_error=False, mask=2)
    return [[bool(m) for m in row] for row in qr.matrix]


def qr_drawing(payload: str, size: float = 72.0) -> QrFlowable:
    """A square flowable of ``size`` points holding the QR code of ``payload`` (quiet zone included)."""
    return QrFlowable(payload, size)
