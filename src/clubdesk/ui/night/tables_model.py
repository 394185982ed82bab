"""The tables of a round as a thin table model over ``services.night.TableView`` rows: table number, the two
sides, score, state (colour-coded so a scorer reads every table at a glance), who approved, and how far the
table got on the players' phones (not started, in play with the hands so far, awaiting
confirmation, confirmed at the table, entered at the desk; a referee call flagged)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QSortFilterProxyModel, Qt

from clubdesk.i18n import N_, _, ngettext
from clubdesk.services import night
from clubdesk.ui.shell.none_refs import kept_color, kept_font
from clubdesk.ui.shell.theme import icon
from clubdesk.ui.widgets.tables import ModelIndex, PlainRowsModel

COL_TABLE, COL_A, COL_B, COL_SCORE, COL_STATE, COL_APPROVED, COL_PHONES = range(7)
TABLE_ROLE = Qt.ItemDataRole.UserRole + 1
STATE_ROLE = Qt.ItemDataRole.UserRole + 2
PHONE_ROLE = Qt.ItemDataRole.UserRole + 3  # the table's state on the phones ("in_play"...), "" for none

# service status -> (label, background, text colour)
STATES: dict[str, tuple[str, str, str]] = {
    "waiting": (N_("waiting"), "#e5e7eb", "#111827"),
    "in_play": (N_("in play"), "#bfdbfe", "#1e3a8a"),
    "pending": (N_("awaiting confirmation"), "#fde68a", "#78350f"),
    "confirmed": (N_("confirmed"), "#bbf7d0", "#14532d"),
    "disputed": (N_("disputed"), "#fecaca", "#7f1d1d"),
    "postponed": (N_("postponed"), "#e9d5ff", "#581c87"),
    "bye": (N_("bye"), "#f3f4f6", "#6b7280"),
}
# services.phones.table_page.TableStatus.state -> (label, background, text colour)
PHONE_STATES: dict[str, tuple[str, str, str]] = {
    "not_started": (N_("not started"), "#f3f4f6", "#374151"),
    "in_play": ("", "#dbeafe", "#1e3a8a"),  # "in play · 3 hands": plural, built in phone_label
    "awaiting_confirmation": (N_("awaiting confirmation"), "#fde68a", "#78350f"),
    "confirmed_at_table": (N_("confirmed at the table"), "#bbf7d0", "#14532d"),
    "entered_at_desk": (N_("entered at the desk"), "#e0e7ff", "#312e81"),
}
REFEREE_COLOURS = ("#fecaca", "#7f1d1d")


def phone_label(status: Any, games: bool = False) -> str:
    """What the Rounds screen says of a table's phones: the state, the hands (tavla: games, ``games``) so
    far while in play, and a referee call before everything else."""
    if status is None:
        return ""
    state = str(getattr(status, "state", ""))
    if state == "in_play":
        hands = int(getattr(status, "hands", 0) or 0)
        if games:
            text = ngettext("in play · {n} game", "in play · {n} games", hands).format(n=hands)
        else:
            text = ngettext("in play · {n} hand", "in play · {n} hands", hands).format(n=hands)
    else:
        text = _(PHONE_STATES[state][0]) if state in PHONE_STATES else state
    if getattr(status, "referee_called", False):
        return _("referee called") + " · " + text
    return text


FILTERS: tuple[tuple[str, str], ...] = (
    ("", N_("all tables")),
    ("waiting", N_("waiting")),
    ("in_play", N_("in play")),
    ("pending", N_("awaiting confirmation")),
    ("confirmed", N_("confirmed")),
    ("disputed", N_("disputed")),
)


def state_label(status: str) -> str:
    return _(STATES.get(status, (status, "", ""))[0])


def tables_in_state(status: str, n: int) -> str:
    """ "2 tables confirmed": the count with its noun, so that each language makes the plural and the
    agreement (es "2 mesas confirmadas", not "2 confirmado")."""
    words = {
        "waiting": ngettext("{n} table waiting", "{n} tables waiting", n),
        "in_play": ngettext("{n} table in play", "{n} tables in play", n),
        "pending": ngettext("{n} table awaiting confirmation", "{n} tables awaiting confirmation", n),
        "confirmed": ngettext("{n} table confirmed", "{n} tables confirmed", n),
        "disputed": ngettext("{n} table disputed", "{n} tables disputed", n),
        "postponed": ngettext("{n} table postponed", "{n} tables postponed", n),
        "bye": ngettext("{n} bye", "{n} byes", n),
    }
    return words.get(status, f"{{n}} {state_label(status)}").format(n=n)


@dataclass(frozen=True)
class TableColumn:
    """A column of the tables list: its place (``COL_*``) and its header, translated when shown."""

    key: int
    label: str

    @property
    def title(self) -> str:
        return _(self.label)


COLUMNS: tuple[TableColumn, ...] = (
    TableColumn(COL_TABLE, N_("Table")),
    TableColumn(COL_A, N_("Side A")),
    TableColumn(COL_B, N_("Side B")),
    TableColumn(COL_SCORE, N_("Score")),
    TableColumn(COL_STATE, N_("State")),
    TableColumn(COL_APPROVED, N_("Approved by")),
    TableColumn(COL_PHONES, N_("Phones")),
)


class TablesModel(PlainRowsModel[TableColumn]):
    def __init__(self) -> None:
        super().__init__(COLUMNS)
        self.phones: Mapping[int, Any] = {}  # table -> phones.table_page.TableStatus
        self.games = False  # tavla: the phones enter games, not hands

    def set_rows(self, rows: Any, phones: Mapping[int, Any] | None = None, games: bool = False) -> None:
        self.phones = dict(phones or {})
        self.games = games
        super().set_rows(rows)

    def set_table(self, table: Any, phone: Any | None = None) -> bool:
        """One table's row as stored now, with its state on the phones when given; the other rows stay as
        they are. False when the round shown has no such table."""
        row = next((i for i, t in enumerate(self.rows) if t.table == table.table), None)
        if row is None:
            return False
        self.rows[row] = table
        if phone is not None:
            self.phones = {**self.phones, table.table: phone}
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.columns) - 1))
        return True

    def _phone_cell(self, t: Any, role: int) -> Any:
        status = self.phones.get(t.table)
        if status is None:
            return "" if role in (Qt.ItemDataRole.DisplayRole, PHONE_ROLE) else None
        state = str(getattr(status, "state", ""))
        referee = bool(getattr(status, "referee_called", False))
        if role == Qt.ItemDataRole.DisplayRole:
            return phone_label(status, self.games)
        if role == PHONE_ROLE:
            return state
        if role == Qt.ItemDataRole.BackgroundRole:
            colours = REFEREE_COLOURS if referee else PHONE_STATES.get(state, ("", "#ffffff", "#000000"))[1:]
            return kept_color(colours[0])
        if role == Qt.ItemDataRole.ForegroundRole:
            colours = REFEREE_COLOURS if referee else PHONE_STATES.get(state, ("", "#ffffff", "#000000"))[1:]
            return kept_color(colours[1])
        if role == Qt.ItemDataRole.DecorationRole and referee:
            return icon("flag")
        if role == Qt.ItemDataRole.FontRole and referee:
            return kept_font()
        return None

    def cell(self, t: Any, column: TableColumn, role: int) -> Any:
        col = column.key
        if col == COL_PHONES and role != TABLE_ROLE and role != STATE_ROLE:
            return self._phone_cell(t, role)
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_TABLE:
                return str(t.table)
            if col == COL_A:
                return t.names[0]
            if col == COL_B:
                return t.names[1] or _("— bye —")
            if col == COL_SCORE:
                return "" if t.status in ("waiting", "bye") else f"{t.score[0]} – {t.score[1]}"
            if col == COL_STATE:
                return state_label(t.status)  # a locked table shows the lock icon (an SVG, not an emoji)
            if col == COL_APPROVED:  # each side's approval and how it was given (G13, E6, T8c)
                hows = getattr(self.phones.get(t.table), "approved_how", ("", ""))
                pairs = zip((t.scorer, t.counter), hows, strict=True)
                parts = [night.approval_with_way(p, h) for p, h in pairs if p]
                ref = getattr(t, "ref", "")
                return " / ".join(parts) + (f"  [{ref}]" if ref else "")
        if role == Qt.ItemDataRole.DecorationRole and col == COL_STATE and t.locked:
            return icon("lock")
        if role == Qt.ItemDataRole.ToolTipRole and col == COL_STATE and t.locked:
            return _("locked (T10): changes need a reason")
        if role == TABLE_ROLE:
            return t.table
        if role == STATE_ROLE:
            return t.status
        if role == Qt.ItemDataRole.BackgroundRole and col == COL_STATE:
            return kept_color(STATES.get(t.status, ("", "#ffffff", ""))[1])
        if role == Qt.ItemDataRole.ForegroundRole and col == COL_STATE:
            return kept_color(STATES.get(t.status, ("", "", "#000000"))[2])
        if role == Qt.ItemDataRole.FontRole and col in (COL_TABLE, COL_STATE, COL_SCORE):
            return kept_font(point_size=12 if col == COL_TABLE else 10)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (COL_TABLE, COL_SCORE, COL_STATE):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None


class StateFilter(QSortFilterProxyModel):
    """Shows only the tables in one state ('' = all)."""

    def __init__(self) -> None:
        super().__init__()
        self.state = ""

    def set_state(self, state: str) -> None:
        begin = getattr(self, "beginFilterChange", None)
        if begin is not None:  # Qt 6.9+
            begin()
            self.state = state
            self.endFilterChange()
        else:
            self.state = state
            self.invalidateFilter()

    def filterAcceptsRow(self, row: int, parent: ModelIndex) -> bool:  # noqa: N802
        if not self.state:
            return True
        model = self.sourceModel()
        return bool(model.data(model.index(row, 0, parent), STATE_ROLE) == self.state)
