"""Plain data the reports print: frozen dataclasses filled by ``services/reports.py`` (or a test).

No database, no Qt. Privacy (rule T14): the public classes have no phone or e-mail field at all, so a
public report cannot print one; only :class:`MemberHistory` and :class:`ContactList` (the organiser's
private lists) carry contact data, and their pages say "private".
Money is an ``int`` in the currency's minor unit with its ISO code; points are already-formatted text
or integers, as each class says.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

PageSize = Literal["A4", "Letter"]


@dataclass(frozen=True)
class ReportHeader:
    """The common frame of every page: who prints, what event, which round, when, in which language."""

    club_name: str
    event_name: str = ""
    logo_path: str | None = None
    round: int | None = None
    date: dt.date | None = None  # the event's (or round's) date
    language: str = "en"  # en / id / es / tr, or the pseudo-locale xx
    page_size: PageSize = "A4"
    printed_on: dt.datetime | None = None  # None: now (fixed in tests for reproducible files)


# ------------------------------------------------------------------------------------------ score sheets
@dataclass(frozen=True)
class RecordedScore:
    """A table's result recorded as a final score only (no hand or game entries), printed on its sheet.

    ``score``: tavla points, or dominoes games won; ``points``: dominoes game points when they were given;
    ``winner``: side 0 / 1 (None while unfinished or for a level encounter); ``forfeit``: awarded, not played.
    """

    score: tuple[int, int]
    points: tuple[int, int] | None = None
    winner: int | None = None
    forfeit: bool = False


@dataclass(frozen=True)
class GapleSheetData:
    """A gaple score sheet (rules G4-G11, G19, GN1-GN7, GS1-GS8, B4-B10).

    ``seats``: the four players in playing order (seat k+1 plays right after seat k, counter-clockwise,
    rule G5); pair A = seats 0 and 2, pair B = seats 1 and 3. ``entries``: the recorded entries of
    CONTRACTS.md §1 (empty: a blank sheet to fill in by hand).
    """

    event_id: str
    round: int
    table: int
    seats: tuple[str, str, str, str]
    pair_names: tuple[str, str] = ("", "")
    ruleset: str = "gaple-tournament"
    params: Mapping[str, object] | None = None
    entries: tuple[Mapping[str, object], ...] = ()
    blank_rows: int = 20  # one page even with long names and longer translations
    recorded: RecordedScore | None = None  # a final-score-only result (no entries)
    qr: str = ""  # issue 27: the table's address on the phones while table entry is on ("": CONTRACTS §4)


@dataclass(frozen=True)
class SubstitutionLine:
    """Rules E7.2, E20: a substitute takes a player's seat in a game, from a hand on."""

    side: str  # the pair or team
    player_out: str
    player_in: str
    game: int = 1
    from_hand: int | None = None  # None: not known (recorded before the hand was kept)
    reason: str = ""


@dataclass(frozen=True)
class DominoSheetData:
    """A Spanish federation score sheet, Hoja de Anotaciones (rules E6, E7, E7b, E7.3, E18, E18b).

    ``players``: players 1-4 as E7 numbers them (1 leader, 2 to his right, 3 his partner, 4 to his
    left); pair 1 = players 1 and 3 (the home pair, E6), pair 2 = players 2 and 4.
    ``initials``: the counter's initials per hand row (E6), when recorded.
    ``scorer``/``counter``: the players named by the home and the rival pair (E6); ``approvals``: the
    names or initials with which each side approved the result; ``referee_scored``: the referee who
    scored and counted himself (then ``scorer``/``counter`` approved for their pairs).
    """

    event_id: str
    round: int
    table: int
    players: tuple[str, str, str, str]
    pair_names: tuple[str, str] = ("", "")
    scorer: str = ""
    counter: str = ""
    ruleset: str = "domino-es"
    params: Mapping[str, object] | None = None
    entries: tuple[Mapping[str, object], ...] = ()
    initials: tuple[str, ...] = ()
    blank_rows: int = 14  # leaves room for the substitutions and both approvals (E6, E7.2)
    recorded: RecordedScore | None = None  # a final-score-only result (no entries)
    encounter: bool = False  # one game of a team encounter (E7b): ``recorded`` is the encounter's score
    seat_note: str = ""  # rule E7: equal tiles drawn again among the tied (said on the sheet)
    game: int = 0  # the game of the encounter this sheet is for (0: the whole match)
    approvals: tuple[str, str] = ("", "")
    referee_scored: str = ""
    referee: str = ""
    substitutions: tuple[SubstitutionLine, ...] = ()
    qr: str = ""  # issue 27: the table's address on the phones while table entry is on ("": CONTRACTS §4)


@dataclass(frozen=True)
class TavlaSheetData:
    """A tavla match sheet (rules T7a-T7c, T8a, T8b, T8c, T9a, T9d)."""

    event_id: str
    round: int
    table: int
    players: tuple[str, str]
    clubs: tuple[str, str] = ("", "")
    ruleset: str = "tavla"
    params: Mapping[str, object] | None = None
    entries: tuple[Mapping[str, object], ...] = ()
    recorded: RecordedScore | None = None  # a final-score-only result (no entries)
    qr: str = ""  # issue 27: the table's address on the phones while table entry is on ("": CONTRACTS §4)


ScoreSheetData = GapleSheetData | DominoSheetData | TavlaSheetData


# ------------------------------------------------------------------------------------------------ pairings
@dataclass(frozen=True)
class PairingSide:
    name: str
    club: str = ""
    city: str = ""
    number: str = ""  # member number or entrant id, printed small
    points: str = ""  # points before the round


@dataclass(frozen=True)
class PairingTable:
    table: int
    sides: tuple[PairingSide, PairingSide | None]  # None: a bye
    result: str = ""  # "3-1" once known

    def shared_row(self) -> tuple[str, str, str, str, str, str]:
        """Table, side 1, its points, result, side 2 (or BYE), its points: the pairings row of the shared
        images and of the static site (issue 28)."""
        from clubdesk.i18n import _

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


# --------------------------------------------------------------------------------------------- match act
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


# ------------------------------------------------------------------------------------------------ receipts
@dataclass(frozen=True)
class ReceiptLine:
    description: str
    amount: int


@dataclass(frozen=True)
class ReceiptData:
    """A payment receipt carrying the check-in QR (rules T2b, T3a)."""

    event_id: str
    receipt_no: str
    name: str
    checkin_code: str
    currency: str
    lines: tuple[ReceiptLine, ...]
    paid: int
    number: str = ""
    club: str = ""
    method: str = ""
    reference: str = ""
    paid_on: dt.date | None = None
    partner: str = ""
    owed: int | None = None  # still due, from the desk service (None: the lines' total less ``paid``)


# -------------------------------------------------------------------------------------------------- prizes
@dataclass(frozen=True)
class PrizeRow:
    place: str  # "1", "5-8", or a category label
    name: str
    prize: str  # "money", "trophy"... already translated, with its description
    amount: int = 0
    club: str = ""
    paid: bool = False
    paid_on: dt.date | None = None
    method: str = ""


@dataclass(frozen=True)
class PlanLine:
    """One place of the event's prize plan (T13a, T13b): its money (fixed + pool share, as the prize
    engine apportions it) and items, and the entrant(s) holding that place once the event is over."""

    place: str
    amount: int = 0
    items: str = ""
    entrants: tuple[str, ...] = ()
    fixed: int = 0
    share: int = 0  # basis points of the pool (10 000 = 100 %)


@dataclass(frozen=True)
class PrizeListData:
    event_id: str
    currency: str
    rows: tuple[PrizeRow, ...]
    pool: int = 0  # the money pool (T13b)
    plan: tuple[PlanLine, ...] = ()
    has_plan: bool = False
    entrants: int = 0  # entrants of the event
    collected: int = 0  # fees collected net of refunds (T13b)
    pool_rate: int = 0  # basis points
    final: bool = False  # the event is over: the places are known


# -------------------------------------------------------------------------------------------------- season
@dataclass(frozen=True)
class SeasonRowData:
    rank: int
    name: str
    points: int
    club: str = ""
    city: str = ""
    events: tuple[str, ...] = ()  # per event column: points, "" not played, "(12)" dropped
    note: str = ""
    points_text: str = ""  # printed instead of ``points`` when set (e.g. "12.50" from centipoints)


@dataclass(frozen=True)
class SeasonData:
    """The season ranking with the Super Final line (rule T12d)."""

    season: str
    event_columns: tuple[str, ...]
    rows: tuple[SeasonRowData, ...]
    super_final: int = 0  # the first N are invited; a line is drawn after them
    best_of: int | None = None
    events_total: int = 0  # events of the season with a final ranking (the M of "best N of M")


# ------------------------------------------------------------------------------------ private (T14)
@dataclass(frozen=True)
class HistoryRow:
    date: dt.date
    event: str
    place: str = ""
    result: str = ""
    season_points: str = ""
    rating: str = ""


@dataclass(frozen=True)
class MemberHistory:
    """A member's own history: private, contact data included (rule T14)."""

    name: str
    number: str
    rows: tuple[HistoryRow, ...]
    club: str = ""
    city: str = ""
    phone: str = ""
    email: str = ""
    rating: str = ""


@dataclass(frozen=True)
class ContactRow:
    name: str
    number: str = ""
    club: str = ""
    phone: str = ""
    email: str = ""
    status: str = ""


@dataclass(frozen=True)
class ContactList:
    """The organiser's private list of entrants with phone and e-mail (rule T14)."""

    event_id: str
    rows: tuple[ContactRow, ...]
