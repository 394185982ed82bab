"""The demo club's tavla cup: registrations, payments, a waiting list and a side event."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select

from clubdesk.models.event import Event
from clubdesk.services import desk, events, money
from clubdesk.services.kernel import Actor, ServiceError
from clubdesk.storage import Database

DEMO_EVENT_NAME = "Kadıköy Tavla Kupası"


def demo_tavla_tournament(db: Database, actor: Actor, options: Any, members: list[str]) -> list[int]:
    """The demo club's tavla tournament: registrations, payments, a waiting list and a side event.

    A hook of :data:`clubdesk.services.demo.demo_club.DEMO_HOOKS`; deterministic for the demo seed; run twice
    it adds nothing.
    """

    game = getattr(options, "game", None)
    if game not in (None, "tavla"):
        return []
    with db.session() as s:
        existing = s.scalar(select(Event.id).where(Event.name == DEMO_EVENT_NAME))
        if existing is not None:
            side_id = s.scalar(select(Event.id).where(Event.parent_event_id == existing))
            return [existing] + ([side_id] if side_id is not None else [])
    rng = random.Random(getattr(options, "seed", 0))
    today = datetime.now().replace(hour=0, minute=0, second=0, microsecond=0)
    start = today + timedelta(days=3, hours=19)
    main = events.create_event(
        db,
        actor,
        events.EventData(
            name=DEMO_EVENT_NAME,
            ruleset="tavla",
            format="swiss",
            rounds=5,
            match_lengths=(5, 5, 5, 7, 7),
            starts_on=start.date(),
            ends_on=start.date(),
            venue="Kadıköy Tavla Kulübü, İstanbul",
            season=str(start.year),
            coefficient_class="B",
            capacity=16,
            currency="TRY",
            fee=25000,  # ₺250
            early_fee=20000,  # ₺200 when paid by the early date
            early_until=(today - timedelta(days=1)).date(),
            fee_per="entrant",
            refund_percent_before_close=80,
            refund_percent_after_close=0,
            registration_closes_at=start - timedelta(hours=2),
            start_at=start,
            arrival_deadline_minutes=15,
        ),
    )
    side = events.create_event(
        db,
        actor,
        events.EventData(
            name="Last Chance",
            ruleset="tavla",
            format="single-elimination",
            match_lengths=(3,),
            starts_on=start.date(),
            venue="Kadıköy Tavla Kulübü, İstanbul",
            capacity=16,
            currency="TRY",
            fee=10000,
            parent_event_id=main.id,
            side_fee_rule="free",  # rule T2e
            registration_closes_at=start + timedelta(hours=2),
            start_at=start + timedelta(hours=3),
        ),
    )
    pool = list(members)
    rng.shuffle(pool)
    registered: list[desk.Registration] = []
    for number in pool:
        if len(registered) >= 19:  # 16 places, 3 on the waiting list
            break
        try:
            when = today - timedelta(days=rng.randint(3, 9))
            registered.append(desk.register(db, actor, main.id, number, now=when))
        except ServiceError:
            continue  # an inactive member
    methods = ("cash", "card", "transfer", "pos")
    for i, reg in enumerate(registered):
        if reg.status != "registered" or i % 5 == 4:
            continue  # a few still owe the fee
        early = i % 3 != 2
        paid_at = today - timedelta(days=2 if early else 0, hours=-(10 + i % 8))
        amount = 20000 if early else 25000
        method = methods[i % len(methods)]
        reference = f"Tavla {reg.code}" if method == "transfer" else ""
        money.pay(db, actor, main.id, reg.entrant, amount, method, reference=reference, paid_at=paid_at)
    for reg in registered[:4]:
        if reg.status == "registered":
            number = desk.entrant(db, main.id, reg.entrant).members[0]
            desk.register(db, actor, side.id, number, now=today)  # free for main entrants (rule T2e)
    return [main.id, side.id]
