"""The Standings' cross-table tab: every entrant in standings order and, per round, the opponent's rank and
the result (the cells of ``services.publishing.share.crosstable_data``); the tooltip of a cell names the
opponent, the side at the table and the score. Save as PDF and Print make the cross-table report.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QStackedWidget,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.reports.data import CrossTableView
from clubdesk.services import publishing
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.shell.printing import ReportRunner
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.tables import row_table

FIXED = 3  # rank, name, points; then one column per round
DETAIL_ROLE = Qt.ItemDataRole.UserRole + 2  # a round cell's side and score ("A 5–3"), drawn under the result
ModelIndex = QModelIndex | QPersistentModelIndex


class CrossTableModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self.view: CrossTableView | None = None

    def set_view(self, view: CrossTableView | None) -> None:
        self.beginResetModel()
        self.view = view
        self.endResetModel()

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() or self.view is None else len(self.view.lines)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() or self.view is None else FIXED + len(self.view.rounds)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:  # noqa: N802
        if orientation != Qt.Orientation.Horizontal or self.view is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if section < FIXED:
                return (_("Rank"), _("Name"), _("Pts"))[section]
            return _("R{n}").format(n=self.view.rounds[section - FIXED])
        if role == Qt.ItemDataRole.ToolTipRole and section >= FIXED:
            return _("Round {n}").format(n=self.view.rounds[section - FIXED])
        return None

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self.view is None:
            return None
        line = self.view.lines[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return str(line.rank)
            if col == 1:
                return line.name
            if col == 2:
                return line.points
            return line.cells[col - FIXED].text
        if role == Qt.ItemDataRole.ToolTipRole and col >= FIXED:
            return publishing.cell_text(line.cells[col - FIXED])
        if role == DETAIL_ROLE and col >= FIXED:
            c = line.cells[col - FIXED]
            return " ".join(x for x in (c.side, c.score) if x)
        if role == Qt.ItemDataRole.TextAlignmentRole and col != 1:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None


class RoundCellDelegate(QStyledItemDelegate):
    """A round cell: the result as ``crosstable_data`` writes it, and below it, smaller, the side at the table
    and the score (the opponent is in the tooltip)."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        detail = index.data(DETAIL_ROLE)
        if not detail:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text = opt.text
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        r = option.rect
        half = r.height() // 2
        painter.save()
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        pen = option.palette.highlightedText() if selected else option.palette.text()
        painter.setPen(pen.color())
        painter.drawText(QRect(r.left(), r.top() + 1, r.width(), half), Qt.AlignmentFlag.AlignCenter, text)
        small = painter.font()
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.8))
        painter.setFont(small)
        painter.drawText(
            QRect(r.left(), r.top() + half, r.width(), r.height() - half),
            Qt.AlignmentFlag.AlignCenter,
            detail,
        )
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: ModelIndex) -> QSize:  # noqa: N802 - Qt API
        base = super().sizeHint(option, index)
        detail = index.data(DETAIL_ROLE)
        width = option.fontMetrics.horizontalAdvance(detail or "") + 8
        return QSize(max(base.width(), width), int(option.fontMetrics.height() * 2.4))


class CrossTablePanel(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.event_id: int | None = None
        self.model = CrossTableModel()
        self.table = row_table(self.model, "crosstable")
        self.table.setAlternatingRowColors(True)
        self.delegate = RoundCellDelegate(self.table)
        self.empty = QLabel()
        self.empty.setObjectName("crosstableEmpty")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.table)
        self.stack.addWidget(self.empty)
        self.legend = QLabel(
            _("Per round: the opponent's rank and the result (+ won, − lost, = drawn); + alone: a bye.")
            + " "
            + _(
                "Below the result: the side at the table (A first named) and the score; "
                "point at a cell for the opponent."
            )
        )
        self.legend.setWordWrap(True)
        self.save_button = QPushButton(_("Save as PDF…"))
        self.save_button.setObjectName("crosstableSave")
        self.print_button = QPushButton(_("Print…"))
        self.save_button.clicked.connect(self.save_pdf)
        self.print_button.clicked.connect(self.print_report)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        row = QHBoxLayout()
        row.addWidget(self.legend, 1)
        row.addWidget(self.save_button)
        row.addWidget(self.print_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(self.stack, 1)
        layout.addLayout(row)
        layout.addWidget(self.message)
        self.runner = ReportRunner(
            state.db, self, self.progress, self.message, (self.save_button, self.print_button)
        )

    def show_event(self, event_id: int | None) -> None:
        self.event_id = event_id
        view: CrossTableView | None = None
        text = _("Choose an event: its cross-table shows here.")
        if event_id is not None:
            try:
                view = publishing.crosstable(self.state.db, event_id)
            except ServiceError as exc:
                text = exc.message
        if view is not None and not view.lines:
            text = _("No entrant yet: register and check in players at the Desk, then draw round 1.")
            view = None
        elif view is not None and not view.rounds:
            text = _(
                "No round yet: draw round 1 in Rounds; the cross-table fills in as results are confirmed."
            )
            view = None
        self.model.set_view(view)
        self.save_button.setEnabled(view is not None)
        self.print_button.setEnabled(view is not None)
        if view is None:
            self.empty.setText(text)
            self.stack.setCurrentWidget(self.empty)
            return
        self.stack.setCurrentWidget(self.table)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for col in range(FIXED, self.model.columnCount()):
            self.table.setItemDelegateForColumn(col, self.delegate)
        self.table.verticalHeader().setDefaultSectionSize(int(self.table.fontMetrics().height() * 2.4))

    def request(self) -> publishing.ReportRequest | None:
        if self.event_id is None:
            return None
        return publishing.ReportRequest(kind="crosstable", event_id=self.event_id)

    def save_pdf(self) -> None:
        req = self.request()
        if req is not None:
            self.runner.save_as(self, req)

    def print_report(self) -> None:
        req = self.request()
        if req is not None:
            self.runner.print(req)
