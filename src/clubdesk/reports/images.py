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

import os
import struct
import sys
import zlib
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from clubdesk.i18n import _
from clubdesk.reports.data import BracketData, BracketMatchData, ReportHeader
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


def _note_lines(sheet: Sheet | Tree) -> list[str]:
    return [line for note in sheet.notes for line in wrap(note)]


# ------------------------------------------------------------------------------------------ the bracket tree
TREE_COLS = 3  # rounds side by side on one image: names keep 28 px
BOX_ROW = 46  # one side of a match box
BOX_H = 2 * BOX_ROW
SLOT = BOX_H + 26  # height of one first-column match
GAP_X = 52
SCORE_W = 58  # the score column
ID_W = 84  # in its place while a match is not played: its id ("W2-1", "GF2"), which labels name
COL_HEAD = 46
TILE_HEAD = 50
CAPTION_H = 40  # room for a caption above each box of a tile that has one
ROOM = WIDTH - 2 * MARGIN


@dataclass(frozen=True)
class TreeBox:
    """One match of the bracket placed on a tile: column, centre (px from the tile's top), its two sides."""

    id: str
    col: int
    y: float
    sides: tuple[str, str]
    known: tuple[bool, bool]  # a name (False: a label such as "winner of W1-3" or "bye", drawn grey)
    score: tuple[str, str]
    winner: int | None
    feeds: tuple[str, int] | None = None  # (match id on this tile, side 0/1) its winner goes to
    caption: str = ""  # above the box: "Third place", "Winners' bracket" (the finals' feeders)


@dataclass(frozen=True)
class Tile:
    """A piece of the tree on one image: some rounds (columns) of one bracket, a few sub-trees high."""

    heading: str
    columns: tuple[str, ...]  # the column heads ("Round 1", "Final", "Champion")
    boxes: tuple[TreeBox, ...]
    height: int
    champion: tuple[str, str] | None = None  # (the final's id, the champion's name) in an extra column


@dataclass(frozen=True)
class Tree:
    """An elimination bracket drawn as a tree (rounds as columns, lines from each winner to the next
    round), split over as many images as its tiles need."""

    title: str
    tiles: tuple[Tile, ...]
    notes: tuple[str, ...] = ()


def _feeders(m: BracketMatchData, pool: Sequence[BracketMatchData]) -> list[BracketMatchData]:
    order = {"W": 0, "L": 1, "GF": 2, "GF2": 3, "3P": 4}
    return sorted(
        (f for f in pool if f.next_match == m.id), key=lambda f: (order.get(f.bracket, 9), f.round, f.number)
    )


def _place(
    roots: Sequence[BracketMatchData], pool: Sequence[BracketMatchData]
) -> tuple[dict[str, float], int]:
    """Classic tree layout: the leaves one slot each, top to bottom; a match midway between its feeders.
    The slot (0.5, 1.5...) of every match of ``pool`` reached from ``roots``; the number of slots."""
    ys: dict[str, float] = {}
    count = 0

    def visit(m: BracketMatchData) -> float:
        nonlocal count
        fs = [f for f in _feeders(m, pool) if f.id not in ys]
        if not fs:
            ys[m.id] = count + 0.5
            count += 1
        else:
            got = [visit(f) for f in fs]
            ys[m.id] = sum(got) / len(got)
        return ys[m.id]

    for r in roots:
        if r.id not in ys:
            visit(r)
    return ys, count


def _feeds_side(m: BracketMatchData, target: BracketMatchData, feeders: Sequence[BracketMatchData]) -> int:
    """Which side of ``target`` the winner of ``m`` takes."""
    won = m.sides[m.winner] if m.winner is not None else None
    for k in (0, 1):
        if (won is not None and target.sides[k] == won) or m.id in target.labels[k].split():
            return k
    return 0 if len(feeders) < 2 or feeders[0].id == m.id else 1


def bracket_tree(bd: BracketData, header: ReportHeader, title: str) -> Tree:
    """The tiles of the bracket (rules T4c, T4d): the winners' bracket, then (double elimination) the
    losers' bracket and the final(s). At most :data:`TREE_COLS` rounds per tile; consecutive tiles of a
    bracket share a round, so that every line from a winner reaches its next match on one of them."""
    _gui()
    ms = list(bd.matches)
    wins = [m for m in ms if m.bracket == "W"]
    w_last = max((m.round for m in wins), default=1)
    sections: list[tuple[str, list[BracketMatchData], dict[str, int], dict[int, str]]] = []
    if bd.kind == "double":
        loss = [m for m in ms if m.bracket == "L"]
        l_last = max((m.round for m in loss), default=0)
        sections.append(
            (
                _("Winners' bracket"),
                wins,
                {m.id: m.round - 1 for m in wins},
                {r - 1: _("Round {n}").format(n=r) for r in range(1, w_last + 1)},
            )
        )
        if loss:
            sections.append(
                (
                    _("Losers' bracket"),
                    loss,
                    {m.id: m.round - 1 for m in loss},
                    {r - 1: _("Round {n}").format(n=r) for r in range(1, l_last + 1)},
                )
            )
        finals = [m for m in ms if m.bracket in ("GF", "GF2")]
        if finals:
            fed = {m.id for m in ms if m.next_match in {f.id for f in finals}}
            into = [m for m in ms if m.id in fed and m.bracket in ("W", "L")]
            cols = {m.id: 0 for m in into} | {m.id: 1 if m.bracket == "GF" else 2 for m in finals}
            heads = {0: "", 1: _("Grand final")} | (
                {2: _("Grand final, reset")} if any(m.bracket == "GF2" for m in finals) else {}
            )
            sections.append((_("Grand final"), into + finals, cols, heads))
    else:
        pool = wins + [m for m in ms if m.bracket == "3P"]
        heads = {r - 1: _("Round {n}").format(n=r) for r in range(1, w_last)} | {w_last - 1: _("Final")}
        sections.append(
            ("", pool, {m.id: (m.round - 1 if m.bracket == "W" else w_last - 1) for m in pool}, heads)
        )
    the_final = next((m for m in ms if m.bracket == "GF2"), None) or next(
        (m for m in ms if m.bracket == "GF"), None
    )
    if the_final is None:
        the_final = next((m for m in wins if m.round == w_last), None)
    # captions above a box: the third-place match, and the two finalists' last matches in the finals
    finals_caps = {m.id: _("Winners' bracket") for m in wins if m.round == w_last}
    finals_caps |= {m.id: _("Losers' bracket") for m in ms if m.bracket == "L" and m.next_match == "GF"}
    top = _header_height(header) + TITLE_PX + 24
    per_tile = max(1, (MAX_HEIGHT - top - 56 - TILE_HEAD - COL_HEAD) // SLOT)
    rank = {"W": 0, "L": 1, "GF": 2, "GF2": 3, "3P": 4}
    tiles: list[Tile] = []
    notes: list[str] = []
    for heading, pool, col_of, heads in sections:
        if bd.kind == "double":
            captions = finals_caps if any(m.bracket == "GF" for m in pool) else {}
        else:
            captions = {m.id: _("Third place") for m in pool if m.bracket == "3P"}
        n = max(col_of.values(), default=0) + 1
        starts = [0] if n <= TREE_COLS else list(range(0, n - 1, TREE_COLS - 1))
        everything = sorted(pool, key=lambda m: (-col_of[m.id], rank.get(m.bracket, 9), m.number))
        order, _n = _place([m for m in everything if m.next_match not in col_of], pool)
        for s in starts:
            group = [m for m in pool if s <= col_of[m.id] < s + TREE_COLS]
            ids = {m.id for m in group}
            roots = sorted((m for m in group if m.next_match not in ids), key=lambda m: order.get(m.id, 0))
            # sub-trees packed into bands of at most ``per_tile`` slots
            bands: list[list[BracketMatchData]] = []
            used = 0
            for r in roots:
                _ys, need = _place([r], group)
                if bands and used + need <= per_tile:
                    bands[-1].append(r)
                    used += need
                else:
                    bands.append([r])
                    used = need
            last_cols = max(col_of[m.id] for m in group) - s + 1
            for band in bands:
                ys, slots = _place(band, group)
                members = [m for m in group if m.id in ys]
                captioned = any(captions.get(m.id) for m in members)
                slot = SLOT + (CAPTION_H if captioned else 0)
                if slots > per_tile:
                    slot = max(BOX_H + 6, (per_tile * SLOT) // slots)
                champ = None
                if the_final is not None and the_final.id in ys and the_final.next_match not in ys:
                    if last_cols < TREE_COLS:
                        champ = (the_final.id, bd.champion or "")
                    elif bd.champion:
                        notes.append(_("Champion: {name}").format(name=bd.champion))
                boxes = []
                feeds_of: dict[str, tuple[str, int]] = {}
                for m in members:
                    tgt = next((t for t in members if t.id == m.next_match), None)
                    if tgt is not None:
                        feeds_of[m.id] = (tgt.id, _feeds_side(m, tgt, _feeders(tgt, members)))
                drawn = set(feeds_of.values())  # sides a line comes into: no "winner of W1-2" needed there
                for m in members:
                    feeds = feeds_of.get(m.id)
                    boxes.append(
                        TreeBox(
                            id=m.id,
                            col=col_of[m.id] - s,
                            y=(TILE_HEAD if heading else 0)
                            + COL_HEAD
                            + ys[m.id] * slot
                            + (CAPTION_H // 2 if captioned else 0),
                            sides=tuple(
                                m.sides[k]
                                if m.sides[k] is not None
                                else ("" if (m.id, k) in drawn else (m.labels[k] or "—"))
                                for k in (0, 1)
                            ),  # type: ignore[arg-type]
                            known=(m.sides[0] is not None, m.sides[1] is not None),
                            score=m.score,
                            winner=m.winner,
                            feeds=feeds,
                            caption=captions.get(m.id, ""),
                        )
                    )
                columns = tuple(heads.get(c, "") for c in range(s, s + last_cols))
                if champ is not None:
                    columns += (_("Champion"),)
                tiles.append(
                    Tile(
                        heading=heading,
                        columns=columns,
                        boxes=tuple(boxes),
                        height=(TILE_HEAD if heading else 0) + COL_HEAD + slots * slot,
                        champion=champ,
                    )
                )
    return Tree(title=title, tiles=tuple(tiles), notes=tuple(dict.fromkeys(notes)))


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
    _gui()
    top = _header_height(header, lines) + TITLE_PX + 24 + HEAD_H
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
    hf = _font(SMALL_PX, bold=True, condensed=True)
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
                QRect(cx + 6, y, w - 12, ROW_H), int(_ALIGN[col.align] | Qt.AlignmentFlag.AlignVCenter), shown
            )
            cx += w
        y += ROW_H
        if a + i in sheet.rules_after:
            p.setPen(QPen(QColor(ACCENT), 3))
            p.drawLine(MARGIN, y, WIDTH - MARGIN, y)
    return y


def _draw_tile(p: Any, tile: Tile, y0: int) -> None:
    """One piece of the bracket tree: column heads, the match boxes, the lines from each winner onwards."""
    from PySide6.QtCore import QPointF, QRect, QRectF, Qt
    from PySide6.QtGui import QColor, QFontMetrics, QPen

    ncols = max(1, len(tile.columns))
    bw = min(440, (ROOM - (ncols - 1) * GAP_X) // ncols)

    def left(col: int) -> int:
        return MARGIN + col * (bw + GAP_X)

    y = y0
    if tile.heading:
        p.setFont(_font(SMALL_PX + 4, bold=True))
        p.setPen(QColor(ACCENT))
        p.drawText(QRect(MARGIN, y, ROOM, TILE_HEAD - 6), int(Qt.AlignmentFlag.AlignLeft), tile.heading)
        y += TILE_HEAD
    hf = _font(SMALL_PX, bold=True, condensed=True)
    p.setFont(hf)
    p.setPen(QColor(ACCENT))
    for c, head in enumerate(tile.columns):
        shown = QFontMetrics(hf).elidedText(head, Qt.TextElideMode.ElideRight, bw)
        p.drawText(QRect(left(c), y, bw, COL_HEAD - 8), int(Qt.AlignmentFlag.AlignLeft), shown)
    where = {b.id: b for b in tile.boxes}
    # the lines first, under the boxes: from the right of a match to the side its winner takes
    p.setPen(QPen(QColor(ACCENT), 3))
    for box in tile.boxes:
        if box.feeds is None or box.feeds[0] not in where:
            continue
        tgt = where[box.feeds[0]]
        x1, y1 = left(box.col) + bw, y0 + box.y
        x2 = left(tgt.col)
        y2 = y0 + tgt.y + (-BOX_ROW / 2 if box.feeds[1] == 0 else BOX_ROW / 2)
        mid = x2 - GAP_X / 2
        p.drawPolyline([QPointF(x1, y1), QPointF(mid, y1), QPointF(mid, y2), QPointF(x2, y2)])
    name_f = _font(SMALL_PX, condensed=True)
    bold_f = _font(SMALL_PX, bold=True, condensed=True)
    id_f = _font(SMALL_PX, condensed=True)
    for box in tile.boxes:
        x, top = left(box.col), int(y0 + box.y - BOX_H / 2)
        if box.caption:
            p.setFont(bold_f)
            p.setPen(QColor(ACCENT))
            p.drawText(
                QRect(x, top - CAPTION_H, bw, CAPTION_H - 4),
                int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom),
                box.caption,
            )
        p.fillRect(QRectF(x, top, bw, BOX_H), QColor("white"))
        if box.winner is not None:
            p.fillRect(QRectF(x, top + box.winner * BOX_ROW, bw, BOX_ROW), QColor("#dbe7f3"))
        p.setPen(QPen(QColor(INK), 2))
        p.drawRect(QRectF(x, top, bw, BOX_H))
        p.setPen(QPen(QColor("#9aa9b8"), 1))
        p.drawLine(x, top + BOX_ROW, x + bw, top + BOX_ROW)
        has_score = any(box.score)
        cell_w = SCORE_W if has_score else ID_W
        p.drawLine(x + bw - cell_w, top, x + bw - cell_w, top + BOX_H)
        if not has_score:  # not played yet: its id, which the labels of later matches name ("loser of W2-1")
            p.setFont(id_f)
            p.setPen(QColor("#666666"))
            cell = QRect(x + bw - cell_w, top, cell_w, BOX_H)
            shown = QFontMetrics(id_f).elidedText(box.id, Qt.TextElideMode.ElideRight, cell_w - 2)
            p.drawText(cell, int(Qt.AlignmentFlag.AlignCenter), shown)
        room = bw - 16 - cell_w
        for k in (0, 1):
            f = bold_f if box.winner == k else name_f
            p.setFont(f)
            p.setPen(QColor(INK if box.known[k] else "#666666"))
            shown = QFontMetrics(f).elidedText(box.sides[k], Qt.TextElideMode.ElideRight, room)
            row = QRect(x + 10, top + k * BOX_ROW, room, BOX_ROW)
            p.drawText(row, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown)
            if has_score:
                p.setPen(QColor(INK))
                cell = QRect(x + bw - SCORE_W, top + k * BOX_ROW, SCORE_W, BOX_ROW)
                p.drawText(cell, int(Qt.AlignmentFlag.AlignCenter), box.score[k])
    if tile.champion is not None and tile.champion[0] in where:
        final = where[tile.champion[0]]
        x1, cy = left(final.col) + bw, y0 + final.y
        x2 = left(ncols - 1)
        p.setPen(QPen(QColor(ACCENT), 3))
        p.drawLine(QPointF(x1, cy), QPointF(x2, cy))
        p.fillRect(QRectF(x2, cy - BOX_ROW / 2, bw, BOX_ROW), QColor("#dbe7f3"))
        p.setPen(QPen(QColor(ACCENT), 3))
        p.drawRect(QRectF(x2, cy - BOX_ROW / 2, bw, BOX_ROW))
        p.setFont(bold_f)
        p.setPen(QColor(INK))
        shown = QFontMetrics(bold_f).elidedText(tile.champion[1], Qt.TextElideMode.ElideRight, bw - 20)
        p.drawText(
            QRect(x2 + 10, int(cy - BOX_ROW / 2), bw - 20, BOX_ROW),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
            shown,
        )


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
    _gui()
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    if not _ALIGN:
        _ALIGN.update(
            l=Qt.AlignmentFlag.AlignLeft, r=Qt.AlignmentFlag.AlignRight, c=Qt.AlignmentFlag.AlignHCenter
        )
    event, when = header_lines(header)
    top_h = _header_height(header, (event, when))
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
        f = _font(px, bold)
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
            _draw_tile(p, tile, y)
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
    _give_back_none(before - sys.getrefcount(None))
    writes.append(pool.submit(_write_png, path, img))  # painted: nothing else touches img now
    return path
