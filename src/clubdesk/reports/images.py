"""Images to share in the club's group chat: tables, and the elimination bracket as a tree, drawn
with Qt's QPainter on a QImage.

Every image is 1080 px wide and at most 1350 px tall (a phone's 4:5 portrait); a long list is split into
numbered images ("1/3"), a big bracket into pieces of at most three rounds. The text is DejaVu Sans
(ğ ş ı İ ñ), never smaller than 28 px. Each image carries the club's name and logo, the event, the round
and the date. No database here: the service hands over :class:`Sheet` objects (and the bracket's plain
:class:`BracketData`) filled from the same report data as the PDFs (``services/publishing/``). The PNG files
are encoded here (:func:`png_bytes`), each while the next image is painted.
"""

from __future__ import annotations

import struct
import sys
import zlib
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from clubdesk.reports.bracket_image import Tree, draw_tile
from clubdesk.reports.data import ReportHeader
from clubdesk.reports.image_canvas import (
    ACCENT,
    HEAD_H,
    INK,
    MARGIN,
    MAX_HEIGHT,
    ROW_H,
    SMALL_PX,
    TEXT_PX,
    TITLE_PX,
    WIDTH,
    ZEBRA,
    font,
    header_height,
    header_lines,
    start_gui,
    wrap,
)

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


# PySide6 6.12 on Python 3.11 takes one reference from None on every call of a method returning void
# (QPainter.setPen, fillRect, drawLine...): thousands per image, until the interpreter aborts
# ("none_dealloc", at the latest when it exits). Each image gives back what it took, in None's own count
# (None lives as long as the interpreter; from Python 3.12 on it is immortal and needs nothing).
_CUSHION = 1_000_000


def _give_back_none(taken: int) -> None:
    if taken > 0 and sys.version_info < (3, 12):
        import ctypes

        ctypes.c_ssize_t.from_address(id(None)).value += taken


def _widths(columns: Sequence[Column], room: int) -> list[int]:
    """Fixed columns as wide as asked and at least as wide as their heading; the rest by weight."""
    from PySide6.QtGui import QFontMetrics

    fm = QFontMetrics(font(SMALL_PX, bold=True, condensed=True))
    need = [max(c.width, fm.horizontalAdvance(c.title) + 16) if c.width else 0 for c in columns]
    fixed = sum(need)
    weights = sum(c.weight for c in columns if not c.width) or 1.0
    free = max(0, room - fixed)
    out = [n if c.width else int(free * c.weight / weights) for c, n in zip(columns, need, strict=True)]
    out[-1] += room - sum(out)
    return out


def _note_lines(sheet: Sheet | Tree) -> list[str]:
    return [line for note in sheet.notes for line in wrap(note)]


TILE_GAP = 16


def _tree_pages(top: int, tree: Tree) -> list[tuple[Tree, int, int, bool]]:
    """Consecutive tiles packed into images: (tree, first tile, last tile + 1, is its last part)."""
    notes = _note_lines(tree)
    notes_h = len(notes) * 40 + (12 if notes else 0)
    room = MAX_HEIGHT - top - 56
    out: list[tuple[Tree, int, int, bool]] = []
    start = 0
    n = len(tree.tiles)
    while start < n or not out:
        used = 0
        end = start
        while end < n and (end == start or used + TILE_GAP + tree.tiles[end].height <= room):
            used += tree.tiles[end].height + (TILE_GAP if end > start else 0)
            end += 1
        if end >= n and used + notes_h > room and end - start > 1:
            end -= 1
        out.append((tree, start, end, end >= n))
        start = end
        if start >= n:
            break
    return out


def _part_height(top: int, part: tuple[Any, int, int, bool]) -> int:
    item, a, b, last = part
    if isinstance(item, Tree):
        body = sum(t.height for t in item.tiles[a:b]) + TILE_GAP * max(0, b - a - 1)
    else:
        body = HEAD_H + (b - a) * ROW_H
    notes = _note_lines(item) if last else []
    return min(MAX_HEIGHT, top + body + (len(notes) * 40 + 12 if notes else 0) + 56)


def paginate(
    header: ReportHeader, sheets: Sequence[Sheet | Tree], lines: tuple[str, str] | None = None
) -> list[tuple[Any, int, int, bool]]:
    """(sheet, first row, last row + 1, is its last part) per image: as many rows as 1350 px hold; for a
    :class:`Tree`, (tree, first tile, last tile + 1, is its last part)."""
    start_gui()
    top = header_height(header, lines) + TITLE_PX + 24 + HEAD_H
    footer = 56
    out: list[tuple[Any, int, int, bool]] = []
    for sheet in sheets:
        if isinstance(sheet, Tree):
            out.extend(_tree_pages(top - HEAD_H, sheet))
            continue
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


def _draw_table(p: Any, sheet: Sheet, a: int, b: int, y: int) -> int:
    """The column heads and rows ``a``..``b`` of ``sheet`` from ``y`` down; the y under the table."""
    from PySide6.QtCore import QRect, QRectF, Qt
    from PySide6.QtGui import QColor, QFontMetrics, QPen

    rows = sheet.rows[a:b]
    widths = _widths(sheet.columns, WIDTH - 2 * MARGIN)
    p.fillRect(QRectF(MARGIN, y, WIDTH - 2 * MARGIN, HEAD_H), QColor(ACCENT))
    hf = font(SMALL_PX, bold=True, condensed=True)
    p.setFont(hf)
    p.setPen(QColor("white"))
    cx = MARGIN
    for col, w in zip(sheet.columns, widths, strict=True):
        shown = QFontMetrics(hf).elidedText(col.title, Qt.TextElideMode.ElideRight, w - 12)
        p.drawText(
            QRect(cx + 6, y, w - 12, HEAD_H), int(_ALIGN[col.align] | Qt.AlignmentFlag.AlignVCenter), shown
        )
        cx += w
    y += HEAD_H
    bf = font(TEXT_PX, condensed=True)
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
                QRect(cx + 6, y, w - 12, ROW_H), int(_ALIGN[col.align] | Qt.AlignmentFlag.AlignVCenter), shown
            )
            cx += w
        y += ROW_H
        if a + i in sheet.rules_after:
            p.setPen(QPen(QColor(ACCENT), 3))
            p.drawLine(MARGIN, y, WIDTH - MARGIN, y)
    return y


_ALIGN: dict[str, Any] = {}


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)


def png_bytes(rows: bytes, width: int, height: int) -> bytes:
    """An 8-bit RGB PNG of ``rows`` (``height`` rows of ``width`` × 3 bytes, each after its filter byte 0).

    Written here rather than by ``QImage.save``: Qt's libpng tries every row filter on every row, which was
    most of the time of a whole share (target: 3 s); unfiltered rows with zlib's fastest level
    take about a third of the time and, on these flat images, give a smaller file than Qt's."""
    head = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, truecolour, no interlace
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", head)
        + _chunk(b"IDAT", zlib.compress(rows, 1))
        + _chunk(b"IEND", b"")
    )


def _png_rows(img: Any) -> tuple[bytes, int, int]:
    """The image's rows for :func:`png_bytes` (a QImage is reentrant: the writer thread reads its own)."""
    from PySide6.QtGui import QImage

    rgb = img.convertToFormat(QImage.Format.Format_RGB888)
    w, h, bpl = rgb.width(), rgb.height(), rgb.bytesPerLine()
    bits = memoryview(rgb.constBits()).cast("B")
    return b"".join(b"\0" + bits[i * bpl : i * bpl + 3 * w] for i in range(h)), w, h


def _write_png(path: Path, img: Any) -> None:
    path.write_bytes(png_bytes(*_png_rows(img)))


def render(header: ReportHeader, sheets: Sequence[Sheet | Tree], out_dir: Path, stem: str) -> list[Path]:
    """Draw the sheets (tables or bracket trees) as PNG images ``{stem}-01.png``... in ``out_dir``; the
    paths, in order."""
    start_gui()
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    if not _ALIGN:
        _ALIGN.update(
            l=Qt.AlignmentFlag.AlignLeft, r=Qt.AlignmentFlag.AlignRight, c=Qt.AlignmentFlag.AlignHCenter
        )
    event, when = header_lines(header)
    top_h = header_height(header, (event, when))
    parts = paginate(header, sheets, (event, when))
    total = len(parts)
    paths: list[Path] = []
    logo = QImage(header.logo_path) if header.logo_path and Path(header.logo_path).is_file() else None
    if sys.getrefcount(None) < _CUSHION:
        _give_back_none(_CUSHION)  # room for one image's calls before it gives them back
    # one image is compressed and written (zlib lets go of the interpreter) while the next is painted
    pool = ThreadPoolExecutor(max_workers=1)
    writes: list[Future[None]] = []
    try:
        for k, part in enumerate(parts, start=1):
            paths.append(_paint(header, part, k, total, top_h, logo, out_dir, stem, pool, writes))
        for w in writes:
            w.result()  # an OSError of a write surfaces here
    finally:
        pool.shutdown(wait=True)
    return paths


def _paint(
    header: ReportHeader,
    part: tuple[Any, int, int, bool],
    k: int,
    total: int,
    top_h: int,
    logo: Any,
    out_dir: Path,
    stem: str,
    pool: ThreadPoolExecutor,
    writes: list[Future[None]],
) -> Path:
    """Paint image ``k`` of ``total`` and hand its PNG to ``pool``; its path."""
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QColor, QFontMetrics, QImage, QPainter, QPen

    event, when = header_lines(header)
    sheet, a, b, last = part
    before = sys.getrefcount(None)
    height = _part_height(top_h + TITLE_PX + 24, part)
    notes = _note_lines(sheet) if last else []
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
        f = font(px, bold)
        p.setFont(f)
        p.setPen(QColor(color))
        shown = QFontMetrics(f).elidedText(s, Qt.TextElideMode.ElideRight, WIDTH - MARGIN - left)
        p.drawText(QRect(left, top, WIDTH - MARGIN - left, px + 14), int(Qt.AlignmentFlag.AlignLeft), shown)

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
    if isinstance(sheet, Tree):
        for tile in sheet.tiles[a:b]:
            draw_tile(p, tile, y)
            y += tile.height + TILE_GAP
        y -= TILE_GAP
    else:
        y = _draw_table(p, sheet, a, b, y)
    if notes:
        y += 12
        for note in notes:
            text(SMALL_PX, note, y, color="#333333", left=MARGIN)
            y += 40
    # the footer: ClubDesk and the image's number
    ff = font(SMALL_PX)
    p.setFont(ff)
    p.setPen(QColor("#555555"))
    p.drawText(
        QRect(MARGIN, height - 50, WIDTH - 2 * MARGIN, 40),
        int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
        f"{k}/{total}",
    )
    p.end()
    path = out_dir / f"{stem}-{k:02d}.png"
    _give_back_none(before - sys.getrefcount(None))
    writes.append(pool.submit(_write_png, path, img))  # painted: nothing else touches img now
    return path
