"""Season points, the season ranking, the Super Final list and starting lives (rules T12d, T9c, T4g).

Inputs are plain values: an event's final ranking is a sequence of :class:`Placing` (the standings
module computes the places; this module only reads them).

Decisions (ours, documented for the secretary):

* **Season points are stored in hundredths** ("centipoints", integers): 12.5 points is ``1250``.
  Base points are whole numbers per place; the event coefficient is in hundredths too
  (``100`` = x1, ``150`` = x1.5), so base x coefficient is exact in centipoints.
* **Shared places** (rule T12d with T12a): entrants sharing places a..b each get the average of the
  base points of places a..b, times the coefficient, rounded half up to the hundredth. Places beyond
  the end of the base table are worth 0.
* **Disqualified** entrants (rule T9c) get no points from that event, and the event does not count
  for them at all (not as a played event, not as a result in "best N").
* **Best N of M**: when ``best_of`` is set, only each member's N best event results count
  (equal results: the earlier event is the one counted).
* **Season tie-breaks**, after season points: ``EVENTS`` more results counted, ``BEST`` better best
  single result, then the second best, and so on; last of all a **lot**, reproducible from the
  season's seed. The ranking therefore has no shared ranks: the Super Final cut is always decided.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from clubdesk.i18n import _

CENTI = 100  # season points are integers in hundredths of a point


class SeasonError(ValueError):
    """Season data that cannot be used; ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message


class Tier(StrEnum):
    """Event tiers of seed 003 rule 12 (rule T12d): Yerel, Bölgesel, Ulusal, Major."""

    LOCAL = "local"
    REGIONAL = "regional"
    NATIONAL = "national"
    MAJOR = "major"


@dataclass(frozen=True)
class Placing:
    """One line of an event's final ranking.

    ``place_from``..``place_to`` is the place (shared when they differ, e.g. 5..8, rule T12a);
    ``order`` is the entrant's position in the tie-break order (smaller = better; equal values
    mean the tie-breaks did not separate them). ``gender`` ("f"/"m") and ``birth_year`` are only
    needed for category prizes.
    """

    entrant: str
    place_from: int
    place_to: int = 0  # 0: same as place_from
    order: int = 0
    disqualified: bool = False
    gender: str | None = None
    birth_year: int | None = None

    def __post_init__(self) -> None:
        if self.place_to == 0:
            object.__setattr__(self, "place_to", self.place_from)
        if self.place_from < 1 or self.place_to < self.place_from:
            raise SeasonError(
                "bad-place",
                _("Entrant {e}: place {a}-{b} is not a valid place.").format(
                    e=self.entrant, a=self.place_from, b=self.place_to
                ),
            )

    @property
    def shared(self) -> bool:
        return self.place_to > self.place_from


class SeasonTiebreak(StrEnum):
    """Season ranking tie-breaks after season points (``SP``); a seeded lot always comes last."""

    EVENTS = "EVENTS"  # more results counted
    BEST = "BEST"  # better best single result, then second best, ...


@dataclass(frozen=True)
class SeasonScale:
    """The season's tables (rule T12d): base points per place and a coefficient per tier.

    ``base_points[0]`` is worth place 1. ``coefficients`` maps a tier (``Tier`` value or a club's
    own tier name) to hundredths: ``{"local": 100, "regional": 150, "national": 200, "major": 300}``.
    """

    base_points: tuple[int, ...]
    coefficients: Mapping[str, int]
    best_of: int | None = None
    tiebreaks: tuple[SeasonTiebreak, ...] = (SeasonTiebreak.EVENTS, SeasonTiebreak.BEST)
    seed: int = 0

    def __post_init__(self) -> None:
        if any(p < 0 for p in self.base_points):
            raise SeasonError("bad-base-points", _("Base points cannot be negative."))
        if any(c < 0 for c in self.coefficients.values()):
            raise SeasonError("bad-coefficient", _("An event coefficient cannot be negative."))
        if self.best_of is not None and self.best_of < 1:
            raise SeasonError("bad-best-of", _("Best N of M needs N of at least 1."))

    def coefficient(self, tier: str) -> int:
        key = str(tier)
        if key not in self.coefficients:
            raise SeasonError(
                "unknown-tier", _("The season has no coefficient for tier {tier}.").format(tier=key)
            )
        return self.coefficients[key]

    def base(self, place: int) -> int:
        return self.base_points[place - 1] if 1 <= place <= len(self.base_points) else 0


@dataclass(frozen=True)
class SeasonEvent:
    """One event of the season with its final ranking."""

    event_id: str
    tier: str
    held_on: date
    placings: tuple[Placing, ...]


@dataclass(frozen=True)
class EventScore:
    """What one event gave one member: ``points`` in hundredths (0 when disqualified)."""

    event_id: str
    held_on: date
    entrant: str
    place_from: int
    place_to: int
    points: int
    disqualified: bool = False


def _round_half_up_div(num: int, den: int) -> int:
    """num / den rounded half up, for num >= 0, den > 0, in integers."""
    return (2 * num + den) // (2 * den)


def place_points(scale: SeasonScale, tier: str, place_from: int, place_to: int) -> int:
    """Centipoints for one entrant at places place_from..place_to of an event of this tier (T12d).

    Average of the base points of the shared places x coefficient, rounded half up to 1/100.
    """
    count = place_to - place_from + 1
    total_base = sum(scale.base(p) for p in range(place_from, place_to + 1))
    # base (whole points) x coefficient (hundredths) = centipoints; / count for the shared places
    return _round_half_up_div(total_base * scale.coefficient(tier), count)


def event_scores(event: SeasonEvent, scale: SeasonScale) -> list[EventScore]:
    """Season points of every entrant of one event, in the event's order (rule T12d, T9c)."""
    seen: set[str] = set()
    out: list[EventScore] = []
    for p in sorted(event.placings, key=lambda p: (p.place_from, p.order, p.entrant)):
        if p.entrant in seen:
            raise SeasonError(
                "duplicate-entrant",
                _("{e} appears twice in event {ev}.").format(e=p.entrant, ev=event.event_id),
            )
        seen.add(p.entrant)
        # rule T9c: a disqualified entrant gets no ranking points
        pts = 0 if p.disqualified else place_points(scale, event.tier, p.place_from, p.place_to)
        out.append(
            EventScore(
                event.event_id, event.held_on, p.entrant, p.place_from, p.place_to, pts, p.disqualified
            )
        )
    return out


@dataclass(frozen=True)
class SeasonRow:
    """One line of the season table. ``points`` in hundredths, counted results only.

    ``decided_by`` says what put this member below the one above: ``"SP"`` (season points), a
    :class:`SeasonTiebreak` value, or ``"LOT"``; ``None`` on the first row.
    """

    rank: int
    entrant: str
    points: int
    counted: tuple[EventScore, ...]
    dropped: tuple[EventScore, ...] = ()
    disqualified_in: tuple[str, ...] = ()
    decided_by: str | None = None

    @property
    def events_played(self) -> int:
        return len(self.counted) + len(self.dropped)


def _sorted_results(results: Iterable[EventScore]) -> list[EventScore]:
    # best first; equal results: the earlier event first (that one is counted)
    return sorted(results, key=lambda r: (-r.points, r.held_on, r.event_id))


def season_standings(events: Sequence[SeasonEvent], scale: SeasonScale) -> list[SeasonRow]:
    """The season ranking (rule T12d): season points, then the season's tie-breaks, then a seeded lot."""
    ids = [e.event_id for e in events]
    if len(set(ids)) != len(ids):
        raise SeasonError("duplicate-event", _("The same event appears twice in the season."))
    return rank_scores([s for ev in events for s in event_scores(ev, scale)], scale)


def rank_scores(scores: Iterable[EventScore], scale: SeasonScale) -> list[SeasonRow]:
    """The season ranking from each member's event results as already scored (e.g. the season points
    stored when each event ended): best N of M, the season's tie-breaks, then a seeded lot (rule T12d)."""
    valid: dict[str, list[EventScore]] = {}
    disq: dict[str, list[str]] = {}
    for s in scores:
        if s.disqualified:  # rule T9c: the event does not count for him
            disq.setdefault(s.entrant, []).append(s.event_id)
            valid.setdefault(s.entrant, [])
        else:
            valid.setdefault(s.entrant, []).append(s)
    drafts: list[tuple[str, tuple[EventScore, ...], tuple[EventScore, ...]]] = []
    for member, results in valid.items():
        ordered = _sorted_results(results)
        n = len(ordered) if scale.best_of is None else scale.best_of
        drafts.append((member, tuple(ordered[:n]), tuple(ordered[n:])))

    lot_order = sorted(valid)
    random.Random(scale.seed).shuffle(lot_order)  # the lot, reproducible from the season's seed
    lot = {m: i for i, m in enumerate(lot_order)}

    codes = ["SP", *(tb.value for tb in scale.tiebreaks), "LOT"]

    def criteria(
        d: tuple[str, tuple[EventScore, ...], tuple[EventScore, ...]],
    ) -> tuple[tuple[int, ...], ...]:
        member, counted, _dropped = d
        keys: list[tuple[int, ...]] = [(-sum(r.points for r in counted),)]
        for tb in scale.tiebreaks:
            if tb is SeasonTiebreak.EVENTS:
                keys.append((-len(counted),))
            elif tb is SeasonTiebreak.BEST:
                # best single result, then the second best, ... (results worth 0 add nothing)
                keys.append(tuple(-r.points for r in counted if r.points > 0))
        keys.append((lot[member],))
        return tuple(keys)

    keyed = sorted(((criteria(d), d) for d in drafts), key=lambda kd: kd[0])
    rows: list[SeasonRow] = []
    prev: tuple[tuple[int, ...], ...] | None = None
    for rank, (keys, (member, counted, dropped)) in enumerate(keyed, start=1):
        decided: str | None = None
        if prev is not None:
            decided = next(c for c, v, pv in zip(codes, keys, prev, strict=True) if v != pv)
        prev = keys
        rows.append(
            SeasonRow(
                rank=rank,
                entrant=member,
                points=sum(r.points for r in counted),
                counted=counted,
                dropped=dropped,
                disqualified_in=tuple(disq.get(member, ())),
                decided_by=decided,
            )
        )
    return rows


def super_final_invitations(
    rows: Sequence[SeasonRow],
    k: int,
    *,
    declined: Iterable[str] = (),
    min_points: int = 1,
) -> list[SeasonRow]:
    """The top ``k`` of the season table invited to the Super Final (rule T12d).

    Members who declined are skipped and the next in the table moves up; members with fewer than
    ``min_points`` centipoints (by default: no points at all) are never invited.
    """
    if k < 0:
        raise SeasonError("bad-k", _("The number of Super Final places cannot be negative."))
    out = set(declined)
    invited: list[SeasonRow] = []
    for row in sorted(rows, key=lambda r: r.rank):
        if len(invited) >= k:
            break
        if row.entrant in out or row.points < min_points:
            continue
        invited.append(row)
    return invited


@dataclass(frozen=True)
class LivesBand:
    """Season ranks ``rank_from``..``rank_to`` start the season final with ``lives`` lives (rule T4g)."""

    rank_from: int
    rank_to: int
    lives: int


@dataclass(frozen=True)
class LivesTable:
    bands: tuple[LivesBand, ...]
    default_lives: int = 1
    by_final_position: bool = field(default=False)  # True: rank among the finalists, not the season rank

    def __post_init__(self) -> None:
        spans = sorted((b.rank_from, b.rank_to) for b in self.bands)
        for b in self.bands:
            if b.rank_from < 1 or b.rank_to < b.rank_from or b.lives < 1:
                raise SeasonError("bad-lives-band", _("A lives band needs ranks a <= b and at least 1 life."))
        for (_a1, b1), (a2, _b2) in zip(spans, spans[1:], strict=False):
            if a2 <= b1:
                raise SeasonError("overlapping-lives-bands", _("Two lives bands cover the same rank."))
        if self.default_lives < 1:
            raise SeasonError("bad-lives-band", _("Every finalist starts with at least 1 life."))

    def lives_for(self, rank: int) -> int:
        for b in self.bands:
            if b.rank_from <= rank <= b.rank_to:
                return b.lives
        return self.default_lives


def starting_lives(finalists: Sequence[SeasonRow], table: LivesTable) -> dict[str, int]:
    """Starting lives for a lives-format season final, by season rank (rule T4g)."""
    ordered = sorted(finalists, key=lambda r: r.rank)
    return {
        r.entrant: table.lives_for(pos if table.by_final_position else r.rank)
        for pos, r in enumerate(ordered, start=1)
    }
