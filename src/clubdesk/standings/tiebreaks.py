"""Tie-break values from plain results (FIDE C.07 2023/2024 definitions, REFERENCES.md).

Inputs are per-entrant round records (``clubdesk.standings.records``: :class:`RoundRecord` in an
:class:`EventData`); :class:`TiebreakCalculator` gives each code's value per entrant.

Units. Points are integers in the event's *stored units* (a half point, where a format has one, is
stored doubled: chess uses ``win=2, draw=1`` with ``scale=2``). Every point-valued tie-break
(``PTS``, the Buchholz and Sonneborn-Berger families, ``PS``) is returned as a :class:`Fraction` in
stored units; divide by ``scheme.scale`` to show it (``display_value``). ``IAV``/``GAV`` are score
differences (capped tavla match points, domino game points), ``WIN`` a count, ``ARO`` a rating.

Codes are those of CONTRACTS.md §3.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from enum import StrEnum
from fractions import Fraction

from clubdesk.i18n import N_, _
from clubdesk.standings.records import BY_ROUND, EventData, Format, Kind, RoundRecord

TIEBREAK_CODES: tuple[str, ...] = (
    "PTS",
    "DE",
    "IAV",
    "GAV",
    "BH",
    "BH-C1",
    "BH-C2",
    "BH-M1",
    "SB",
    "SB-C1",
    "SB-C2",
    "PS",
    "PS-C1",
    "WIN",
    "ARO",
)

#: Long names for screens and explanations (translate with ``_`` where shown).
TIEBREAK_NAMES: dict[str, str] = {
    "PTS": N_("points"),
    "DE": N_("direct encounter"),
    "IAV": N_("point difference among the tied"),
    "GAV": N_("overall point difference"),
    "BH": N_("Buchholz"),
    "BH-C1": N_("Buchholz Cut-1"),
    "BH-C2": N_("Buchholz Cut-2"),
    "BH-M1": N_("Buchholz Median-1"),
    "SB": N_("Sonneborn-Berger"),
    "SB-C1": N_("Sonneborn-Berger Cut-1"),
    "SB-C2": N_("Sonneborn-Berger Cut-2"),
    "PS": N_("progressive score"),
    "PS-C1": N_("progressive score Cut-1"),
    "WIN": N_("wins"),
    "ARO": N_("average rating of opponents"),
}

#: Tie-breaks whose value depends on the group of tied entrants.
GROUP_CODES = frozenset({"DE", "IAV"})
#: Tie-breaks measured in points (shown divided by the scheme's scale).
SCALED_CODES = frozenset({"PTS", "BH", "BH-C1", "BH-C2", "BH-M1", "SB", "SB-C1", "SB-C2", "PS", "PS-C1"})

Value = Fraction | int

#: Rounds with a scheduled opponent: a game, or a forfeit won or lost against him. With ``bh_unplayed = none``
#: (rule T12b, the tavla preset) each adds that opponent's real score to Buchholz; only a bye adds nothing.
SCHEDULED_KINDS = frozenset({Kind.PLAYED, Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS})

#: Voluntarily unplayed rounds (FIDE C.07): cut in preference when not worth less than the least
#: significant value (art. 16.5.1, see ``TiebreakCalculator._cut``), and after an entrant's last
#: appearance they count as a draw for his opponents' tie-breaks.
VUR_KINDS = frozenset({Kind.FORFEIT_LOSS, Kind.FULL_BYE, Kind.HALF_BYE, Kind.ZERO_BYE})


class Rules(StrEnum):
    """FIDE rule set for unplayed rounds: 2024 (default) or the 2026 dummy cap."""

    FIDE_2024 = "2024"
    FIDE_2026 = "2026"


class Unplayed(StrEnum):
    """Buchholz / Sonneborn-Berger of a round without an opponent (parameter ``bh_unplayed``, rule T12b).

    ``fide``: FIDE's dummy opponent and VUR adjustments (REFERENCES.md; TRF files always use it).
    ``none``: seed 003's plain sum of the opponents' points: a bye adds nothing, a forfeit's scheduled
    opponent counts like any opponent (rule T12b: seed 003 §8 writes the forfeit on the record as match
    length–0), and every opponent counts with his real score."""

    FIDE = "fide"
    NONE = "none"


class TiebreakCalculator:
    """Computes tie-break values for one event. Internally every point is doubled, so that half a
    win (the draw value FIDE gives to unplayed rounds) stays an integer."""

    def __init__(
        self, event: EventData, rules: Rules = Rules.FIDE_2024, unplayed: Unplayed = Unplayed.FIDE
    ) -> None:
        self.event = event
        self.rules = rules
        self.unplayed = unplayed
        sch = event.scheme
        self.win2 = 2 * sch.win
        self.half2 = sch.win  # half a win, doubled
        self.pts2: dict[str, int] = {}
        self.adj2: dict[str, int] = {}
        self._recs: dict[str, tuple[RoundRecord, ...]] = {}
        for e in event.entrants:
            recs = tuple(sorted(event.records.get(e, ()), key=BY_ROUND))
            self._recs[e] = recs
            total = 2 * sum([p for _r, _k, p, _o, _f, _a in recs])
            self.pts2[e] = total
            # rule T9b + FIDE C.07 16.3: voluntarily unplayed rounds after an entrant's last appearance
            # (a withdrawal's remaining rounds, rule T9b) count as draws for his opponents. A forfeit
            # loss there keeps its real value: it had a scheduled opponent (FIDE TEC's checker,
            # REFERENCES.md as corrected).
            adj = total
            for r in reversed(recs):
                if r.kind not in VUR_KINDS:
                    break
                if r.opponent is None:
                    adj += self.half2 - 2 * r.points
            self.adj2[e] = adj
        self._contrib: dict[str, list[tuple[bool, int, int]]] | None = None
        self._cache: dict[str, dict[str, Value]] = {}
        self._h2h: dict[str, dict[str, int]] | None = None
        self._iav: dict[frozenset[str], dict[str, int]] = {}

    # -- helpers ---------------------------------------------------------------------------
    def records(self, e: str) -> tuple[RoundRecord, ...]:
        return self._recs[e]

    def _contributions(self) -> dict[str, list[tuple[bool, int, int]]]:
        """Per entrant and round: (voluntarily unplayed, opponent score, points scored), doubled."""
        if self._contrib is not None:
            return self._contrib
        rr = self.event.fmt is Format.ROUND_ROBIN
        rules26 = self.rules is Rules.FIDE_2026
        bye_cap = self.half2 * self.event.rounds
        out: dict[str, list[tuple[bool, int, int]]] = {}
        adj2 = self.adj2
        if self.unplayed is Unplayed.NONE:
            # rule T12b (bh_unplayed = none): "the sum of the opponents' points": every scheduled opponent
            # (a forfeit's too) with his real score; a bye adds nothing (no dummy, no VUR)
            for e, recs in self._recs.items():
                out[e] = [
                    (False, self.pts2[r.opponent], 2 * r.points)
                    for r in recs
                    if r.kind in SCHEDULED_KINDS and r.opponent in self.pts2
                ]
            self._contrib = out
            return out
        for e, recs in self._recs.items():
            own = self.pts2[e]
            lst: list[tuple[bool, int, int]] = []
            for r in recs:
                p2 = 2 * r.points
                vur = r.kind in VUR_KINDS
                if r.kind is Kind.PLAYED or (rr and r.opponent is not None):
                    # in a round robin a forfeit counts against the real scheduled opponent, as a
                    # game (no VUR, so no art. 16.5 cut exception: pre-determined pairings)
                    lst.append((False, adj2[r.opponent] if r.opponent in adj2 else own, p2))
                    continue
                dummy = own  # 2024: a dummy opponent with the entrant's own score
                if rules26:
                    if r.opponent is not None and r.opponent in adj2:
                        dummy = min(own, adj2[r.opponent])
                    else:
                        dummy = min(own, bye_cap)
                lst.append((vur, dummy, p2))
            out[e] = lst
        self._contrib = out
        return out

    def _buchholz(self) -> dict[str, Value]:
        """Plain Buchholz: the sum of what :meth:`_contributions` gives each round (the opponent's score
        or the dummy's), per entrant in one pass over his rounds."""
        if self._contrib is not None:
            return {e: Fraction(sum([c[1] for c in lst]), 2) for e, lst in self._contrib.items()}
        pts2, adj2 = self.pts2, self.adj2
        res: dict[str, Value] = {}
        played = Kind.PLAYED
        if self.unplayed is Unplayed.NONE:
            # rule T12b (bh_unplayed = none): every scheduled opponent's points
            scheduled = SCHEDULED_KINDS
            for e, recs in self._recs.items():
                res[e] = Fraction(
                    sum([pts2[o] for _r, k, _p, o, _f, _a in recs if k in scheduled and o in pts2]), 2
                )
            return res
        rr = self.event.fmt is Format.ROUND_ROBIN
        rules26 = self.rules is Rules.FIDE_2026
        bye_cap = self.half2 * self.event.rounds
        for e, recs in self._recs.items():
            own = pts2[e]
            total = 0
            for _r, k, _p, o, _f, _a in recs:
                if k is played or (rr and o is not None):
                    total += adj2[o] if o in adj2 else own
                elif rules26:
                    total += min(own, adj2[o]) if o is not None and o in adj2 else min(own, bye_cap)
                else:
                    total += own
            res[e] = Fraction(total, 2)
        return res

    @staticmethod
    def _cut(
        contrib: list[tuple[bool, int, int]], low: int, high: int, sb: bool
    ) -> list[tuple[bool, int, int]]:
        """``contrib`` without its ``low`` least and ``high`` most significant values.

        A value is what the round adds to the tie-break: the opponent's score (Buchholz) or that
        score times the points scored (Sonneborn-Berger).

        FIDE C.07 (2024) art. 14.1 (Cut-n): the least significant value is the one of the opponent
        with the lowest score; among equal opponents' scores, the smallest value.
        FIDE C.07 (2024) art. 16.5.1 (Cut-1 exception for voluntarily unplayed rounds): when the
        entrant has VURs, the lowest value coming from a VUR is cut instead, provided it is not
        lower than that least significant value (so the larger of the two goes; on a tie the VUR).
        Art. 16.5.2: every further cut applies the same rule again to what is left. Median (high)
        cuts drop the highest opponent's score, then the largest value, with no VUR exception.
        For Buchholz a VUR's value (the dummy's score) is never below the lowest opponent score,
        so its VURs always go first; for Sonneborn-Berger they go only when not worth less.
        The same rule in the FIDE TEC's TieBreakServer (gacrux/tiebreak.py) gives every
        published value of tests/data/tiebreaks/, e.g. Held's SB-C1 of David = 8.0.
        """

        def value(c: tuple[bool, int, int]) -> int:
            return c[1] * c[2] if sb else c[1]

        kept = list(contrib)
        for _step in range(min(low, len(kept))):
            cut = min(kept, key=lambda c: (c[1], value(c)))  # art. 14.1: least significant value
            vurs = [c for c in kept if c[0]]
            if vurs:
                lowest_vur = min(vurs, key=lambda c: (value(c), c[1]))
                if value(lowest_vur) >= value(cut):  # art. 16.5.1: "not lower" -> the VUR is cut
                    cut = lowest_vur
            kept.remove(cut)
        for _step in range(min(high, len(kept))):
            kept.remove(max(kept, key=lambda c: (c[1], value(c))))
        return kept

    # -- values ----------------------------------------------------------------------------
    def values(self, code: str) -> dict[str, Value]:
        """``code``'s value for every entrant (not for the group codes DE and IAV)."""
        if code in self._cache:
            return self._cache[code]
        sch = self.event.scheme
        res: dict[str, Value] = {}
        if code == "PTS":
            res = {e: Fraction(p, 2) for e, p in self.pts2.items()}
        elif code == "BH":  # no cut: the sum of the values, without a list of contributions per entrant
            res = self._buchholz()
        elif code.startswith("BH") or code.startswith("SB"):
            cuts = {"": (0, 0), "-C1": (1, 0), "-C2": (2, 0), "-M1": (1, 1)}[code[2:]]
            contrib = self._contributions()
            for e, lst in contrib.items():
                kept = self._cut(lst, *cuts, sb=code.startswith("SB"))
                if code.startswith("BH"):
                    res[e] = Fraction(sum(c[1] for c in kept), 2)
                else:
                    res[e] = Fraction(sum(c[1] * c[2] for c in kept), 4 * sch.scale)
        elif code in ("PS", "PS-C1"):
            for e, recs in self._recs.items():
                running = 0
                total = 0
                for i, r in enumerate(recs):
                    running += r.points
                    if i > 0 or code == "PS":
                        total += running
                res[e] = Fraction(total)
        elif code == "WIN":
            for e, recs in self._recs.items():
                res[e] = sum(1 for r in recs if r.points > 0 and r.points >= sch.win)
        elif code == "ARO":
            ratings = self.event.ratings
            for e, recs in self._recs.items():
                rs = [ratings.get(r.opponent, 0) for r in recs if r.kind is Kind.PLAYED and r.opponent]
                rs = [x for x in rs if x > 0]
                res[e] = (2 * sum(rs) + len(rs)) // (2 * len(rs)) if rs else 0  # rounded half up
        elif code == "GAV":  # the head-to-head differences summed over every opponent (one pass, shared)
            for e, d in self._head_to_head().items():
                res[e] = sum(d.values())
        else:
            raise ValueError(_("unknown tie-break {code!r}").format(code=code))
        self._cache[code] = res
        return res

    def _head_to_head(self) -> dict[str, dict[str, int]]:
        """Per entrant and opponent: the point difference of all their games, summed once."""
        if self._h2h is None:
            h2h: dict[str, dict[str, int]] = {}
            for e, recs in self._recs.items():
                d: dict[str, int] = {}
                get = d.get
                for _rnd, _kind, _pts, o, sf, sa in recs:
                    if o is not None:
                        d[o] = get(o, 0) + sf - sa
                h2h[e] = d
            self._h2h = h2h
        return self._h2h

    def iav(self, group: Iterable[str]) -> dict[str, int]:  # rule T12b: ikili averaj
        """Ikili averaj (rule T12b): point difference in the matches among ``group``; from the summed
        head-to-head differences, each group once (linear in the pairs that met, not in the games)."""
        g = frozenset(group)
        got = self._iav.get(g)
        if got is not None:
            return dict(got)
        h2h = self._head_to_head()
        out: dict[str, int] = {}
        for e in g:
            d = h2h[e]
            if len(d) <= len(g):
                out[e] = sum([v for o, v in d.items() if o in g])
            else:
                out[e] = sum([d[o] for o in g if o in d])
        self._iav[g] = out
        return dict(out)

    def mutual(self, group: Iterable[str]) -> tuple[dict[str, Fraction], dict[str, int]]:
        """Direct encounter sums (stored units) among ``group`` and the mutual games still missing
        per entrant. Pairs that met more than once count their average; forfeits count only in a
        round robin."""
        g = set(group)
        rr = self.event.fmt is Format.ROUND_ROBIN
        sums: dict[str, Fraction] = {}
        missing: dict[str, int] = {}
        for e in g:
            per_opp: dict[str, list[int]] = defaultdict(list)
            for r in self._recs[e]:
                if r.opponent in g and r.opponent != e:
                    if r.kind is Kind.PLAYED or rr:
                        per_opp[r.opponent].append(r.points)
            sums[e] = sum((Fraction(sum(v), len(v)) for v in per_opp.values()), Fraction(0))
            missing[e] = len(g) - 1 - len(per_opp)
        return sums, missing

    def direct_encounter(self, group: Sequence[str]) -> tuple[list[list[str]], dict[str, Fraction]]:
        """Split ``group`` by direct encounter: the ordered parts and each entrant's mutual sum.

        All met: rank by the sums, equal sums stay together. Not all met (Swiss): an entrant goes
        ahead only when his sum beats the most any other could still reach, each missing mutual
        game counted as a win for that other entrant; the rest stays together.
        """
        sums, missing = self.mutual(group)
        win = self.event.scheme.win
        if all(m == 0 for m in missing.values()):
            by: dict[Fraction, list[str]] = defaultdict(list)
            for e in group:
                by[sums[e]].append(e)
            return [by[k] for k in sorted(by, reverse=True)], sums
        best = max(group, key=lambda e: sums[e])
        others_max = max(sums[o] + missing[o] * win for o in group if o != best)
        if sums[best] > others_max:
            return [[best], [e for e in group if e != best]], sums
        return [list(group)], sums
