"""Score sheets (gaple, dominoes, tavla): the recorded hands and the blank rows a table fills in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


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
    qr: str = ""  # the table's address on the phones while table entry is on ("": CONTRACTS §4)
    side_codes: tuple[str, str] = ("", "")  # each side's approval code on the phones (G13, E6, T8c)
    side_qr: tuple[str, str] = ("", "")  # each side's own address: the table's, its side and its code


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
    qr: str = ""  # the table's address on the phones while table entry is on ("": CONTRACTS §4)
    side_codes: tuple[str, str] = ("", "")  # each side's approval code on the phones (G13, E6, T8c)
    side_qr: tuple[str, str] = ("", "")  # each side's own address: the table's, its side and its code


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
    qr: str = ""  # the table's address on the phones while table entry is on ("": CONTRACTS §4)
    side_codes: tuple[str, str] = ("", "")  # each side's approval code on the phones (G13, E6, T8c)
    side_qr: tuple[str, str] = ("", "")  # each side's own address: the table's, its side and its code


ScoreSheetData = GapleSheetData | DominoSheetData | TavlaSheetData
