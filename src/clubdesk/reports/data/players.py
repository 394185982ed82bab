"""A player's view of an event and of his club life: the cross-table grid with each cell's opponent,
side and score, and the player card (rule T14: no phone or e-mail; incidents only for the organiser)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True)
class CrossCell:
    text: str  # as CrossRow.cells: the opponent's rank and the result ("3+", "+" a bye, "" none)
    round: int
    table: int | None = None
    opponent: str = ""
    side: str = ""  # "A" (first named at the table) or "B"
    score: str = ""  # own score first ("5–3")


@dataclass(frozen=True)
class CrossLine:
    rank: int
    name: str
    points: str
    cells: tuple[CrossCell, ...]


@dataclass(frozen=True)
class CrossTableView:
    event_id: int
    event_name: str
    rounds: tuple[int, ...]
    lines: tuple[CrossLine, ...]

    @property
    def texts(self) -> list[list[str]]:
        return [[c.text for c in line.cells] for line in self.lines]


@dataclass(frozen=True)
class CardEvent:
    event_id: int
    date: dt.date | None
    event: str
    game: str  # the ruleset's label
    place: str
    result: str  # "2 won, 1 lost"
    season_points: str
    rating: str  # the rating after the event's last rated match


@dataclass(frozen=True)
class CardMatch:
    event: str
    round: int
    table: int
    opponent: str
    side: str
    score: str
    result: str  # won / lost / drawn / bye / forfeit …
    rating: str  # tavla: the rating after this match


@dataclass(frozen=True)
class CardIncident:
    event: str
    round: str
    table: str
    kind: str
    decision: str
    text: str


@dataclass(frozen=True)
class PlayerCard:
    number: str
    name: str
    club: str
    city: str
    rating: str
    matches: int
    experience: int
    provisional: bool
    events: tuple[CardEvent, ...]
    results: tuple[CardMatch, ...]
    incidents: tuple[CardIncident, ...]
    incidents_shown: bool  # False: the actor may not see incidents (none were read)
