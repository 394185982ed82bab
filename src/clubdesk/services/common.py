"""Look-ups several services share, so that each refusal is written once."""

from __future__ import annotations

from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.models.event import Event
from clubdesk.services.base import ServiceError


def load_event(s: Session, event_id: int) -> Event:
    """The event row, or the "no-event" refusal (events and desk services)."""
    ev = s.get(Event, event_id)
    if ev is None:
        raise ServiceError("no-event", _("No event {id}.").format(id=event_id), event=event_id)
    return ev
