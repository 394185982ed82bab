"""The demo's prizes and season: a prize plan on every demo event (T13a, T13b) and three tavla nights
played to the end in the tavla cup's season (T12d, T13e), for the prize list and the Season screen.
"""

from __future__ import annotations

import json
import random
from datetime import date, timedelta

from sqlalchemy import select

from clubdesk.models.event import Event
from clubdesk.services import desk, events, money, night
from clubdesk.services.demo.options import DemoOptions
from clubdesk.services.demo.tavla_cup import DEMO_EVENT_NAME
from clubdesk.services.kernel import Actor, ServiceError
from clubdesk.standings.money import currency_exponent
from clubdesk.storage import Database


def prizes_demo(db: Database, actor: Actor, options: DemoOptions, members: list[str]) -> list[int]:
    """A prize plan on every demo event that has none (T13a, T13b), so that the prize list
    prints its places and amounts: a share of the fees where there is an entry fee, fixed money elsewhere
    (in the event's currency: 1st 500, 2nd 250, 3rd 100 major units). Run twice, changes nothing."""

    with db.session() as s:
        events = [(e.id, e.currency, e.fee) for e in s.scalars(select(Event).order_by(Event.id))]
        planned = {
            e_id
            for e_id, _c, _f in events
            if json.loads(night.night(s, s.get(Event, e_id)).prize_plan or "{}")  # type: ignore[arg-type]
        }
    for e_id, currency, fee in events:
        if e_id in planned:
            continue
        if fee:
            plan: dict[str, object] = {
                "pool_rate": 8000,
                "places": [
                    {"place": 1, "pool_share": 5000},
                    {"place": 2, "pool_share": 3000},
                    {"place": 3, "pool_share": 2000},
                ],
            }
        else:
            unit = 10 ** currency_exponent(currency)
            plan = {"places": [{"place": p, "fixed": a * unit} for p, a in ((1, 500), (2, 250), (3, 100))]}
        night.configure(db, actor, e_id, prize_plan=plan)
    return []


SEASON_DEMO_PREFIX = "Demo season: "


SEASON_DEMO_SCALE: dict[str, object] = {
    # rule T12d: base points by place x the event's coefficient (hundredths); best 2 results count;
    # the top 4 are invited to the Super Final and start it with 3, 2, 2 and 1 lives (T4g)
    "base_points": [100, 70, 50, 40, 30, 20, 10, 5],
    "coefficients": {"local": 100, "regional": 150, "B": 150},
    "best_of": 2,
    "super_final": 4,
    "starting_lives": {
        "bands": [{"from": 1, "to": 1, "lives": 3}, {"from": 2, "to": 3, "lives": 2}],
        "default": 1,
    },
}


SEASON_DEMO_PLAN: dict[str, object] = {
    # rules T13a-T13d: 80 % of the fees collected; a trophy for the winner; 3rd place is shared in a
    # knockout (3-4) and split; the best woman wins a free entry and 50 of the currency on top
    "pool_rate": 8000,
    "places": [
        {"place": 1, "pool_share": 5000, "items": [{"kind": "trophy", "description": "Kupa"}]},
        {"place": 2, "pool_share": 3000},
        {"place": 3, "pool_share": 2000},
    ],
    "categories": [
        {"code": "women", "rank": 1, "fixed": 5000, "items": [{"kind": "free-entry", "description": ""}]}
    ],
    "category_minimum": 2,
}


def season_demo(db: Database, actor: Actor, options: DemoOptions, members: list[str]) -> list[int]:
    """Three tavla nights of the last weeks, played to the end, in the season of the demo tavla
    tournament: entry fees paid, a prize plan (so the prize list has its awards, one of them paid, T13e) and a
    season scale (so the Season screen ranks them, T12d). Deterministic; run twice, adds nothing."""

    if options.game not in (None, "tavla") or len(members) < 8:
        return []
    with db.session() as s:
        season = s.scalar(select(Event.season).where(Event.name == DEMO_EVENT_NAME))
        have = {
            n: i
            for i, n in s.execute(
                select(Event.id, Event.name).where(Event.name.like(SEASON_DEMO_PREFIX + "%"))
            )
        }
    season = season or str(date.today().year)
    rng = random.Random(options.seed * 7 + 21)
    today = date.today()
    nights = (
        ("Kadıköy Night 1", "single-elimination", "local", 21),
        ("Kadıköy Night 2", "round-robin", "local", 14),
        ("Regional Cup", "single-elimination", "regional", 7),
    )
    regulars = rng.sample(members, min(len(members), 11))  # the same faces most weeks: best 2 of 3 drops some
    ids: list[int] = []
    for name, fmt, klass, ago in nights:
        full = SEASON_DEMO_PREFIX + name
        if full in have:
            ids.append(have[full])
            continue
        day = today - timedelta(days=ago)
        info = events.create_event(
            db,
            actor,
            events.EventData(
                name=full,
                ruleset="tavla",
                format=fmt,
                match_lengths=(3,),
                starts_on=day,
                ends_on=day,
                season=season,
                coefficient_class=klass,
                currency="TRY",
                fee=10000,  # ₺100
            ),
        )
        ids.append(info.id)
        night.configure(db, actor, info.id, prize_plan=SEASON_DEMO_PLAN, season_scale=SEASON_DEMO_SCALE)
        count = 8 if fmt == "single-elimination" else 5
        for number in rng.sample(regulars, len(regulars)):
            if count == 0:
                break
            try:
                reg = desk.register(db, actor, info.id, number)
                money.pay(db, actor, info.id, reg.entrant, 10000, ("cash", "card", "transfer")[count % 3])
                desk.checkin(db, actor, info.id, reg.code)
            except ServiceError:
                continue
            count -= 1
        for r in range(1, 12):
            try:
                rv = night.propose_round(db, actor, info.id, seed=options.seed + r)
            except ServiceError:
                break  # the event is over
            night.publish_round(db, actor, info.id)
            for t in rv.tables:
                if t.sides[1] is None:
                    continue
                lo = rng.randrange(3)
                night.set_score(
                    db, actor, info.id, r, t.table, (3, lo) if rng.randrange(2) else (lo, 3), confirm=True
                )
        try:  # rule T13e: the winner of the first night has been paid
            if ago == 21:
                money.pay_prize(db, actor, info.id, 1, "cash", on=day)
        except ServiceError:
            pass
    with db.session() as s:
        main = s.scalar(select(Event.id).where(Event.name == DEMO_EVENT_NAME))
    if main is not None and not ids == []:
        settings = night.night_settings(db, main)
        if not json.loads(settings["season_scale"] or "{}"):
            night.configure(db, actor, main, season_scale=SEASON_DEMO_SCALE)
    return ids
