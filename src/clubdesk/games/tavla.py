"""Tavla (backgammon) matches (seed 003, RULES.md section D; REFERENCES.md "Backgammon match scoring").

Typed API underneath (:func:`parse_tavla_entry`, :func:`score_tavla` on frozen entry dataclasses), the
contract's :func:`replay_tavla` on top (CONTRACTS.md §1), :class:`TavlaSheet` for editing a score sheet, and
:func:`parse_mat` reading a Jellyfish ``.mat`` match record (as written by backgammon software) into entries.

Sides 0 and 1 are the two players; explanations number them 1 and 2, as on the paper sheet. The sheet keeps
the real running total (a backgammon may overshoot the match length); the match result that standings use is
capped at the match length (:func:`capped_score`).
"""

from __future__ import annotations

import enum
import re
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
    "MatError",
    "MatGame",
    "MatRecord",
    "TavlaEntry",
    "TavlaGame",
    "TavlaGameEntry",
    "TavlaMatch",
    "TavlaParams",
    "TavlaSheet",
    "capped_score",
    "check_tavla",
    "clock_text",
    "parse_mat",
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


# ----------------------------------------------------------------------------------------------- .mat files


class MatError(ValueError):
    """A file that is not a match record: ``line`` is the 1-based line, ``reason`` a translated sentence;
    ``problems`` every bad line found, (line, reason) in file order, the first being ``line``, ``reason``."""

    def __init__(self, line: int, reason: str, *more: tuple[int, str]) -> None:
        self.problems: tuple[tuple[int, str], ...] = ((line, reason), *more)
        super().__init__("; ".join(mat_problem(n, r) for n, r in self.problems))
        self.line = line
        self.reason = reason


def mat_problem(line: int, reason: str) -> str:
    """One bad line of a match record, in words."""
    return _("line {line}: {reason}").format(line=line, reason=reason)


@dataclass(frozen=True, slots=True)
class MatGame:
    """One game of a match record: the score written above it, who won how much, at which cube."""

    start: tuple[int, int]
    winner: int
    points: int
    cube: int  # the cube's value at the end; for a drop, the value before the refused double
    dropped: bool
    kind: str  # single, gammon, backgammon (a drop is a single at the cube's value)
    crawford: bool
    line: int  # line of the game's score header


@dataclass(frozen=True, slots=True)
class MatRecord:
    """A match read from a Jellyfish ``.mat`` record (also written by gnubg and FIBS clients)."""

    match_length: int
    players: tuple[str, str]
    entries: tuple[dict[str, object], ...]
    start_scores: tuple[tuple[int, int], ...]  # the score written above each game
    games: tuple[MatGame, ...] = ()

    @property
    def real_score(self) -> tuple[int, int]:
        if not self.games:
            return (0, 0) if not self.start_scores else self.start_scores[-1]
        last = self.games[-1]
        score = [last.start[0], last.start[1]]
        score[last.winner] += last.points
        return (score[0], score[1])

    @property
    def score(self) -> tuple[int, int]:
        """Capped at the match length, as the engine counts it."""
        return capped_score(self.real_score, self.match_length)

    @property
    def finished(self) -> bool:
        return max(self.real_score) >= self.match_length

    @property
    def begins_mid_match(self) -> bool:
        return bool(self.start_scores) and self.start_scores[0] != (0, 0)

    def as_json(self) -> dict[str, Any]:
        """The ``match-file`` command's shape."""
        return {
            "players": list(self.players),
            "length": self.match_length,
            "games": [
                {
                    "start": list(g.start),
                    "winner": g.winner,
                    "points": g.points,
                    "cube": g.cube,
                    "crawford": g.crawford,
                }
                for g in self.games
            ],
            "score": list(self.score),
            "finished": self.finished,
        }


_LENGTH_RE = re.compile(r"^\s*(\d+)\s+point\s+match\b", re.IGNORECASE)
_GAME_RE = re.compile(r"^\s*Game\s+(\d+)\s*$")
# "NAME : x   NAME : y": names are any characters; the right name is found by its column
_HEADER_RE = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$")
_DOUBLES_RE = re.compile(r"\bDoubles\s*=>\s*(\d+)")
_TAKES_RE = re.compile(r"\bTakes\b")
_DROPS_RE = re.compile(r"\bDrops\b")
_WINS_RE = re.compile(r"\bWins\s+(\d+)\s+points?\b")
_KINDS = {1: "single", 2: "gammon", 3: "backgammon"}
# what a game's lines hold after the score line: "N)" move lines and "Wins" lines, made of dice ("31:"),
# moves ("24/18*", "bar/22", "13/7(2)"), cube actions and wins; any other line is refused, never skipped
_MOVE_NO_RE = re.compile(r"^\s*\d+\)")
_TOKEN_RE = re.compile(
    r"\s*(?:[1-6]{2}:|(?:\d+|(?i:bar|off))/(?:\d+|(?i:bar|off))\*?(?:\(\d\))?|Doubles\s*=>\s*\d+|Takes|Drops"
    r"|Wins\s+\d+\s+points?(?:\s+and\s+the\s+match)?)"
)


def _game_line_ok(line: str) -> bool:
    """A move line ("N)" then dice, moves, cube actions) or a line of cube actions and wins only."""
    number = _MOVE_NO_RE.match(line)
    pos = number.end() if number else 0
    found = False
    while (token := _TOKEN_RE.match(line, pos)) is not None:
        pos, found = token.end(), True
    return not line[pos:].strip() and (found or number is not None)


def parse_mat(text: str, *, crawford: bool = True) -> MatRecord:
    """Read a Jellyfish ``.mat`` match record.

    Every game starts from the score written above it (a record may begin mid-match); the two names are
    told apart by their column, never by their text, and may hold any characters. The cube is followed
    through ``Doubles => n`` / ``Takes`` / ``Drops``; the kind of a played-out game is the points won divided
    by the cube (1 single, 2 gammon, 3 backgammon). The Crawford game (rule T7b) is the first game after a
    player reaches length - 1, from the record's real scores. Raises :class:`MatError` (line and reason) on
    a file that is not a match record or whose scores do not add up; lines that are no part of a record
    (neither a game's score line nor a move or wins line) are all named in one :class:`MatError`.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    length = 0
    length_line = 0
    for no, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        m = _LENGTH_RE.match(line)
        if m is None:
            raise MatError(
                no, _("not a match record: expected 'N point match', found {v!r}").format(v=line[:40])
            )
        length, length_line = int(m.group(1)), no
        break
    if length_line == 0:
        raise MatError(max(1, len(lines)), _("not a match record: no 'N point match' line"))
    if length < 1:
        raise MatError(length_line, _("the match length must be at least 1"))

    # split into games: (number, header line no, [(line no, text), ...]); every line that is neither a
    # game's score line nor a move or wins line is a problem, all of them reported together
    games_raw: list[tuple[int, list[tuple[int, str]]]] = []
    problems: list[tuple[int, str]] = []
    for no in range(length_line + 1, len(lines) + 1):
        line = lines[no - 1]
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        if _GAME_RE.match(line):
            games_raw.append((no, []))
            continue
        if not games_raw:
            problems.append(
                (no, _("not a match record: expected 'Game 1', found {v!r}").format(v=line.strip()[:40]))
            )
        elif not games_raw[-1][1]:
            if _HEADER_RE.match(line) is None:
                problems.append((no, _("expected the score line 'NAME : n   NAME : n'")))
        elif not _game_line_ok(line):
            problems.append(
                (no, _("not a move, a cube action or a 'Wins' line: {v!r}").format(v=line.strip()[:40]))
            )
        if games_raw:
            games_raw[-1][1].append((no, line))
    if problems:
        raise MatError(*problems[0], *problems[1:])
    if not games_raw:
        raise MatError(len(lines), _("not a match record: no games"))

    players: tuple[str, str] | None = None
    games: list[MatGame] = []
    starts: list[tuple[int, int]] = []
    entries: list[dict[str, object]] = []
    expected: tuple[int, int] | None = None
    crawford_done = False
    for gi, (game_line, body) in enumerate(games_raw):
        if not body:
            raise MatError(game_line, _("game without a score line"))
        hno, hline = body[0]
        h = _HEADER_RE.match(hline)
        if h is None:
            raise MatError(hno, _("expected the score line 'NAME : n   NAME : n'"))
        names = (h.group(1), h.group(3))
        if players is None:
            players = names
        elif names != players:
            raise MatError(hno, _("the players changed: {a} and {b}").format(a=names[0], b=names[1]))
        start = (int(h.group(2)), int(h.group(4)))
        if expected is not None and start != expected:
            raise MatError(
                hno,
                _("the score {a}-{b} does not follow from the game before ({c}-{d})").format(
                    a=start[0], b=start[1], c=expected[0], d=expected[1]
                ),
            )
        if max(start) >= length:
            raise MatError(hno, _("a game after the match has ended"))
        right_col = h.start(3)

        def side(pos: int, right_col: int = right_col) -> int:
            return 1 if pos >= right_col - 2 else 0

        cube, offered, doubler, dropped, cube_action = 1, 0, -1, False, False
        won: tuple[int, int, int] | None = None  # (winner, points, line)
        for no, line in body[1:]:
            if won is not None:
                raise MatError(no, _("moves after the end of the game"))
            d = _DOUBLES_RE.search(line)
            if d:
                cube_action = True
                doubler, offered = side(d.start()), int(d.group(1))
                if offered != 2 * cube:
                    raise MatError(no, _("a double to {n} at cube {c}").format(n=offered, c=cube))
            t = _TAKES_RE.search(line)
            if t:
                if doubler < 0 or side(t.start()) == doubler:
                    raise MatError(no, _("a take without a double"))
                cube, doubler = offered, -1
            dr = _DROPS_RE.search(line)
            if dr:
                if doubler < 0 or side(dr.start()) == doubler:
                    raise MatError(no, _("a drop without a double"))
                dropped = True
            w = _WINS_RE.search(line)
            if w:
                won = (side(w.start()), int(w.group(1)), no)
        is_last = gi == len(games_raw) - 1
        if won is None:
            if is_last:
                break  # the game being played: not counted yet
            raise MatError(game_line, _("game without a 'Wins' line"))
        winner, points, wline = won
        if dropped:
            if winner != doubler or points != cube:
                raise MatError(wline, _("a drop at cube {c} wins {c}, not {p}").format(c=cube, p=points))
            kind = "single"
        else:
            if points % cube or points // cube not in _KINDS:
                raise MatError(wline, _("{p} points cannot be won at cube {c}").format(p=points, c=cube))
            kind = _KINDS[points // cube]
        # rule T7b from the real score: the first game after a player reaches length - 1 has no cube.
        # A record that begins at such a score cannot say whether the Crawford game was played: it was,
        # when both are at length - 1 or this game has cube action.
        is_crawford = False
        if crawford and not crawford_done and length >= 2 and max(start) == length - 1:
            if gi == 0 and (min(start) == length - 1 or cube_action):
                crawford_done = True
            else:
                is_crawford = True
                crawford_done = True
                if cube_action:
                    raise MatError(game_line, _("the Crawford game is played without the cube"))
        games.append(MatGame(start, winner, points, cube, dropped, kind, is_crawford, hno))
        starts.append(start)
        entries.append({"type": "game", "winner": winner, "kind": kind, "cube": cube, "dropped": dropped})
        after = [start[0], start[1]]
        after[winner] += points
        expected = (after[0], after[1])
        if max(expected) >= length and not is_last:
            nxt = games_raw[gi + 1][0]
            raise MatError(nxt, _("a game after the match has ended"))
    if players is None:
        raise MatError(length_line, _("not a match record: no players"))
    if len(starts) < len(games_raw) and games_raw[-1][1]:
        h = _HEADER_RE.match(games_raw[-1][1][0][1])
        if h is not None:
            starts.append((int(h.group(2)), int(h.group(4))))
    return MatRecord(length, players, tuple(entries), tuple(starts), tuple(games))
