"""The running score sheet as a thin table model, and its view: one row per entry, built from the engine's
replay result.

Rows are plain frozen dataclasses (:class:`SheetRow`); :func:`sheet_rows` turns a ``replay`` result and its
entries into rows for any family (gaple, domino-es, tavla).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QHeaderView

from clubdesk.games.words import describe_entry, side_name
from clubdesk.i18n import _
from clubdesk.text import elide_middle, signed
from clubdesk.ui.shell.none_refs import kept_color, kept_font
from clubdesk.ui.widgets.tables import MeasuredTableView, row_table

ModelIndex = QModelIndex | QPersistentModelIndex

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1  # the raw entry dict of the row

COL_NO, COL_GAME, COL_ENTRY, COL_PTS_A, COL_PTS_B, COL_TOT_A, COL_TOT_B, COL_NOTE = range(8)
N_COLUMNS = 8
HEADER_CHARS = 14  # a side's name in a score column's header, cut in the middle past this


@dataclass(frozen=True)
class SheetRow:
    index: int  # the entry's position in the sheet (0-based)
    game: int  # 1-based game number (dominoes); 1 for a tavla match
    entry: Mapping[str, object]
    label: str  # what was entered, in words
    points: tuple[int, int]
    totals: tuple[int, int]
    explanation: str
    marker: str = ""  # "Crawford", "warm-up", "burned" ... shown in the label column
    game_end: bool = False  # this entry ended a game (dominoes)


def _pair(value: object) -> tuple[int, int]:
    if isinstance(value, Sequence) and len(value) == 2:
        return int(value[0]), int(value[1])
    return 0, 0


def sheet_rows(
    family: str,
    entries: Sequence[Mapping[str, object]],
    result: Mapping[str, Any],
    side_names: Sequence[str],
    seat_names: Sequence[str] | None = None,
) -> list[SheetRow]:
    """One row per entry from a ``replay`` result (CONTRACTS.md §1 shapes)."""
    rows: list[SheetRow] = []
    games = result.get("games", [])
    if family == "tavla":
        for i, g in enumerate(games):
            entry = entries[i] if i < len(entries) else {}
            marker = _("Crawford") if g.get("crawford") else ""  # rule T7b: the Crawford game is marked
            rows.append(
                SheetRow(
                    i,
                    1,
                    entry,
                    describe_entry(entry, side_names),
                    _pair(g.get("points")),
                    _pair(g.get("score")),
                    str(g.get("explanation", "")),
                    marker,
                )
            )
        return rows
    i = 0
    for gno, g in enumerate(games, start=1):
        hands = g.get("hands", [])
        for h_i, h in enumerate(hands):
            entry = entries[i] if i < len(entries) else {}
            markers = []
            if h.get("warmup"):
                markers.append(_("warm-up"))
            if h.get("burned") is not None:
                markers.append(_("burn: {side} to 0").format(side=side_name(h.get("burned"), side_names)))
            if h.get("opened") is False:
                markers.append(_("does not open"))
            end = h_i == len(hands) - 1 and g.get("winner") is not None
            if end:
                markers.append(_("game to {side}").format(side=side_name(g.get("winner"), side_names)))
            rows.append(
                SheetRow(
                    i,
                    gno,
                    entry,
                    describe_entry(entry, side_names, seat_names),
                    _pair(h.get("points")),
                    _pair(h.get("totals")),
                    str(h.get("explanation", "")),
                    "; ".join(markers),
                    end,
                )
            )
            i += 1
    return rows


class SheetModel(QAbstractTableModel):
    """Rows of :class:`SheetRow`; the explanation is also each row's tooltip."""

    def __init__(self, side_names: Sequence[str] = ("A", "B"), family: str = "gaple") -> None:
        super().__init__()
        self.rows: list[SheetRow] = []
        self.side_names = tuple(side_names)
        self.family = family

    def set_rows(self, rows: Sequence[SheetRow]) -> None:
        """The sheet as it is now. Rows as they were stay (a hand added is one row inserted at the end, a
        hand undone one row removed) and the rows from the first changed one on say so: the view fits its
        columns again measuring only those."""
        new, old = list(rows), self.rows
        if not new:
            self.beginResetModel()
            self.rows = new
            self.endResetModel()
            return
        same = 0
        for a, b in zip(old, new, strict=False):
            if a != b:
                break
            same += 1
        if len(old) > len(new):
            self.beginRemoveRows(QModelIndex(), len(new), len(old) - 1)
            self.rows = new
            self.endRemoveRows()
        elif len(new) > len(old):
            self.beginInsertRows(QModelIndex(), len(old), len(new) - 1)
            self.rows = new
            self.endInsertRows()
        self.rows = new
        first = min(same, len(new) - 1)  # a hand undone: the last row left says the columns may narrow
        self.dataChanged.emit(self.index(first, 0), self.index(len(new) - 1, N_COLUMNS - 1))

    def set_side_names(self, names: Sequence[str]) -> None:
        self.side_names = tuple(names)
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, N_COLUMNS - 1)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else N_COLUMNS

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                COL_NO: str(row.index + 1),
                COL_GAME: str(row.game),
                COL_ENTRY: row.label + (f"  [{row.marker}]" if row.marker else ""),
                COL_PTS_A: _signed(row.points[0]),
                COL_PTS_B: _signed(row.points[1]),
                COL_TOT_A: signed(row.totals[0]),
                COL_TOT_B: signed(row.totals[1]),
                COL_NOTE: row.explanation,
            }[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.explanation
        if role == ENTRY_ROLE:
            return dict(row.entry)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (
            COL_NO,
            COL_GAME,
            COL_PTS_A,
            COL_PTS_B,
            COL_TOT_A,
            COL_TOT_B,
        ):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and col in (COL_TOT_A, COL_TOT_B):
            return kept_font()
        if role == Qt.ItemDataRole.BackgroundRole:
            if row.marker.startswith(_("Crawford")):
                return kept_color("#fff4d6")
            if row.game_end:
                return kept_color("#e3f4e8")
        if role == Qt.ItemDataRole.ForegroundRole and (row.marker.startswith(_("Crawford")) or row.game_end):
            return kept_color("#111827")  # dark text on the pale row, in a dark palette too
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:  # noqa: N802
        if orientation != Qt.Orientation.Horizontal or role not in (
            Qt.ItemDataRole.DisplayRole,
            Qt.ItemDataRole.ToolTipRole,
        ):
            return None
        a, b = self.side_names[0], self.side_names[1]
        total = _("score") if self.family == "tavla" else _("total")
        if role == Qt.ItemDataRole.ToolTipRole:  # the whole side names
            return {
                COL_PTS_A: _("points of the entry: {side}").format(side=a),
                COL_PTS_B: _("points of the entry: {side}").format(side=b),
                COL_TOT_A: f"{a} {total}",
                COL_TOT_B: f"{b} {total}",
            }.get(section)
        # the side's letter over its whole name, cut in the middle when long (the tooltip has it whole):
        # two teams whose names begin alike ("Equipo …") never get the same header; the totals by letter
        a, b = side_header(a), side_header(b)
        return {
            COL_NO: "#",
            COL_GAME: _("Game"),
            COL_ENTRY: _("Entry"),
            COL_PTS_A: f"+ A\n{a}",
            COL_PTS_B: f"+ B\n{b}",
            COL_TOT_A: "Σ A",  # the name is over the points column beside it (and in the tooltip)
            COL_TOT_B: "Σ B",
            COL_NOTE: _("Explanation"),
        }[section]


def side_header(name: str, chars: int = HEADER_CHARS) -> str:
    """A side's name under its letter in a narrow header: whole, or cut in the middle past ``chars``."""
    return elide_middle(name, chars)


def _signed(n: int) -> str:
    """A hand's points with their sign: +20, −50 (a true minus sign), 0."""
    return "+" + str(n) if n > 0 else signed(n)


def sheet_view(model: SheetModel) -> MeasuredTableView:
    """The sheet's read-only view, one entry selected at a time; the Entry column takes the room, the
    numbers stay as wide as their contents (a hand added measures its own row, not the sheet again)."""
    view = MeasuredTableView()
    row_table(model, "sheet", view)
    view.setAlternatingRowColors(True)
    header = view.horizontalHeader()
    header.setSectionResizeMode(COL_ENTRY, QHeaderView.ResizeMode.Stretch)
    header.setMaximumSectionSize(110)  # the numbers stay narrow: the Entry column gets the room
    # the explanation is each row's tooltip and shows under the sheet for the selected row
    view.setColumnHidden(COL_NOTE, True)
    if model.family == "tavla":
        view.setColumnHidden(COL_GAME, True)
    view.setWordWrap(False)
    view.setTabKeyNavigation(False)  # Tab leaves the sheet
    return view
