"""The desk's lists: an event's entrants and the outbox of notifications."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import select

from clubdesk.collation import sort_key
from clubdesk.i18n import _
from clubdesk.models.event import (
    Entrant,
    OutboxMessage,
)
from clubdesk.models.member import Member
from clubdesk.services.desk.records import (
    ACTIVE_STATUSES,
    EntrantRow,
    OutboxItem,
    entrant_payments,
    members_of,
    money,
)
from clubdesk.services.kernel import DESK_CLOCK, Actor, ServiceError, audit, load_event
from clubdesk.storage import Database

# --------------------------------------------------------------------------- lists


def entrants(db: Database, event_id: int, *, include_withdrawn: bool = True) -> list[EntrantRow]:
    """Entrants in order: registered (by registration), then the waiting list, then the others."""
    with db.session() as s:
        ev = load_event(s, event_id)
        rows = list(s.scalars(select(Entrant).where(Entrant.event_id == ev.id).order_by(Entrant.id)))
        out = []
        for en in rows:
            if not include_withdrawn and en.status not in ACTIVE_STATUSES:
                continue
            price, paid, owed = money(en, ev, entrant_payments(s, en.id))
            out.append(
                EntrantRow(
                    entrant=en.id,
                    name=en.name,
                    status=en.status,
                    waitlist_position=en.waitlist_position,
                    code=en.code,
                    members=tuple(m.number for m in members_of(s, en.id)),
                    price=price,
                    paid=paid,
                    owed=owed,
                    currency=ev.currency,
                    checked_in_at=en.checked_in_at,
                    joins_from_round=en.joins_from_round,
                    registered_at=en.registered_at,
                )
            )
    rank = {"registered": 0, "waitlisted": 1}
    out.sort(key=lambda r: (rank.get(r.status, 2), r.waitlist_position or 0, r.entrant))
    return out


def by_name(rows: Iterable[EntrantRow]) -> list[EntrantRow]:
    """Entrants as a reader looks for them: the entered ones by name in the language's alphabet (Turkish
    C < Ç, ı < i; Spanish n < ñ), then the waiting list in its order, then the rest by name."""

    rank = {"registered": 0, "waitlisted": 1}
    return sorted(rows, key=lambda r: (rank.get(r.status, 2), r.waitlist_position or 0, sort_key(r.name)))


def entrant(db: Database, event_id: int, entrant_id: int) -> EntrantRow:
    for row in entrants(db, event_id):
        if row.entrant == entrant_id:
            return row
    raise ServiceError("no-entrant", _("No entrant {id}.").format(id=entrant_id))


def outbox(db: Database, *, event_id: int | None = None, unsent_only: bool = False) -> list[OutboxItem]:
    with db.session() as s:
        query = select(OutboxMessage).order_by(OutboxMessage.id)
        if event_id is not None:
            query = query.where(OutboxMessage.event_id == event_id)
        if unsent_only:
            query = query.where(OutboxMessage.sent_at.is_(None))
        out = []
        for msg in s.scalars(query):
            member = None if msg.member_id is None else s.get(Member, msg.member_id)
            out.append(
                OutboxItem(
                    id=msg.id,
                    event_id=msg.event_id,
                    entrant_id=msg.entrant_id,
                    member_number=None if member is None else member.number,
                    kind=msg.kind,
                    text=msg.text,
                    created_at=msg.created_at,
                    sent_at=msg.sent_at,
                )
            )
        return out


def mark_sent(db: Database, actor: Actor, ids: Iterable[int], *, now: datetime | None = None) -> int:
    """The notifications were printed or sent by hand."""
    now = DESK_CLOCK.at(now)
    count = 0
    with db.session() as s:
        for msg_id in ids:
            msg = s.get(OutboxMessage, msg_id)
            if msg is None or msg.sent_at is not None:
                continue
            msg.sent_at = now
            audit(s, actor, "outbox.sent", "outbox", msg.id, after={"sent_at": now}, event_id=msg.event_id)
            count += 1
    return count
