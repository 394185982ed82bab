"""Competitions and their setup: events, formats, sections, the pairs draw.

The package's face: what ui/, cli/ and web/ may use. Everything else is the package's own."""

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

__all__ = [
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
