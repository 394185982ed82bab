"""Standings: rank entrants by points and an ordered list of tie-breaks, and explain every tie.

``standings(event, codes)`` sorts by the first code (always ``PTS``) and settles each group still tied
with the next codes in order. Group tie-breaks (``DE``, ``IAV``) are re-applied to a smaller subgroup
that is still tied before the next code is tried (FIDE direct encounter, step 3). A tie-break only
ever orders entrants inside a group the earlier ones left tied.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from clubdesk.i18n import _
from clubdesk.standings.records import EventData
from clubdesk.standings.tiebreaks import (
    GROUP_CODES,
    SCALED_CODES,
    TIEBREAK_CODES,
    TIEBREAK_NAMES,
    Rules,
    TiebreakCalculator,
    Unplayed,
    Value,
)

#: Default tie-break order per preset.
#: tavla: rule T12b (points, head-to-head point difference, overall point difference, Buchholz);
#: gaple-club: rules BC1, BC2 (points only; a tie for first goes to a play-off);
#: domino-es: points, direct encounter, overall point difference;
#: gaple-tournament is a knockout: it is ranked by elimination places (``places.py``, rule T12a).
DEFAULT_TIEBREAKS: dict[str, tuple[str, ...]] = {
    "tavla": ("PTS", "IAV", "GAV", "BH"),  # rule T12b: points, head-to-head, averaj, Buchholz
    "gaple-club": ("PTS",),  # rules BC1, BC2: points only, a tie for first goes to a play-off
    "domino-es": ("PTS", "DE", "GAV"),
    "gaple-tournament": (),  # rule T12a: knockout, ranked by elimination places
}
#: Rules T4e, T12b: a Swiss breaks its ties by the averages and Buchholz where its preset has points alone.
SWISS_TIEBREAKS: tuple[str, ...] = ("PTS", "IAV", "GAV", "BH")
#: Presets whose final order comes from elimination places, not from a points table.
ELIMINATION_PRESETS = frozenset({"gaple-tournament"})


@dataclass(frozen=True)
class StandingRow:
    rank: int  # shared by entrants still tied (2, 2, 2, 5)
    entrant: str
    points: Fraction  # stored units
    tiebreaks: dict[str, Value]
    tied: bool = False
    playoff: bool = False  # rule BC2: still tied on a place that decides a title, prize or qualification


@dataclass(frozen=True)
class TieExplanation:
    """How one group tied on points was ordered: one sentence per neighbouring pair."""

    entrants: tuple[str, ...]
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Standings:
    rows: tuple[StandingRow, ...]
    explanations: tuple[TieExplanation, ...]
    codes: tuple[str, ...]
    scale: int = 1

    def order(self) -> list[str]:
        return [r.entrant for r in self.rows]


@dataclass(frozen=True)
class _Split:
    group: frozenset[str]
    code: str
    part_of: dict[str, int]
    values: dict[str, Value]


class Calculator(Protocol):
    """What the ranking reads: :class:`TiebreakCalculator`, or the per-pair sums of ``summed.py``."""

    def values(self, code: str) -> dict[str, Value]: ...

    def iav(self, group: Iterable[str]) -> dict[str, int]: ...

    def mutual(self, group: Iterable[str]) -> tuple[dict[str, Fraction], dict[str, int]]: ...

    def direct_encounter(self, group: Sequence[str]) -> tuple[list[list[str]], dict[str, Fraction]]: ...


class _Ranker:
    def __init__(self, calc: Calculator, codes: tuple[str, ...]) -> None:
        self.calc = calc
        self.codes = codes
        self.splits: list[_Split] = []

    def rank(self, group: list[str], ci: int) -> list[list[str]]:
        if len(group) == 1 or ci >= len(self.codes):
            return [group]
        code = self.codes[ci]
        parts: list[list[str]]
        if code in GROUP_CODES:
            values: dict[str, Value]
            if code == "DE":
                parts, sums = self.calc.direct_encounter(group)
                values = dict(sums)
            else:
                iav = self.calc.iav(group)
                values = dict(iav)
                parts = _partition(group, values)
            if len(parts) == 1:
                return self.rank(group, ci + 1)
            self._record(group, code, parts, values)
            out: list[list[str]] = []
            for p in parts:
                # a smaller group still tied: the same group tie-break again, then the next ones
                out += self.rank(p, ci) if len(p) > 1 else [p]
            return out
        all_values = self.calc.values(code)
        values = {e: all_values[e] for e in group}
        parts = _partition(group, values)
        if len(parts) > 1:
            self._record(group, code, parts, values)
        out = []
        for p in parts:
            out += self.rank(p, ci + 1)
        return out

    def _record(self, group: list[str], code: str, parts: list[list[str]], values: dict[str, Value]) -> None:
        part_of = {e: i for i, p in enumerate(parts) for e in p}
        self.splits.append(_Split(frozenset(group), code, part_of, values))


def _partition(group: list[str], values: dict[str, Value]) -> list[list[str]]:
    by: dict[Value, list[str]] = defaultdict(list)
    for e in group:
        by[values[e]].append(e)
    return [by[k] for k in sorted(by, reverse=True)]


def _normalise(codes: Iterable[str]) -> tuple[str, ...]:
    out = [c.strip().upper() for c in codes if c.strip()]
    for c in out:
        if c not in TIEBREAK_CODES:
            raise ValueError(_("unknown tie-break {code!r}").format(code=c))
    if not out or out[0] != "PTS":
        out = ["PTS"] + [c for c in out if c != "PTS"]
    return tuple(dict.fromkeys(out))


def format_value(code: str, value: Value, scale: int) -> str:
    """A tie-break value as people read it (chess points 2.5, point differences +3)."""
    v = Fraction(value) / scale if code in SCALED_CODES or code == "DE" else Fraction(value)
    if v.denominator == 1:
        text = str(v.numerator)
    else:
        text = f"{float(v):.2f}".rstrip("0").rstrip(".")
    if code in ("IAV", "GAV") and v > 0:
        text = "+" + text
    return text


def _shown(code: str, value: Value, scale: int) -> str:
    """A value in an explanation: as :func:`format_value`, with the typographic minus sign (U+2212)."""
    text = format_value(code, value, scale)
    return "\u2212" + text[1:] if text.startswith("-") else text


def standings(
    event: EventData,
    codes: Sequence[str] = ("PTS",),
    *,
    rules: Rules = Rules.FIDE_2024,
    unplayed: Unplayed = Unplayed.FIDE,
    playoff_places: Iterable[int] = (1,),
    names: dict[str, str] | None = None,
) -> Standings:
    """Rank ``event`` by ``codes`` (CONTRACTS.md §3). Disqualified entrants leave the ranking but their
    games stay for their opponents' tie-breaks (rules T9b, T9c). Entrants still tied on one of
    ``playoff_places`` are flagged for a play-off (rule BC2). ``unplayed``: the Buchholz reading of a round
    without an opponent (rule T12b, parameter ``bh_unplayed``)."""
    calc = TiebreakCalculator(event, rules, unplayed)
    return standings_with(
        calc,
        event.entrants,
        codes,
        scale=event.scheme.scale,
        disqualified=event.disqualified,
        playoff_places=playoff_places,
        names=names,
    )


def standings_with(
    calc: Calculator,
    entrants: Sequence[str],
    codes: Sequence[str] = ("PTS",),
    *,
    scale: int = 1,
    disqualified: Iterable[str] = (),
    playoff_places: Iterable[int] = (1,),
    names: dict[str, str] | None = None,
) -> Standings:
    """:func:`standings` from a calculator already made (``summed.SummedCalculator``)."""
    tb = _normalise(codes)
    ranker = _Ranker(calc, tb)
    # rule T9c: a disqualified entrant leaves the ranking; his games stay in the calculator
    gone = frozenset(disqualified)
    ranked = [e for e in entrants if e not in gone]
    tiers = ranker.rank(ranked, 0)
    decisive = set(playoff_places)
    per_code: dict[str, dict[str, Value]] = {c: calc.values(c) for c in tb if c not in GROUP_CODES}
    # group codes shown as the value inside the entrant's points group
    pts = calc.values("PTS")
    pts_groups: dict[Value, list[str]] = defaultdict(list)
    for e in ranked:
        pts_groups[pts[e]].append(e)
    group_vals: dict[str, dict[str, Value]] = {}
    for c in tb:
        if c in GROUP_CODES:
            vals: dict[str, Value] = {}
            for g in pts_groups.values():
                if c == "DE":
                    vals.update(calc.mutual(g)[0])
                else:
                    vals.update(calc.iav(g))
            group_vals[c] = vals
    rows: list[StandingRow] = []
    pos = 1
    for tier in tiers:
        covers = set(range(pos, pos + len(tier)))
        # rule BC2: still tied on a place that decides a title, prize or qualification -> play-off
        playoff = len(tier) > 1 and bool(covers & decisive)
        for e in tier:
            vals = {c: (group_vals[c][e] if c in GROUP_CODES else per_code[c][e]) for c in tb}
            rows.append(StandingRow(pos, e, Fraction(pts[e]), vals, len(tier) > 1, playoff))
        pos += len(tier)
    expl = _explain(rows, ranker.splits, tb, scale, names or {})
    return Standings(tuple(rows), tuple(expl), tb, scale)


def _explain(
    rows: list[StandingRow], splits: list[_Split], codes: tuple[str, ...], scale: int, names: dict[str, str]
) -> list[TieExplanation]:
    def nm(e: str) -> str:
        return names.get(e, e)

    groups: list[list[StandingRow]] = []
    for r in rows:
        if groups and groups[-1][0].points == r.points:
            groups[-1].append(r)
        else:
            groups.append([r])
    out: list[TieExplanation] = []
    later = ", ".join(_(TIEBREAK_NAMES[c]) for c in codes[1:]) or _(TIEBREAK_NAMES["PTS"])
    for g in groups:
        if len(g) < 2:
            continue
        lines: list[str] = []
        for a, b in zip(g, g[1:], strict=False):
            if a.rank == b.rank:
                text = _("{first} and {second} remain tied after {tiebreaks}").format(
                    first=nm(a.entrant), second=nm(b.entrant), tiebreaks=later
                )
                if a.playoff:
                    text += _("; play-off needed for place {place}").format(place=a.rank)
                lines.append(text)
                continue
            best: _Split | None = None
            for s in splits:
                if a.entrant in s.group and b.entrant in s.group:
                    if s.part_of[a.entrant] != s.part_of[b.entrant] and (
                        best is None or len(s.group) < len(best.group)
                    ):
                        best = s
            if best is None:  # cannot happen: different ranks come from some split
                continue
            lines.append(
                # "−11 vs −13", "+5 vs 0": a true minus sign and "vs", never "-11–-13"
                _("{first} ahead of {second}: {tiebreak} {a} vs {b}").format(
                    first=nm(a.entrant),
                    second=nm(b.entrant),
                    tiebreak=_(TIEBREAK_NAMES[best.code]),
                    a=_shown(best.code, best.values[a.entrant], scale),
                    b=_shown(best.code, best.values[b.entrant], scale),
                )
            )
        out.append(TieExplanation(tuple(r.entrant for r in g), tuple(lines)))
    return out


def tiebreak_values(
    event: EventData,
    codes: Sequence[str],
    rules: Rules = Rules.FIDE_2024,
    unplayed: Unplayed = Unplayed.FIDE,
) -> dict[str, dict[str, float | int]]:
    """``{entrant: {code: number}}`` in the event's shown scale (CONTRACTS.md §4 ``tiebreaks``).

    ``DE`` is the rank after points and direct encounter (shared by those it leaves tied); ``IAV``
    the point difference among those tied on points."""
    calc = TiebreakCalculator(event, rules, unplayed)
    scale = event.scheme.scale
    wanted = [c.strip().upper() for c in codes if c.strip()]
    for c in wanted:
        if c not in TIEBREAK_CODES:
            raise ValueError(_("unknown tie-break {code!r}").format(code=c))
    out: dict[str, dict[str, float | int]] = {e: {} for e in event.entrants}
    de_rank: dict[str, int] = {}
    iav: dict[str, int] = {}
    if "DE" in wanted:
        st = standings(event, ("PTS", "DE"), rules=rules, unplayed=unplayed)
        de_rank = {r.entrant: r.rank for r in st.rows}
    if "IAV" in wanted:
        pts = calc.values("PTS")
        groups: dict[Value, list[str]] = defaultdict(list)
        for e in event.entrants:
            groups[pts[e]].append(e)
        for g in groups.values():
            iav.update(calc.iav(g))
    for c in wanted:
        for e in event.entrants:
            if c == "DE":
                if e in de_rank:
                    out[e][c] = de_rank[e]
                continue
            v: Value = iav[e] if c == "IAV" else calc.values(c)[e]
            if c in SCALED_CODES:
                fv = Fraction(v) / scale
                out[e][c] = float(fv)
            else:
                out[e][c] = int(v)
    return out
