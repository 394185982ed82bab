"""A night's public lists: pairings, standings, brackets and the cross-table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from clubdesk.i18n import _


@dataclass(frozen=True)
class PairingSide:
    name: str
    club: str = ""
    city: str = ""
    number: str = ""  # member number or entrant id, printed small
    points: str = ""  # points before the round
    players: tuple[str, ...] = ()  # a pair's or team's players: the list by name has the side under each


@dataclass(frozen=True)
class PairingTable:
    table: int
    sides: tuple[PairingSide, PairingSide | None]  # None: a bye
    result: str = ""  # "3-1" once known

    def shared_row(self) -> tuple[str, str, str, str, str, str]:
        """Table, side 1, its points, result, side 2 (or BYE), its points: the pairings row of the shared
        images and of the static site."""
        a, b = self.sides
        return (
            str(self.table),
            a.name,
            a.points,
            self.result or "–",
            b.name if b is not None else _("BYE"),
            b.points if b is not None else "",
        )


@dataclass(frozen=True)
class PairingsData:
    event_id: str
    round: int
    tables: tuple[PairingTable, ...]
    by_name: bool = True  # add the alphabetical notice-board list
    call_time: str = ""  # "19:30", when published


# ----------------------------------------------------------------------------------------------- standings
@dataclass(frozen=True)
class StandingsRow:
    rank: int
    name: str
    club: str = ""
    city: str = ""
    points: str = "0"
    tiebreaks: Mapping[str, str] = field(default_factory=dict)  # code -> printed value
    tied: bool = False
    playoff: bool = False  # rule BC2
    note: str = ""  # "disqualified", "withdrawn"...


@dataclass(frozen=True)
class StandingsData:
    event_id: str
    codes: tuple[str, ...]  # tie-break columns in order (CONTRACTS.md §3 codes; PTS is the points column)
    rows: tuple[StandingsRow, ...]
    explanations: tuple[str, ...] = ()  # each tie explained, one line each
    after_round: int | None = None
    final: bool = False


# ------------------------------------------------------------------------------------------------ brackets
@dataclass(frozen=True)
class BracketMatchData:
    """One match of a bracket. ``sides``: names (None while unknown); ``labels``: what to print for an
    unknown side ("winner of W1-3", "bye")."""

    id: str
    bracket: str  # "W", "L", "3P", "GF", "GF2"
    round: int
    number: int
    sides: tuple[str | None, str | None]
    labels: tuple[str, str] = ("", "")
    seeds: tuple[int | None, int | None] = (None, None)
    score: tuple[str, str] = ("", "")
    winner: int | None = None  # 0 or 1
    next_match: str | None = None  # where the winner goes (default: W r-j feeds W r+1-ceil(j/2))


@dataclass(frozen=True)
class BracketData:
    event_id: str
    kind: Literal["single", "double"]
    matches: tuple[BracketMatchData, ...]
    champion: str | None = None


# ---------------------------------------------------------------------------------------------- cross-table
@dataclass(frozen=True)
class CrossRow:
    rank: int
    name: str
    points: str
    cells: tuple[str, ...]  # per round: opponent's rank and result ("12+", "3−", "7=", "+" a bye, "" none)


@dataclass(frozen=True)
class CrossTable:
    event_id: str
    rounds: int
    rows: tuple[CrossRow, ...]
