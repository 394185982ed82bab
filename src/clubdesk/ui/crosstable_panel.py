"""The Standings' cross-table tab (issue 21): every entrant in standings order and, per round, the
opponent's rank and the result (the cells of ``services.share.crosstable_data``); the tooltip of a cell names
the opponent, the side at the table and the score. Save as PDF and Print make the cross-table report.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.services import players as PL
from clubdesk.services import reports as report_service
from clubdesk.services.base import ServiceError
from clubdesk.ui.printing import ReportRunner, suggested_name
from clubdesk.ui.state import DeskState
from clubdesk.ui.widgets.tables import row_table

FIXED = 3  # rank, name, points; then one column per round
ModelIndex = QModelIndex | QPersistentModelIndex


class CrossTableModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self.view: PL.CrossTableView | None = None

    def set_view(self, view: PL.CrossTableView | None) -> None:
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
            return PL.cell_text(line.cells[col - FIXED])
        if role == Qt.ItemDataRole.TextAlignmentRole and col != 1:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None


class CrossTablePanel(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.event_id: int | None = None
        self.model = CrossTableModel()
        self.table = row_table(self.model, "crosstable")
        self.table.setAlternatingRowColors(True)
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
            + _("Point at a cell for the opponent, the side and the score.")
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
        view: PL.CrossTableView | None = None
        text = _("Choose an event: its cross-table shows here.")
        if event_id is not None:
            try:
                view = PL.crosstable(self.state.db, event_id)
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

    def request(self) -> report_service.ReportRequest | None:
        if self.event_id is None:
            return None
        return report_service.ReportRequest(kind="crosstable", event_id=self.event_id)

    def save_pdf(self) -> None:
        req = self.request()
        if req is None:
            return
        path, _filter = QFileDialog.getSaveFileName(
            self, _("Save as PDF"), suggested_name(req), _("PDF files (*.pdf)")
        )
        self.runner.save(req, path)

    def print_report(self) -> None:
        req = self.request()
        if req is not None:
            self.runner.print(req)
