"""The demo club's tavla tournament (issue 10): registrations, payments, a waiting list, a free side event."""

from __future__ import annotations

from typing import Any

from clubdesk.services import demo
from clubdesk.services.demo.tavla_cup import DEMO_EVENT_NAME
from clubdesk.services.desk import lists
from clubdesk.services.events.events import get_event
from clubdesk.storage import Database


def test_demo_tavla_tournament_adds_up(demo_db: tuple[Database, dict[str, Any]]) -> None:
    db, result = demo_db
    main_id, side_id = result["events"][:2]
    main = get_event(db, main_id)
    assert (main.name, main.ruleset, main.capacity) == (DEMO_EVENT_NAME, "tavla", 16)
    rows = lists.entrants(db, main_id)
    registered = [r for r in rows if r.status == "registered"]
    waiting = [r for r in rows if r.status == "waitlisted"]
    assert len(registered) == 16
    assert [r.waitlist_position for r in waiting] == [1, 2, 3]
    # every registered entrant's price is the early ₺200 or the full ₺250, and paid + owed == price
    assert all(r.price in (20000, 25000) and r.paid + r.owed == r.price for r in registered)
    assert any(r.owed for r in registered) and any(r.paid for r in registered)
    # rule T2e: the side event is free for the main entrants who entered it
    assert all(r.price == 0 for r in lists.entrants(db, side_id))
    # run again: nothing added
    assert demo.fill_demo(db).events == result["events"]
    assert len(lists.entrants(db, main_id)) == len(rows)
