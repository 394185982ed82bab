"""Tie-breaks from played games summed per pair of entrants (a 20,000-match league).

Points, the point differences (``IAV`` among any group, ``GAV``), plain Buchholz and wins need no game
one by one: for each pair of entrants the number of games, wins, losses and the summed point difference
are enough (the database sums them). Every other table (byes, forfeits, both-lost, rule BC3) comes as
ordinary :class:`~clubdesk.standings.records.RoundRecord` values. :class:`SummedCalculator` gives
exactly what :class:`~clubdesk.standings.tiebreaks.TiebreakCalculator` gives for the same games, or
refuses (:func:`summed_calculator` returns None) when it could not be sure: a code it does not compute,
the 2026 rules, or a voluntarily unplayed round in the same round as an entrant's last game (FIDE C.07
16.3 reads the rounds in order there).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import NamedTuple

from clubdesk.i18n import _
from clubdesk.standings.records import EventData, Format, Kind, MatchRow, PointsScheme, RoundRecord
from clubdesk.standings.tiebreaks import SCHEDULED_KINDS, VUR_KINDS, Rules, Unplayed, Value

#: The codes :class:`SummedCalculator` computes.
SUMMED_CODES = frozenset({"PTS", "IAV", "GAV", "BH", "WIN"})


class PairSums(NamedTuple):
    """The played games of ``a`` against ``b`` (as stored: ``a`` the first side): how many, how many
    ``a`` won and lost (the rest drawn), ``a``'s summed point difference and the last round. A named
    tuple: a row of the database's sums as it is read."""

    a: str
    b: str
    games: int
    wins: int
    losses: int
    diff: int
    last_round: int


class SummedCalculator:
    """The values of :data:`SUMMED_CODES` from :class:`PairSums` and the other tables' records."""

    def __init__(
        self,
        entrants: Sequence[str],
        sums: Iterable[PairSums],
        others: EventData,
        scheme: PointsScheme,
        fmt: Format,
        unplayed: Unplayed,
    ) -> None:
        self.entrants = tuple(entrants)
        self.unplayed = unplayed
        self.rr = fmt is Format.ROUND_ROBIN
        win, draw, loss = scheme.win, scheme.draw, scheme.loss
        counts_win = [p > 0 and p >= win for p in (win, draw, loss)]
        pts: dict[str, int] = dict.fromkeys(self.entrants, 0)
        wins: dict[str, int] = dict.fromkeys(self.entrants, 0)
        last: dict[str, int] = dict.fromkeys(self.entrants, 0)
        self.h2h: dict[str, dict[str, int]] = {e: {} for e in self.entrants}
        self.games: dict[str, dict[str, int]] = {e: {} for e in self.entrants}
        h2h, games = self.h2h, self.games
        cw, cd, cl = counts_win
        for a, b, n, w, lo, d, lr in sums:
            ha, hb = h2h.get(a), h2h.get(b)
            if ha is None or hb is None:
                raise ValueError(_("round {r}: unknown entrant in {a} - {b}").format(r=lr, a=a, b=b))
            dr = n - w - lo
            pts[a] += w * win + dr * draw + lo * loss
            pts[b] += lo * win + dr * draw + w * loss
            wins[a] += w * cw + dr * cd + lo * cl
            wins[b] += lo * cw + dr * cd + w * cl
            ha[b] = ha.get(b, 0) + d
            hb[a] = hb.get(a, 0) - d
            ga, gb = games[a], games[b]
            ga[b] = ga.get(b, 0) + n
            gb[a] = gb.get(a, 0) + n
            if lr > last[a]:
                last[a] = lr
            if lr > last[b]:
                last[b] = lr
        self.recs: dict[str, tuple[RoundRecord, ...]] = {e: others.records.get(e, ()) for e in self.entrants}
        for e, recs in self.recs.items():
            h = self.h2h[e]
            for r in recs:
                pts[e] += r.points
                wins[e] += r.points > 0 and r.points >= win
                if r.opponent is not None:
                    h[r.opponent] = h.get(r.opponent, 0) + r.score_for - r.score_against
        self.wins = wins
        self.pts2 = {e: 2 * p for e, p in pts.items()}
        self.half2 = scheme.win
        self.adj2: dict[str, int] = {}
        self.exact = True
        for e in self.entrants:
            # FIDE C.07 16.3 / rule T9b, as TiebreakCalculator: the unplayed rounds after the last game
            adj = self.pts2[e]
            for r in reversed(self.recs[e]):
                if last[e] and r.round <= last[e]:
                    if r.round == last[e]:
                        self.exact = False  # the order inside that round is not known here
                    break
                if r.kind not in VUR_KINDS:
                    break
                if r.opponent is None:
                    adj += self.half2 - 2 * r.points
            self.adj2[e] = adj
        self._iav: dict[frozenset[str], dict[str, int]] = {}
        self._cache: dict[str, dict[str, Value]] = {}

    def values(self, code: str) -> dict[str, Value]:
        got = self._cache.get(code)
        if got is None:
            got = self._cache[code] = self._values(code)
        return got

    def _values(self, code: str) -> dict[str, Value]:
        res: dict[str, Value] = {}
        if code == "PTS":
            res = {e: Fraction(p, 2) for e, p in self.pts2.items()}
        elif code == "GAV":
            res = {e: sum(d.values()) for e, d in self.h2h.items()}
        elif code == "WIN":
            res = dict(self.wins)
        elif code == "BH":
            pts2, adj2 = self.pts2, self.adj2
            for e in self.entrants:
                games = self.games[e]
                if self.unplayed is Unplayed.NONE:  # rule T12b (none): every scheduled opponent's points
                    total = sum(n * pts2[o] for o, n in games.items())
                    total += sum(
                        pts2[r.opponent]
                        for r in self.recs[e]
                        if r.kind in SCHEDULED_KINDS and r.opponent in pts2
                    )
                else:  # FIDE 2024: the opponent's adjusted score, the dummy's (own score) otherwise
                    own = pts2[e]
                    total = sum(n * adj2[o] for o, n in games.items())
                    for r in self.recs[e]:
                        o = r.opponent
                        if r.kind is Kind.PLAYED or (self.rr and o is not None):
                            total += adj2[o] if o in adj2 else own
                        else:
                            total += own
                res[e] = Fraction(total, 2)
        else:
            raise ValueError(_("unknown tie-break {code!r}").format(code=code))
        return res

    def iav(self, group: Iterable[str]) -> dict[str, int]:  # rule T12b: ikili averaj
        g = frozenset(group)
        got = self._iav.get(g)
        if got is None:
            got = {e: sum(v for o, v in self.h2h[e].items() if o in g) for e in g}
            self._iav[g] = got
        return dict(got)

    def mutual(self, group: Iterable[str]) -> tuple[dict[str, Fraction], dict[str, int]]:
        raise ValueError(_("unknown tie-break {code!r}").format(code="DE"))

    def direct_encounter(self, group: Sequence[str]) -> tuple[list[list[str]], dict[str, Fraction]]:
        raise ValueError(_("unknown tie-break {code!r}").format(code="DE"))


def summed_calculator(
    entrants: Sequence[str],
    sums: Iterable[PairSums],
    others: EventData,
    codes: Iterable[str],
    *,
    rules: Rules = Rules.FIDE_2024,
    unplayed: Unplayed = Unplayed.FIDE,
) -> SummedCalculator | None:
    """A :class:`SummedCalculator`, or None when it cannot give exactly the game-by-game values."""
    if rules is not Rules.FIDE_2024 or not set(codes) <= SUMMED_CODES:
        return None
    calc = SummedCalculator(entrants, sums, others, others.scheme, others.fmt, unplayed)
    return calc if calc.exact else None


#: Stored kinds that are no plain played game (everything else with two sides is one, as in
#: :func:`~clubdesk.standings.records.event_from_rows`).
NOT_PLAIN = ("bye", "zero-bye", "half-bye", "full-bye", "both-lost", "forfeit")


def pair_sums_from_rows(rows: Iterable[MatchRow]) -> tuple[list[PairSums], list[MatchRow]]:
    """Stored tables split as :class:`SummedCalculator` reads them: the plain played games summed per
    (first side, second side), as the service's SQL sums them, and the other rows as they are."""
    acc: dict[tuple[str, str], list[int]] = {}
    rest: list[MatchRow] = []
    for row in rows:
        rnd, a, b, kind, sa, sb, pa, pb = row[:8]
        if b is None or kind in NOT_PLAIN:
            rest.append(row)
            continue
        s = acc.setdefault((a, b), [0, 0, 0, 0, 0])
        s[0] += 1
        s[1] += sa > sb
        s[2] += sa < sb
        s[3] += (sa if pa is None else pa) - (sb if pb is None else pb)
        s[4] = max(s[4], rnd)
    return [PairSums(a, b, *v) for (a, b), v in acc.items()], rest
