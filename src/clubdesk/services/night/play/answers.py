"""The typed answers of the night's use cases that change more than one table's result or sheet (a hand,
a score, an approval answer :class:`~clubdesk.services.night.play.table_change.HandResult`): a round
published or taken back, a table's sides named, a withdrawal. Each says what changed
(:class:`~clubdesk.services.kernel.changes.Changes`), from which a screen refreshes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clubdesk.services.kernel import Changes
from clubdesk.services.night.data.reads import RoundView


@dataclass(frozen=True)
class RoundResult:
    """A round proposed, edited, published or taken back: the round as it is now, and what changed."""

    round: RoundView
    changes: Changes


@dataclass(frozen=True)
class RoundDiscarded:
    """A proposed round thrown away: its number, and what changed."""

    number: int
    changes: Changes


@dataclass(frozen=True)
class CaptainsResult:
    """The captains of a table's sides (member numbers, "" for none: seed 002 art. 15, 20)."""

    home: str
    away: str
    changes: Changes


@dataclass(frozen=True)
class SeatsResult:
    """A table's seats after a substitution (E7b, E20): ``{"game1": [...], ...}`` as stored."""

    seats: dict[str, Any]
    changes: Changes


@dataclass(frozen=True)
class WithdrawalResult:
    """A player withdrawn from play (T9b): the tables he forfeited, and what changed."""

    tables: list[int]
    changes: Changes
