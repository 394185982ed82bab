"""Competitions and their setup: events, formats, sections, the pairs draw.

The package's face: what ui/, cli/, web/ and the packages above may use. A name is imported from its module
when first used, so a screen that needs one use case does not load the whole package (the first
section paints before the engines load)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clubdesk.services.events.choice import EventGroup, event_group, events_in_order, order_events
    from clubdesk.services.events.events import (
        MAX_CAPACITY,
        MAX_ROUNDS,
        EventData,
        EventInfo,
        copy_event,
        create_event,
        get_event,
        list_events,
        next_week,
        update_event,
    )
    from clubdesk.services.events.language import event_language, set_event_language
    from clubdesk.services.events.pairs_draw import draw_league_pairs
    from clubdesk.services.events.status import set_status

_HOMES = {
    "EventGroup": "clubdesk.services.events.choice",
    "event_group": "clubdesk.services.events.choice",
    "events_in_order": "clubdesk.services.events.choice",
    "order_events": "clubdesk.services.events.choice",
    "EventData": "clubdesk.services.events.events",
    "EventInfo": "clubdesk.services.events.events",
    "MAX_CAPACITY": "clubdesk.services.events.events",
    "MAX_ROUNDS": "clubdesk.services.events.events",
    "copy_event": "clubdesk.services.events.events",
    "create_event": "clubdesk.services.events.events",
    "draw_league_pairs": "clubdesk.services.events.pairs_draw",
    "event_language": "clubdesk.services.events.language",
    "get_event": "clubdesk.services.events.events",
    "list_events": "clubdesk.services.events.events",
    "next_week": "clubdesk.services.events.events",
    "set_event_language": "clubdesk.services.events.language",
    "set_status": "clubdesk.services.events.status",
    "update_event": "clubdesk.services.events.events",
}

__all__ = [
    "EventGroup",
    "event_group",
    "events_in_order",
    "order_events",
    "EventData",
    "EventInfo",
    "MAX_CAPACITY",
    "MAX_ROUNDS",
    "copy_event",
    "create_event",
    "draw_league_pairs",
    "event_language",
    "get_event",
    "list_events",
    "next_week",
    "set_event_language",
    "set_status",
    "update_event",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from the module that defines it on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
