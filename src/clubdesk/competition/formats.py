"""Pure orchestration of a competition night: no database here.

Maps an event's format onto the pairing engines, a table's entries (or its final score) onto a match
outcome, stored matches onto the standings engine's inputs; the play-off (BC2) and fixed tables. Seat draws
(E7, E7b) are :mod:`clubdesk.competition.seating`'s. The services call these with plain values and turn a
:class:`CompetitionError` into their own refusal.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from clubdesk.competition.errors import CompetitionError
from clubdesk.games import load_ruleset, replay
from clubdesk.i18n import _
from clubdesk.pairing import Entrant as PEntrant
from clubdesk.pairing import pair_lives, pair_swiss
from clubdesk.pairing.bracket import Bracket
from clubdesk.pairing.elimination import double_elimination, single_elimination
from clubdesk.pairing.league import LeagueResult, OpenLeague
from clubdesk.pairing.league import Outcome as LeagueOutcome
from clubdesk.pairing.roundrobin import round_robin_rounds
from clubdesk.standings.records import EventData, Format, PointsScheme, event_from_rows
from clubdesk.standings.table import DEFAULT_TIEBREAKS, SWISS_TIEBREAKS

SWISS_LIKE = ("swiss", "lives")
ROUND_ROBIN = ("round-robin", "double-round-robin")
ELIMINATION = ("single-elimination", "double-elimination")


# ------------------------------------------------------------------------------------------ rulesets
def ruleset_params(ruleset: str, overrides: Mapping[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """(family, params as a dict) of a ruleset preset with the event's overrides."""
    rs = load_ruleset(ruleset, dict(overrides or {}))
    params = rs.params
    data = {f: getattr(params, f) for f in getattr(params, "__dataclass_fields__", {})}
    return rs.family, data


def points_scheme(family: str, encounter_games: int = 0) -> PointsScheme:
    """Standings points per match. Rule BC1 / T4f: a win 1, a loss 0 (a forfeit win counts as a win, a
    forfeit loss 0, a pairing bye a win, a latecomer's missed round 0). Domino team encounters can end
    level (1-1), so they count win 2, draw 1, loss 0 (shown halved)."""
    if family == "domino" and encounter_games > 0:
        return PointsScheme(win=2, draw=1, loss=0, scale=2)
    return PointsScheme(win=1, draw=0, loss=0)


def default_tiebreaks(ruleset: str, fmt: str) -> tuple[str, ...]:
    """The preset's tie-break order (T12b for tavla); elimination presets get points and wins. Rule T4e: a
    Swiss breaks its ties by the averages and Buchholz, so where the preset ranks by points alone
    (gaple-club, whose league sends a tie to a play-off, BC2) a Swiss takes T12b's order."""
    codes = DEFAULT_TIEBREAKS.get(ruleset) or ("PTS", "WIN")
    if fmt == "swiss" and len(codes) < 2:
        return SWISS_TIEBREAKS
    return codes


def standings_format(fmt: str) -> Format:
    if fmt in ROUND_ROBIN:
        return Format.ROUND_ROBIN
    if fmt == "open-round-robin":
        return Format.OPEN_LEAGUE
    if fmt == "lives":
        return Format.LIVES
    return Format.SWISS


# ------------------------------------------------------------------------------------------ outcomes
@dataclass(frozen=True)
class Outcome:
    """What a table's result says: ``score`` (tavla points capped at the match length, dominoes games
    won), ``points`` (dominoes game points, for point differences), finished, winning side (0/1, None
    while unfinished or for a level encounter), and the engine's sheet."""

    score: tuple[int, int]
    points: tuple[int, int] | None
    finished: bool
    winner: int | None
    sheets: tuple[dict[str, Any], ...] = ()


def _refuse(code: str, message: str, **params: Any) -> CompetitionError:
    return CompetitionError(code, message, **params)


def outcome_from_entries(
    ruleset: str,
    params: Mapping[str, Any],
    games: Mapping[int, Sequence[Mapping[str, Any]]],
    *,
    encounter_games: int = 0,
) -> Outcome:
    """Replay a table's entries (one sheet, or one sheet per game of a team encounter, rule E7b)."""
    family = load_ruleset(ruleset).family
    if family == "domino" and encounter_games > 0:
        won = [0, 0]
        pts = [0, 0]
        sheets: list[dict[str, Any]] = []
        done = 0
        ended_by: int | None = None  # game whose abandonment ended the encounter (E20 parameter)
        for g in sorted(games):
            if g < 1 or g > encounter_games:
                raise _refuse(
                    "too-many-games",
                    _("An encounter has {n} games; there is no game {g}.").format(n=encounter_games, g=g),
                )
            if ended_by is not None and games[g]:
                raise _refuse(
                    "encounter-abandoned",
                    _("The encounter ended with the abandonment in game {g} (rule E20).").format(g=ended_by),
                )
            sheet = replay(ruleset, list(games[g]), {**params, "games_to_win": 1})
            sheets.append(sheet)
            pts[0] += sum(gm["totals"][0] for gm in sheet["games"])
            pts[1] += sum(gm["totals"][1] for gm in sheet["games"])
            if sheet["finished"] and sheet["winner"] is not None:
                won[sheet["winner"]] += 1
                done += 1
                abandoned = any(gm.get("end") == "abandoned" for gm in sheet["games"])
                if abandoned and params.get("abandon_ends_match"):
                    # rule E20: where the ruleset says so, the abandoning pair loses the whole encounter:
                    # the remaining games go to the rivals. By default (domino-es) only the game is lost.
                    won[sheet["winner"]] += encounter_games - done
                    done = encounter_games
                    ended_by = g
        finished = done == encounter_games
        winner = None if not finished or won[0] == won[1] else (0 if won[0] > won[1] else 1)
        return Outcome((won[0], won[1]), (pts[0], pts[1]), finished, winner, tuple(sheets))
    entries = [e for g in sorted(games) for e in games[g]]
    sheet = replay(ruleset, entries, dict(params))
    if family == "tavla":
        a, b = sheet["score"]
        return Outcome((a, b), None, bool(sheet["finished"]), sheet["winner"], (sheet,))
    gw = sheet["games_won"]
    pa = sum(gm["totals"][0] for gm in sheet["games"])
    pb = sum(gm["totals"][1] for gm in sheet["games"])
    return Outcome((gw[0], gw[1]), (pa, pb), bool(sheet["finished"]), sheet["winner"], (sheet,))


MAX_POINTS = 100_000  # far above any real domino sheet; bounds what a typo can store


def outcome_from_score(
    family: str,
    params: Mapping[str, Any],
    score: tuple[int, int],
    points: tuple[int, int] | None = None,
    *,
    match_length: int | None = None,
    encounter_games: int = 0,
    final: bool = False,
) -> Outcome:
    """A final-score-only result, checked against the format. ``final``: the result is being confirmed
    and must be a finished match."""
    a, b = score
    if a < 0 or b < 0 or (points is not None and (points[0] < 0 or points[1] < 0)):
        raise _refuse("negative-score", _("A score cannot be negative."))
    if points is not None and max(points) > MAX_POINTS:
        raise _refuse("points-too-high", _("Game points above {n} are not possible.").format(n=MAX_POINTS))
    if family == "tavla":
        length = match_length or int(params.get("match_length", 5))
        if max(a, b) > 3 * length:  # a real sheet can pass the length, not triple it
            raise _refuse(
                "score-too-high",
                _("{a}-{b} is not a score of a match to {n} (at most {most} points).").format(
                    a=a, b=b, n=length, most=3 * length
                ),
            )
        a, b = min(a, length), min(b, length)  # points beyond the length count for nothing (T8a)
        if a == length and b == length:
            raise _refuse(
                "both-at-length",
                _("Both players cannot reach the match length ({n}).").format(n=length),
            )
        finished = length in (a, b)
        if final and not finished:
            raise _refuse(
                "not-finished",
                _("Neither player has reached the match length ({n}): the match is not over.").format(
                    n=length
                ),
            )
        return Outcome((a, b), None, finished, (0 if a == length else 1) if finished else None)
    if family == "domino" and encounter_games > 0:
        if a + b > encounter_games:
            raise _refuse(
                "too-many-games",
                _("An encounter has {n} games; {a}-{b} is too many.").format(n=encounter_games, a=a, b=b),
            )
        finished = a + b == encounter_games
        if final and not finished:
            raise _refuse("not-finished", _("The encounter is not over."))
        return Outcome((a, b), points, finished, None if not finished or a == b else (0 if a > b else 1))
    need = int(params.get("games_to_win", 1))
    if a > need or b > need or (a == need and b == need):
        raise _refuse(
            "too-many-games",
            _("A match is won with {n} games; {a}-{b} is not possible.").format(n=need, a=a, b=b),
        )
    finished = need in (a, b)
    if final and not finished:
        raise _refuse(
            "not-finished", _("Nobody has won {n} games yet: the match is not over.").format(n=need)
        )
    return Outcome((a, b), points, finished, (0 if a == need else 1) if finished else None)


def forfeit_outcome(
    family: str,
    params: Mapping[str, Any],
    winner_side: int,
    *,
    match_length: int | None,
    encounter_games: int,
) -> Outcome:
    """Rules T9a (tavla: match length–0), G15 and T3b (dominoes: the match awarded)."""
    if family == "tavla":
        full = match_length or int(params.get("match_length", 5))
    elif family == "domino" and encounter_games > 0:
        full = encounter_games
    else:
        full = int(params.get("games_to_win", 1))
    score = (full, 0) if winner_side == 0 else (0, full)
    return Outcome(score, None, True, winner_side)


# ------------------------------------------------------------------------------------------ stored matches
class Played(NamedTuple):
    """One stored table as the standings see it (ids are strings). A named tuple: a 20,000-match league
    reads 20,000 of them."""

    round: int
    a: str
    b: str | None
    kind: str  # played, forfeit, bye, zero-bye, both-lost
    score_a: int = 0
    score_b: int = 0
    points_a: int | None = None
    points_b: int | None = None
    winner: str | None = None
    ref: str = ""

    def loser(self) -> str | None:
        if self.b is None or self.winner is None:
            return None
        return self.b if self.winner == self.a else self.a


def event_data(
    entrants: Sequence[str],
    played: Sequence[Played],
    scheme: PointsScheme,
    fmt: str,
    *,
    ratings: Mapping[str, int] | None = None,
    disqualified: Sequence[str] = (),
) -> EventData:
    """The standings engine's input from stored matches, in one pass; a both-lost match
    (rule BC3) is a forfeit loss for both sides."""
    return event_from_rows(
        list(entrants),
        played,  # a Played is a MatchRow
        scheme,
        fmt=standings_format(fmt),
        ratings=dict(ratings or {}),
        disqualified=list(disqualified),
    )


# ------------------------------------------------------------------------------------------ pairing
@dataclass(frozen=True)
class Field:
    """The entrants taking part in the next round: ids with rating and club."""

    ids: tuple[str, ...]
    ratings: Mapping[str, int] = field(default_factory=dict)
    clubs: Mapping[str, str | None] = field(default_factory=dict)


def lives_left(ids: Sequence[str], played: Sequence[Played], start: int) -> dict[str, int]:
    """Rule T4g: each loss (played or by forfeit) costs a life; byes cost nothing."""
    left = {e: start for e in ids}
    for p in played:
        lo = p.loser()
        if lo is not None and lo in left:
            left[lo] -= 1
        if p.kind == "both-lost" and p.b is not None:
            for e in (p.a, p.b):
                if e in left:
                    left[e] -= 1
    return left


def pairing_entrants(
    fld: Field, played: Sequence[Played], scheme: PointsScheme, *, lives: int | None = None
) -> list[PEntrant]:
    """Engine entrants: score = standings points so far, opponents met, byes received, lives left."""
    pts: dict[str, int] = defaultdict(int)
    opp: dict[str, set[str]] = defaultdict(set)
    byes: dict[str, int] = defaultdict(int)
    # the points of every table in one engine call (not one call per stored match)
    everyone = list(dict.fromkeys([*fld.ids, *(x for p in played for x in (p.a, p.b) if x is not None)]))
    for e, recs in event_data(everyone, played, scheme, "swiss").records.items():
        pts[e] += sum(r.points for r in recs)
    for p in played:
        if p.b is None:
            if p.kind == "bye":
                byes[p.a] += 1
        else:
            opp[p.a].add(p.b)
            opp[p.b].add(p.a)
    left = lives_left(fld.ids, played, lives) if lives is not None else {}
    return [
        PEntrant(
            id=e,
            score=pts[e],
            rating=int(fld.ratings.get(e, 0)),
            club=fld.clubs.get(e),
            opponents=frozenset(opp[e]),
            byes=byes[e],
            lives=left.get(e) if lives is not None else None,
        )
        for e in fld.ids
    ]


def propose_swiss(
    fld: Field,
    played: Sequence[Played],
    scheme: PointsScheme,
    seed: int,
    *,
    round_no: int,
    entrants: Sequence[PEntrant] | None = None,
) -> list[tuple[str, str | None]]:
    """Rule T4e; club protection (T4b) in round 1. ``entrants``: :func:`pairing_entrants` already made."""
    ents = pairing_entrants(fld, played, scheme) if entrants is None else entrants
    return pair_swiss(ents, seed=seed, club_protection=round_no == 1)


def propose_lives(
    fld: Field,
    played: Sequence[Played],
    scheme: PointsScheme,
    seed: int,
    *,
    lives: int,
    entrants: Sequence[PEntrant] | None = None,
) -> list[tuple[str, str | None]]:
    """Rule T4g: only entrants with lives left are paired. ``entrants``: as :func:`propose_swiss`."""
    made = pairing_entrants(fld, played, scheme, lives=lives) if entrants is None else entrants
    ents = [e for e in made if (e.lives or 0) > 0]
    return pair_lives(ents, seed=seed)


def round_robin_plan(ids: Sequence[str], *, double: bool, seed: int) -> list[list[tuple[str, str | None]]]:
    """Rule T4f: the whole Berger schedule, drawn once from ``seed``."""
    return [list(r) for r in round_robin_rounds(list(ids), double=double, seed=seed)]


def new_bracket(fmt: str, fld: Field, seed: int) -> Bracket:
    """Rules T4a, T4b, T4c, T4d: seeded by rating (equal ratings by lot), club protection."""
    ents = [PEntrant(id=e, rating=int(fld.ratings.get(e, 0)), club=fld.clubs.get(e)) for e in fld.ids]
    if fmt == "single-elimination":
        return single_elimination(ents, seeding="rating", seed=seed, club_protection=True)
    return double_elimination(ents, seeding="rating", seed=seed, club_protection=True)


def bracket_with_results(data: Mapping[str, Any], played: Sequence[Played]) -> Bracket:
    """The stored bracket with every confirmed result recorded, in round order (advancing on results)."""
    br = Bracket.from_data({**data, "results": []})
    for p in sorted(played, key=lambda x: (x.round, x.ref)):
        if p.ref and p.winner is not None:
            br = br.record(p.ref, p.winner)
    return br


def league_with_results(data: Mapping[str, Any], played: Sequence[Played]) -> OpenLeague:
    lg = OpenLeague.from_data({**data, "results": [], "closed": False})
    extra: list[LeagueResult] = []
    for p in played:
        if is_playoff(p):  # rule BC2: a play-off match is not a league match
            continue
        if p.ref and p.winner is not None and p.kind in ("played", "forfeit"):
            lg = lg.record(p.ref, p.winner)
        elif p.ref and p.kind == "both-lost":  # rule BC3: not played by the deadline, lost by both
            extra.append(LeagueResult(p.ref, None, LeagueOutcome.BOTH_LOST))
    if extra:
        lg = OpenLeague(lg.entrants, lg.matches, lg.results + tuple(extra), closed=True)
    return lg


# ------------------------------------------------------------------------------------------ tables
REQUESTED_BYE_KINDS = ("zero-bye", "half-bye", "full-bye")


def arrange_tables(
    sides: Sequence[Sequence[str]], fixed: Mapping[str, int], *, strict: bool = True
) -> list[int]:
    """Table order for pairs (top tables first) with fixed tables: returns, for each table 1..n, the index of
    the pair seated there. A pair with an entrant who needs a fixed table goes to that table; the others
    keep their order in the free tables. ``strict``: a table that does not exist or is wanted twice is
    refused; otherwise such a wish is ignored (a stored fixed table, from an earlier round)."""
    n = len(sides)
    slots: list[int | None] = [None] * n
    rest: list[int] = []
    for i, pair in enumerate(sides):
        wants = sorted({fixed[e] for e in pair if e in fixed})
        t = wants[0] if wants else None
        problem = None
        if len(wants) > 1:
            problem = _("The two sides of one pair need different fixed tables ({t}).").format(
                t=", ".join(str(w) for w in wants)
            )
        elif t is not None and not 1 <= t <= n:
            problem = _("There is no table {t}: the round has {n} tables.").format(t=t, n=n)
        elif t is not None and slots[t - 1] is not None:
            problem = _("Table {t} is fixed for two pairs.").format(t=t)
        if problem is not None and strict:
            raise CompetitionError("fixed-table", problem)
        if t is None or problem is not None:
            rest.append(i)
        else:
            slots[t - 1] = i
    free = iter(rest)
    return [x if x is not None else next(free) for x in slots]


# ------------------------------------------------------------------------------------------ play-off (BC2)
PLAYOFF_PREFIX = "PO"


def is_playoff(p: Played) -> bool:
    return p.ref.startswith(PLAYOFF_PREFIX)


def schedule_played(
    fmt: str,
    state: Mapping[str, Any],
    regular_rounds: int,
    planned_rounds: int | None,
    played: Sequence[Played] = (),
) -> bool:
    """Whether the event's schedule of regular rounds has been played out: the Berger table's rounds
    (T4f), every league pairing (BC3; ``played`` is read for it), or a Swiss's ``planned_rounds`` (a Swiss
    without a number of rounds never ends by itself). Brackets and lives events end otherwise (T12a, T4g)
    and never go to a play-off: False."""
    if fmt == "open-round-robin":
        return "league" in state and not league_with_results(state["league"], played).pending()
    if fmt in ROUND_ROBIN:
        return "schedule" in state and regular_rounds >= len(state["schedule"])
    if fmt in ELIMINATION or fmt == "lives":
        return False
    return planned_rounds is not None and regular_rounds >= planned_rounds
