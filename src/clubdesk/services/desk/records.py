"""The registration desk's plain results and the look-ups its parts share (see :mod:`.desk`)."""

from __future__ import annotations

import re
import secrets
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.models.event import (
    Entrant,
    EntrantMember,
    Event,
    OutboxMessage,
)
from clubdesk.models.member import Member
from clubdesk.models.money import Payment
from clubdesk.services.kernel import Actor, ServiceError, audit

MAX_REFERENCE = 200

# Check-in codes: no 0/O, 1/I/L, 2/Z, 5/S, 6/G, 8/B; the first character is a letter.
CODE_LETTERS = "ACDEFHJKMNPQRTUVWXY"
CODE_ALPHABET = CODE_LETTERS + "3479"
CODE_LENGTH = 6
QR_PREFIX = "CLUBDESK:CHECKIN:"
ACTIVE_STATUSES = ("registered", "waitlisted")
MIN_PHONE_DIGITS = 6
MAX_COUNTRY_CODE_DIGITS = 3


# --------------------------------------------------------------------------- plain results


@dataclass(frozen=True)
class Registration:
    entrant: int
    status: str  # "registered" or "waitlisted"
    waitlist_position: int | None
    code: str
    name: str
    fee: int
    early_fee: int | None
    message: str


@dataclass(frozen=True)
class PaymentInfo:
    id: int
    entrant: int
    amount: int
    currency: str
    method: str
    reference: str
    paid_at: datetime
    recorded_by: str
    refund_of: int | None
    kind: str


@dataclass(frozen=True)
class Withdrawal:
    entrant: int
    refund: int  # minor units given back (positive number)
    refunds: tuple[PaymentInfo, ...]
    promoted: int | None
    message: str


@dataclass(frozen=True)
class CheckIn:
    entrant: int
    name: str
    code: str
    status: str
    waitlist_position: int | None
    joins_from_round: int | None
    checked_in_at: datetime
    owed: int
    currency: str
    message: str


@dataclass(frozen=True)
class EntrantRow:
    entrant: int
    name: str
    status: str
    waitlist_position: int | None
    code: str
    members: tuple[str, ...]  # member numbers, active ones
    price: int  # what this entrant owes in all, by the payments' dates (rule T2b)
    paid: int  # net: payments minus refunds
    owed: int
    currency: str
    checked_in_at: datetime | None
    joins_from_round: int | None
    registered_at: datetime

    @property
    def checked_in(self) -> bool:
        return self.checked_in_at is not None


@dataclass(frozen=True)
class CashLine:
    currency: str
    method: str
    received: int
    refunded: int  # positive number
    count: int

    @property
    def net(self) -> int:
        return self.received - self.refunded


@dataclass(frozen=True)
class CashBox:
    day: date
    event_id: int | None
    lines: tuple[CashLine, ...]
    payments: tuple[PaymentInfo, ...]

    def total(self, currency: str) -> int:
        return sum(line.net for line in self.lines if line.currency == currency)


@dataclass(frozen=True)
class OutboxItem:
    id: int
    event_id: int | None
    entrant_id: int | None
    member_number: str | None
    kind: str
    text: str
    created_at: datetime
    sent_at: datetime | None


@dataclass(frozen=True)
class Receipt:
    payment: PaymentInfo
    event_id: int
    event_name: str
    entrant_name: str
    code: str
    qr_payload: str
    paid_total: int
    owed: int


@dataclass(frozen=True)
class NoShowSwap:
    no_show: int
    no_show_name: str
    promoted: int
    promoted_name: str


# --------------------------------------------------------------------------- helpers


def qr_payload(event_id: int, code: str) -> str:
    """CONTRACTS.md §4: the receipt's check-in QR."""
    return f"{QR_PREFIX}{event_id}:{code}"


def normalise_code(text: str) -> str:
    return re.sub(r"[\s\-_.]", "", text).upper()


def phone_digits(text: str) -> str:
    """Digits of a phone number; a leading ``00`` (international prefix) is dropped."""
    digits = re.sub(r"\D", "", text)
    return digits[2:] if digits.startswith("00") else digits


def phones_match(a: str, b: str) -> bool:
    """Same phone despite spaces, dashes, a leading 0 (trunk prefix) and a country code (rule T3a).

    ``+90 532 123 45 67``, ``0090-532-1234567``, ``0532 123 4567`` and ``5321234567`` are one number: after
    dropping the trunk 0, the shorter is the end of the longer and the longer has at most a 3-digit country
    code in front.
    """
    x, y = phone_digits(a).lstrip("0"), phone_digits(b).lstrip("0")
    if len(x) < MIN_PHONE_DIGITS or len(y) < MIN_PHONE_DIGITS:
        return False
    short, long_ = sorted((x, y), key=len)
    return long_.endswith(short) and len(long_) - len(short) <= MAX_COUNTRY_CODE_DIGITS


def entrant_of(s: Session, ev: Event, entrant_id: int) -> Entrant:
    en = s.get(Entrant, entrant_id)
    if en is None or en.event_id != ev.id:
        raise ServiceError(
            "no-entrant",
            _("No entrant {id} in {event}.").format(id=entrant_id, event=ev.name),
            entrant=entrant_id,
        )
    return en


def member_of(s: Session, number: str) -> Member:
    number = number.strip()
    m = s.scalar(select(Member).where(Member.number == number))
    if m is None:
        raise ServiceError("no-member", _("No member with number {number}.").format(number=number))
    seen = {m.id}
    while m.merged_into_id is not None:  # rule T2a: a merged record stands for the kept one
        nxt = s.get(Member, m.merged_into_id)
        if nxt is None or nxt.id in seen:
            break
        seen.add(nxt.id)
        m = nxt
    if not m.active:
        raise ServiceError(
            "member-inactive",
            _("Member {number} ({name}) is not active.").format(number=m.number, name=m.name),
        )
    return m


def active_links(s: Session, entrant_id: int) -> list[EntrantMember]:
    return list(
        s.scalars(
            select(EntrantMember)
            .where(EntrantMember.entrant_id == entrant_id, EntrantMember.active.is_(True))
            .order_by(EntrantMember.id)
        )
    )


def members_of(s: Session, entrant_id: int) -> list[Member]:
    out = []
    for link in active_links(s, entrant_id):
        m = s.get(Member, link.member_id)
        if m is not None:
            out.append(m)
    return out


def entry_of_member(s: Session, ev: Event, member_id: int) -> Entrant | None:
    """The member's active entry (registered or waiting) in ``ev``, if any."""
    return s.scalar(
        select(Entrant)
        .join(EntrantMember, EntrantMember.entrant_id == Entrant.id)
        .where(
            Entrant.event_id == ev.id,
            Entrant.status.in_(ACTIVE_STATUSES),
            EntrantMember.member_id == member_id,
            EntrantMember.active.is_(True),
        )
    )


def new_code(s: Session) -> str:
    while True:
        code = secrets.choice(CODE_LETTERS) + "".join(
            secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH - 1)
        )
        if s.scalar(select(Entrant.id).where(Entrant.code == code)) is None:
            return code


def entrant_payments(s: Session, entrant_id: int) -> list[Payment]:
    return list(s.scalars(select(Payment).where(Payment.entrant_id == entrant_id).order_by(Payment.id)))


def price_for(en: Entrant, ev: Event, payments: Iterable[tuple[datetime, int]]) -> int:
    """Rule T2b: the early price applies when the payments made by the early date cover it."""
    if en.early_fee is None or ev.early_until is None:
        return en.fee
    early_paid = sum(amount for paid_at, amount in payments if paid_at.date() <= ev.early_until)
    return en.early_fee if early_paid >= en.early_fee else en.fee


def money(en: Entrant, ev: Event, pays: Sequence[Payment]) -> tuple[int, int, int]:
    """(price, net paid, owed) of an entrant."""
    pairs = [(p.paid_at, p.amount) for p in pays]
    price = price_for(en, ev, pairs)
    paid = sum(p.amount for p in pays)
    owed = max(price - paid, 0) if en.status in ACTIVE_STATUSES else 0
    return price, paid, owed


def pay_info(p: Payment) -> PaymentInfo:
    return PaymentInfo(
        id=p.id,
        entrant=p.entrant_id,
        amount=p.amount,
        currency=p.currency,
        method=p.method,
        reference=p.reference,
        paid_at=p.paid_at,
        recorded_by=p.recorded_by,
        refund_of=p.refund_of_id,
        kind=p.kind,
    )


def entrant_snapshot(en: Entrant) -> dict[str, object]:
    return {
        "name": en.name,
        "status": en.status,
        "waitlist_position": en.waitlist_position,
        "checked_in_at": en.checked_in_at,
        "joins_from_round": en.joins_from_round,
    }


def renumber_waitlist(s: Session, ev: Event) -> None:
    waiting = s.scalars(
        select(Entrant)
        .where(Entrant.event_id == ev.id, Entrant.status == "waitlisted")
        .order_by(Entrant.waitlist_position, Entrant.id)
    )
    for i, en in enumerate(waiting, start=1):
        en.waitlist_position = i


def _registered_count(s: Session, ev: Event) -> int:
    return int(
        s.scalar(
            select(func.count(Entrant.id)).where(Entrant.event_id == ev.id, Entrant.status == "registered")
        )
        or 0
    )


def has_room(s: Session, ev: Event) -> bool:
    return ev.capacity is None or _registered_count(s, ev) < ev.capacity


def entry_name(ev: Event, members: Sequence[Member], team_name: str | None) -> str:
    if ev.entry_type == "team" and team_name:
        return team_name.strip()
    return " / ".join(m.name for m in members)


def _is_main_entrant(s: Session, parent_id: int, member_id: int) -> bool:
    """Rule T2e: the member holds a place in the main event."""
    parent = s.get(Event, parent_id)
    if parent is None:
        return False
    entry = entry_of_member(s, parent, member_id)
    return entry is not None and entry.status == "registered"


def fee_for(s: Session, ev: Event, base: int, members: Sequence[Member], roles: Sequence[str]) -> int:
    """The fee of one entry: per entrant or per person (rule BC4); side events for main entrants (T2e)."""

    def discounted(amount: int) -> int:
        if ev.side_fee_rule == "free":
            return 0
        if ev.side_fee_rule == "discount":
            return amount * (100 - ev.side_discount_percent) // 100
        return amount

    paying = [m for m, r in zip(members, roles, strict=True) if r != "substitute"]
    side = ev.parent_event_id is not None and ev.side_fee_rule != "full"
    if ev.fee_per == "person":
        total = 0
        for m in paying:
            main = side and _is_main_entrant(s, ev.parent_event_id or 0, m.id)
            total += discounted(base) if main else base
        return total
    if side and all(_is_main_entrant(s, ev.parent_event_id or 0, m.id) for m in paying):
        return discounted(base)
    return base


def _notify(s: Session, ev: Event, en: Entrant, kind: str, text: str) -> None:
    member_ids: list[int | None] = [link.member_id for link in active_links(s, en.id)]
    for member_id in member_ids or [None]:
        s.add(OutboxMessage(event_id=ev.id, entrant_id=en.id, member_id=member_id, kind=kind, text=text))


def promote_waiting(s: Session, actor: Actor, ev: Event, en: Entrant, now: datetime, reason: str) -> None:
    """Rule T2c: a waiting entrant takes a place and is notified (outbox)."""
    before = entrant_snapshot(en)
    en.status = "registered"
    en.waitlist_position = None
    en.promoted_at = now
    renumber_waitlist(s, ev)
    text = _(
        "Good news, {name}: a place opened in {event} and you are now registered. "
        "Your check-in code is {code}."
    ).format(name=en.name, event=ev.name, code=en.code)
    _notify(s, ev, en, "promoted", text)
    audit(
        s,
        actor,
        "entrant.promote",
        "entrant",
        en.id,
        before=before,
        after=entrant_snapshot(en),
        event_id=ev.id,
        reason=reason,
    )


def first_waiting(s: Session, ev: Event, *, present_only: bool = False) -> Entrant | None:
    query = select(Entrant).where(Entrant.event_id == ev.id, Entrant.status == "waitlisted")
    if present_only:
        query = query.where(Entrant.checked_in_at.is_not(None))
    return s.scalar(query.order_by(Entrant.waitlist_position, Entrant.id).limit(1))


def give_back(
    s: Session, actor: Actor, ev: Event, en: Entrant, amount: int, now: datetime, reason: str
) -> list[Payment]:
    """Refund ``amount`` as negative payments linked to the latest payments, same methods."""
    pays = entrant_payments(s, en.id)
    refunded_of: dict[int, int] = defaultdict(int)
    for p in pays:
        if p.refund_of_id is not None:
            refunded_of[p.refund_of_id] += -p.amount
    out: list[Payment] = []
    left = amount
    for p in reversed([p for p in pays if p.amount > 0]):
        if left <= 0:
            break
        room = p.amount - refunded_of[p.id]
        part = min(room, left)
        if part <= 0:
            continue
        r = Payment(
            entrant_id=en.id,
            amount=-part,
            currency=p.currency,
            method=p.method,
            reference=p.reference,
            paid_at=now,
            recorded_at=now,
            recorded_by=actor.name,
            refund_of_id=p.id,
            kind="refund",
            note=reason,
        )
        s.add(r)
        s.flush()
        audit(
            s,
            actor,
            "payment.refund",
            "payment",
            r.id,
            after={"entrant": en.id, "amount": r.amount, "method": r.method, "refund_of": p.id},
            event_id=ev.id,
            reason=reason,
        )
        out.append(r)
        left -= part
    return out
