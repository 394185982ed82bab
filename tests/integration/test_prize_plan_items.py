"""Issue 21: the stored prize plan (``night-config --prize-plan``, the Prizes screen) carries items (T13a) and
category prizes (T13d); a finished event awards the category prize to the best-placed woman on top of her
place prize, and a category prize is paid once (T13e)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clubdesk.models.member import Member
from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.money import prize_payments
from clubdesk.services.night.data import prize_plans, settings
from clubdesk.standings.prizes import WOMEN, PrizeKind
from tests.integration.test_night_helpers import DESK, make_event, open_db
from tests.integration.test_night_paths import run_bracket

PLAN = {
    "pool_rate": 10000,
    "places": [
        {"place": 1, "fixed": 3000, "pool_share": 0, "items": [{"kind": "trophy", "description": "Cup"}]},
        {"place": 2, "fixed": 1000, "pool_share": 0, "items": []},
    ],
    "categories": [
        {
            "code": "women",
            "rank": 1,
            "fixed": 500,
            "pool_share": 0,
            "items": [{"kind": "free-entry", "description": ""}],
        }
    ],
    "category_minimum": 1,
}


def test_plan_json_round_trip_with_items_and_categories() -> None:
    plan = prize_plans.prize_plan_from(PLAN, "EUR")
    assert plan is not None
    assert plan.places[0].items[0].kind is PrizeKind.TROPHY and plan.places[0].items[0].description == "Cup"
    assert plan.categories[0].category == WOMEN and plan.categories[0].fixed == 500
    assert prize_plans.prize_plan_json(plan) == PLAN
    assert prize_plans.prize_plan_from(json.dumps(prize_plans.prize_plan_json(plan)), "EUR") == plan


def test_bad_item_kind_is_refused_when_set(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="single-elimination", players=4)
    bad = {"places": [{"place": 1, "items": [{"kind": "castle"}]}]}
    with pytest.raises(ServiceError) as err:
        settings.configure(db, DESK, ev, prize_plan=bad)
    assert err.value.code == "bad-setting"
    assert settings.night_settings(db, ev)["prize_plan"] == "{}"
    db.close()


def test_category_prize_goes_to_the_best_placed_woman_and_is_paid_once(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="single-elimination", players=4)
    with db.session() as s:  # rule T13d: player 3 (seed 3) is a woman
        for m in s.query(Member):
            m.gender = "f" if m.name == "Player 3" else "m"
    settings.configure(db, DESK, ev, prize_plan=PLAN)
    seed = {e: k for k, e in enumerate(ids)}
    run_bracket(db, ev, lambda _r, a, b: a if seed[a] < seed[b] else b)
    lines = prize_payments.prize_lines(db, ev)
    cat = [p for p in lines if p.key.startswith("cat:")]
    assert {(p.entrant, p.kind, p.amount) for p in cat} == {(ids[2], "money", 500), (ids[2], "free-entry", 0)}
    place1 = [p for p in lines if p.place == 1]
    assert {(p.kind, p.amount, p.description) for p in place1} == {
        ("money", 3000, "Prize money"),
        ("trophy", 0, "Cup"),
    }
    money = next(p for p in cat if p.kind == "money")
    # rule T13e: the category prize is paid on its own, and never twice
    paid = prize_payments.pay_prize(
        db, DESK, ev, money.place, "cash", entrant=money.entrant, award=money.award
    )
    assert paid.amount == 500
    with pytest.raises(ServiceError) as err:
        prize_payments.pay_prize(db, DESK, ev, money.place, "card", entrant=money.entrant, award=money.award)
    assert err.value.code == "already-paid"
    after = {p.award: (p.paid_at is not None, p.method) for p in prize_payments.prize_lines(db, ev)}
    assert after[money.award] == (True, "cash")
    assert sum(1 for v in after.values() if v[0]) == 1  # the free entry and the place prizes are still unpaid
    db.close()
