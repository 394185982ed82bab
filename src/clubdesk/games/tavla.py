"""Tavla (backgammon) matches (seed 003, RULES.md section D; REFERENCES.md "Backgammon match scoring").

Typed API underneath (:func:`parse_tavla_entry`, :func:`score_tavla` on frozen entry dataclasses), the
contract's :func:`replay_tavla` on top (CONTRACTS.md §1), and :class:`TavlaSheet` for editing a score sheet;
``clubdesk.games.tavla_mat`` reads a Jellyfish ``.mat`` match record into these entries.

Sides 0 and 1 are the two players; explanations number them 1 and 2, as on the paper sheet. The sheet keeps
the real running total (a backgammon may overshoot the match length); the match result that standings use is
capped at the match length (:func:`capped_score`).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from clubdesk.games.errors import EntryError
from clubdesk.games.ruleset import BhUnplayed, register_family
from clubdesk.i18n import N_, _

__all__ = [
    "Forfeit",
    "ForfeitReason",
    "GameKind",
    "GameLoss",
    "TavlaEntry",
    "TavlaGame",
    "TavlaGameEntry",
    "TavlaMatch",
    "TavlaParams",
    "TavlaSheet",
    "capped_score",
    "check_tavla",
    "clock_text",
    "parse_tavla_entry",
    "replay_tavla",
    "score_tavla",
]


@dataclass(frozen=True, slots=True)
class TavlaParams:
    """Parameters of a tavla ruleset (CONTRACTS.md §1). Defaults are the ``tavla`` preset."""

    match_length: int = field(default=5, metadata={"min": 1})  # rule T8a
    crawford: bool = True  # rule T7b
    max_cube: int = field(default=64, metadata={"min": 1})  # highest cube value accepted on the sheet
    clock_minutes_per_point: int = field(default=0, metadata={"min": 0})  # rule T8b: 0 = no clock
    clock_delay_seconds: int = field(default=0, metadata={"min": 0})  # rule T8b: delay per move
    # rule T12b: seed 003's Buchholz is the plain sum of the opponents' points ("none": a round without an
    # opponent adds nothing); "fide": FIDE's dummy opponent (REFERENCES.md), as TRF files use
    bh_unplayed: BhUnplayed = "none"
    # rule T3b: 10 minutes after the table call
    forfeit_from: Literal["start", "call"] = field(default="call", metadata={"optional": True})


register_family("tavla", TavlaParams)


def clock_text(params: TavlaParams) -> str:
    """Rule T8b: the clock settings printed on the score sheet."""
    if params.clock_minutes_per_point == 0:
        return _("No clock")
    return _("Clock: {minutes} min per player + {delay} s delay per move").format(
        minutes=params.clock_minutes_per_point * params.match_length, delay=params.clock_delay_seconds
    )


def capped_score(score: Sequence[int], match_length: int) -> tuple[int, int]:
    """The match result standings use: points beyond the match length count for nothing."""
    return (min(score[0], match_length), min(score[1], match_length))


# ----------------------------------------------------------------------------------------------- entries


class GameKind(enum.Enum):
    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"

    @property
    def multiplier(self) -> int:
        # rule T7c: gammon x2, backgammon x3, also in undoubled games (no Jacoby)
        return {GameKind.SINGLE: 1, GameKind.GAMMON: 2, GameKind.BACKGAMMON: 3}[self]

    @property
    def label(self) -> str:
        return _(_KIND_LABELS[self.value])


_KIND_LABELS = {"single": N_("single"), "gammon": N_("gammon"), "backgammon": N_("backgammon")}


class ForfeitReason(enum.Enum):
    ABSENT = "absent"  # rule T9a: the score becomes match length–0
    TIME = "time"  # rule T8b: out of time; the winner goes to the match length, the loser keeps his
    PENALTY = "penalty"  # rule T9d: match loss; as for time


@dataclass(frozen=True, slots=True)
class TavlaGameEntry:
    """One backgammon game; ``cube`` = the cube's value at the end (for a drop, before the refused double)."""

    winner: int
    kind: GameKind
    cube: int
    dropped: bool


@dataclass(frozen=True, slots=True)
class GameLoss:
    """Rule T9d: the other side wins one single game at the current cube value."""

    loser: int
    cube: int = 1


@dataclass(frozen=True, slots=True)
class Forfeit:
    winner: int
    reason: ForfeitReason


TavlaEntry = TavlaGameEntry | GameLoss | Forfeit


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _side(index: int, raw: Mapping[str, object], key: str) -> int:
    side = _int(raw.get(key))
    if side not in (0, 1):
        raise EntryError(index, "unknown-side", _("unknown side {side!r}").format(side=raw.get(key)))
    return side


def _cube(index: int, raw: Mapping[str, object], params: TavlaParams) -> int:
    value = raw.get("cube", 1)
    cube = _int(value)
    # rule T7a: the doubling cube holds 1, 2, 4, 8, ...
    if cube is None or cube < 1 or cube & (cube - 1):
        raise EntryError(
            index, "cube-not-power-of-two", _("a cube value is 1, 2, 4, 8…, not {cube!r}").format(cube=value)
        )
    if cube > params.max_cube:
        msg = _("a cube above {max} is not accepted, not {cube}").format(max=params.max_cube, cube=cube)
        raise EntryError(index, "cube-out-of-range", msg)
    return cube


def parse_tavla_entry(
    index: int, raw: Mapping[str, object], params: TavlaParams = TavlaParams()
) -> TavlaEntry:
    """Check one sheet entry (a dict of CONTRACTS.md §1) and turn it into a typed entry."""
    if not isinstance(raw, Mapping):
        raise EntryError(index, "bad-entry", _("an entry must be a table of fields"))
    kind = raw.get("type")
    if kind == "game":
        winner = _side(index, raw, "winner")
        try:
            game_kind = GameKind(raw.get("kind", "single"))
        except ValueError:
            msg = _("unknown game kind {kind!r}").format(kind=raw.get("kind"))
            raise EntryError(index, "unknown-kind", msg) from None
        cube = _cube(index, raw, params)
        dropped = raw.get("dropped", False)
        if not isinstance(dropped, bool):
            raise EntryError(index, "bad-flag", _("dropped must be true or false"))
        if dropped and game_kind is not GameKind.SINGLE:
            # rule T7a: a dropped double ends the game at once: there is no gammon to score
            raise EntryError(
                index, "drop-with-gammon", _("a dropped double cannot be a gammon or backgammon")
            )
        return TavlaGameEntry(winner, game_kind, cube, dropped)
    if kind == "game_loss":
        return GameLoss(_side(index, raw, "loser"), _cube(index, raw, params))
    if kind == "forfeit":
        winner = _side(index, raw, "winner")
        try:
            reason = ForfeitReason(raw.get("reason", "absent"))
        except ValueError:
            msg = _("unknown forfeit reason {reason!r}").format(reason=raw.get("reason"))
            raise EntryError(index, "unknown-reason", msg) from None
        return Forfeit(winner, reason)
    raise EntryError(index, "unknown-type", _("unknown entry type {type!r}").format(type=kind))


# ----------------------------------------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class TavlaGame:
    """What one entry did: points added, the real running score (the sheet) and whether it was Crawford."""

    entry: TavlaEntry
    points: tuple[int, int]
    score: tuple[int, int]  # the real total, as the sheet keeps it
    crawford: bool
    explanation: str

    @property
    def winner(self) -> int:
        """The side that won this game (or the forfeit): the sheet's winner column (T8c)."""
        e = self.entry
        return 1 - e.loser if isinstance(e, GameLoss) else e.winner


@dataclass(frozen=True, slots=True)
class TavlaMatch:
    games: tuple[TavlaGame, ...]
    real_score: tuple[int, int]
    score: tuple[int, int]  # capped at the match length: the result standings use
    winner: int | None
    finished: bool
    crawford_next: bool  # rule T7b: the next game is the Crawford game (no cube)

    def as_dict(self) -> dict[str, Any]:
        """The result shape of CONTRACTS.md §1 (plus extra keys for the sheet)."""
        return {
            "games": [
                {
                    "winner": g.winner,
                    "points": list(g.points),
                    "score": list(g.score),
                    "crawford": g.crawford,
                    "explanation": g.explanation,
                }
                for g in self.games
            ],
            "score": list(self.score),
            "real_score": list(self.real_score),
            "winner": self.winner,
            "finished": self.finished,
            "crawford_next": self.crawford_next,
        }


def _player(side: int) -> int:
    return side + 1


def score_tavla(entries: Sequence[TavlaEntry], params: TavlaParams) -> TavlaMatch:
    """Score typed entries (already checked by :func:`parse_tavla_entry`).

    Raises ``EntryError`` with ``"crawford-cube"`` for a cube or a drop in the Crawford game and
    ``"match-finished"`` for an entry after the match has ended.
    """
    length = params.match_length
    score = [0, 0]
    games: list[TavlaGame] = []
    winner: int | None = None
    crawford_played = False

    def crawford_now() -> bool:
        # rule T7b: the first game after either player reaches length − 1 has no cube; exactly once a match
        return params.crawford and not crawford_played and length >= 2 and max(score) == length - 1

    for index, entry in enumerate(entries):
        if winner is not None:
            raise EntryError(index, "match-finished", _("the match has already ended"))
        crawford = crawford_now()
        points = [0, 0]
        prefix = _("Crawford game: no cube; ") if crawford else ""
        if isinstance(entry, TavlaGameEntry):
            if crawford and (entry.cube > 1 or entry.dropped):
                msg = _("the Crawford game is played without the cube")
                raise EntryError(index, "crawford-cube", msg)
            if entry.dropped:
                # rule T7a: a dropped double scores the cube value before the double
                value = entry.cube
                text = _("double to {new} dropped: cube {cube} before the double = {value}").format(
                    new=entry.cube * 2, cube=entry.cube, value=value
                )
            else:
                # rule T7c: single x1, gammon x2, backgammon x3, times the cube (T7a)
                value = entry.cube * entry.kind.multiplier
                text = _("{kind} x cube {cube} = {value}").format(
                    kind=entry.kind.label, cube=entry.cube, value=value
                )
            points[entry.winner] = value
            text = _("player {player}: ").format(player=_player(entry.winner)) + text
        elif isinstance(entry, GameLoss):
            if crawford and entry.cube > 1:
                raise EntryError(index, "crawford-cube", _("the Crawford game is played without the cube"))
            # rule T9d (Reading): the opponent wins one single game at the cube's current value
            other = 1 - entry.loser
            points[other] = entry.cube
            text = _(
                "game loss penalty for player {loser}: single x cube {cube} = {value} to player {other}"
            ).format(loser=_player(entry.loser), cube=entry.cube, value=entry.cube, other=_player(other))
        else:  # Forfeit
            loser = 1 - entry.winner
            before = (score[0], score[1])
            score[entry.winner] = max(score[entry.winner], length)
            if entry.reason is ForfeitReason.ABSENT:
                # rule T9a: a forfeit is match length – 0
                score[loser] = 0
                text = _("forfeit: player {winner} wins {length}–0").format(
                    winner=_player(entry.winner), length=length
                )
            elif entry.reason is ForfeitReason.TIME:
                # rule T8b: out of time loses the match; the winner goes to the length, the loser keeps his
                text = _(
                    "player {loser} out of time: player {winner} to {length}, player {loser} keeps {kept}"
                ).format(loser=_player(loser), winner=_player(entry.winner), length=length, kept=score[loser])
            else:
                # rule T9d (Reading): a match loss is a forfeit: winner to the length, loser keeps his points
                text = _(
                    "match loss penalty for player {loser}: player {winner} to {length}, keeps {kept}"
                ).format(loser=_player(loser), winner=_player(entry.winner), length=length, kept=score[loser])
            points = [score[0] - before[0], score[1] - before[1]]
            crawford, prefix = False, ""
        if not isinstance(entry, Forfeit):
            score[0] += points[0]
            score[1] += points[1]
        if crawford:
            crawford_played = True
        text = prefix + text
        for side in (0, 1):
            if score[side] >= length:
                winner = side
                if score[side] > length:
                    # REFERENCES "Backgammon match scoring": points beyond the length count for nothing
                    text += _("; {real} on the sheet, {length} counts").format(
                        real=score[side], length=length
                    )
                text += _("; player {player} wins the match").format(player=_player(side))
        games.append(TavlaGame(entry, (points[0], points[1]), (score[0], score[1]), crawford, text))
    real = (score[0], score[1])
    return TavlaMatch(
        tuple(games),
        real,
        capped_score(real, length),
        winner,
        winner is not None,
        winner is None and crawford_now(),
    )


def parse_tavla_entries(entries: Sequence[Mapping[str, object]], params: TavlaParams) -> list[TavlaEntry]:
    return [parse_tavla_entry(i, e, params) for i, e in enumerate(entries)]


def check_tavla(entries: Sequence[Mapping[str, object]], params: TavlaParams) -> TavlaMatch:
    """Check and score sheet entries; an ``EntryError`` names the FIRST impossible entry."""
    typed: list[TavlaEntry] = []
    bad: EntryError | None = None
    for i, raw in enumerate(entries):
        try:
            typed.append(parse_tavla_entry(i, raw, params))
        except EntryError as exc:
            bad = exc
            break
    match = score_tavla(typed, params)  # an error here comes before ``bad``
    if bad is not None:
        raise bad
    return match


def replay_tavla(entries: Sequence[Mapping[str, object]], params: TavlaParams) -> dict[str, Any]:
    """CONTRACTS.md §1 ``replay`` for the ``tavla`` family: the whole sheet recomputed from its entries."""
    return check_tavla(entries, params).as_dict()


# ----------------------------------------------------------------------------------------------- editing


@dataclass(frozen=True, slots=True)
class TavlaSheet:
    """A match sheet: its entries are the source of truth; every edit recomputes from them.

    Each edit returns a new sheet or raises ``EntryError`` naming the first impossible entry (for a
    correction that ends the match earlier, the index of the later entry that no longer fits); the old sheet
    is untouched.
    """

    params: TavlaParams = TavlaParams()
    entries: tuple[Mapping[str, object], ...] = ()

    @property
    def result(self) -> TavlaMatch:
        return check_tavla(self.entries, self.params)

    def _with(self, entries: tuple[Mapping[str, object], ...]) -> TavlaSheet:
        sheet = TavlaSheet(self.params, entries)
        sheet.result  # noqa: B018 - validates the whole sheet
        return sheet

    def append(self, entry: Mapping[str, object]) -> TavlaSheet:
        return self._with((*self.entries, entry))

    def replace(self, k: int, entry: Mapping[str, object]) -> TavlaSheet:
        if not 0 <= k < len(self.entries):
            raise EntryError(k, "no-such-entry", _("the sheet has no entry {k}").format(k=k))
        return self._with((*self.entries[:k], entry, *self.entries[k + 1 :]))

    def delete(self, k: int) -> TavlaSheet:
        if not 0 <= k < len(self.entries):
            raise EntryError(k, "no-such-entry", _("the sheet has no entry {k}").format(k=k))
        return self._with((*self.entries[:k], *self.entries[k + 1 :]))
