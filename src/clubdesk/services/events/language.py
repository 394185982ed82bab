"""The language an event's reports print in (stored per event; none: the club's language)."""

from __future__ import annotations

from clubdesk.i18n import LANGUAGES, _
from clubdesk.services import club
from clubdesk.services.kernel import (
    Actor,
    ServiceError,
    load_event,
    require,
)
from clubdesk.storage import Database


def language_key(event_id: int) -> str:
    return f"event.{event_id}.language"


def event_language(db: Database, event_id: int) -> str | None:
    """The language the event's reports print in, or None: the club's (Settings). Kept in the settings table,
    so no schema change: ``event.<id>.language``."""

    value = club.get(db, language_key(event_id))
    return value if isinstance(value, str) and value else None


def set_event_language(db: Database, actor: Actor, event_id: int, language: str | None) -> str | None:
    """Print this event's reports in ``language`` (en, id, es, tr); None or "" goes back to the club's."""
    require(actor, "events.edit", db)  # permission table

    lang = (language or "").strip() or None
    if lang is not None and lang not in LANGUAGES:
        raise ServiceError("unknown-language", _("Unknown language: {lang}").format(lang=lang), lang=lang)
    with db.session() as s:
        load_event(s, event_id)  # an unknown event is refused
    club.put(db, actor, language_key(event_id), lang)
    return lang
