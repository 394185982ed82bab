"""A small line chart of one player's rating history (rule T12c), painted with QPainter: the
PySide6-Essentials wheel has no QtCharts.

One point per rated match (its rating after the match), the starting rating as the first point, a dashed
line at 1500 (where every newcomer starts) and the lowest and highest rating on the left axis. With no
rated match the chart says so instead of drawing an empty frame.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from clubdesk.i18n import _
from clubdesk.standings.ratings import INITIAL_RATING

LINE = QColor("#1f5f9f")
GUIDE = QColor("#9ca3af")


class RatingChart(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ratingChart")
        self.values: list[float] = []
        self.empty_text = _("No rated match yet.")
        self.setMinimumSize(260, 160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(420, 220)

    def set_history(self, start: float | None, after: Sequence[float], empty_text: str = "") -> None:
        """``start``: the rating before the first match; ``after``: the rating after each rated match."""
        self.values = ([start] if start is not None else []) + list(after) if after else []
        if empty_text:
            self.empty_text = empty_text
        self.update()

    def points(self, area: QRectF) -> list[QPointF]:
        """Where each value is drawn inside ``area`` (the tests check the line goes up and down with it)."""
        if not self.values:
            return []
        low, high = min(self.values), max(self.values)
        if high - low < 1.0:
            low, high = low - 10.0, high + 10.0
        n = len(self.values)
        step = area.width() / max(n - 1, 1)
        return [
            QPointF(area.left() + k * step, area.bottom() - (v - low) / (high - low) * area.height())
            for k, v in enumerate(self.values)
        ]

    def plot_area(self) -> QRectF:
        fm = self.fontMetrics()
        left = fm.horizontalAdvance("88888") + 10
        return QRectF(
            left, fm.height(), max(10, self.width() - left - 12), max(10, self.height() - 2.5 * fm.height())
        )

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        text = self.palette().windowText().color()
        if not self.values:
            p.setPen(text)
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.empty_text)
            p.end()
            return
        area = self.plot_area()
        pts = self.points(area)
        low, high = min(self.values), max(self.values)
        p.setPen(QPen(GUIDE, 1))
        p.drawRect(area)
        if low < INITIAL_RATING < high:  # where every newcomer starts (rule T12c)
            y = area.bottom() - (INITIAL_RATING - low) / (high - low) * area.height()
            p.setPen(QPen(GUIDE, 1, Qt.PenStyle.DashLine))
            p.drawLine(QPointF(area.left(), y), QPointF(area.right(), y))
        p.setPen(text)
        fm = self.fontMetrics()
        p.drawText(
            QRectF(0, area.top() - fm.height() / 2, area.left() - 6, fm.height()),
            Qt.AlignmentFlag.AlignRight,
            f"{high:.0f}",
        )
        p.drawText(
            QRectF(0, area.bottom() - fm.height() / 2, area.left() - 6, fm.height()),
            Qt.AlignmentFlag.AlignRight,
            f"{low:.0f}",
        )
        p.drawText(
            QRectF(area.left(), area.bottom() + 2, area.width(), fm.height() * 1.3),
            Qt.AlignmentFlag.AlignHCenter,
            _("Rated matches, oldest first"),
        )
        path = QPainterPath(pts[0])
        for pt in pts[1:]:
            path.lineTo(pt)
        p.setPen(QPen(LINE, 2))
        p.drawPath(path)
        p.setBrush(LINE)
        for pt in pts:
            p.drawEllipse(pt, 2.5, 2.5)
        p.end()
