"""Prize plans and splits (rules T13a-T13e, T9c, T12a), in IDR, EUR and TRY, worked by hand.

Amounts are integers in minor units: IDR has no minor digits (Rp 1 is the unit), EUR cents, TRY kuruş.
"""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubdesk.standings.money import (
    Money,
    MoneyError,
    allocate_shares,
    currency_exponent,
    parse_amount,
    split_equally,
)
from clubdesk.standings.prizes import (
    VETERANS,
    WOMEN,
    YOUTH,
    CategoryPrize,
    Item,
    PlacePrize,
    PrizeError,
    PrizeKind,
    PrizeList,
    PrizePlan,
    award_prizes,
)
from clubdesk.standings.season import Placing

DAY = date(2025, 6, 1)


def money_of(pl: PrizeList) -> dict[str, int]:
    out: dict[str, int] = {}
    for a in pl.awards:
        if a.kind is PrizeKind.MONEY:
            out[a.entrant] = out.get(a.entrant, 0) + a.amount
    return out


# --- currencies ---


def test_currency_exponents() -> None:
    # decision documented in money.py: IDR 0 digits (CLDR), EUR and TRY 2
    assert (currency_exponent("IDR"), currency_exponent("EUR"), currency_exponent("TRY")) == (0, 2, 2)
    assert parse_amount("12.50", "EUR") == 1250
    assert parse_amount("250", "TRY") == 25000
    assert parse_amount("5000", "IDR") == 5000
    assert Money(1250, "eur").major_str() == "12.50"
    with pytest.raises(MoneyError):
        parse_amount("5000.50", "IDR")  # a rupiah has no cents in ClubDesk
    with pytest.raises(MoneyError):
        Money(100, "EUR") + Money(100, "TRY")


# --- IDR ---
# Fees: 14 x Rp 25.000 = 350.000 collected, one refund of 25.000 -> 325.000 net (T13b).
# Pool 87.5 %: 325.000 x 0.875 = 284.375.
# Shares 50/30/20: 142.187,5 -> 142.187; 85.312,5 -> 85.312; 56.875. Sum 284.374: the lost unit goes to
# 1st -> 142.188 / 85.312 / 56.875 = 284.375.
IDR_PLAN = PrizePlan(
    "IDR",
    (PlacePrize(1, pool_share=5000), PlacePrize(2, pool_share=3000), PlacePrize(3, pool_share=2000)),
    pool_rate=8750,
)


def idr(ranking: list[Placing]) -> PrizeList:
    return award_prizes(IDR_PLAN, ranking, event_date=DAY, collected=350_000, refunded=25_000)


def test_idr_pool_net_of_refunds() -> None:
    pl = idr([Placing("a", 1), Placing("b", 2), Placing("c", 3)])
    assert pl.fees_net == 325_000 and pl.pool == 284_375
    assert money_of(pl) == {"a": 142_188, "b": 85_312, "c": 56_875}


def test_idr_two_way_tie() -> None:
    # rule T13c: b and c share 2-3: 85.312 + 56.875 = 142.187 -> 71.093 each + 1 left over, to b
    # (better by tie-break order): b 71.094, c 71.093
    pl = idr([Placing("a", 1), Placing("c", 2, 3, order=2), Placing("b", 2, 3, order=1)])
    assert money_of(pl) == {"a": 142_188, "b": 71_094, "c": 71_093}
    assert pl.money_awarded == 284_375 and pl.undistributed == 0


def test_idr_three_way_tie() -> None:
    # rule T13c: 1-3 shared by three: 284.375 / 3 = 94.791 rest 2 -> 94.792, 94.792, 94.791
    pl = idr([Placing("a", 1, 3, order=0), Placing("b", 1, 3, order=1), Placing("c", 1, 3, order=2)])
    assert money_of(pl) == {"a": 94_792, "b": 94_792, "c": 94_791}
    assert pl.money_awarded == 284_375


# --- EUR ---
# Fees: 12 x 12,50 EUR = 150,00 collected, one refund 12,50 -> 137,50 net; pool 100 % = 13 750 cents.
# Shares 50/30/20: 68,75 / 41,25 / 27,50.
EUR_PLAN = PrizePlan(
    "EUR",
    (PlacePrize(1, pool_share=5000), PlacePrize(2, pool_share=3000), PlacePrize(3, pool_share=2000)),
)


def eur(ranking: list[Placing]) -> PrizeList:
    return award_prizes(EUR_PLAN, ranking, event_date=DAY, collected=15_000, refunded=1_250)


def test_eur_two_way_tie() -> None:
    # rule T13c: 2-3 shared: 41,25 + 27,50 = 68,75 -> 34,38 (better by tie-break) + 34,37
    pl = eur([Placing("a", 1), Placing("b", 2, 3, order=1), Placing("c", 2, 3, order=2)])
    assert money_of(pl) == {"a": 6875, "b": 3438, "c": 3437}
    assert pl.money_awarded == 13_750


def test_eur_three_way_tie() -> None:
    # rule T13c: 137,50 / 3 = 45,83 rest 1 cent -> 45,84, 45,83, 45,83; the cent to the best by tie-break (c)
    pl = eur([Placing("a", 1, 3, order=5), Placing("b", 1, 3, order=6), Placing("c", 1, 3, order=4)])
    assert money_of(pl) == {"c": 4584, "a": 4583, "b": 4583}
    assert pl.money_awarded == 13_750


# --- TRY ---
# Fees: 7 x 250 TL = 1 750,00 TL; pool 70 % = 1 225,00 TL = 122 500 kuruş.
# Shares 45/35/20: 551,25 / 428,75 / 245,00 TL.
TRY_PLAN = PrizePlan(
    "TRY",
    (PlacePrize(1, pool_share=4500), PlacePrize(2, pool_share=3500), PlacePrize(3, pool_share=2000)),
    pool_rate=7000,
)


def try_(ranking: list[Placing]) -> PrizeList:
    return award_prizes(TRY_PLAN, ranking, event_date=DAY, collected=175_000)


def test_try_two_way_tie() -> None:
    # rule T13c: 2-3 shared: 428,75 + 245,00 = 673,75 -> 336,88 (better) + 336,87
    pl = try_([Placing("a", 1), Placing("b", 2, 3, order=1), Placing("c", 2, 3, order=2)])
    assert money_of(pl) == {"a": 55_125, "b": 33_688, "c": 33_687}
    assert pl.pool == 122_500 and pl.money_awarded == 122_500


def test_try_three_way_tie() -> None:
    # rule T13c: 1 225,00 / 3 = 408,33 rest 1 kuruş -> 408,34, 408,33, 408,33
    pl = try_([Placing("a", 1, 3, order=0), Placing("b", 1, 3, order=1), Placing("c", 1, 3, order=2)])
    assert money_of(pl) == {"a": 40_834, "b": 40_833, "c": 40_833}


# --- fixed amounts, elimination places, lot, items ---


def test_fixed_amounts_and_shared_quarter_final_places() -> None:
    # rule T13a, T12a, T13c: fixed 100 / 60 / 30 / 30 / 10 x4 EUR; losers of the quarter-finals share 5-8:
    # 4 x 10,00 = 40,00 -> 10,00 each; semi-final losers share 3-4: 60,00 -> 30,00 each
    plan = PrizePlan(
        "EUR",
        tuple(PlacePrize(p, fixed=f) for p, f in [(1, 10_000), (2, 6_000), (3, 3_000), (4, 3_000)])
        + tuple(PlacePrize(p, fixed=1_000) for p in range(5, 9)),
    )
    ranking = [Placing("w", 1), Placing("f", 2), Placing("s1", 3, 4, 3), Placing("s2", 3, 4, 4)] + [
        Placing(f"q{i}", 5, 8, 5 + i) for i in range(4)
    ]
    pl = award_prizes(plan, ranking, event_date=DAY, collected=0)
    m = money_of(pl)
    assert m["w"] == 10_000 and m["f"] == 6_000 and m["s1"] == m["s2"] == 3_000
    assert all(m[f"q{i}"] == 1_000 for i in range(4))
    # 100 + 60 + 30 + 30 + 4 x 10 = 260,00 EUR
    assert pl.money_awarded == 26_000 and pl.undistributed == 0


def test_unseparated_tie_leftover_unit_by_seeded_lot() -> None:
    # rule T13c: b and c are not separated by tie-breaks (same order): the leftover cent goes by lot
    def winner(seed: int) -> str:
        plan = PrizePlan("EUR", EUR_PLAN.places, seed=seed)
        pl = award_prizes(
            plan,
            [Placing("a", 1), Placing("b", 2, 3, order=1), Placing("c", 2, 3, order=1)],
            event_date=DAY,
            collected=15_000,
            refunded=1_250,
        )
        m = money_of(pl)
        assert sorted(m.values()) == [3437, 3438, 6875]
        return max(("b", "c"), key=lambda e: m[e])

    assert winner(11) == winner(11)
    assert {winner(s) for s in range(30)} == {"b", "c"}


def test_trophy_is_indivisible_and_goes_by_tie_break() -> None:
    # rule T13a, T13c: 1-2 shared; the cup (1st) goes to the better by tie-break,
    # the silver medal to the other
    plan = PrizePlan(
        "TRY",
        (
            PlacePrize(1, items=(Item(PrizeKind.TROPHY, "Cup"),)),
            PlacePrize(2, items=(Item(PrizeKind.TROPHY, "Silver medal"),)),
            PlacePrize(3, items=(Item(PrizeKind.FREE_ENTRY, "Free entry: Autumn Open"),)),
        ),
    )
    pl = award_prizes(
        plan,
        [Placing("x", 1, 2, order=2), Placing("y", 1, 2, order=1), Placing("z", 3, 4), Placing("v", 3, 4, 1)],
        event_date=DAY,
        collected=0,
    )
    got = {(a.entrant, a.description) for a in pl.awards}
    assert got == {("y", "Cup"), ("x", "Silver medal"), ("z", "Free entry: Autumn Open")}
    assert pl.unawarded == ()  # place 4 has no item; v gets nothing
    ids = [a.award_id for a in pl.awards]
    assert len(set(ids)) == len(ids)


def test_disqualified_gets_nothing() -> None:
    # rule T9c: the disqualified entrant still listed on 1st place gets nothing;
    # 1st's money stays undistributed
    pl = eur([Placing("a", 1, disqualified=True), Placing("b", 2), Placing("c", 3)])
    assert money_of(pl) == {"b": 4125, "c": 2750}
    assert pl.undistributed == 6875
    assert pl.for_entrant("a") == []


# --- category prizes (T13d) ---


def _cat_plan(minimum: int) -> PrizePlan:
    return PrizePlan(
        "EUR",
        (PlacePrize(1, fixed=5_000),),
        categories=(CategoryPrize(WOMEN, fixed=2_000, items=(Item(PrizeKind.GOODS, "Board"),)),),
        category_minimum=minimum,
    )


FIELD = [
    Placing("ayse", 1, gender="f"),
    Placing("bora", 2, gender="m"),
    Placing("cem", 3, gender="m"),
    Placing("dilek", 4, gender="f"),
]


def test_category_below_minimum_is_not_awarded() -> None:
    # rule T13d: minimum 3 women, only 2 entered -> no women's prize; its 20,00 stay undistributed
    pl = award_prizes(_cat_plan(3), FIELD, event_date=DAY, collected=0)
    assert pl.cancelled_categories == ("women",)
    assert money_of(pl) == {"ayse": 5_000}
    assert pl.undistributed == 2_000 and pl.unawarded == ("women 1: Board",)


def test_category_at_minimum_is_won_on_top_of_a_place_prize() -> None:
    # rule T13d: minimum 2, two women -> the best-placed woman (ayse, 1st) gets 50,00 + 20,00 and the board
    pl = award_prizes(_cat_plan(2), FIELD, event_date=DAY, collected=0)
    assert pl.cancelled_categories == ()
    assert money_of(pl) == {"ayse": 7_000}
    assert {a.description for a in pl.for_entrant("ayse") if a.category == "women"} >= {"Board"}


def test_disqualified_woman_is_counted_but_cannot_win() -> None:
    # rule T13d + T9c: she entered (the category has 2 women) but the prize goes to dilek
    field = [Placing("ayse", 1, gender="f", disqualified=True), *FIELD[1:]]
    pl = award_prizes(_cat_plan(2), field, event_date=DAY, collected=0)
    assert money_of(pl) == {"dilek": 2_000}
    assert pl.undistributed == 5_000  # 1st place money: its holder is disqualified


def test_youth_and_veterans_by_birth_year_at_the_event_date() -> None:
    # rule T13d: event in 2025; youth = age <= 18: born 2007 (18) yes, 2006 (19) no;
    # veterans = age >= 50: born 1975 (50) yes, 1976 (49) no
    plan = PrizePlan(
        "IDR",
        categories=(CategoryPrize(YOUTH, fixed=100_000), CategoryPrize(VETERANS, fixed=150_000)),
    )
    field = [
        Placing("y19", 1, birth_year=2006),
        Placing("v49", 2, birth_year=1976),
        Placing("y18", 3, birth_year=2007),
        Placing("v50", 4, birth_year=1975),
        Placing("nobody", 5),
    ]
    pl = award_prizes(plan, field, event_date=DAY, collected=0)
    assert money_of(pl) == {"y18": 100_000, "v50": 150_000}


def test_bad_plans_are_refused() -> None:
    with pytest.raises(PrizeError):
        PrizePlan("EUR", (PlacePrize(1, pool_share=6000), PlacePrize(2, pool_share=5000)))  # 110 %
    with pytest.raises(PrizeError):
        EUR_PLAN.pool(1000, 2000)  # refunds above the fees
    with pytest.raises(MoneyError):
        PrizePlan("EURO")


# --- properties: money is never created or lost ---


@settings(max_examples=200, deadline=None)
@given(total=st.integers(0, 10**12), n=st.integers(1, 64))
def test_split_never_creates_or_loses_money(total: int, n: int) -> None:
    parts = split_equally(total, n)
    assert sum(parts) == total
    assert max(parts) - min(parts) <= 1
    assert parts == sorted(parts, reverse=True)  # leftover units go to the first (better-placed)


@settings(max_examples=200, deadline=None)
@given(
    total=st.integers(0, 10**10),
    shares=st.lists(st.integers(0, 3000), min_size=1, max_size=8).filter(lambda s: sum(s) <= 10_000),
)
def test_pool_apportionment_is_exact(total: int, shares: list[int]) -> None:
    parts = allocate_shares(total, shares, 10_000)
    assert sum(parts) == total * sum(shares) // 10_000
    # each part is its exact share rounded down, plus at most the one unit lost to rounding
    assert all(-10_000 < p * 10_000 - total * s <= 10_000 for p, s in zip(parts, shares, strict=True))


@st.composite
def events(draw: st.DrawFn) -> tuple[PrizePlan, list[Placing], int, int]:
    currency = draw(st.sampled_from(["IDR", "EUR", "TRY"]))
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=6))
    ranking: list[Placing] = []
    place = 1
    for g, size in enumerate(sizes):
        for k in range(size):
            ranking.append(
                Placing(
                    f"e{g}_{k}",
                    place,
                    place + size - 1,
                    order=draw(st.integers(0, 3)),
                    disqualified=draw(st.integers(0, 3)) == 0,
                    gender=draw(st.sampled_from(["f", "m", None])),
                    birth_year=draw(st.one_of(st.none(), st.integers(1940, 2015))),
                )
            )
        place += size
    n_places = draw(st.integers(0, 10))
    raw = draw(st.lists(st.integers(0, 2500), min_size=n_places + 2, max_size=n_places + 2))
    while sum(raw) > 10_000:
        raw = [r // 2 for r in raw]
    fixed = draw(st.lists(st.integers(0, 10**6), min_size=n_places + 2, max_size=n_places + 2))
    plan = PrizePlan(
        currency,
        tuple(PlacePrize(p + 1, fixed=fixed[p], pool_share=raw[p]) for p in range(n_places)),
        categories=(
            CategoryPrize(WOMEN, fixed=fixed[-2], pool_share=raw[-2]),
            CategoryPrize(VETERANS, fixed=fixed[-1], pool_share=raw[-1]),
        ),
        pool_rate=draw(st.integers(0, 10_000)),
        category_minimum=draw(st.integers(1, 4)),
        seed=draw(st.integers(0, 1000)),
    )
    collected = draw(st.integers(0, 10**9))
    refunded = draw(st.integers(0, collected))
    return plan, ranking, collected, refunded


@settings(max_examples=200, deadline=None)
@given(ev=events())
def test_prize_list_never_creates_or_loses_money(ev: tuple[PrizePlan, list[Placing], int, int]) -> None:
    # rules T13b, T13c, T13d, T9c: every unit the plan promises is either awarded or reported undistributed
    plan, ranking, collected, refunded = ev
    pl = award_prizes(plan, ranking, event_date=DAY, collected=collected, refunded=refunded)
    promised = sum(p.fixed for p in plan.places) + sum(c.fixed for c in plan.categories)
    shares = sum(p.pool_share for p in plan.places) + sum(c.pool_share for c in plan.categories)
    promised += pl.pool * shares // 10_000
    assert pl.money_awarded + pl.undistributed == promised
    assert all(a.amount >= 0 for a in pl.awards)
    dq = {p.entrant for p in ranking if p.disqualified}
    assert not any(a.entrant in dq for a in pl.awards)  # rule T9c
    # sharers of a place group get amounts differing by at most one unit (T13c)
    by_group: dict[str, list[int]] = {}
    for a in pl.awards:
        if a.award_id.startswith("place:") and a.kind is PrizeKind.MONEY:
            by_group.setdefault(a.award_id.rsplit(":", 1)[0], []).append(a.amount)
    assert all(max(v) - min(v) <= 1 for v in by_group.values())
