"""Prize plans and the prize list of an event (rules T13a-T13e, T9c, T12a).

A :class:`PrizePlan` lists, per place, fixed money (e.g. a sponsor's), a share of the prize pool, and
indivisible items (trophy or medal, goods, a free entry to a next event) (T13a); and category prizes
(best woman, youth, veteran) (T13d). :func:`award_prizes` turns the plan and an event's final ranking
into award lines that the services persist and later mark as paid (T13e).

How the money is worked out (what a careful treasurer does by hand):

* **Pool** (T13b): fees actually collected minus refunds, fixed when the event ends, times the plan's
  ``pool_rate`` (basis points, 10 000 = 100 %), rounded down to the minor unit.
* **Pool shares** (basis points of the pool) of all places and categories are apportioned together:
  each is first rounded down, and the units lost to rounding go one each to the better places first
  (places in order, then categories). With shares adding up to 100 % the whole pool is handed out.
* **Shared places** (T13c, T12a): entrants sharing places a..b put the prizes of all those places
  together; the money is split equally to the minor unit and the units left over go one each to the
  better-placed by tie-break order (entrants the tie-breaks did not separate: by a lot, seeded). Items
  cannot be split: the items of places a..b go, best place first, to the sharers in tie-break order.
* **Categories** (T13d): awarded only when at least ``category_minimum`` entrants of the final ranking
  belong to the category; the winner is the best-placed eligible entrant, on top of any place prize.
  Age is counted by birth year: age = the event's year - birth year. A category prize is not split.
* **Disqualified** entrants (T9c) receive nothing; a prize nobody can receive is reported as
  ``undistributed`` (money) or ``unawarded`` (items), never silently moved.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from clubdesk.i18n import _
from clubdesk.standings.money import allocate_shares, currency_exponent, minor_to_major_str, split_equally
from clubdesk.standings.season import Placing

BASIS = 10_000  # pool rate and shares are basis points: 10 000 = 100 %


class PrizeError(ValueError):
    """A prize plan or ranking that cannot be used; ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message


class PrizeKind(StrEnum):
    """Kinds of prize of rule T13a."""

    MONEY = "money"
    TROPHY = "trophy"  # trophy or medal
    GOODS = "goods"
    FREE_ENTRY = "free-entry"


@dataclass(frozen=True)
class Item:
    """An indivisible prize: a trophy or medal, goods, or a free entry (``description`` names it)."""

    kind: PrizeKind
    description: str = ""

    def __post_init__(self) -> None:
        if self.kind is PrizeKind.MONEY:
            raise PrizeError("money-is-not-an-item", _("Money prizes are amounts, not items."))


@dataclass(frozen=True)
class PlacePrize:
    """What place ``place`` wins: ``fixed`` minor units + ``pool_share`` basis points of the pool + items."""

    place: int
    fixed: int = 0
    pool_share: int = 0
    items: tuple[Item, ...] = ()


@dataclass(frozen=True)
class Category:
    """A prize category (T13d). Youth: age <= ``max_age``; veterans: age >= ``min_age``."""

    code: str
    gender: str | None = None
    min_age: int | None = None
    max_age: int | None = None

    def includes(self, p: Placing, event_date: date) -> bool:
        if self.gender is not None and (p.gender or "").lower() != self.gender.lower():
            return False
        if self.min_age is not None or self.max_age is not None:
            if p.birth_year is None:
                return False
            age = event_date.year - p.birth_year  # rule T13d: age by birth year at the event date
            if self.min_age is not None and age < self.min_age:
                return False
            if self.max_age is not None and age > self.max_age:
                return False
        return True


WOMEN = Category("women", gender="f")
YOUTH = Category("youth", max_age=18)
VETERANS = Category("veterans", min_age=50)


@dataclass(frozen=True)
class CategoryPrize:
    """The ``rank``-th best entrant of ``category`` wins this (on top of any place prize, T13d)."""

    category: Category
    rank: int = 1
    fixed: int = 0
    pool_share: int = 0
    items: tuple[Item, ...] = ()


@dataclass(frozen=True)
class PrizePlan:
    """An event's prize plan (T13a, T13b, T13d). Amounts in minor units of ``currency``."""

    currency: str
    places: tuple[PlacePrize, ...] = ()
    categories: tuple[CategoryPrize, ...] = ()
    pool_rate: int = BASIS
    category_minimum: int = 1
    seed: int = 0

    def __post_init__(self) -> None:
        currency_exponent(self.currency)  # validates the code
        seen = [p.place for p in self.places]
        if len(set(seen)) != len(seen) or any(p < 1 for p in seen):
            raise PrizeError("bad-places", _("Each place appears at most once in a prize plan."))
        cats = [(c.category.code, c.rank) for c in self.categories]
        if len(set(cats)) != len(cats) or any(c.rank < 1 for c in self.categories):
            raise PrizeError("bad-categories", _("Each category prize appears at most once."))
        money = [p.fixed for p in self.places] + [c.fixed for c in self.categories]
        if any(m < 0 for m in money):
            raise PrizeError("bad-amount", _("A prize cannot be negative."))
        if not 0 <= self.pool_rate <= BASIS:
            raise PrizeError("bad-pool-rate", _("The pool is a share of the fees from 0 to 100 percent."))
        shares = [p.pool_share for p in self.places] + [c.pool_share for c in self.categories]
        if any(s < 0 for s in shares) or sum(shares) > BASIS:
            raise PrizeError("bad-shares", _("Pool shares must be positive and add up to at most 100%."))

    def pool(self, collected: int, refunded: int = 0) -> int:
        """The prize pool (T13b): fees collected net of refunds x ``pool_rate``, rounded down."""
        net = collected - refunded
        if collected < 0 or refunded < 0 or net < 0:
            raise PrizeError("bad-fees", _("Refunds cannot exceed the fees collected."))
        return net * self.pool_rate // BASIS

    def money_by_line(self, pool: int) -> tuple[dict[int, int], dict[tuple[str, int], int]]:
        """Money of every place and category prize for this pool (fixed + share of the pool)."""
        places = sorted(self.places, key=lambda p: p.place)
        shares = [p.pool_share for p in places] + [c.pool_share for c in self.categories]
        parts = allocate_shares(pool, shares, BASIS)
        by_place = {p.place: p.fixed + parts[i] for i, p in enumerate(places)}
        by_cat = {
            (c.category.code, c.rank): c.fixed + parts[len(places) + i] for i, c in enumerate(self.categories)
        }
        return by_place, by_cat


@dataclass(frozen=True)
class Award:
    """One line of the prize list, for the services to persist and mark paid (T13e).

    ``award_id`` is stable for the same plan and ranking (e.g. ``"place:5-8:money:e12"``,
    ``"place:1:item0"``, ``"cat:women:1:money"``). ``amount`` is in minor units (0 for items).
    """

    line: int
    award_id: str
    entrant: str
    kind: PrizeKind
    amount: int
    currency: str
    description: str
    place_from: int
    place_to: int
    category: str | None = None
    explanation: str = ""


@dataclass(frozen=True)
class PrizeList:
    """The fixed prize list of an event."""

    currency: str
    fees_net: int
    pool: int
    planned: int  # all money the plan hands out for this pool: fixed amounts + pool shares
    awards: tuple[Award, ...]
    undistributed: int  # planned money nobody could receive (empty places, disqualified, small category)
    unawarded: tuple[str, ...]  # items nobody could receive, described
    cancelled_categories: tuple[str, ...]  # categories below the minimum number of entrants (T13d)

    @property
    def money_awarded(self) -> int:
        return sum(a.amount for a in self.awards)

    def for_entrant(self, entrant: str) -> list[Award]:
        return [a for a in self.awards if a.entrant == entrant]


def _fmt(amount: int, currency: str) -> str:
    return f"{minor_to_major_str(amount, currency)} {currency}"


def _place_label(a: int, b: int) -> str:
    return str(a) if a == b else f"{a}-{b}"


def award_prizes(
    plan: PrizePlan,
    ranking: Sequence[Placing],
    *,
    event_date: date,
    collected: int,
    refunded: int = 0,
) -> PrizeList:
    """The prize list for an event's final ranking (rules T13a-T13d, T9c, T12a)."""
    ids = [p.entrant for p in ranking]
    if len(set(ids)) != len(ids):
        raise PrizeError("duplicate-entrant", _("An entrant appears twice in the ranking."))
    pool = plan.pool(collected, refunded)
    money_place, money_cat = plan.money_by_line(pool)
    planned = sum(money_place.values()) + sum(money_cat.values())
    items_place = {p.place: p.items for p in plan.places}

    lot_order = sorted(ids)
    random.Random(plan.seed).shuffle(lot_order)  # a lot, reproducible from the plan's seed
    lot = {e: i for i, e in enumerate(lot_order)}

    def order_key(p: Placing) -> tuple[int, int, int]:
        return (p.place_from, p.order, lot[p.entrant])

    # rule T9c: disqualified entrants receive nothing
    eligible = [p for p in ranking if not p.disqualified]
    groups: dict[tuple[int, int], list[Placing]] = {}
    for p in eligible:
        groups.setdefault((p.place_from, p.place_to), []).append(p)
    spans = sorted(groups)
    for (_a1, b1), (a2, _b2) in zip(spans, spans[1:], strict=False):
        if a2 <= b1:
            raise PrizeError("overlapping-places", _("Two groups of entrants claim the same place."))

    awards: list[Award] = []
    covered: set[int] = set()

    def add(
        award_id: str,
        entrant: str,
        kind: PrizeKind,
        amount: int,
        description: str,
        span: tuple[int, int],
        explanation: str,
        category: str | None = None,
    ) -> None:
        awards.append(
            Award(
                line=len(awards) + 1,
                award_id=award_id,
                entrant=entrant,
                kind=kind,
                amount=amount,
                currency=plan.currency,
                description=description,
                place_from=span[0],
                place_to=span[1],
                category=category,
                explanation=explanation,
            )
        )

    unawarded: list[str] = []

    for a, b in spans:
        members = sorted(groups[(a, b)], key=order_key)
        covered.update(range(a, b + 1))
        label = _place_label(a, b)
        # rule T13c: the sharers pool the prizes of all the places they occupy
        total = sum(money_place.get(p, 0) for p in range(a, b + 1))
        if total > 0:
            # rule T13c: equal split to the minor unit; leftover units to the better-placed by tie-break
            parts = split_equally(total, len(members))
            if len(members) == 1:
                why = _("Place {place}: {amount}.").format(place=label, amount=_fmt(total, plan.currency))
            else:
                why = _(
                    "Places {place} shared by {n}: {total} split equally; "
                    "leftover units go to the better-placed by tie-break."
                ).format(place=label, n=len(members), total=_fmt(total, plan.currency))
            for m, amount in zip(members, parts, strict=True):
                if amount > 0:
                    add(
                        award_id=f"place:{label}:money:{m.entrant}",
                        entrant=m.entrant,
                        kind=PrizeKind.MONEY,
                        amount=amount,
                        description=_("Prize money"),
                        span=(a, b),
                        explanation=why,
                    )
        # indivisible items: best place's items first, to the sharers in tie-break order
        items = [(q, i, it) for q in range(a, b + 1) for i, it in enumerate(items_place.get(q, ()))]
        unawarded += [f"{q}: {it.description or it.kind.value}" for q, _i, it in items[len(members) :]]
        for (q, i, it), m in zip(items, members, strict=False):
            add(
                award_id=f"place:{q}:item{i}",
                entrant=m.entrant,
                kind=it.kind,
                amount=0,
                description=it.description,
                span=(a, b),
                explanation=_("Place {place}: an item cannot be split; it goes by tie-break order.").format(
                    place=label
                )
                if len(members) > 1
                else "",
            )
    undistributed = sum(v for p, v in money_place.items() if p not in covered)
    unawarded += [
        f"{p}: {it.description or it.kind.value}"
        for p, its in items_place.items()
        if p not in covered
        for it in its
    ]

    # rule T13d: category prizes, only with enough entrants in the category, on top of place prizes
    cancelled: list[str] = []
    event_cats: dict[str, Category] = {c.category.code: c.category for c in plan.categories}
    for code, cat in event_cats.items():
        members_all = [p for p in ranking if cat.includes(p, event_date)]
        if len(members_all) < plan.category_minimum:
            cancelled.append(code)
    for cp in sorted(plan.categories, key=lambda c: (c.category.code, c.rank)):
        code = cp.category.code
        money = money_cat[(code, cp.rank)]
        if code in cancelled:
            undistributed += money
            unawarded += [f"{code} {cp.rank}: {it.description or it.kind.value}" for it in cp.items]
            continue
        candidates = sorted((p for p in eligible if cp.category.includes(p, event_date)), key=order_key)
        if len(candidates) < cp.rank:
            undistributed += money
            unawarded += [f"{code} {cp.rank}: {it.description or it.kind.value}" for it in cp.items]
            continue
        w = candidates[cp.rank - 1]
        why = _("Category {cat}, {rank}. best placed (place {place}).").format(
            cat=code, rank=cp.rank, place=_place_label(w.place_from, w.place_to)
        )
        if money > 0:
            add(
                award_id=f"cat:{code}:{cp.rank}:money",
                entrant=w.entrant,
                kind=PrizeKind.MONEY,
                amount=money,
                description=_("Category prize money"),
                span=(w.place_from, w.place_to),
                category=code,
                explanation=why,
            )
        for i, it in enumerate(cp.items):
            add(
                award_id=f"cat:{code}:{cp.rank}:item{i}",
                entrant=w.entrant,
                kind=it.kind,
                amount=0,
                description=it.description,
                span=(w.place_from, w.place_to),
                category=code,
                explanation=why,
            )

    result = PrizeList(
        currency=plan.currency,
        fees_net=collected - refunded,
        pool=pool,
        planned=planned,
        awards=tuple(awards),
        undistributed=undistributed,
        unawarded=tuple(unawarded),
        cancelled_categories=tuple(cancelled),
    )
    assert result.money_awarded + result.undistributed == planned  # no money created or lost
    return result
