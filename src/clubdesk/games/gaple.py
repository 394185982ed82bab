"""The gaple engine: hands to a target, games to a match (RULES.md sections A and B, CONTRACTS.md §1).

Typed API: :func:`parse_entry` turns a sheet entry (a plain mapping) into a frozen hand entry
(:class:`Out`, :class:`Block`, :class:`Redeal`, :class:`SixDoubles`, :class:`Penalty`); :class:`GapleMatch`
applies entries one by one (validating each one completely before anything changes) and :func:`score_match`
gives a frozen :class:`MatchState`. :func:`replay_gaple` is the plain-dict face used by
``clubdesk.games.replay``.

Seats 0–3 in playing order (counter-clockwise, rule G5); side 0 = seats 0 and 2, side 1 = seats 1 and 3.
Messages and explanations number seats 1–4 and sides 1–2 (or use the seat names), as the paper sheet,
the screens and the other engines do; codes, indices and entry fields stay 0-based (CONTRACTS.md §1).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from clubdesk.games.errors import EntryError
from clubdesk.games.ruleset import GapleParams
from clubdesk.i18n import _

__all__ = [
    "MAX_HAND_PIPS",
    "MAX_TOTAL_PIPS",
    "Block",
    "Entry",
    "GameState",
    "GapleMatch",
    "GapleParams",
    "HandKind",
    "HandResult",
    "MatchState",
    "NextHand",
    "Out",
    "Penalty",
    "Redeal",
    "SixDoubles",
    "entry_to_dict",
    "parse_entry",
    "replay_gaple",
    "score_match",
]

MAX_HAND_PIPS = 69  # 6-6, 6-5, 5-5, 6-4, 5-4, 6-3, 4-4: 12+11+10+10+9+9+8, the most 7 tiles can hold
MAX_TOTAL_PIPS = 168  # the whole double-six set
SEATS = 4


def side_of(seat: int) -> int:
    """Side 0 = seats 0 and 2, side 1 = seats 1 and 3."""
    return seat % 2


# --------------------------------------------------------------------------------------------- entries


@dataclass(frozen=True, slots=True)
class Out:
    """Seat ``seat`` went out (rules GN1, GS1–GS7, B6). ``pips``: what each seat still holds, face values."""

    seat: int
    pips: tuple[int, int, int, int]
    last_tile: str | None = None  # "0-0", "6-6" or None
    two_ends: bool = False
    dead_00: int | None = None  # seat holding a dead 0-0
    dead_66: int | None = None  # seat holding a dead 6-6


@dataclass(frozen=True, slots=True)
class Block:
    """Seat ``seat`` played the blocking tile; duel against seat (seat - 1) mod 4 (GN2, GN7, G17, B5).

    ``dead_00`` / ``dead_66``: the seat holding a caught 0-0 / 6-6, for rule B6's fine in a blocked hand."""

    seat: int
    pips: tuple[int, int, int, int]
    dead_00: int | None = None
    dead_66: int | None = None


@dataclass(frozen=True, slots=True)
class Redeal:
    """A hand dealt again: scores nothing, stays on the sheet (rules G11, G14, B9, B10)."""


@dataclass(frozen=True, slots=True)
class SixDoubles:
    """Seat ``seat`` was dealt six doubles: that side wins the current game (rule B9)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Penalty:
    """``points`` taken from side ``side`` (rules G3, B7); 0 points = a warning."""

    side: int
    points: int


Entry = Out | Block | Redeal | SixDoubles | Penalty


class HandKind(StrEnum):
    OUT = "out"
    BLOCK = "block"
    REDEAL = "redeal"
    REPLAY = "replay"  # a drawn duel under duel_tie = "replay" (rule B5)
    SIX_DOUBLES = "six_doubles"
    PENALTY = "penalty"


def _fail(index: int, code: str, message: str) -> EntryError:
    return EntryError(index, code, message)


def _side_label(side: int, seat_names: Sequence[str] | None) -> str:
    """A side as people call it: the names of its two players, else "side 1" / "side 2"."""
    if seat_names is not None:
        return _("{a} and {b}").format(a=seat_names[side], b=seat_names[side + 2])
    return _("side {side}").format(side=side + 1)


def _seat_label(seat: int, seat_names: Sequence[str] | None) -> str:
    """A seat as people call it: the player's name, else "seat 1" to "seat 4" (as on the sheet)."""
    if seat_names is not None:
        return seat_names[seat]
    return _("seat {seat}").format(seat=seat + 1)


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_seat(index: int, raw: Mapping[str, object], key: str = "seat") -> int:
    value = raw.get(key)
    if not _int(value) or not 0 <= value < SEATS:  # type: ignore[operator]
        msg = _("unknown seat {seat!r}: an entry numbers the seats 0 to 3 (seats 1 to 4 on the sheet)")
        raise _fail(index, "unknown-seat", msg.format(seat=value))
    assert isinstance(value, int)
    return value


def _parse_pips(
    index: int, raw: Mapping[str, object], seat_names: Sequence[str] | None = None
) -> tuple[int, int, int, int]:
    value = raw.get("pips")
    if not isinstance(value, list | tuple) or len(value) != SEATS or not all(_int(p) for p in value):
        raise _fail(index, "bad-pips", _("pips must be four whole numbers, one per seat"))
    pips = (int(value[0]), int(value[1]), int(value[2]), int(value[3]))
    for seat, p in enumerate(pips):
        if not 0 <= p <= MAX_HAND_PIPS:
            msg = _("{who} shows {pips} pips; a hand holds 0 to {max}")
            who = _seat_label(seat, seat_names)
            raise _fail(index, "pips-out-of-range", msg.format(who=who, pips=p, max=MAX_HAND_PIPS))
    if sum(pips) > MAX_TOTAL_PIPS:
        msg = _("the hands show {pips} pips together; the whole set has {max}")
        raise _fail(index, "pips-out-of-range", msg.format(pips=sum(pips), max=MAX_TOTAL_PIPS))
    return pips


def _parse_dead(index: int, raw: Mapping[str, object]) -> tuple[int | None, int | None]:
    dead = raw.get("dead")
    if dead is None:
        return None, None
    if not isinstance(dead, Mapping) or any(k not in ("0-0", "6-6") for k in dead):
        raise _fail(index, "bad-tile", _('"dead" names only the tiles 0-0 and 6-6'))
    holders: list[int | None] = []
    for tile in ("0-0", "6-6"):
        holder = dead.get(tile)
        if holder is None:
            holders.append(None)
        elif not _int(holder) or not 0 <= holder < SEATS:
            msg = _("unknown seat {seat!r} holding a dead {tile}: an entry numbers the seats 0 to 3")
            raise _fail(index, "unknown-seat", msg.format(seat=holder, tile=tile))
        else:
            holders.append(int(holder))
    return holders[0], holders[1]


def parse_entry(index: int, raw: Mapping[str, object], seat_names: Sequence[str] | None = None) -> Entry:
    """Validate one sheet entry on its own (the match context is checked by :class:`GapleMatch`).

    ``seat_names`` (the four players in seat order), when given, name the seats in the messages.
    """
    if not isinstance(raw, Mapping):
        raise _fail(index, "bad-entry", _("an entry must be a table of values"))
    kind = raw.get("type")
    if kind == "out":
        seat = _parse_seat(index, raw)
        pips = _parse_pips(index, raw, seat_names)
        last = raw.get("last_tile")
        if last not in (None, "0-0", "6-6"):
            raise _fail(index, "bad-tile", _("the last tile is noted only when it is 0-0 or 6-6"))
        two_ends = raw.get("two_ends", False)
        if not isinstance(two_ends, bool):
            raise _fail(index, "bad-flag", _('"two_ends" must be true or false'))
        dead_00, dead_66 = _parse_dead(index, raw)
        if pips[seat] != 0:
            msg = _("{who} went out but shows {pips} pips")
            who = _seat_label(seat, seat_names)
            raise _fail(index, "pips-with-player-out", msg.format(who=who, pips=pips[seat]))
        for tile, holder in (("0-0", dead_00), ("6-6", dead_66)):
            if holder == seat:
                msg = _("{who} went out, so cannot hold a dead {tile}")
                who = _seat_label(seat, seat_names)
                raise _fail(index, "dead-double-out-player", msg.format(who=who, tile=tile))
            if holder is not None and last == tile:
                msg = _("{tile} was the last tile played, so it cannot be dead in a hand")
                raise _fail(index, "dead-double-played", msg.format(tile=tile))
        if dead_66 is not None and pips[dead_66] < 12:
            msg = _("{who} holds a dead 6-6 but shows only {pips} pips (6-6 alone is 12)")
            who = _seat_label(dead_66, seat_names)
            raise _fail(index, "dead-66-pips", msg.format(who=who, pips=pips[dead_66]))
        if two_ends and last is not None:
            # rule GS1/GS2: "two ends" is never a double
            raise _fail(index, "two-ends-double", _("going out on two ends cannot be with a double"))
        return Out(seat, pips, None if last is None else str(last), two_ends, dead_00, dead_66)
    if kind == "block":
        seat = _parse_seat(index, raw)
        pips = _parse_pips(index, raw, seat_names)
        # rule B6: a "dead" table names who holds a caught double (fined in a blocked hand too)
        dead_00, dead_66 = _parse_dead(index, raw)
        if dead_66 is not None and pips[dead_66] < 12:
            msg = _("{who} holds a dead 6-6 but shows only {pips} pips (6-6 alone is 12)")
            who = _seat_label(dead_66, seat_names)
            raise _fail(index, "dead-66-pips", msg.format(who=who, pips=pips[dead_66]))
        return Block(seat, pips, dead_00, dead_66)
    if kind == "redeal":
        return Redeal()
    if kind == "six_doubles":
        return SixDoubles(_parse_seat(index, raw))
    if kind == "penalty":
        side = raw.get("side")
        if not _int(side) or side not in (0, 1):
            msg = _("unknown side {side!r}: an entry numbers the sides 0 and 1 (sides 1 and 2 on the sheet)")
            raise _fail(index, "unknown-side", msg.format(side=side))
        points = raw.get("points")
        if not _int(points) or points < 0:  # type: ignore[operator]
            msg = _("penalty points must be a whole number of 0 or more, not {points!r}")
            raise _fail(index, "bad-points", msg.format(points=points))
        assert isinstance(side, int) and isinstance(points, int)
        return Penalty(side, points)
    raise _fail(index, "unknown-type", _("unknown entry type {type!r} for gaple").format(type=kind))


def entry_to_dict(entry: Entry) -> dict[str, object]:
    """The plain sheet entry (CONTRACTS.md §1) for a typed entry."""
    if isinstance(entry, Out):
        return {
            "type": "out",
            "seat": entry.seat,
            "pips": list(entry.pips),
            "last_tile": entry.last_tile,
            "two_ends": entry.two_ends,
            "dead": {"0-0": entry.dead_00, "6-6": entry.dead_66},
        }
    if isinstance(entry, Block):
        out: dict[str, object] = {"type": "block", "seat": entry.seat, "pips": list(entry.pips)}
        if entry.dead_00 is not None or entry.dead_66 is not None:
            out["dead"] = {"0-0": entry.dead_00, "6-6": entry.dead_66}
        return out
    if isinstance(entry, Redeal):
        return {"type": "redeal"}
    if isinstance(entry, SixDoubles):
        return {"type": "six_doubles", "seat": entry.seat}
    return {"type": "penalty", "side": entry.side, "points": entry.points}


# ----------------------------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class HandResult:
    """What one entry did. ``points`` excludes a burn; ``totals`` includes it."""

    index: int
    game: int
    kind: HandKind
    points: tuple[int, int]
    totals: tuple[int, int]
    explanation: str
    pure: int | None = None  # pure value (rule GN4) of a scoring hand
    scorer: int | None = None  # the side the hand's value went to (or would have gone to)
    opened: bool = True  # False when the opening minimum was not reached (GN4, B8)
    warmup: bool = False  # the warm-up hand (G6, G7)
    burned: int | None = None  # the side burned to 0 by this entry (GN6)
    fined: tuple[int, int] = (0, 0)  # caught-double fines (B6)


@dataclass(frozen=True, slots=True)
class GameState:
    hands: tuple[HandResult, ...]
    totals: tuple[int, int]
    winner: int | None


@dataclass(frozen=True, slots=True)
class NextHand:
    """What the sheet needs next (rules G6, G8, G9, G10, G19, B4)."""

    game: int  # index of the game the next entry belongs to
    warmup: bool  # the next hand is the warm-up (G6)
    leader: int | None  # suggested leader seat, None when a tile decides it
    leader_rule: str | None  # the rule behind the suggestion
    opening_tile: str | None  # the tile that must open the next hand ("0-0", "1-0", ...)
    seat_change: bool  # opponents change seats before the next hand (G19)
    # rule B3: tiles that may not lead the next hand (every hand, not only the first); the partner may lead
    barred_leads: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchState:
    games: tuple[GameState, ...]
    games_won: tuple[int, int]
    winner: int | None
    finished: bool
    next: NextHand | None  # None once the match has finished


# ------------------------------------------------------------------------------------------------ engine


class GapleMatch:
    """A gaple match fed one entry at a time. ``apply`` validates an entry fully before changing anything."""

    def __init__(self, params: GapleParams | None = None, seat_names: Sequence[str] | None = None) -> None:
        self.params = params or GapleParams()
        if seat_names is not None and len(seat_names) != SEATS:
            raise ValueError("seat_names must name the four seats")
        self.seat_names = None if seat_names is None else tuple(seat_names)
        self._games: list[list[HandResult]] = []
        self._game_winners: list[int | None] = []
        self._totals = [0, 0]
        self._games_won = [0, 0]
        self._scored = [False, False]  # a side has scored in this match (GN4)
        self._warmup_pending = self.params.warmup  # rule G6
        self._game_over = False  # the current game has a winner; the next entry starts a new one
        self._count = 0
        # what the sheet needs next
        self._leader: int | None = None
        self._leader_rule: str | None = "G6" if self.params.opening_tiles and self.params.warmup else None
        self._opening_tile: str | None = "0-0" if self.params.opening_tiles and self.params.warmup else None

    # --------------------------------------------------------------------------------------- queries
    @property
    def finished(self) -> bool:
        return max(self._games_won) >= self.params.games_to_win

    @property
    def winner(self) -> int | None:
        for side in (0, 1):
            if self._games_won[side] >= self.params.games_to_win:
                return side
        return None

    def state(self) -> MatchState:
        games = tuple(
            GameState(tuple(hands), hands[-1].totals if hands else (0, 0), self._game_winners[g])
            for g, hands in enumerate(self._games)
        )
        nxt: NextHand | None = None
        if not self.finished:
            nxt = NextHand(
                game=len(self._games) if (self._game_over or not self._games) else len(self._games) - 1,
                warmup=self._warmup_pending,
                leader=self._leader,
                leader_rule=self._leader_rule,
                opening_tile=self._opening_tile,
                seat_change=self._game_over and self.params.seat_change,
                barred_leads=("0-0", "6-6") if self.params.double_lead_barred else (),
            )
        return MatchState(games, (self._games_won[0], self._games_won[1]), self.winner, self.finished, nxt)

    # --------------------------------------------------------------------------------------- apply
    def apply_raw(self, raw: Mapping[str, object]) -> HandResult:
        """Validate and apply a plain sheet entry (its index is the number of entries so far)."""
        return self._apply(parse_entry(self._count, raw, self.seat_names))

    def apply(self, entry: Entry) -> HandResult:
        """Validate and apply a typed entry (checked exactly like the plain sheet entry it stands for)."""
        return self._apply(parse_entry(self._count, entry_to_dict(entry), self.seat_names))

    def _apply(self, entry: Entry) -> HandResult:
        index = self._count
        if self.finished:
            raise _fail(index, "match-finished", _("the match has already ended"))
        if isinstance(entry, SixDoubles) and not self.params.six_doubles_wins:
            raise _fail(index, "not-in-ruleset", _("six doubles dealt is not a result in this ruleset"))
        p = self.params
        totals = list((0, 0) if self._game_over or not self._games else self._totals)
        game = len(self._games) if (self._game_over or not self._games) else len(self._games) - 1
        if isinstance(entry, Out):
            hand = self._out(index, game, entry, totals)
        elif isinstance(entry, Block):
            hand = self._block(index, game, entry, totals)
        elif isinstance(entry, Redeal):
            # rules G11, G14, B9, B10: the hand is dealt again and scores nothing
            hand = HandResult(
                index, game, HandKind.REDEAL, (0, 0), (totals[0], totals[1]), _("redeal: no score")
            )
        elif isinstance(entry, SixDoubles):
            hand = self._six_doubles(index, game, entry, totals)
        else:
            hand = self._penalty(index, game, entry, totals)
        # ---- commit (nothing above changed self) ----
        if game == len(self._games):
            self._games.append([])
            self._game_winners.append(None)
            self._game_over = False
        self._games[game].append(hand)
        self._totals = [hand.totals[0], hand.totals[1]]
        self._count += 1
        if hand.scorer is not None and hand.points[hand.scorer] + hand.fined[hand.scorer] > 0:
            self._scored[hand.scorer] = True  # rule GN4: the side has scored in this match
        if hand.kind in (HandKind.OUT, HandKind.BLOCK):
            self._warmup_pending = False
        self._update_next(entry, hand)
        winner = next((s for s in (0, 1) if hand.totals[s] >= p.target), None)  # rule GN3
        if winner is not None:
            self._game_winners[game] = winner
            self._games_won[winner] += 1
            self._game_over = True
            self._next_game_opening()
        return hand

    # --------------------------------------------------------------------------------------- scoring
    def _opening_min(self, side: int, total: int) -> int:
        """Rule GN4 (and B8): the value a side at 0 or less needs for its hand to count."""
        if total > 0:
            return 0
        return self.params.open_again_min if self._scored[side] else self.params.open_first_min

    def _score(
        self,
        index: int,
        game: int,
        kind: HandKind,
        scorer: int,
        pure: int,
        mult: int,
        totals: list[int],
        parts: list[str],
        fines: tuple[int, int] = (0, 0),
    ) -> HandResult:
        """Common tail of a scoring hand: warm-up, opening minimum, multiplier, burn, fines."""
        p = self.params
        names = self.seat_names
        if self._warmup_pending:
            # rule G6, G7: the first non-redeal hand of the match is the warm-up and scores nothing
            parts.append(_("warm-up hand: scores nothing"))
            return HandResult(
                index, game, kind, (0, 0), (totals[0], totals[1]), "; ".join(parts), pure, scorer, True, True
            )
        need = self._opening_min(scorer, totals[scorer])
        if p.open_on == "won":
            # rule B8 (open_on = "won"): tested on the points the hand actually gives, x2 included
            tested = pure * mult
        else:
            # rule GN4, GN5 (open_on = "pure"): tested on the pure value, before any x2
            tested = pure
        opened = tested >= need
        gain = pure * mult if opened else 0
        if need > 0:
            if p.open_on == "won" and mult != 1:
                # rule B8: say that the points won (after the x2) were tested, not the pure value
                if opened:
                    parts.append(_("{value} won ≥ {need}: opens").format(value=tested, need=need))
                else:
                    parts.append(_("{value} won < {need}: does not open").format(value=tested, need=need))
            elif opened:
                parts.append(_("opens (≥ {need})").format(need=need))
            else:
                parts.append(_("{pure} < {need}: does not open").format(pure=tested, need=need))
        other = 1 - scorer
        before = list(totals)
        totals[scorer] += gain
        burned: int | None = None
        if (
            p.burn
            and gain > 0
            and before[scorer] <= before[other]
            and totals[scorer] > totals[other]
            and totals[other] > 0
        ):
            # rule GN6: the overtaken score (behind or level before, strictly ahead after) is burned to 0
            burned = other
            totals[other] = 0
            msg = _("{a} overtakes: {b} burned to 0")
            parts.append(msg.format(a=_side_label(scorer, names), b=_side_label(other, names)))
        points = [0, 0]
        points[scorer] = gain
        fined = [0, 0]
        for side in (0, 1):
            if fines[side]:
                taken = self._deduct(totals, side, fines[side])
                fined[side] = taken
                points[side] -= taken
        return HandResult(
            index,
            game,
            kind,
            (points[0], points[1]),
            (totals[0], totals[1]),
            "; ".join(parts),
            pure,
            scorer,
            opened,
            False,
            burned,
            (fined[0], fined[1]),
        )

    def _deduct(self, totals: list[int], side: int, amount: int) -> int:
        """Take ``amount`` from a side's total, stopping at 0 unless allow_negative (G3, B7)."""
        if self.params.allow_negative:
            taken = amount
        else:
            taken = max(0, min(amount, totals[side]))
        totals[side] -= taken
        return taken

    def _out(self, index: int, game: int, e: Out, totals: list[int]) -> HandResult:
        p = self.params
        names = self.seat_names
        scorer = side_of(e.seat)
        opponents = ((e.seat + 1) % SEATS, (e.seat + 3) % SEATS)
        face = (
            e.pips[opponents[0]] + e.pips[opponents[1]]
        )  # rule GN1: both opponents' pips, not the partner's
        parts = [_("opponents {pips}").format(pips=face)]
        value = face
        fines = [0, 0]
        if p.caught_double == "count":
            # rules GS3, GS4: a dead 0-0 / 6-6 counts its special value, only in an opponent's hand (GN1)
            if e.dead_66 is not None and e.dead_66 in opponents:
                value += p.dead_66 - 12
                parts.append(_("6-6 dead ({value} instead of 12)").format(value=p.dead_66))
            if e.dead_00 is not None and e.dead_00 in opponents:
                value += p.dead_00
                parts.append(_("0-0 dead ({value})").format(value=p.dead_00))
        else:
            # rule B6: the side holding a caught 0-0 / 6-6 is fined; the count uses face values
            if e.dead_00 is not None:
                fines[side_of(e.dead_00)] += p.dead_00
            if e.dead_66 is not None:
                fines[side_of(e.dead_66)] += p.dead_66
        if e.last_tile is not None:
            bonus = p.out_00 if e.last_tile == "0-0" else p.out_66
            if p.out_double_mode == "plus":
                # rules GS5, GS6, GS7 and B6 (Reading): going out with 0-0 / 6-6 adds its value to the
                # normal count (seed 001: 40 left + 50 for 0-0 = 90; 35 + 100 for 6-6 = 135)
                value += bonus
                parts.append(_("out with {tile} (+{value})").format(tile=e.last_tile, value=bonus))
            else:
                # rule B6: going out with 0-0 / 6-6 is worth exactly that for the hand
                value = bonus
                parts = [_("out with {tile}: {value}").format(tile=e.last_tile, value=bonus)]
        text = " + ".join(parts)
        if len(parts) > 1:
            text += f" = {value}"
        out_parts = [text]
        mult = 1
        if e.two_ends and p.two_ends_mult != 1:
            # rule GS1/GS2: out on two ends multiplies the whole value, special values included
            mult = p.two_ends_mult
            out_parts.append(_("two ends ×{mult} = {value}").format(mult=mult, value=value * mult))
        for side in (0, 1):
            if fines[side]:
                msg = _("{side} fined {points} for a caught double")
                out_parts.append(msg.format(side=_side_label(side, names), points=fines[side]))
        hand = self._score(
            index, game, HandKind.OUT, scorer, value, mult, totals, out_parts, (fines[0], fines[1])
        )
        return hand

    def _block(self, index: int, game: int, e: Block, totals: list[int]) -> HandResult:
        p = self.params
        names = self.seat_names
        blocker = e.seat
        duelled = (e.seat - 1) % SEATS  # rule G17, B5: duel against the player just before him in turn order
        count = sum(e.pips) - e.pips[blocker]  # rule GN2: all hands but the penggaple's; GS8: face values
        a, b = e.pips[blocker], e.pips[duelled]
        head = _("block: {blocker} {a} vs {duelled} {b}").format(
            blocker=_seat_label(blocker, names), a=a, duelled=_seat_label(duelled, names), b=b
        )
        if a == b and p.duel_tie == "replay":
            # rule B5: a drawn duel replays the hand
            text = head + ", " + _("tie → hand replayed")
            return HandResult(index, game, HandKind.REPLAY, (0, 0), (totals[0], totals[1]), text)
        if a < b:
            # rule GN2: the penggaple wins the duel (lower pip total): his pair scores the count
            scorer, mult = side_of(blocker), 1
            text = head + ", " + _("blocker wins; {count} to {side}")
            text = text.format(count=count, side=_side_label(scorer, names))
        else:
            # rule GN2: the penggaple loses (higher total) -> duelled pair scores mult x count;
            # rule GN7: equal totals -> the penggaple loses, whatever the number of tiles
            scorer, mult = side_of(duelled), p.duel_loss_mult
            lost = _("tie → blocker loses") if a == b else _("blocker loses")
            text = head + ", " + lost + "; "
            if mult != 1:
                text += _("{mult} × {count} = {value} to {side}").format(
                    mult=mult, count=count, value=mult * count, side=_side_label(scorer, names)
                )
            else:
                text += _("{count} to {side}").format(count=count, side=_side_label(scorer, names))
        parts = [text]
        fines = [0, 0]
        if p.caught_double == "fine" and p.fine_in_block:
            # rule B6 (Reading): seed 001 has no exception like GS8, so a caught 0-0 / 6-6 is fined in a
            # blocked hand too; the count keeps the face values
            if e.dead_00 is not None:
                fines[side_of(e.dead_00)] += p.dead_00
            if e.dead_66 is not None:
                fines[side_of(e.dead_66)] += p.dead_66
            for side in (0, 1):
                if fines[side]:
                    msg = _("{side} fined {points} for a caught double")
                    parts.append(msg.format(side=_side_label(side, names), points=fines[side]))
        return self._score(
            index, game, HandKind.BLOCK, scorer, count, mult, totals, parts, (fines[0], fines[1])
        )

    def _six_doubles(self, index: int, game: int, e: SixDoubles, totals: list[int]) -> HandResult:
        # rule B9 (Reading): six doubles dealt wins the current game: that side's total is set to the target
        side = side_of(e.seat)
        gain = max(0, self.params.target - totals[side])
        points = [0, 0]
        points[side] = gain
        totals[side] += gain
        text = _("six doubles dealt to {seat}: {side} wins the game").format(
            seat=_seat_label(e.seat, self.seat_names), side=_side_label(side, self.seat_names)
        )
        return HandResult(
            index,
            game,
            HandKind.SIX_DOUBLES,
            (points[0], points[1]),
            (totals[0], totals[1]),
            text,
            None,
            side,
        )

    def _penalty(self, index: int, game: int, e: Penalty, totals: list[int]) -> HandResult:
        # rule G3, B7: points taken from the side's running game score; it stops at 0 unless allow_negative
        taken = self._deduct(totals, e.side, e.points)
        points = [0, 0]
        points[e.side] = -taken
        side = _side_label(e.side, self.seat_names)
        if e.points == 0:
            text = _("warning to {side}").format(side=side)
        elif taken == e.points:
            text = _("penalty: {side} loses {points}").format(side=side, points=e.points)
        else:
            text = _("penalty: {side} loses {points} (only {taken}: a score stops at 0)").format(
                side=side, points=e.points, taken=taken
            )
        return HandResult(index, game, HandKind.PENALTY, (points[0], points[1]), (totals[0], totals[1]), text)

    # --------------------------------------------------------------------------------------- next hand
    def _update_next(self, entry: Entry, hand: HandResult) -> None:
        if isinstance(entry, Out):
            # rules G9, B4 (and G6: the warm-up's winner leads the next hand): who went out leads next
            self._leader = entry.seat
            self._leader_rule = "G6" if hand.warmup else ("G9" if self.params.opening_tiles else "B4")
            self._opening_tile = None
        elif hand.kind is HandKind.BLOCK:
            # rule G8: the next hand is led by the tile of that block (whoever holds it)
            self._leader = None
            self._leader_rule = "G8"
            self._opening_tile = None
        # redeal, replayed hand, penalty: the suggestion stands

    def _next_game_opening(self) -> None:
        if self.params.opening_tiles:
            # rule G10: the first tile of the next game shows the games score (1-0, then 1-1)
            hi, lo = max(self._games_won), min(self._games_won)
            self._leader = None
            self._leader_rule = "G10"
            self._opening_tile = f"{hi}-{lo}"


# ------------------------------------------------------------------------------------------------- API


def score_match(
    entries: Sequence[Entry | Mapping[str, object]],
    params: GapleParams | None = None,
    seat_names: Sequence[str] | None = None,
) -> MatchState:
    """Score a whole sheet. Raises :class:`EntryError` at the first impossible entry."""
    match = GapleMatch(params, seat_names)
    for raw in entries:
        if isinstance(raw, Out | Block | Redeal | SixDoubles | Penalty):
            match.apply(raw)
        else:
            match.apply_raw(raw)
    return match.state()


def _hand_dict(hand: HandResult) -> dict[str, Any]:
    return {
        "points": [hand.points[0], hand.points[1]],
        "totals": [hand.totals[0], hand.totals[1]],
        "kind": hand.kind.value,
        "pure": hand.pure,
        "opened": hand.opened,
        "warmup": hand.warmup,
        "burned": hand.burned,
        "fined": [hand.fined[0], hand.fined[1]],
        "explanation": hand.explanation,
    }


def state_to_dict(state: MatchState) -> dict[str, Any]:
    """The result shape of CONTRACTS.md §1 (plus explanation fields and ``next``)."""
    return {
        "games": [
            {
                "hands": [_hand_dict(h) for h in g.hands],
                "totals": [g.totals[0], g.totals[1]],
                "winner": g.winner,
            }
            for g in state.games
        ],
        "games_won": [state.games_won[0], state.games_won[1]],
        "winner": state.winner,
        "finished": state.finished,
        "next": None if state.next is None else dataclasses.asdict(state.next),
    }


def replay_gaple(entries: Sequence[Mapping[str, object]], params: GapleParams) -> dict[str, Any]:
    """``clubdesk.games.replay`` for the gaple family."""
    return state_to_dict(score_match(entries, params))
