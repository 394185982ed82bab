"""The elimination bracket as a tree to share: each match a box with its two sides and the score, lines from
the boxes that feed it, cut into tiles of at most three rounds that fit an image (:func:`bracket_tree`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from clubdesk.i18n import _
from clubdesk.reports.data import BracketData, BracketMatchData, ReportHeader
from clubdesk.reports.image_canvas import (
    ACCENT,
    INK,
    MARGIN,
    MAX_HEIGHT,
    SMALL_PX,
    TITLE_PX,
    WIDTH,
    font,
    header_height,
    start_gui,
)

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
    start_gui()
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
    top = header_height(header) + TITLE_PX + 24
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


def draw_tile(p: Any, tile: Tile, y0: int) -> None:
    """One piece of the bracket tree: column heads, the match boxes, the lines from each winner onwards."""
    from PySide6.QtCore import QPointF, QRect, QRectF, Qt
    from PySide6.QtGui import QColor, QFontMetrics, QPen

    ncols = max(1, len(tile.columns))
    bw = min(440, (ROOM - (ncols - 1) * GAP_X) // ncols)

    def left(col: int) -> int:
        return MARGIN + col * (bw + GAP_X)

    y = y0
    if tile.heading:
        p.setFont(font(SMALL_PX + 4, bold=True))
        p.setPen(QColor(ACCENT))
        p.drawText(QRect(MARGIN, y, ROOM, TILE_HEAD - 6), int(Qt.AlignmentFlag.AlignLeft), tile.heading)
        y += TILE_HEAD
    hf = font(SMALL_PX, bold=True, condensed=True)
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
    name_f = font(SMALL_PX, condensed=True)
    bold_f = font(SMALL_PX, bold=True, condensed=True)
    id_f = font(SMALL_PX, condensed=True)
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
