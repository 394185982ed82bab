"""Rule T13e: prize payments are recorded: who paid which prize, to whom, when and how; never twice
(issue 19). The prize list shows each prize paid or unpaid (services/reports.prizes_data)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import select

from clubdesk.db import Database, lock_event
from clubdesk.i18n import _
from clubdesk.models.money import METHODS
from clubdesk.models.result import FinalPlace, PrizeAward
from clubdesk.services import rounds as R
from clubdesk.services.base import Actor, ServiceError, audit


@dataclass(frozen=True)
class PrizePayment:
    award: int
    entrant: int
    name: str
    place: int
    kind: str
    amount: int
    currency: str
    paid_at: datetime
    paid_by: str
    paid_to: str
    method: str

    def as_json(self) -> dict[str, Any]:
        return {
            "award": self.award,
            "entrant": self.entrant,
            "name": self.name,
            "place": self.place,
            "kind": self.kind,
            "amount": self.amount,
            "currency": self.currency,
            "paid_at": self.paid_at.isoformat(timespec="minutes"),
            "paid_by": self.paid_by,
            "paid_to": self.paid_to,
            "method": self.method,
        }


def pay_prize(
    db: Database,
    actor: Actor,
    event_id: int,
    place: int,
    method: str,
    *,
    on: date | None = None,
    entrant: int | None = None,
    paid_to: str | None = None,
    now: datetime | None = None,
) -> PrizePayment:
    """Record the payment of the place prize of ``place`` (``entrant`` picks one when players share the
    place, T13c). Refused: an unknown method, no such prize, a choice needed, or already paid."""
    if method not in METHODS:
        raise ServiceError(
            "bad-method",
            _("Unknown payment method {method}: one of {choices}.").format(
                method=method, choices=", ".join(METHODS)
            ),
        )
    with db.session() as s:
        ev = R.get_event(s, event_id)
        # issue 25: one desk at a time per event: two desks paying one prize at once pay it once (T13e)
        lock_event(s, ev.id)
        names = R.entrant_names(s, ev.id)
        places = {
            fp.entrant_id: fp.place_from
            for fp in s.scalars(select(FinalPlace).where(FinalPlace.event_id == ev.id))
        }
        awards = [
            a
            for a in s.scalars(select(PrizeAward).where(PrizeAward.event_id == ev.id).order_by(PrizeAward.id))
            if a.award_key.startswith("place") and places.get(a.entrant_id) == place
        ]
        if entrant is not None:
            awards = [a for a in awards if a.entrant_id == entrant]
        if not awards:
            raise ServiceError(
                "no-prize", _("There is no prize for place {p} in this event.").format(p=place)
            )
        unpaid = [a for a in awards if a.paid_at is None]
        if not unpaid:
            a = awards[0]
            assert a.paid_at is not None
            raise ServiceError(
                "already-paid",
                _(
                    "The prize for place {p} was paid on {d} by {who} ({how}): never twice (rule T13e)."
                ).format(
                    p=place, d=a.paid_at.strftime("%Y-%m-%d"), who=a.paid_by or "?", how=a.paid_method or "?"
                ),
            )
        if len({a.entrant_id for a in unpaid}) > 1:
            raise ServiceError(
                "which-entrant",
                _("Place {p} is shared: say which entrant is paid ({ids}).").format(
                    p=place, ids=", ".join(str(a.entrant_id) for a in unpaid)
                ),
            )
        when = datetime.combine(on, (now or datetime.now()).time()) if on else (now or R.local_now())
        before = []
        for aw in unpaid:  # one entrant's place prizes (money and trophy...) are handed out together
            before.append({"award": aw.id, "paid_at": None})
            aw.paid_at = when
            aw.paid_by = actor.name[:80]
            aw.paid_to = (paid_to or names.get(aw.entrant_id) or "")[:120]
            aw.paid_method = method
        aw = unpaid[0]
        out = PrizePayment(
            aw.id,
            aw.entrant_id,
            names.get(aw.entrant_id) or "",
            place,
            aw.kind,
            sum(a.amount for a in unpaid if a.kind == "money"),
            aw.currency,
            when,
            aw.paid_by,
            aw.paid_to,
            method,
        )
        audit(
            s,
            actor,
            "prize-paid",
            "prize",
            ",".join(str(a.id) for a in unpaid),
            before=before,
            after=out.as_json(),
            event_id=ev.id,
        )
        return out


@dataclass(frozen=True)
class PrizeLine:
    """One awarded prize as the Prizes screen lists it (T13e: paid or not)."""

    award: int
    place: int
    entrant: int
    name: str
    kind: str
    amount: int
    currency: str
    description: str
    paid_at: datetime | None
    paid_by: str
    method: str


def prize_lines(db: Database, event_id: int) -> list[PrizeLine]:
    """The event's prizes by place (category prizes after the place prizes)."""
    with db.session() as s:
        ev = R.get_event(s, event_id)
        names = R.entrant_names(s, ev.id)
        places = {
            fp.entrant_id: fp.place_from
            for fp in s.scalars(select(FinalPlace).where(FinalPlace.event_id == ev.id))
        }
        out = [
            PrizeLine(
                a.id,
                places.get(a.entrant_id, 0),
                a.entrant_id,
                names.get(a.entrant_id) or "",
                a.kind,
                a.amount,
                a.currency,
                a.description,
                a.paid_at,
                a.paid_by,
                a.paid_method,
            )
            for a in s.scalars(select(PrizeAward).where(PrizeAward.event_id == ev.id))
        ]
        return sorted(out, key=lambda x: (x.place == 0, x.place, x.award))
