"""Table pieces the screens share: a thin model over plain rows, a read-only row-selecting view, and a view
that measures its cells once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyleOptionViewItem, QTableView

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


def row_table(model: QAbstractItemModel, name: str, view: QTableView | None = None) -> QTableView:
    """A read-only table that selects one whole row at a time, without row numbers, columns fitting their
    contents; ``view``: the view to set up so (a :class:`MeasuredTableView`), else a plain one."""
    view = QTableView() if view is None else view
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


# what a model says when its cells may no longer be where they were: every measured cell is forgotten
_MOVES = (
    "modelAboutToBeReset",
    "modelReset",
    "layoutAboutToBeChanged",
    "layoutChanged",
    "rowsAboutToBeMoved",
    "rowsMoved",
    "columnsAboutToBeInserted",
    "columnsInserted",
    "columnsAboutToBeRemoved",
    "columnsRemoved",
    "columnsAboutToBeMoved",
    "columnsMoved",
)
# rows that come or go: the rows from the first of them on are forgotten, those before stay where they were
_SHIFTS = ("rowsAboutToBeInserted", "rowsInserted", "rowsAboutToBeRemoved", "rowsRemoved")
# what changes how wide a cell is drawn, model aside
_LOOKS = (QEvent.Type.FontChange, QEvent.Type.StyleChange, QEvent.Type.LanguageChange)


class MeasuredTableView(QTableView):
    """A table view whose columns fitted to their contents (``ResizeToContents``) measure each cell once.

    Qt measures a fitted column again on every ``dataChanged``, every row of it (the delegate's size hint of
    each cell, a dozen calls of the model's ``data`` a cell): on a list of 32 tables that was ~1,500 calls
    for one changed row. Here a cell's width is kept until its row changes; rows that come or go forget
    the rows from theirs on (a row added at the end forgets nothing); rows that move, a reset, and a change
    of font or style forget them all. The width of a column is Qt's own
    (``QTableView.sizeHintForColumn``: the widest cell's size hint, plus the grid line), so the list looks
    the same; past the header's ``resizeContentsPrecision`` rows Qt measures as it does."""

    def __init__(self) -> None:
        super().__init__()
        self._widths: dict[tuple[int, int], int] = {}  # (row, column) of the view's model -> width hint
        self._looks: tuple[object, ...] = ()  # what the widths were measured with

    def setModel(self, model: QAbstractItemModel | None) -> None:  # noqa: N802 - Qt API
        old = self.model()
        if old is not None:
            for name in _MOVES:
                getattr(old, name).disconnect(self._forget)
            for name in _SHIFTS:
                getattr(old, name).disconnect(self._shift)
        super().setModel(model)
        if model is not None:
            for name in _MOVES:
                getattr(model, name).connect(self._forget)
            for name in _SHIFTS:
                getattr(model, name).connect(self._shift)
        self._forget()

    def _forget(self, *_args: object) -> None:
        self._widths.clear()

    def _shift(self, parent: ModelIndex, first: int, _last: int) -> None:
        if parent.isValid():
            self._widths.clear()
            return
        for key in [k for k in self._widths if k[0] >= first]:
            del self._widths[key]

    def dataChanged(  # noqa: N802 - Qt API
        self,
        topLeft: ModelIndex,
        bottomRight: ModelIndex,
        roles: Sequence[int] = (),  # noqa: N803
    ) -> None:
        # forgotten before Qt fits the columns again, which it does inside this call
        if topLeft.isValid() and bottomRight.isValid():
            columns = range(topLeft.column(), bottomRight.column() + 1)
            for row in range(topLeft.row(), bottomRight.row() + 1):
                for column in columns:
                    self._widths.pop((row, column), None)
        else:
            self._widths.clear()
        super().dataChanged(topLeft, bottomRight, list(roles))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        if event.type() in _LOOKS:
            self._widths.clear()
        super().changeEvent(event)

    def sizeHintForColumn(self, column: int) -> int:  # noqa: N802 - Qt API
        model = self.model()
        if model is None:
            return -1
        root = self.rootIndex()
        rows = model.rowCount(root)
        header = self.verticalHeader()
        precision = header.resizeContentsPrecision()
        if precision != -1 and rows > precision:
            return super().sizeHintForColumn(column)
        self.ensurePolished()
        looks = (
            self.font().key(),
            self.wordWrap(),
            self.textElideMode(),
            self.iconSize(),
            self.itemDelegate(),
        )
        if looks != self._looks:
            self._widths.clear()
            self._looks = looks
        widths = self._widths
        hidden = header.hiddenSectionCount() > 0  # rows hidden by the header are not measured (as Qt's)
        option: QStyleOptionViewItem | None = None
        hint = 0
        for row in range(rows):
            if hidden and header.isSectionHidden(row):
                continue
            width = widths.get((row, column))
            if width is None:
                if option is None:
                    option = QStyleOptionViewItem()
                    self.initViewItemOption(option)
                index = model.index(row, column, root)
                width = self.itemDelegateForIndex(index).sizeHint(option, index).width()
                widths[(row, column)] = width
            hint = max(hint, width)
        return hint + 1 if self.showGrid() else hint
