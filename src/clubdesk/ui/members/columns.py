"""The register's table pieces: columns with a sort key each, a thin model over plain rows, a sortable view.

Rule T14: no phone and no e-mail in the register's columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableView,
)

from clubdesk.collation import sort_string
from clubdesk.i18n import _
from clubdesk.text import fold
from clubdesk.ui.shell.theme import color
from clubdesk.ui.widgets.tables import PlainRowsModel

SORT_ROLE = Qt.ItemDataRole.UserRole + 1


@dataclass(frozen=True)
class Column:
    title: str
    value: Any  # callable(row) -> display value
    sort: Any  # callable(row) -> sort key


class RowsModel(PlainRowsModel[Column]):
    """A thin table model over a list of plain frozen dataclasses."""

    def cell(self, row: Any, col: Column, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return col.value(row)
        if role == SORT_ROLE:
            return col.sort(row)
        if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(col.sort(row), float):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and getattr(row, "active", True) is False:
            return color("#888888")
        return None


def _number_key(number: str) -> str:
    """Numeric numbers first, in numeric order; then the others alphabetically."""
    return "0" + number.zfill(40) if number.isdigit() else "1" + fold(number)


def member_columns() -> list[Column]:
    # rule T14: no phone, no e-mail in the table
    return [
        Column(_("Number"), lambda m: m.number, lambda m: _number_key(m.number)),
        # sorted in the language's alphabet (Turkish C < Ç, ı < i; Spanish n < ñ)
        Column(_("Name"), lambda m: m.name, lambda m: sort_string(m.name)),
        Column(_("Club"), lambda m: m.club, lambda m: sort_string(m.club)),
        Column(_("City"), lambda m: m.city, lambda m: sort_string(m.city)),
        Column(_("Rating"), lambda m: f"{m.rating:.0f}", lambda m: float(m.rating)),
        Column(_("Active"), lambda m: _("yes") if m.active else _("no"), lambda m: int(m.active)),
    ]


def sortable_table(model: QAbstractTableModel) -> tuple[QTableView, QSortFilterProxyModel]:
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT_ROLE)
    view = QTableView()
    view.setModel(proxy)
    view.setSortingEnabled(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.verticalHeader().setVisible(False)
    view.horizontalHeader().setStretchLastSection(True)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    return view, proxy
