"""The match act: incidents, penalties, appeals and decisions of one table (rules G16, T10, E20)."""

from __future__ import annotations

from dataclasses import dataclass

from clubdesk.reports.data.sheets import SubstitutionLine


@dataclass(frozen=True)
class ActPlayer:
    name: str
    number: str = ""  # the club's member number
    licence: str = ""  # rule E15: federation licence number ("" when none: the club number is printed)


@dataclass(frozen=True)
class ActTeam:
    name: str
    players: tuple[ActPlayer, ...] = ()
    captain: str = ""


@dataclass(frozen=True)
class ActIncident:
    time: str
    kind: str  # printed label, e.g. "false pass (E16)"
    text: str
    table: int | None = None
    hand: int | None = None
    player: str = ""
    player_number: str = ""  # the club's member number
    player_licence: str = ""  # rule E15: the offender's federation licence number
    decision: str = ""
    recorded_by: str = ""
    count: int | None = None  # E19: 2nd, 3rd time by this pair in this game
    game: int | None = None  # the game (partida) of the encounter
    pair: str = ""  # the pair / side it concerns (E19.4)
    effect: str = ""  # what the decision did to the hand (E15): "hand 3 annulled: 0–0"
    intervention: str = ""  # E15: the captains and the referee who resolved it


@dataclass(frozen=True)
class ActPenalty:
    side: str
    kind: str
    reason: str
    points: int | None = None
    table: int | None = None
    decided_by: str = ""


@dataclass(frozen=True)
class ActAppeal:
    by: str
    filed_at: str
    text: str
    fee: int = 0
    currency: str = ""
    decision: str = ""  # "upheld" / "rejected" / "" pending
    reasons: str = ""
    refund: int = 0
    heard: str = ""  # notes of both sides heard


@dataclass(frozen=True)
class ActDecision:
    """A decision of art. 20 (rule E20): what the competent body decided, why, and what it produced."""

    decision: str  # printed label ("Validate the score at suspension")
    reason: str
    result: str  # e.g. "game 2: Pair 1 100 – Pair 2 45, won by Pair 1"
    table: int | None = None
    game: int | None = None
    side: str = ""
    decided_by: str = ""
    time: str = ""


@dataclass(frozen=True)
class ActApproval:
    """Rules G13, E6, T8c: a side's approval of its table's result, and how it was given ("own phone",
    "same phone with code", "at the desk"; already translated)."""

    table: int
    side: str
    approved_by: str
    how: str = ""


@dataclass(frozen=True)
class IncidentActData:
    """The match act, Acta del Encuentro (rules E8-E20, G2, G3, G16, T1, T9d, T10, T11)."""

    event_id: str
    round: int | None
    encounter: str  # "Club A - Club B" or "Round 3"
    teams: tuple[ActTeam, ...] = ()
    incidents: tuple[ActIncident, ...] = ()
    penalties: tuple[ActPenalty, ...] = ()
    appeals: tuple[ActAppeal, ...] = ()
    referee: str = ""
    table: int | None = None
    substitutions: tuple[SubstitutionLine, ...] = ()
    decisions: tuple[ActDecision, ...] = ()  # rule E20
    family: str = ""  # gaple / domino / tavla: a tavla side is one player, not a pair
    result: str = ""  # the encounter's result line: "Club A 3 – 1 Club B, won by Club A"
    approvals: tuple[ActApproval, ...] = ()  # each side's approval of each table, and how (G13, E6, T8c)
