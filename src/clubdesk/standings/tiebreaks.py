"""Tie-break values from plain results (FIDE C.07 2023/2024 definitions, REFERENCES.md).

Inputs are per-entrant round records (:class:`RoundRecord`) collected in an :class:`EventData`;
:func:`event_from_matches` builds one from :class:`MatchResult` values and a :class:`PointsScheme`.

Units. Points are integers in the event's *stored units* (a half point, where a format has one, is
stored doubled: chess uses ``win=2, draw=1`` with ``scale=2``). Every point-valued tie-break
(``PTS``, the Buchholz and Sonneborn-Berger families, ``PS``) is returned as a :class:`Fraction` in
stored units; divide by ``scheme.scale`` to show it (``display_value``). ``IAV``/``GAV`` are score
differences (capped tavla match points, domino game points), ``WIN`` a count, ``ARO`` a rating.

Codes are those of CONTRACTS.md §3.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from operator import attrgetter
from typing import NamedTuple

from clubdesk.i18n import N_, _

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


class Kind(StrEnum):
    """What happened to one entrant in one round (TRF result codes in brackets)."""

    PLAYED = "played"  # 1 = 0 (W D L: played too short, still a game with an opponent)
    FORFEIT_WIN = "forfeit-win"  # +
    FORFEIT_LOSS = "forfeit-loss"  # -
    BYE = "bye"  # U: pairing-allocated bye
    FULL_BYE = "full-bye"  # F: requested full-point bye
    HALF_BYE = "half-bye"  # H: requested half-point bye
    ZERO_BYE = "zero-bye"  # Z: zero-point bye, known absence, withdrawn


#: Rounds with a scheduled opponent: a game, or a forfeit won or lost against him. With ``bh_unplayed = none``
#: (rule T12b, the tavla preset) each adds that opponent's real score to Buchholz; only a bye adds nothing.
SCHEDULED_KINDS = frozenset({Kind.PLAYED, Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS})

#: Voluntarily unplayed rounds (FIDE C.07): cut in preference when not worth less than the least
#: significant value (art. 16.5.1, see ``TiebreakCalculator._cut``), and after an entrant's last
#: appearance they count as a draw for his opponents' tie-breaks.
VUR_KINDS = frozenset({Kind.FORFEIT_LOSS, Kind.FULL_BYE, Kind.HALF_BYE, Kind.ZERO_BYE})


class Format(StrEnum):
    ROUND_ROBIN = "round-robin"
    OPEN_LEAGUE = "open-round-robin"
    SWISS = "swiss"
    LIVES = "lives"


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


class MatchKind(StrEnum):
    PLAYED = "played"
    FORFEIT = "forfeit"  # the side with the higher score wins by forfeit (T9a: length-0)
    BYE = "bye"  # pairing-allocated bye for ``a``
    FULL_BYE = "full-bye"
    HALF_BYE = "half-bye"
    ZERO_BYE = "zero-bye"


@dataclass(frozen=True)
class PointsScheme:
    """Standings points per result, integers in stored units (rule BC1: 1/0; rule T4f: set per league).

    ``scale`` = stored units per shown point (2 where draws are worth ½). ``None`` fields follow
    ``win`` (forfeit win, byes) or ``draw`` (half bye).
    """

    win: int = 1
    draw: int = 0
    loss: int = 0
    forfeit_win: int | None = None
    forfeit_loss: int = 0
    bye: int | None = None
    full_bye: int | None = None
    half_bye: int | None = None
    zero_bye: int = 0
    scale: int = 1

    def points_for(self, kind: Kind, outcome: int = 0) -> int:
        """Points for ``kind``; for a played game ``outcome`` is 1 win, 0 draw, -1 loss."""
        if kind is Kind.PLAYED:
            return self.win if outcome > 0 else self.draw if outcome == 0 else self.loss
        if kind is Kind.FORFEIT_WIN:
            return self.win if self.forfeit_win is None else self.forfeit_win
        if kind is Kind.FORFEIT_LOSS:
            return self.forfeit_loss
        if kind is Kind.BYE:
            return self.win if self.bye is None else self.bye
        if kind is Kind.FULL_BYE:
            return self.win if self.full_bye is None else self.full_bye
        if kind is Kind.HALF_BYE:
            return self.draw if self.half_bye is None else self.half_bye
        return self.zero_bye


#: Chess points (TRF files): 1 / ½ / 0 stored doubled.
CHESS_SCHEME = PointsScheme(win=2, draw=1, loss=0, scale=2)


class RoundRecord(NamedTuple):
    """One entrant's round: ``points`` earned (stored units), the opponent (``None`` for a bye)
    and the score for and against used by the point-difference tie-breaks (IAV, GAV).

    A named tuple, not a dataclass: a 20,000-match league makes 40,000 of them."""

    round: int
    kind: Kind
    points: int
    opponent: str | None = None
    score_for: int = 0
    score_against: int = 0


@dataclass(frozen=True)
class EventData:
    """Everything the standings need. ``records[e]`` are ``e``'s rounds (any order).

    ``disqualified`` entrants leave the ranking, but their games stay for their opponents'
    tie-breaks (rules T9b, T9c). ``rounds`` = rounds played so far (the 2026 bye cap uses it).
    """

    entrants: tuple[str, ...]
    records: Mapping[str, tuple[RoundRecord, ...]]
    scheme: PointsScheme = field(default_factory=PointsScheme)
    fmt: Format = Format.SWISS
    rounds: int = 0
    ratings: Mapping[str, int] = field(default_factory=dict)
    disqualified: frozenset[str] = frozenset()

    def __hash__(self) -> int:
        return hash((self.entrants, self.fmt, self.rounds))


@dataclass(frozen=True)
class MatchResult:
    """One match (or a bye when ``b`` is None). ``score_a``/``score_b`` decide the winner: tavla
    points capped at the match length, dominoes games won, chess 1/0 or 1/1 for a draw.
    ``points_a``/``points_b`` are the game points used for point differences (dominoes); without
    them the score is used."""

    round: int
    a: str
    b: str | None
    score_a: int = 0
    score_b: int = 0
    points_a: int | None = None
    points_b: int | None = None
    kind: MatchKind = MatchKind.PLAYED


def event_from_matches(
    entrants: Sequence[str],
    matches: Iterable[MatchResult],
    scheme: PointsScheme | None = None,
    *,
    fmt: Format = Format.SWISS,
    ratings: Mapping[str, int] | None = None,
    disqualified: Iterable[str] = (),
) -> EventData:
    """Per-entrant records from match results (points per result from ``scheme``)."""
    rows = (
        (m.round, m.a, m.b, str(m.kind), m.score_a, m.score_b, m.points_a, m.points_b, None, "")
        for m in matches
    )
    return _event_from_rows(
        entrants, rows, scheme, fmt=fmt, ratings=ratings, disqualified=disqualified, stored=False
    )


#: One stored table as a plain tuple: (round, a, b, kind, score_a, score_b, points_a, points_b, winner,
#: ref); ``kind`` is a :class:`MatchKind` value or ``"both-lost"`` (rule BC3), ``b`` None for a bye. The
#: standings read neither the winner (the scores decide) nor the ref: they are there so that a stored
#: table's row is passed on as it is read.
MatchRow = tuple[int, str, str | None, str, int, int, int | None, int | None, str | None, str]

_BY_ROUND = attrgetter("round")
_BYE_KINDS: dict[str, Kind] = {
    MatchKind.BYE: Kind.BYE,
    MatchKind.FULL_BYE: Kind.FULL_BYE,
    MatchKind.HALF_BYE: Kind.HALF_BYE,
    MatchKind.ZERO_BYE: Kind.ZERO_BYE,
}


def event_from_rows(
    entrants: Sequence[str],
    rows: Iterable[MatchRow],
    scheme: PointsScheme | None = None,
    *,
    fmt: Format = Format.SWISS,
    ratings: Mapping[str, int] | None = None,
    disqualified: Iterable[str] = (),
) -> EventData:
    """The engine's input from stored tables as plain tuples (:data:`MatchRow`), in one pass (a
    20,000-match league without an object per match on the way). A bye kind gives ``a`` a bye whatever
    ``b``; ``"both-lost"`` (rule BC3) is a forfeit loss for both sides, recorded after the round's other
    records; ``"forfeit"`` a forfeit won by the higher score; any other kind with both sides a played game;
    a row with neither is left out. Rows in round order need no sort."""
    return _event_from_rows(
        entrants, rows, scheme, fmt=fmt, ratings=ratings, disqualified=disqualified, stored=True
    )


def _event_from_rows(
    entrants: Sequence[str],
    rows: Iterable[MatchRow],
    scheme: PointsScheme | None,
    *,
    fmt: Format,
    ratings: Mapping[str, int] | None,
    disqualified: Iterable[str],
    stored: bool,
) -> EventData:
    """:func:`event_from_matches` (``stored`` False: a row without ``b`` is a bye) and
    :func:`event_from_rows` (``stored`` True: the service's stored kinds, ``both-lost`` included)."""
    scheme = scheme or PointsScheme()
    recs: dict[str, list[RoundRecord]] = {e: [] for e in entrants}
    extra: dict[str, list[RoundRecord]] = {}
    bye_points = {k: (kind, scheme.points_for(kind)) for k, kind in _BYE_KINDS.items()}
    played = Kind.PLAYED
    win, draw, loss = scheme.win, scheme.draw, scheme.loss
    fwin, floss = Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS
    fw_pts, fl_pts = scheme.points_for(fwin), scheme.points_for(floss)
    forfeit, both_lost = str(MatchKind.FORFEIT), "both-lost"
    rounds = 0
    last = 0
    ordered = True
    new, rec = tuple.__new__, RoundRecord  # a record without the named tuple's own __new__ frame
    plain = str(MatchKind.PLAYED)
    for rnd, a, b, kind, sa, sb, pa, pb, _w, _ref in rows:
        if kind == plain and b is not None:  # the common case first: a played game
            la, lb = recs.get(a), recs.get(b)
            if la is None or lb is None:
                raise ValueError(_("round {r}: unknown entrant in {a} - {b}").format(r=rnd, a=a, b=b))
            fa = sa if pa is None else pa
            fb = sb if pb is None else pb
            pts_a, pts_b = (win, loss) if sa > sb else (loss, win) if sa < sb else (draw, draw)
            la.append(new(rec, (rnd, played, pts_a, b, fa, fb)))
            lb.append(new(rec, (rnd, played, pts_b, a, fb, fa)))
            if rnd > rounds:
                rounds = rnd
            elif rnd < last:
                ordered = False
            last = rnd
            continue
        bye = bye_points.get(kind)
        if stored and kind == both_lost:
            if b is None:
                continue
            # rule BC3: not played by the deadline, lost by both (a forfeit loss each, no score)
            extra.setdefault(a, []).append(RoundRecord(rnd, floss, scheme.forfeit_loss, b))
            extra.setdefault(b, []).append(RoundRecord(rnd, floss, scheme.forfeit_loss, a))
            if rnd > rounds:
                rounds = rnd
            continue
        if bye is not None or b is None:
            if stored and bye is None:
                continue  # a stored table without a second side and no bye kind counts for nobody
            if b is not None and not stored and b not in recs:
                raise ValueError(_("round {r}: unknown entrant in {a} - {b}").format(r=rnd, a=a, b=b))
            lst = recs.get(a)
            if lst is None:
                raise ValueError(
                    _("round {r}: unknown entrant in {a} - {b}").format(r=rnd, a=a, b=None if stored else b)
                )
            k, p = bye if bye is not None else bye_points[MatchKind.BYE]
            lst.append(RoundRecord(rnd, k, p))
        else:
            la, lb = recs.get(a), recs.get(b)
            if la is None or lb is None:
                raise ValueError(_("round {r}: unknown entrant in {a} - {b}").format(r=rnd, a=a, b=b))
            fa = sa if pa is None else pa
            fb = sb if pb is None else pb
            if kind == forfeit:
                if sa == sb:
                    raise ValueError(
                        _("round {r}: a forfeit needs a winner ({a} - {b})").format(r=rnd, a=a, b=b)
                    )
                if sa > sb:
                    la.append(RoundRecord(rnd, fwin, fw_pts, b, fa, fb))
                    lb.append(RoundRecord(rnd, floss, fl_pts, a, fb, fa))
                else:
                    la.append(RoundRecord(rnd, floss, fl_pts, b, fa, fb))
                    lb.append(RoundRecord(rnd, fwin, fw_pts, a, fb, fa))
            else:
                pts_a, pts_b = (win, loss) if sa > sb else (loss, win) if sa < sb else (draw, draw)
                la.append(RoundRecord(rnd, played, pts_a, b, fa, fb))
                lb.append(RoundRecord(rnd, played, pts_b, a, fb, fa))
        if rnd > rounds:
            rounds = rnd
        elif rnd < last:
            ordered = False
        last = rnd
    records: dict[str, tuple[RoundRecord, ...]] = {}
    for e, lst in recs.items():
        more = extra.get(e)
        if more is not None:  # the round's records first, then the both-lost ones, in round order
            records[e] = tuple(sorted(sorted(lst, key=_BY_ROUND) + more, key=_BY_ROUND))
        else:
            records[e] = tuple(lst if ordered else sorted(lst, key=_BY_ROUND))
    return EventData(
        entrants=tuple(entrants),
        records=records,
        scheme=scheme,
        fmt=fmt,
        rounds=rounds,
        ratings=dict(ratings or {}),
        disqualified=frozenset(disqualified),
    )


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
            recs = tuple(sorted(event.records.get(e, ()), key=_BY_ROUND))
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
