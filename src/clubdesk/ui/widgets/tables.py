"""Table pieces the screens share: a thin model over plain rows, and a read-only row-selecting view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar

from PySide6.QtCore import QAbstractItemModel, QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

ModelIndex = QModelIndex | QPersistentModelIndex
TOOLTIP_FROM = 16  # characters: a longer cell may be elided, so it has its text as tooltip
COLUMN_MAX = 240  # pixels: no column fitted to its contents grows wider (long names, JSON ...)


class TitledColumn(Protocol):
    @property
    def title(self) -> str: ...


C = TypeVar("C", bound=TitledColumn)


class PlainRowsModel(QAbstractTableModel, Generic[C]):
    """A thin table model over a list of plain frozen dataclasses: one row per item, one column per entry
    of ``columns`` (its ``title`` is the header). A screen's model says what a cell shows in :meth:`cell`."""

    def __init__(self, columns: Sequence[C]) -> None:
        super().__init__()
        self.columns = list(columns)
        self.rows: list[Any] = []

    def set_rows(self, rows: Sequence[Any]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.columns[section].title
        return None

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        value = self.cell(self.rows[index.row()], self.columns[index.column()], role)
        if value is None and role == Qt.ItemDataRole.ToolTipRole:
            # a long cell is elided in a narrow column: its whole text is the tooltip
            text = self.cell(
                self.rows[index.row()], self.columns[index.column()], Qt.ItemDataRole.DisplayRole
            )
            if text is not None and len(str(text)) > TOOLTIP_FROM:
                return str(text)
        return value

    def cell(self, row: Any, col: C, role: int) -> Any:
        """What column ``col`` of ``row`` shows for ``role`` (None: nothing)."""
        raise NotImplementedError


def row_table(model: QAbstractItemModel, name: str) -> QTableView:
    """A read-only table that selects one whole row at a time, without row numbers, columns fitting their
    contents."""
    view = QTableView()
    view.setObjectName(name)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().setVisible(False)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.horizontalHeader().setMaximumSectionSize(COLUMN_MAX)
    view.setTextElideMode(Qt.TextElideMode.ElideRight)
    return view
