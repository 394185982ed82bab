"""Single and double elimination brackets drawn as a tree, from the pairing engine's plain bracket data
(``Bracket.to_data()``): winners' bracket on top, losers' bracket below, grand final(s) to the right.

Each match is a box with its id (W1-3, L2-1, GF), its two sides (a name, "bye", or where the side will come
from: "winner of W1-2"), the winner in bold on green; lines join a match to the one its winner goes to.
Keyboard: +/- zoom, 0 fits the whole bracket.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QKeyEvent, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import (
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.pairing.bracket import Bracket, SourceKind

BOX_W = 200.0
ROW_H = 22.0
HEAD_H = 16.0
BOX_H = HEAD_H + 2 * ROW_H
COL_GAP = 60.0
ROW_GAP = 14.0
SECTION_GAP = 50.0

WIN_BG = QColor("#d1fae5")
READY_BG = QColor("#dbeafe")
BOX_BG = QColor("#ffffff")
GREY = QColor("#6b7280")


@dataclass
class MatchBox:
    """What is drawn for one match (kept for tests and for the keyboard)."""

    id: str
    texts: tuple[str, str]
    winner: int | None  # 0 or 1: the side that won
    status: str
    rect: QRectF


class BracketView(QGraphicsView):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("bracketView")
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.boxes: dict[str, MatchBox] = {}
        self.bracket: Bracket | None = None

    # ------------------------------------------------------------------ public
    def set_bracket(
        self,
        data: Mapping[str, Any] | Bracket,
        names: Mapping[str, str] | None = None,
        tables: Mapping[str, int] | None = None,
    ) -> None:
        """Draw ``data`` (``Bracket.to_data()`` or a Bracket); ``names`` maps entrant ids to display names,
        ``tables`` match ids to the table they are played on now."""
        bracket = data if isinstance(data, Bracket) else Bracket.from_data(data)
        self.bracket = bracket
        names = dict(names or {})
        tables = dict(tables or {})
        scene = self.scene()
        scene.clear()
        self.boxes = {}
        positions = self._layout(bracket)
        for m in bracket.matches:
            pos = positions[m.id]
            self._draw_match(bracket, m.id, pos, names, tables.get(m.id))
        for m in bracket.matches:
            for i, src in enumerate(m.sources):
                if src.kind is SourceKind.WINNER and src.ref in self.boxes:
                    self._connect(self.boxes[src.ref].rect, self.boxes[m.id].rect, i)
        champion = bracket.champion()
        if champion is not None:
            last = max(self.boxes.values(), key=lambda b: b.rect.right())
            label = QGraphicsSimpleTextItem(_("Champion: {name}").format(name=names.get(champion, champion)))
            font = QFont()
            font.setPointSize(12)
            font.setBold(True)
            label.setFont(font)
            label.setBrush(QBrush(self.palette().color(QPalette.ColorRole.Text)))  # on the view's own base
            label.setPos(last.rect.left(), last.rect.bottom() + 10)
            scene.addItem(label)
        scene.setSceneRect(scene.itemsBoundingRect().adjusted(-20, -20, 20, 20))

    def fit(self) -> None:
        self.fitInView(self.scene().sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    # ------------------------------------------------------------------ layout
    def _layout(self, b: Bracket) -> dict[str, QPointF]:
        """Top-left corner of every match box: columns by round, a match centred on the matches feeding it."""
        pos: dict[str, QPointF] = {}
        groups: dict[str, list[Any]] = {}
        for m in b.matches:
            groups.setdefault(m.bracket, []).append(m)
        top = 0.0
        max_right = 0.0
        for key in ("W", "L"):
            ms = groups.get(key, [])
            if not ms:
                continue
            bottom = top
            next_free: dict[int, float] = {}
            for m in sorted(ms, key=lambda m: (m.round, m.number)):
                x = (m.round - 1) * (BOX_W + COL_GAP)
                feeders = [
                    pos[s.ref].y()
                    for s in m.sources
                    if s.kind is SourceKind.WINNER and s.ref in pos and s.ref.startswith(key)
                ]
                free = next_free.get(m.round, top)
                if len(feeders) == 2:
                    y = max(sum(feeders) / 2, free)
                elif feeders:
                    y = max(feeders[0], free)
                else:
                    y = free
                pos[m.id] = QPointF(x, y)
                next_free[m.round] = y + BOX_H + ROW_GAP
                bottom = max(bottom, y + BOX_H)
                max_right = max(max_right, x + BOX_W)
            top = bottom + SECTION_GAP
        # finals and the match for third place to the right of everything
        x = max_right + COL_GAP
        w_final = [pos[m.id] for m in groups.get("W", []) if m.round == b.rounds()]
        y = w_final[0].y() if w_final else 0.0
        if "L" in groups:
            y = (top - SECTION_GAP) / 2 - BOX_H / 2
        for key in ("GF", "GF2", "3P"):
            for m in groups.get(key, []):
                pos[m.id] = QPointF(x, y if key != "3P" else y + 2 * (BOX_H + ROW_GAP))
                x += BOX_W + COL_GAP if key != "3P" else 0
        return pos

    # ------------------------------------------------------------------ drawing
    def _side_text(self, b: Bracket, match_id: str, i: int, who: str | None, names: Mapping[str, str]) -> str:
        if who is not None:
            return names.get(who, who)
        src = b.match(match_id).sources[i]
        if src.kind is SourceKind.SEED or b.status(src.ref) in ("done", "walkover"):
            return _("bye")  # a bye seed, or the loser of a match won by walkover
        return src.describe()

    def _draw_match(
        self, b: Bracket, match_id: str, pos: QPointF, names: Mapping[str, str], table: int | None
    ) -> None:
        scene = self.scene()
        status = b.status(match_id)
        sides = b.sides(match_id)
        winner_id = b.winner(match_id)
        winner = None
        if winner_id is not None and status == "done":
            winner = 0 if sides[0] == winner_id else 1
        elif status == "walkover":
            winner = 0 if sides[0] is not None else (1 if sides[1] is not None else None)
        rect = QRectF(pos.x(), pos.y(), BOX_W, BOX_H)
        texts = (
            self._side_text(b, match_id, 0, sides[0], names),
            self._side_text(b, match_id, 1, sides[1], names),
        )
        self.boxes[match_id] = MatchBox(match_id, texts, winner, status, rect)
        frame = QGraphicsRectItem(rect)
        frame.setBrush(QBrush(READY_BG if status == "ready" else BOX_BG))
        pen = QPen(QColor("#2563eb") if status == "ready" else QColor("#9ca3af"))
        pen.setWidthF(2.0 if status == "ready" else 1.0)
        frame.setPen(pen)
        frame.setToolTip("\n".join(b.explain(match_id)))
        frame.setData(0, match_id)
        scene.addItem(frame)
        head = match_id
        if status == "void":
            head += "  " + _("(not needed)")
        elif table is not None:
            head += "  " + _("table {t}").format(t=table)
        elif status == "ready":
            head += "  " + _("ready")
        title = QGraphicsSimpleTextItem(head, frame)
        small = QFont()
        small.setPointSize(8)
        title.setFont(small)
        title.setBrush(QBrush(GREY))
        title.setPos(rect.left() + 4, rect.top() + 1)
        for i, text in enumerate(texts):
            row = QRectF(rect.left(), rect.top() + HEAD_H + i * ROW_H, BOX_W, ROW_H)
            if winner == i:
                bg = QGraphicsRectItem(row.adjusted(1, 0, -1, 0), frame)
                bg.setBrush(QBrush(WIN_BG))
                bg.setPen(QPen(Qt.PenStyle.NoPen))
            item = QGraphicsSimpleTextItem(_elide(text, 28), frame)
            font = QFont()
            font.setPointSize(10)
            known = sides[i] is not None
            font.setBold(winner == i)
            font.setItalic(not known)
            item.setFont(font)
            if not known or (winner is not None and winner != i):
                item.setBrush(QBrush(GREY))
            item.setPos(row.left() + 6, row.top() + 3)
        divider = QGraphicsPathItem(frame)
        path = QPainterPath()
        path.moveTo(rect.left(), rect.top() + HEAD_H + ROW_H)
        path.lineTo(rect.right(), rect.top() + HEAD_H + ROW_H)
        divider.setPath(path)
        divider.setPen(QPen(QColor("#e5e7eb")))

    def _connect(self, src: QRectF, dst: QRectF, side: int) -> None:
        start = QPointF(src.right(), src.top() + HEAD_H + ROW_H)
        end = QPointF(dst.left(), dst.top() + HEAD_H + ROW_H * (side + 0.5))
        mid = start.x() + COL_GAP / 2 if dst.left() > src.right() else start.x() + 10
        path = QPainterPath(start)
        path.lineTo(mid, start.y())
        path.lineTo(mid, end.y())
        path.lineTo(end)
        item = QGraphicsPathItem(path)
        item.setPen(QPen(QColor("#9ca3af"), 1.2))
        item.setZValue(-1)
        self.scene().addItem(item)

    # ------------------------------------------------------------------ keyboard
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if event.key() in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.scale(1.2, 1.2)
        elif event.key() == Qt.Key.Key_Minus:
            self.scale(1 / 1.2, 1 / 1.2)
        elif event.key() == Qt.Key.Key_0:
            self.fit()
        else:
            super().keyPressEvent(event)


def _elide(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
