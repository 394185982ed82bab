"""The tie-breaks' input: each entrant's round records from plain results (FIDE C.07, REFERENCES.md).

Per-entrant round records (:class:`RoundRecord`) are collected in an :class:`EventData`;
:func:`event_from_matches` builds one from :class:`MatchResult` values and a :class:`PointsScheme`,
:func:`event_from_rows` from stored tables as plain tuples (:data:`MatchRow`).

Units. Points are integers in the event's *stored units* (a half point, where a format has one, is
stored doubled: chess uses ``win=2, draw=1`` with ``scale=2``); ``scheme.scale`` is the stored units per
shown point.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from operator import attrgetter
from typing import NamedTuple

from clubdesk.i18n import _


class Kind(StrEnum):
    """What happened to one entrant in one round (TRF result codes in brackets)."""

    PLAYED = "played"  # 1 = 0 (W D L: played too short, still a game with an opponent)
    FORFEIT_WIN = "forfeit-win"  # +
    FORFEIT_LOSS = "forfeit-loss"  # -
    BYE = "bye"  # U: pairing-allocated bye
    FULL_BYE = "full-bye"  # F: requested full-point bye
    HALF_BYE = "half-bye"  # H: requested half-point bye
    ZERO_BYE = "zero-bye"  # Z: zero-point bye, known absence, withdrawn


class Format(StrEnum):
    ROUND_ROBIN = "round-robin"
    OPEN_LEAGUE = "open-round-robin"
    SWISS = "swiss"
    LIVES = "lives"


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

#: A round record's (or a match's) round: the sort key of an entrant's rounds.
BY_ROUND = attrgetter("round")
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
            records[e] = tuple(sorted(sorted(lst, key=BY_ROUND) + more, key=BY_ROUND))
        else:
            records[e] = tuple(lst if ordered else sorted(lst, key=BY_ROUND))
    return EventData(
        entrants=tuple(entrants),
        records=records,
        scheme=scheme,
        fmt=fmt,
        rounds=rounds,
        ratings=dict(ratings or {}),
        disqualified=frozenset(disqualified),
    )
