"""The round's tables as the Rounds screen lists them: one row per table, the names given the room."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel
from PySide6.QtWidgets import QHeaderView, QTableView

from clubdesk.ui.night.tables_model import COL_A, COL_B, COL_STATE
from clubdesk.ui.widgets.tables import MeasuredTableView, row_table


def tables_view(proxy: QAbstractItemModel) -> QTableView:
    """A read-only list selecting one whole table at a time; the two names stretch, the number, score and
    approval columns stay as wide as their contents (each cell measured once, again when its table changes:
    a hand entered re-measures one row, not the whole round)."""
    view = MeasuredTableView()
    row_table(proxy, "tables", view)
    view.verticalHeader().setDefaultSectionSize(30)
    header = view.horizontalHeader()
    header.setSectionResizeMode(COL_A, QHeaderView.ResizeMode.Stretch)
    header.setSectionResizeMode(COL_B, QHeaderView.ResizeMode.Stretch)
    header.setMinimumSectionSize(48)
    header.setMaximumSectionSize(150)  # approvals and states elide (tooltip): the names keep the room
    view.setColumnWidth(COL_STATE, 150)
    view.setWordWrap(False)
    return view
