"""Spanish federation dominoes (seed 002, RULES.md section C): hands to a target, games to a match.

Typed API underneath (:func:`parse_domino_entry`, :func:`score_domino` on frozen entry dataclasses), the
contract's :func:`replay_domino` on top (CONTRACTS.md §1), and :class:`DominoSheet` for editing a score sheet
(append / replace / delete an entry, everything recomputed from the entries).

Seats 0–3 in playing order: seat 0 is player 1 of rule E7 (the first leader), seat 1 player 2 (to his right),
seat 2 his partner, seat 3 player 4. Side 0 = seats 0 and 2 (the home pair, E6), side 1 = seats 1 and 3.
Explanations show seats and pairs numbered from 1, as the paper sheet does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from clubdesk.games.errors import EntryError
from clubdesk.games.ruleset import BhUnplayed, register_family
from clubdesk.i18n import _

__all__ = [
    "Abandon",
    "Annulled",
    "Block",
    "DominoEntry",
    "DominoGame",
    "DominoHand",
    "DominoMatch",
    "DominoOut",
    "DominoParams",
    "DominoSheet",
    "Penalty",
    "check_domino",
    "parse_domino_entry",
    "replay_domino",
    "score_domino",
]

SEATS = 4
MAX_HAND_PIPS = 69  # the 7 heaviest tiles of a double-six set: 12+11+10+10+9+9+8
SET_PIPS = 168  # all 28 tiles of a double-six set


@dataclass(frozen=True, slots=True)
class DominoParams:
    """Parameters of a Spanish dominoes ruleset (CONTRACTS.md §1). Defaults are the ``domino-es`` preset."""

    target: int = field(default=100, metadata={"min": 1})  # rule E18: game to an agreed total
    games_to_win: int = field(default=1, metadata={"min": 1})  # games that win the match
    allow_negative: bool = False  # a penalty may take a total below 0
    seat_swap: bool = True  # rule E7b: the pair that lost game 1 swaps seats in game 2
    # rule E20: an abandonment loses the game (partida); whether it also ends the match / encounter is this
    # parameter, off for domino-es (seed 002 says the pair loses the game)
    abandon_ends_match: bool = False
    # forfeit deadline after the table call (T3b reading)
    forfeit_from: Literal["start", "call"] = field(default="call", metadata={"optional": True})
    # CONTRACTS.md §1 names these for domino-es too (values: false, 0, 0, false). Seed 002 has no warm-up,
    # no opening minimum and no burn (rule E18: every hand counts), so they are accepted only at those values.
    warmup: Literal[False] = False
    open_first_min: int = field(default=0, metadata={"min": 0, "max": 0})
    open_again_min: int = field(default=0, metadata={"min": 0, "max": 0})
    burn: Literal[False] = False
    bh_unplayed: BhUnplayed = "fide"  # rule T12b / CONTRACTS.md §1: Buchholz of a round without an opponent


register_family("domino", DominoParams)


# ----------------------------------------------------------------------------------------------- entries


@dataclass(frozen=True, slots=True)
class DominoOut:
    """Seat ``seat`` went out (``{"type": "domino"}``) — rule E18."""

    seat: int
    pips: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Block:
    """A blocked hand, cierre / tranque (``{"type": "block"}``) — rule E18b."""

    pips: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Annulled:
    """A hand annulled after a false think or false pass — rules E15, E16."""

    lead_lost: bool


@dataclass(frozen=True, slots=True)
class Penalty:
    """Points taken from a side by the referee."""

    side: int
    points: int


@dataclass(frozen=True, slots=True)
class Abandon:
    """Side ``side`` abandons the game — rule E20."""

    side: int


DominoEntry = DominoOut | Block | Annulled | Penalty | Abandon


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _side(index: int, raw: Mapping[str, object], key: str = "side") -> int:
    side = _int(raw.get(key))
    if side not in (0, 1):
        raise EntryError(index, "unknown-side", _("unknown side {side!r}").format(side=raw.get(key)))
    return side


def _pips(index: int, raw: Mapping[str, object]) -> tuple[int, int, int, int]:
    value = raw.get("pips")
    if not isinstance(value, list | tuple) or len(value) != SEATS:
        raise EntryError(index, "bad-pips", _("pips must list the four seats' pip totals"))
    pips = [_int(p) for p in value]
    for p in pips:
        if p is None:
            raise EntryError(index, "bad-pips", _("pips must be whole numbers"))
        if not 0 <= p <= MAX_HAND_PIPS:
            msg = _("a hand holds between 0 and {max} pips, not {pips}").format(max=MAX_HAND_PIPS, pips=p)
            raise EntryError(index, "pips-out-of-range", msg)
    checked = [p for p in pips if p is not None]
    if sum(checked) > SET_PIPS:
        msg = _("all hands together hold at most {max} pips, not {pips}").format(
            max=SET_PIPS, pips=sum(checked)
        )
        raise EntryError(index, "pips-out-of-range", msg)
    return (checked[0], checked[1], checked[2], checked[3])


def parse_domino_entry(index: int, raw: Mapping[str, object]) -> DominoEntry:
    """Check one sheet entry (a dict of CONTRACTS.md §1) and turn it into a typed entry."""
    if not isinstance(raw, Mapping):
        raise EntryError(index, "bad-entry", _("an entry must be a table of fields"))
    kind = raw.get("type")
    if kind == "domino":
        seat = _int(raw.get("seat"))
        if seat is None or not 0 <= seat < SEATS:
            raise EntryError(index, "unknown-seat", _("unknown seat {seat!r}").format(seat=raw.get("seat")))
        pips = _pips(index, raw)
        if pips[seat] != 0:
            msg = _("seat {seat} went out but {pips} pips are left in his hand").format(
                seat=seat + 1, pips=pips[seat]
            )
            raise EntryError(index, "pips-with-player-out", msg)
        return DominoOut(seat, pips)
    if kind == "block":
        return Block(_pips(index, raw))
    if kind == "annulled":
        lead_lost = raw.get("lead_lost", False)
        if not isinstance(lead_lost, bool):
            raise EntryError(index, "bad-flag", _("lead_lost must be true or false"))
        return Annulled(lead_lost)
    if kind == "penalty":
        side = _side(index, raw)
        points = _int(raw.get("points"))
        if points is None or points <= 0:
            raise EntryError(index, "bad-points", _("a penalty takes a positive number of points"))
        return Penalty(side, points)
    if kind == "abandon":
        return Abandon(_side(index, raw))
    raise EntryError(index, "unknown-type", _("unknown entry type {type!r}").format(type=kind))


# ----------------------------------------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class DominoHand:
    """What one entry did: points added to each side, the totals after it, who led, who leads next."""

    entry: DominoEntry
    points: tuple[int, int]
    totals: tuple[int, int]
    leader: int
    next_leader: int
    explanation: str


@dataclass(frozen=True, slots=True)
class DominoGame:
    hands: tuple[DominoHand, ...]
    totals: tuple[int, int]
    winner: int | None
    seating: tuple[int, int, int, int]  # rule E7b: seating[s] = the player (by his game-1 seat) in seat s
    end: str | None  # None (in progress), "target" or "abandoned"


@dataclass(frozen=True, slots=True)
class DominoMatch:
    games: tuple[DominoGame, ...]
    games_won: tuple[int, int]
    winner: int | None
    finished: bool
    next_leader: int  # rule E7.3: the seat that leads the next hand

    def as_dict(self) -> dict[str, Any]:
        """The result shape of CONTRACTS.md §1 (plus extra keys for the sheet)."""
        return {
            "games": [
                {
                    "hands": [
                        {
                            "points": list(h.points),
                            "totals": list(h.totals),
                            "leader": h.leader,
                            "next_leader": h.next_leader,
                            "explanation": h.explanation,
                        }
                        for h in g.hands
                    ],
                    "totals": list(g.totals),
                    "winner": g.winner,
                    "seating": list(g.seating),
                    "end": g.end,
                }
                for g in self.games
            ],
            "games_won": list(self.games_won),
            "winner": self.winner,
            "finished": self.finished,
            "next_leader": self.next_leader,
        }


def _seat(seat: int) -> int:
    return seat + 1  # printed numbering (E7: players 1–4)


def _pair(side: int) -> int:
    return side + 1


def _terms(pips: Sequence[int]) -> str:
    return " + ".join(str(p) for p in pips)


class _Game:
    def __init__(self, seating: tuple[int, int, int, int]) -> None:
        self.hands: list[DominoHand] = []
        self.totals = [0, 0]
        self.winner: int | None = None
        self.seating = seating
        self.end: str | None = None

    def freeze(self) -> DominoGame:
        return DominoGame(
            tuple(self.hands), (self.totals[0], self.totals[1]), self.winner, self.seating, self.end
        )


def score_domino(entries: Sequence[DominoEntry], params: DominoParams, first_leader: int = 0) -> DominoMatch:
    """Score typed entries (already checked by :func:`parse_domino_entry`).

    Raises ``EntryError("match-finished")`` for an entry after the match has ended.
    """
    identity = (0, 1, 2, 3)
    games: list[_Game] = [_Game(identity)]
    games_won = [0, 0]
    match_winner: int | None = None
    leader = first_leader % SEATS
    for index, entry in enumerate(entries):
        if match_winner is not None:
            raise EntryError(index, "match-finished", _("the match has already ended"))
        game = games[-1]
        if game.winner is not None:  # the previous game ended: this entry opens the next one
            if params.seat_swap and len(games) == 1:
                # rule E7b: for game 2 of an encounter, the pair that lost game 1 swaps seats
                loser = 1 - game.winner
                seating = (2, 1, 0, 3) if loser == 0 else (0, 3, 2, 1)
            else:
                seating = game.seating
            game = _Game(seating)
            games.append(game)
        points = [0, 0]
        next_leader = leader
        text = ""
        if isinstance(entry, DominoOut):
            # rule E18: the winner's pair scores every pip still in hand, partner's and opponents'
            side = entry.seat % 2
            value = sum(entry.pips)
            points[side] = value
            next_leader = (leader + 1) % SEATS  # rule E7.3: the lead passes to the right
            text = _("seat {seat} goes out: {terms} = {value} to pair {pair}").format(
                seat=_seat(entry.seat), terms=_terms(entry.pips), value=value, pair=_pair(side)
            )
        elif isinstance(entry, Block):
            # rule E18b (Reading): compare the pairs' pip totals; the lower pair scores all pips; tie scores 0
            pair_pips = (entry.pips[0] + entry.pips[2], entry.pips[1] + entry.pips[3])
            value = sum(entry.pips)
            next_leader = (leader + 1) % SEATS  # rule E7.3
            if pair_pips[0] == pair_pips[1]:
                text = _(
                    "block: pair 1 {a} vs pair 2 {b}, tie: no points; lead passes to seat {seat}"
                ).format(a=pair_pips[0], b=pair_pips[1], seat=_seat(next_leader))
            else:
                side = 0 if pair_pips[0] < pair_pips[1] else 1
                points[side] = value
                text = _(
                    "block: pair 1 {a} vs pair 2 {b}; pair {pair} scores all pips {terms} = {value}"
                ).format(
                    a=pair_pips[0], b=pair_pips[1], pair=_pair(side), terms=_terms(entry.pips), value=value
                )
        elif isinstance(entry, Annulled):
            # rules E15, E16: an annulled hand scores nothing; with loss of the lead the lead passes (E7.3)
            if entry.lead_lost:
                next_leader = (leader + 1) % SEATS
                text = _("hand annulled, lead passes to seat {seat}").format(seat=_seat(next_leader))
            else:
                text = _("hand annulled, seat {seat} leads again").format(seat=_seat(leader))
        elif isinstance(entry, Penalty):
            before = game.totals[entry.side]
            after = before - entry.points
            if not params.allow_negative:
                after = max(after, min(before, 0))
            points[entry.side] = after - before
            text = _("penalty: {points} points taken from pair {pair}").format(
                points=entry.points, pair=_pair(entry.side)
            )
            if after - before != -entry.points:
                text += _(" (stops at 0)")
        else:  # Abandon
            # rule E20: the abandoning pair loses; the rivals get the points they need; the losers keep theirs
            other = 1 - entry.side
            points[other] = max(params.target - game.totals[other], 0)
            text = _("pair {pair} abandons: pair {other} gets {points} to reach {target}").format(
                pair=_pair(entry.side), other=_pair(other), points=points[other], target=params.target
            )
        game.totals = [game.totals[0] + points[0], game.totals[1] + points[1]]
        ended = ""
        if isinstance(entry, Abandon):
            game.winner, game.end = 1 - entry.side, "abandoned"
        elif max(game.totals) >= params.target and points[0] + points[1] > 0:
            # rule E18: the game is won on reaching the target; a last hand past it keeps its real total
            game.winner = 0 if game.totals[0] >= params.target else 1
            game.end = "target"
        if game.winner is not None:
            games_won[game.winner] += 1
            if isinstance(entry, Abandon) and params.abandon_ends_match:
                games_won[game.winner] = max(games_won[game.winner], params.games_to_win)
            if games_won[game.winner] >= params.games_to_win:
                match_winner = game.winner
            ended = _("; pair {pair} wins the game {a}–{b}").format(
                pair=_pair(game.winner), a=game.totals[0], b=game.totals[1]
            )
        game.hands.append(
            DominoHand(
                entry,
                (points[0], points[1]),
                (game.totals[0], game.totals[1]),
                leader,
                next_leader,
                text + ended,
            )
        )
        leader = next_leader
    return DominoMatch(
        tuple(g.freeze() for g in games),
        (games_won[0], games_won[1]),
        match_winner,
        match_winner is not None,
        leader,
    )


def parse_domino_entries(entries: Sequence[Mapping[str, object]]) -> list[DominoEntry]:
    return [parse_domino_entry(i, e) for i, e in enumerate(entries)]


def check_domino(
    entries: Sequence[Mapping[str, object]], params: DominoParams, first_leader: int = 0
) -> DominoMatch:
    """Check and score sheet entries; an ``EntryError`` names the FIRST impossible entry."""
    typed: list[DominoEntry] = []
    bad: EntryError | None = None
    for i, raw in enumerate(entries):
        try:
            typed.append(parse_domino_entry(i, raw))
        except EntryError as exc:
            bad = exc
            break
    match = score_domino(typed, params, first_leader)  # an error here comes before ``bad``
    if bad is not None:
        raise bad
    return match


def replay_domino(entries: Sequence[Mapping[str, object]], params: DominoParams) -> dict[str, Any]:
    """CONTRACTS.md §1 ``replay`` for the ``domino`` family: the whole sheet recomputed from its entries."""
    return check_domino(entries, params).as_dict()


# ----------------------------------------------------------------------------------------------- editing


@dataclass(frozen=True, slots=True)
class DominoSheet:
    """A score sheet: its entries are the source of truth; every edit recomputes from them.

    Each edit returns a new sheet or raises ``EntryError`` naming the first impossible entry (for a
    correction that ends the match earlier, the index of the later entry that no longer fits); the old sheet
    is untouched.
    """

    params: DominoParams = DominoParams()
    entries: tuple[Mapping[str, object], ...] = ()
    first_leader: int = 0

    @property
    def result(self) -> DominoMatch:
        return check_domino(self.entries, self.params, self.first_leader)

    def _with(self, entries: tuple[Mapping[str, object], ...]) -> DominoSheet:
        sheet = DominoSheet(self.params, entries, self.first_leader)
        sheet.result  # noqa: B018 - validates the whole sheet
        return sheet

    def append(self, entry: Mapping[str, object]) -> DominoSheet:
        return self._with((*self.entries, entry))

    def replace(self, k: int, entry: Mapping[str, object]) -> DominoSheet:
        if not 0 <= k < len(self.entries):
            raise EntryError(k, "no-such-entry", _("the sheet has no entry {k}").format(k=k))
        return self._with((*self.entries[:k], entry, *self.entries[k + 1 :]))

    def delete(self, k: int) -> DominoSheet:
        if not 0 <= k < len(self.entries):
            raise EntryError(k, "no-such-entry", _("the sheet has no entry {k}").format(k=k))
        return self._with((*self.entries[:k], *self.entries[k + 1 :]))
