"""Jellyfish ``.mat`` match records (as written by backgammon software, gnubg and FIBS clients) read into
tavla sheet entries (seed 003, RULES.md section D).

:func:`parse_mat` gives a :class:`MatRecord`: the players, the match length, each game's starting score,
winner, points and cube, and the sheet entries of ``clubdesk.games.tavla`` for the games played. A file
that is not a match record raises :class:`MatError` naming its bad lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from clubdesk.games.tavla import capped_score
from clubdesk.i18n import _

__all__ = ["MatError", "MatGame", "MatRecord", "mat_problem", "parse_mat"]


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
