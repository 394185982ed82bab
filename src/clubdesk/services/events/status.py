"""An event's status (the allowed transitions) and its current round: each one transaction with an
audit row."""

from __future__ import annotations

from datetime import datetime

from clubdesk.i18n import _
from clubdesk.labels import event_status_label
from clubdesk.models.event import (
    EVENT_STATUSES,
)
from clubdesk.services.events.events import EventInfo, info_of
from clubdesk.services.kernel import (
    Actor,
    ServiceError,
    audit,
    load_event,
    require,
)
from clubdesk.storage import Database

_TRANSITIONS = {
    "draft": ("open",),
    "open": ("draft", "closed", "drawn"),
    "closed": ("open", "drawn"),
    "drawn": ("running", "finished"),
    "running": ("finished",),
    "finished": (),
}


def set_status(
    db: Database, actor: Actor, event_id: int, status: str, *, now: datetime | None = None
) -> EventInfo:
    """Open or close registration, mark the draw made (``drawn``), running or finished."""
    require(actor, "events.status", db)  # the permission table
    if status not in EVENT_STATUSES:
        raise ServiceError("bad-status", _("Unknown event status {status}.").format(status=status))
    with db.session() as s:
        ev = load_event(s, event_id)
        if status == ev.status:
            return info_of(s, ev)
        if status not in _TRANSITIONS[ev.status]:
            raise ServiceError(
                "bad-transition",
                _("An event that is {old} cannot become {new}.").format(
                    old=event_status_label(ev.status), new=event_status_label(status)
                ),
            )
        before = {"status": ev.status, "drawn_at": ev.drawn_at}
        ev.status = status
        if status == "drawn":
            ev.drawn_at = now or datetime.now()
        audit(
            s,
            actor,
            "event.status",
            "event",
            ev.id,
            before=before,
            after={"status": ev.status, "drawn_at": ev.drawn_at},
            event_id=ev.id,
        )
        return info_of(s, ev)


def mark_drawn(db: Database, actor: Actor, event_id: int, *, now: datetime | None = None) -> EventInfo:
    """The draw is made (the rounds area calls this when round 1 is published): refunds stop (rule T2d)."""
    return set_status(db, actor, event_id, "drawn", now=now)


def set_current_round(db: Database, actor: Actor, event_id: int, round_no: int) -> EventInfo:
    """The last published round; a latecomer checked in after the draw joins from the next one."""
    with db.session() as s:
        ev = load_event(s, event_id)
        if round_no < 0:
            raise ServiceError("bad-round", _("A round number cannot be negative."))
        before = ev.current_round
        ev.current_round = round_no
        if ev.status in ("drawn",) and round_no > 0:
            ev.status = "running"
        audit(s, actor, "event.round", "event", ev.id, before=before, after=round_no, event_id=ev.id)
        return info_of(s, ev)
