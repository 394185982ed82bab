"""Creating and editing events: ruleset presets with overrides, formats, fees, refusals (issue 10)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from clubdesk.services.events.events import (
    EventData,
    create_event,
    get_event,
    list_events,
    update_event,
)
from clubdesk.services.events.status import set_status
from clubdesk.services.kernel.base import Actor, ServiceError

ACTOR = Actor("Sekreter")


def test_event_from_a_preset_with_target_201(db) -> None:  # type: ignore[no-untyped-def]
    ev = create_event(
        db, ACTOR, EventData(name="Gaple Night", ruleset="gaple-club", format="swiss", target=201)
    )
    assert ev.overrides == {"target": 201}
    assert get_event(db, ev.id).status == "open"


def test_match_length_per_round_repeats_the_last(db) -> None:  # type: ignore[no-untyped-def]
    # rule T8a: matches to 5 in the Swiss rounds, 7 in the semi-final, 9 in the final
    ev = create_event(
        db,
        ACTOR,
        EventData(name="T", ruleset="tavla", format="single-elimination", match_lengths=(5, 5, 7, 9)),
    )
    assert [ev.match_length(r) for r in (1, 3, 4, 6)] == [5, 7, 9, 9]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": " "}, "name"),
        ({"ruleset": "chess"}, "ruleset"),
        ({"format": "knockout"}, "format"),
        ({"fee": -100}, "fee"),
        ({"capacity": 1}, "capacity"),
        ({"currency": "EURO"}, "currency"),
        ({"early_fee": 3000}, "early_fee"),  # above the normal fee of 2500
        ({"early_fee": 2000}, "early_until"),
        ({"overrides": {"match_length": 0}}, "overrides"),
        ({"side_fee_rule": "free"}, "side_fee_rule"),  # not a side event
        ({"refund_percent_before_close": 150}, "refund_percent_before_close"),
        ({"starts_on": date(2025, 3, 2), "ends_on": date(2025, 3, 1)}, "ends_on"),
        (
            {"registration_closes_at": datetime(2025, 3, 2), "start_at": datetime(2025, 3, 1)},
            "registration_closes_at",
        ),
    ],
)
def test_bad_events_are_refused_and_nothing_written(db, changes, field) -> None:  # type: ignore[no-untyped-def]
    values = dict(name="Cup", ruleset="tavla", format="swiss", fee=2500)
    values.update(changes)
    with pytest.raises(ServiceError) as info:
        create_event(db, ACTOR, EventData(**values))
    assert field in info.value.params["errors"]
    assert list_events(db) == []


def test_after_the_draw_the_fee_is_locked(db) -> None:  # type: ignore[no-untyped-def]
    ev = create_event(db, ACTOR, EventData(name="Cup", ruleset="tavla", format="swiss", fee=2500))
    set_status(db, ACTOR, ev.id, "drawn")
    with pytest.raises(ServiceError) as info:
        update_event(db, ACTOR, ev.id, EventData(name="Cup", ruleset="tavla", format="swiss", fee=3000))
    assert info.value.code == "event-drawn"
    assert update_event(db, ACTOR, ev.id, ev.data()).fee == 2500
