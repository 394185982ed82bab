"""Table pieces of the screens: a thin table model over plain rows with column constants, message labels."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from clubdesk.ui.shell.none_refs import kept_color
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.widgets.tables import PlainRowsModel

ROW_ROLE = Qt.ItemDataRole.UserRole + 1


@dataclass(frozen=True)
class Column:
    title: str
    value: Callable[[Any], Any]
    align_right: bool = False
    color: Callable[[Any], str | None] | None = None


class RowsModel(PlainRowsModel[Column]):
    """A thin table model over a list of plain frozen dataclasses (column constants, one custom role)."""

    def cell(self, row: Any, col: Column, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            value = col.value(row)
            return "" if value is None else str(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and col.align_right:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col.color is not None:
            c = col.color(row)
            return None if c is None else kept_color(c)
        if role == ROW_ROLE:
            return row
        return None


def set_message(label: QLabel, text: str, ok: bool) -> None:
    label.setText(text)
    label.setStyleSheet(themed("color: #1b5e20;" if ok else "color: #b00020;"))
