"""The desk's payments: paying by method with a reference, refunds, receipts and the cash box (rule T2b)."""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import date, datetime, timedelta

from sqlalchemy import select

from clubdesk.i18n import _
from clubdesk.labels import entrant_status_label as _st
from clubdesk.models.event import (
    Entrant,
)
from clubdesk.models.money import METHODS, Payment
from clubdesk.services.desk import (
    ACTIVE_STATUSES,
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_REFERENCE,
    CashBox,
    CashLine,
    PaymentInfo,
    Receipt,
    entrant_of,
    entrant_payments,
    give_back,
    money,
    pay_info,
    price_for,
    qr_payload,
)
from clubdesk.services.kernel import DESK_CLOCK, Actor, ServiceError, audit, load_event, money_text, require
from clubdesk.storage import Database, lock_event

# --------------------------------------------------------------------------- payments


def pay(
    db: Database,
    actor: Actor,
    event_id: int,
    entrant_id: int,
    amount: int,
    method: str,
    *,
    reference: str = "",
    paid_at: datetime | None = None,
) -> PaymentInfo:
    """Record a payment in minor units (rule T2b). More than what is owed at that date is refused."""
    require(actor, "desk.pay", db)  # permission table
    paid_at = DESK_CLOCK.at(paid_at)
    if method not in METHODS:
        raise ServiceError(
            "bad-method",
            _("Unknown payment method {method}; use one of {choices}.").format(
                method=method, choices=", ".join(METHODS)
            ),
        )
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise ServiceError("bad-amount", _("A payment is a positive amount."))
    if abs((paid_at.date() - date.today()).days) > 5 * 366:  # no payments dated 0001-01-01
        raise ServiceError(
            "bad-date",
            _("A payment date must be within five years of today ({date}).").format(date=paid_at.date()),
        )
    if len(reference.strip()) > MAX_REFERENCE:  # refused, never cut silently
        raise ServiceError(
            "reference-too-long",
            _("The payment reference is too long ({n} characters at most).").format(n=MAX_REFERENCE),
        )
    with db.session() as s:
        lock_event(s, event_id)  # one desk at a time per event (places, payments, rounds)
        ev = load_event(s, event_id)
        en = entrant_of(s, ev, entrant_id)
        if en.status not in ACTIVE_STATUSES:
            raise ServiceError(
                "not-active",
                _("{name} is not entered any more ({status}); nothing to pay.").format(
                    name=en.name, status=_st(en.status)
                ),
            )
        pays = entrant_payments(s, en.id)
        _price, _paid, owed_before = money(en, ev, pays)
        pairs = [(p.paid_at, p.amount) for p in pays] + [(paid_at, amount)]
        price_after = price_for(en, ev, pairs)
        paid_after = sum(a for _t, a in pairs)
        if paid_after > price_after:
            raise ServiceError(
                "overpayment",
                _("{amount} is more than {name} owes ({owed}).").format(
                    amount=money_text(amount, ev.currency),
                    name=en.name,
                    owed=money_text(max(price_after - paid_after + amount, 0), ev.currency),
                ),
                owed=owed_before,
            )
        p = Payment(
            entrant_id=en.id,
            amount=amount,
            currency=ev.currency,
            method=method,
            reference=reference.strip(),
            paid_at=paid_at,
            recorded_at=DESK_CLOCK.at(None),
            recorded_by=actor.name,
            kind="fee",
        )
        s.add(p)
        s.flush()
        audit(
            s,
            actor,
            "payment.record",
            "payment",
            p.id,
            after={"entrant": en.id, "amount": amount, "method": method, "reference": p.reference},
            event_id=ev.id,
        )
        return pay_info(p)


def refund(
    db: Database,
    actor: Actor,
    event_id: int,
    entrant_id: int,
    amount: int,
    *,
    reason: str = "",
    now: datetime | None = None,
) -> list[PaymentInfo]:
    """Give money back by hand (e.g. a mistaken payment); never more than was paid."""
    require(actor, "desk.refund", db)  # permission table
    now = DESK_CLOCK.at(now)
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise ServiceError("bad-amount", _("A refund is a positive amount."))
    with db.session() as s:
        lock_event(s, event_id)  # one desk at a time per event (places, payments, rounds)
        ev = load_event(s, event_id)
        en = entrant_of(s, ev, entrant_id)
        paid = sum(p.amount for p in entrant_payments(s, en.id))
        if amount > paid:
            raise ServiceError(
                "refund-too-large",
                _("Cannot refund {amount}: {name} has paid {paid}.").format(
                    amount=money_text(amount, ev.currency), name=en.name, paid=money_text(paid, ev.currency)
                ),
            )
        return [pay_info(p) for p in give_back(s, actor, ev, en, amount, now, reason or _("refund"))]


def find_by_reference(db: Database, text: str) -> tuple[int, int] | None:
    """Rule T2b: a bank transfer's description holds the check-in code; return (event, entrant)."""
    cleaned = text.upper()
    candidates = set(re.findall(rf"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}", re.sub(r"[\s\-]", "", cleaned)))
    candidates |= set(re.findall(rf"\b[{CODE_ALPHABET}]{{{CODE_LENGTH}}}\b", cleaned))
    with db.session() as s:
        for word in sorted(candidates):
            en = s.scalar(select(Entrant).where(Entrant.code == word))
            if en is not None:
                return en.event_id, en.id
    return None


def receipt(db: Database, payment_id: int) -> Receipt:
    with db.session() as s:
        p = s.get(Payment, payment_id)
        if p is None:
            raise ServiceError("no-payment", _("No payment {id}.").format(id=payment_id))
        en = s.get(Entrant, p.entrant_id)
        assert en is not None
        ev = load_event(s, en.event_id)
        _price, paid, owed = money(en, ev, entrant_payments(s, en.id))
        return Receipt(
            payment=pay_info(p),
            event_id=ev.id,
            event_name=ev.name,
            entrant_name=en.name,
            code=en.code,
            qr_payload=qr_payload(ev.id, en.code),
            paid_total=paid,
            owed=owed,
        )


def payments_of(db: Database, event_id: int, entrant_id: int) -> list[PaymentInfo]:
    with db.session() as s:
        ev = load_event(s, event_id)
        en = entrant_of(s, ev, entrant_id)
        return [pay_info(p) for p in entrant_payments(s, en.id)]


def cash_box(db: Database, day: date | None = None, *, event_id: int | None = None) -> CashBox:
    """The money of one day at the desk, per currency and method (refunds counted out)."""
    day = day or DESK_CLOCK.at(None).date()  # the desk clock, as payments and refunds are stamped
    start = datetime.combine(day, datetime.min.time())
    query = select(Payment).where(Payment.paid_at >= start, Payment.paid_at < start + timedelta(days=1))
    if event_id is not None:
        query = query.join(Entrant, Entrant.id == Payment.entrant_id).where(Entrant.event_id == event_id)
    with db.session() as s:
        pays = list(s.scalars(query.order_by(Payment.paid_at, Payment.id)))
    sums: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for p in pays:
        acc = sums[(p.currency, p.method)]
        if p.amount >= 0:
            acc[0] += p.amount
        else:
            acc[1] += -p.amount
        acc[2] += 1
    order = {m: i for i, m in enumerate(METHODS)}
    lines = tuple(
        CashLine(currency=c, method=m, received=v[0], refunded=v[1], count=v[2])
        for (c, m), v in sorted(sums.items(), key=lambda kv: (kv[0][0], order.get(kv[0][1], 99)))
    )
    return CashBox(day=day, event_id=event_id, lines=lines, payments=tuple(pay_info(p) for p in pays))
