"""Live standings as a thin table model: place, name, points, one column per tie-break of the event, and
each tied row's explanation as its tooltip (which tie-break split it from its neighbour, or that a play-off
is needed, rule BC2).

Rows are plain :class:`StandingsLine` values; :func:`lines_from_service` builds them from
``services.night.ranking.standings.event_standings`` and :func:`lines_from_engine` from
``clubdesk.standings.standings``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from clubdesk.collation import sort_string
from clubdesk.i18n import _
from clubdesk.labels import localized_number
from clubdesk.standings.table import format_value
from clubdesk.standings.tiebreaks import TIEBREAK_NAMES
from clubdesk.ui.shell.none_refs import kept_color, kept_font

ModelIndex = QModelIndex | QPersistentModelIndex

COL_PLACE, COL_NAME, COL_POINTS = 0, 1, 2
FIRST_TIEBREAK_COL = 3  # without a Lives column
COL_LIVES = 3  # in a lives event, before the tie-breaks
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ENTRANT_ROLE = Qt.ItemDataRole.UserRole + 2


@dataclass(frozen=True)
class StandingsLine:
    rank: int
    place: str  # "1", "5–8" (shared places, T12a)
    entrant: str
    name: str
    points: str
    tiebreaks: dict[str, str]  # code -> shown value
    sort_values: dict[str, float] = field(default_factory=dict)
    explanation: str = ""
    playoff: bool = False  # rule BC2
    tied: bool = False
    lives: str = ""  # lives left in a lives event (T4g); "" elsewhere


def _num(v: object) -> float:
    try:
        return float(Fraction(str(v))) if not isinstance(v, int | float) else float(v)
    except (ValueError, ZeroDivisionError):
        return 0.0


def _explanations_for(name: str, lines: Sequence[str]) -> str:
    return "\n".join(line for line in lines if name and name in line)


def lines_from_service(standings: Any) -> list[StandingsLine]:
    """From ``EventStandings`` (rows with rank, place, entrant, name, points, tiebreaks, shown, playoff)."""
    lines = list(standings.explanations)
    out: list[StandingsLine] = []
    ranks = [r.rank for r in standings.rows]
    for r in standings.rows:
        points = r.points
        out.append(
            StandingsLine(
                rank=r.rank,
                place=r.place,
                entrant=str(r.entrant),
                name=r.name,
                points=str(points) if not isinstance(points, float) else f"{points:g}",
                tiebreaks=dict(r.shown),
                sort_values={"PTS": _num(points), **{c: _num(v) for c, v in r.tiebreaks.items()}},
                explanation=_explanations_for(r.name, lines),
                playoff=bool(r.playoff),
                tied=ranks.count(r.rank) > 1,
                lives="" if getattr(r, "lives", None) is None else str(r.lives),
            )
        )
    return out


def lines_from_engine(standings: Any, names: Mapping[str, str] | None = None) -> list[StandingsLine]:
    """From the engine's ``Standings`` (rows, explanations per group of tied entrants, codes, scale)."""
    names = dict(names or {})
    per_entrant: dict[str, list[str]] = {}
    for ex in standings.explanations:
        for e in ex.entrants:
            nm = names.get(e, e)
            per_entrant.setdefault(e, []).extend(line for line in ex.lines if nm in line)
    out: list[StandingsLine] = []
    for r in standings.rows:
        shown = {c: format_value(c, r.tiebreaks[c], standings.scale) for c in standings.codes if c != "PTS"}
        pts = Fraction(r.points) / standings.scale
        out.append(
            StandingsLine(
                rank=r.rank,
                place=str(r.rank),
                entrant=r.entrant,
                name=names.get(r.entrant, r.entrant),
                points=str(pts) if pts.denominator == 1 else f"{float(pts):g}",
                tiebreaks=shown,
                sort_values={"PTS": float(pts), **{c: _num(r.tiebreaks[c]) for c in shown}},
                explanation="\n".join(per_entrant.get(r.entrant, [])),
                playoff=bool(r.playoff),
                tied=bool(r.tied),
            )
        )
    return out


class StandingsModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[StandingsLine] = []
        self.codes: tuple[str, ...] = ()
        self.has_lives = False  # a lives event: a Lives column after the points (T4g)

    def set_standings(self, lines: Sequence[StandingsLine], codes: Sequence[str]) -> None:
        self.beginResetModel()
        self.lines = list(lines)
        self.codes = tuple(c for c in codes if c != "PTS")
        self.has_lives = any(line.lives for line in self.lines)
        self.endResetModel()

    @property
    def first_tiebreak(self) -> int:
        return FIRST_TIEBREAK_COL + (1 if self.has_lives else 0)

    @property
    def lives_col(self) -> int | None:
        return COL_LIVES if self.has_lives else None

    def code_at(self, column: int) -> str | None:
        i = column - self.first_tiebreak
        return self.codes[i] if 0 <= i < len(self.codes) else None

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.lines)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else self.first_tiebreak + len(self.codes)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        line = self.lines[index.row()]
        col = index.column()
        code = self.code_at(col)
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_PLACE:
                return line.place + (" *" if line.playoff else "")
            if col == COL_NAME:
                return line.name
            if col == COL_POINTS:
                return localized_number(str(line.points))
            if col == self.lives_col:
                return line.lives
            return localized_number(line.tiebreaks.get(code or "", ""))
        if role == SORT_ROLE:
            if col == COL_PLACE:
                return float(line.rank)
            if col == COL_NAME:
                return sort_string(line.name)  # the language's alphabet
            if col == self.lives_col:
                return _num(line.lives or 0)
            return line.sort_values.get("PTS" if col == COL_POINTS else code or "", 0.0)
        if role == ENTRANT_ROLE:
            return line.entrant
        if role == Qt.ItemDataRole.ToolTipRole:
            if line.explanation:
                return line.explanation
            if line.playoff:
                return _("Still tied: a play-off decides this place (BC2).")
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole and col != COL_NAME:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and (col in (COL_PLACE, COL_POINTS) or col == self.lives_col):
            return kept_font()
        if role == Qt.ItemDataRole.BackgroundRole:
            if line.playoff:
                return kept_color("#fde68a")
            if line.tied:
                return kept_color("#fef9c3")
        if role == Qt.ItemDataRole.ForegroundRole and (line.playoff or line.tied):
            return kept_color("#111827")  # dark text on the pale row, in a dark palette too
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:  # noqa: N802
        if orientation != Qt.Orientation.Horizontal:
            return None
        code = self.code_at(section)
        if role == Qt.ItemDataRole.DisplayRole:
            if section == COL_PLACE:
                return _("Place")
            if section == COL_NAME:
                return _("Name")
            if section == COL_POINTS:
                return _("Points")
            if section == self.lives_col:
                return _("Lives")
            return code
        if role == Qt.ItemDataRole.ToolTipRole and section == self.lives_col:
            return _("Lives left: each loss costs one, none left is out (T4g)")
        if role == Qt.ItemDataRole.ToolTipRole and code is not None:
            return _(TIEBREAK_NAMES.get(code, code))
        return None
