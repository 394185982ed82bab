"""The registration desk: entries, payments and refunds, the waiting list, check-in, the cash box.

Rules: T2b (payments by method with a reference; the early price follows the payment's date; a transfer's
description holds the check-in code), T2c (capacity, ordered waiting list, automatic promotion with a
notification in the outbox), T2d (refund per policy before registration closes; none after the draw or for a
no-show), T2e (side events free or discounted for main-event entrants), T3a (check-in by code, QR payload,
member number or phone; no check-in, no draw; a waiting player present may take a no-show's place), BC4 (fee
per person).

Nothing is deleted: a withdrawal is a status, a refund a negative payment linked to the one it gives back, a
partner leaving a pair keeps its row with ``left_at``. Every change writes an audit row in the same
transaction. Every refusal raises :class:`ServiceError` before anything is written.

Desk times (payments, check-ins, withdrawals) are local wall-clock times, like the event's close and start
times: prices and the cash box follow the club's local day.
"""

from __future__ import annotations

import re
import secrets
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from clubdesk.db import Database, lock_event
from clubdesk.i18n import _
from clubdesk.labels import entrant_status_label as _st
from clubdesk.models.event import (
    DRAWN_STATUSES,
    ELIMINATION_FORMATS,
    LATE_JOIN_FORMATS,
    Entrant,
    EntrantMember,
    Event,
    OutboxMessage,
)
from clubdesk.models.member import Member
from clubdesk.models.money import METHODS, Payment
from clubdesk.services.base import Actor, ServiceError, audit
from clubdesk.services.common import load_event
from clubdesk.services.events import money_text
from clubdesk.services.permissions import require

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


def _now(now: datetime | None) -> datetime:
    return now if now is not None else datetime.now().replace(microsecond=0)


def _entrant(s: Session, ev: Event, entrant_id: int) -> Entrant:
    en = s.get(Entrant, entrant_id)
    if en is None or en.event_id != ev.id:
        raise ServiceError(
            "no-entrant",
            _("No entrant {id} in {event}.").format(id=entrant_id, event=ev.name),
            entrant=entrant_id,
        )
    return en


def _member(s: Session, number: str) -> Member:
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


def _active_links(s: Session, entrant_id: int) -> list[EntrantMember]:
    return list(
        s.scalars(
            select(EntrantMember)
            .where(EntrantMember.entrant_id == entrant_id, EntrantMember.active.is_(True))
            .order_by(EntrantMember.id)
        )
    )


def _members_of(s: Session, entrant_id: int) -> list[Member]:
    out = []
    for link in _active_links(s, entrant_id):
        m = s.get(Member, link.member_id)
        if m is not None:
            out.append(m)
    return out


def _entry_of_member(s: Session, ev: Event, member_id: int) -> Entrant | None:
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


def _new_code(s: Session) -> str:
    while True:
        code = secrets.choice(CODE_LETTERS) + "".join(
            secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH - 1)
        )
        if s.scalar(select(Entrant.id).where(Entrant.code == code)) is None:
            return code


def _payments(s: Session, entrant_id: int) -> list[Payment]:
    return list(s.scalars(select(Payment).where(Payment.entrant_id == entrant_id).order_by(Payment.id)))


def price_for(en: Entrant, ev: Event, payments: Iterable[tuple[datetime, int]]) -> int:
    """Rule T2b: the early price applies when the payments made by the early date cover it."""
    if en.early_fee is None or ev.early_until is None:
        return en.fee
    early_paid = sum(amount for paid_at, amount in payments if paid_at.date() <= ev.early_until)
    return en.early_fee if early_paid >= en.early_fee else en.fee


def _money(en: Entrant, ev: Event, pays: Sequence[Payment]) -> tuple[int, int, int]:
    """(price, net paid, owed) of an entrant."""
    pairs = [(p.paid_at, p.amount) for p in pays]
    price = price_for(en, ev, pairs)
    paid = sum(p.amount for p in pays)
    owed = max(price - paid, 0) if en.status in ACTIVE_STATUSES else 0
    return price, paid, owed


def _pay_info(p: Payment) -> PaymentInfo:
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


def _entrant_snapshot(en: Entrant) -> dict[str, object]:
    return {
        "name": en.name,
        "status": en.status,
        "waitlist_position": en.waitlist_position,
        "checked_in_at": en.checked_in_at,
        "joins_from_round": en.joins_from_round,
    }


def _renumber_waitlist(s: Session, ev: Event) -> None:
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


def _has_room(s: Session, ev: Event) -> bool:
    return ev.capacity is None or _registered_count(s, ev) < ev.capacity


def _entry_name(ev: Event, members: Sequence[Member], team_name: str | None) -> str:
    if ev.entry_type == "team" and team_name:
        return team_name.strip()
    return " / ".join(m.name for m in members)


def _is_main_entrant(s: Session, parent_id: int, member_id: int) -> bool:
    """Rule T2e: the member holds a place in the main event."""
    parent = s.get(Event, parent_id)
    if parent is None:
        return False
    entry = _entry_of_member(s, parent, member_id)
    return entry is not None and entry.status == "registered"


def _fee_for(s: Session, ev: Event, base: int, members: Sequence[Member], roles: Sequence[str]) -> int:
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
    member_ids: list[int | None] = [link.member_id for link in _active_links(s, en.id)]
    for member_id in member_ids or [None]:
        s.add(OutboxMessage(event_id=ev.id, entrant_id=en.id, member_id=member_id, kind=kind, text=text))


def _promote(s: Session, actor: Actor, ev: Event, en: Entrant, now: datetime, reason: str) -> None:
    """Rule T2c: a waiting entrant takes a place and is notified (outbox)."""
    before = _entrant_snapshot(en)
    en.status = "registered"
    en.waitlist_position = None
    en.promoted_at = now
    _renumber_waitlist(s, ev)
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
        after=_entrant_snapshot(en),
        event_id=ev.id,
        reason=reason,
    )


def _first_waiting(s: Session, ev: Event, *, present_only: bool = False) -> Entrant | None:
    query = select(Entrant).where(Entrant.event_id == ev.id, Entrant.status == "waitlisted")
    if present_only:
        query = query.where(Entrant.checked_in_at.is_not(None))
    return s.scalar(query.order_by(Entrant.waitlist_position, Entrant.id).limit(1))


# --------------------------------------------------------------------------- registration


def register(
    db: Database,
    actor: Actor,
    event_id: int,
    number: str,
    *,
    partner: str | None = None,
    others: Sequence[str] = (),
    substitutes: Sequence[str] = (),
    team_name: str | None = None,
    now: datetime | None = None,
) -> Registration:
    """Register a member (single), a pair (``partner``) or a team (``others``, ``substitutes``).

    Past the capacity the entry joins the waiting list, in order (rule T2c), and the message says so.
    """
    require(actor, "desk.register", db)  # permission table (issue 23)
    now = _now(now)
    with db.session() as s:
        lock_event(s, event_id)  # issue 25: one desk at a time per event (places, payments, rounds)
        ev = load_event(s, event_id)
        if ev.status in DRAWN_STATUSES or ev.status == "closed":
            raise ServiceError(
                "registration-closed", _("Registration for {event} is closed.").format(event=ev.name)
            )
        if ev.status == "draft":
            raise ServiceError(
                "registration-not-open", _("Registration for {event} is not open yet.").format(event=ev.name)
            )
        if ev.registration_closes_at is not None and now > ev.registration_closes_at:
            raise ServiceError(
                "registration-closed",
                _("Registration for {event} closed on {when:%Y-%m-%d %H:%M}.").format(
                    event=ev.name, when=ev.registration_closes_at
                ),
            )
        numbers: list[tuple[str, str]] = [(number, "player")]
        if ev.entry_type == "single":
            if partner or others or substitutes:
                raise ServiceError("single-entry", _("{event} is for single players.").format(event=ev.name))
        elif ev.entry_type == "pair":
            if not partner:
                raise ServiceError(
                    "partner-required", _("{event} is for pairs: name the partner.").format(event=ev.name)
                )
            if others or substitutes:
                raise ServiceError("pair-entry", _("A pair has two players."))
            numbers.append((partner, "partner"))
        else:
            if not team_name or not team_name.strip():
                raise ServiceError("team-name-required", _("A team needs a name."))
            if partner:
                numbers.append((partner, "player"))
            numbers += [(n, "player") for n in others]
            if len(numbers) < 4:
                # rule E7b: a team is two or more pairs, plus substitutes
                raise ServiceError("team-too-small", _("A team is at least two pairs: four players."))
            numbers += [(n, "substitute") for n in substitutes]
        members: list[Member] = []
        for num, _role in numbers:
            m = _member(s, num)
            if m.id in {x.id for x in members}:
                raise ServiceError(
                    "member-twice", _("{name} is named twice in this entry.").format(name=m.name)
                )
            existing = _entry_of_member(s, ev, m.id)
            if existing is not None:
                raise ServiceError(
                    "already-registered",
                    _("{name} is already entered in {event} (entrant {id}, {status}).").format(
                        name=m.name,
                        event=ev.name,
                        id=existing.id,
                        status=_st(existing.status),
                    ),
                    entrant=existing.id,
                )
            members.append(m)
        roles = [r for _n, r in numbers]
        full = not _has_room(s, ev)
        fee = _fee_for(s, ev, ev.fee, members, roles)
        early = None if ev.early_fee is None else _fee_for(s, ev, ev.early_fee, members, roles)
        waiting_count = int(
            s.scalar(
                select(func.count(Entrant.id)).where(
                    Entrant.event_id == ev.id, Entrant.status == "waitlisted"
                )
            )
            or 0
        )
        en = Entrant(
            event_id=ev.id,
            name=_entry_name(ev, members, team_name),
            status="waitlisted" if full else "registered",
            waitlist_position=waiting_count + 1 if full else None,
            code=_new_code(s),
            fee=fee,
            early_fee=early,
            registered_at=now,
            rating=members[0].rating if len(members) == 1 else None,
        )
        s.add(en)
        s.flush()
        for m, role in zip(members, roles, strict=True):
            s.add(EntrantMember(entrant_id=en.id, member_id=m.id, role=role, joined_at=now))
        audit(
            s,
            actor,
            "entrant.register",
            "entrant",
            en.id,
            after={
                **_entrant_snapshot(en),
                "members": [m.number for m in members],
                "fee": fee,
                "code": en.code,
            },
            event_id=ev.id,
        )
        if full:
            message = _(
                "{event} is full ({capacity} places): {name} is on the waiting list at position {pos}."
            ).format(event=ev.name, capacity=ev.capacity, name=en.name, pos=en.waitlist_position)
        else:
            message = _("{name} is registered for {event}. Check-in code {code}.").format(
                name=en.name, event=ev.name, code=en.code
            )
        return Registration(
            entrant=en.id,
            status=en.status,
            waitlist_position=en.waitlist_position,
            code=en.code,
            name=en.name,
            fee=fee,
            early_fee=early,
            message=message,
        )


def refund_percent(ev: Event, en: Entrant, now: datetime) -> int:
    """Rule T2d: the share of what was paid that a withdrawal gives back."""
    if en.status == "waitlisted":
        return 100  # never had a place: everything back
    if ev.status in DRAWN_STATUSES:
        return 0
    closed = ev.status == "closed" or (
        ev.registration_closes_at is not None and now > ev.registration_closes_at
    )
    return ev.refund_percent_after_close if closed else ev.refund_percent_before_close


def _give_back(
    s: Session, actor: Actor, ev: Event, en: Entrant, amount: int, now: datetime, reason: str
) -> list[Payment]:
    """Refund ``amount`` as negative payments linked to the latest payments, same methods."""
    pays = _payments(s, en.id)
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


def withdraw(
    db: Database,
    actor: Actor,
    event_id: int,
    entrant_id: int,
    *,
    member: str | None = None,
    substitute: str | None = None,
    now: datetime | None = None,
    reason: str = "",
) -> Withdrawal:
    """Withdraw an entry (refund per policy, rule T2d; the first waiting entrant promoted, rule T2c).

    With ``member``, only that player of a pair or team leaves; a pair keeps its place only with a named
    ``substitute``.
    """
    require(actor, "desk.withdraw", db)  # permission table (issue 23)
    now = _now(now)
    with db.session() as s:
        lock_event(s, event_id)  # issue 25: one desk at a time per event (places, payments, rounds)
        ev = load_event(s, event_id)
        en = _entrant(s, ev, entrant_id)
        if en.status not in ACTIVE_STATUSES:
            raise ServiceError(
                "not-active",
                _("{name} is not entered any more ({status}).").format(name=en.name, status=_st(en.status)),
            )
        if member is not None:
            return _replace_member(s, actor, ev, en, member, substitute, now)
        if substitute is not None:
            raise ServiceError("substitute-without-member", _("Say which player the substitute replaces."))
        pays = _payments(s, en.id)
        _price, paid, _owed = _money(en, ev, pays)
        pct = refund_percent(ev, en, now)
        refund = max(paid, 0) * pct // 100
        was_registered = en.status == "registered"
        before = _entrant_snapshot(en)
        en.status = "withdrawn"
        en.waitlist_position = None
        en.withdrawn_at = now
        for link in _active_links(s, en.id):
            link.left_at = now
        audit(
            s,
            actor,
            "entrant.withdraw",
            "entrant",
            en.id,
            before=before,
            after={**_entrant_snapshot(en), "refund": refund, "refund_percent": pct},
            event_id=ev.id,
            reason=reason or None,
        )
        refunds = _give_back(s, actor, ev, en, refund, now, _("withdrawal")) if refund else []
        _renumber_waitlist(s, ev)
        promoted: Entrant | None = None
        if was_registered and ev.status not in DRAWN_STATUSES and _has_room(s, ev):
            promoted = _first_waiting(s, ev)
            if promoted is not None:
                _promote(s, actor, ev, promoted, now, _("place freed by {name}").format(name=en.name))
        message = _("{name} withdrew; refund {amount}.").format(
            name=en.name, amount=money_text(refund, ev.currency)
        )
        if promoted is not None:
            message += " " + _("{name} moves up from the waiting list.").format(name=promoted.name)
        return Withdrawal(
            entrant=en.id,
            refund=refund,
            refunds=tuple(_pay_info(r) for r in refunds),
            promoted=None if promoted is None else promoted.id,
            message=message,
        )


def _replace_member(
    s: Session, actor: Actor, ev: Event, en: Entrant, member: str, substitute: str | None, now: datetime
) -> Withdrawal:
    leaving = _member(s, member)
    links = _active_links(s, en.id)
    link = next((lk for lk in links if lk.member_id == leaving.id), None)
    if link is None:
        raise ServiceError(
            "not-in-entry",
            _("{name} is not in this entry ({entry}).").format(name=leaving.name, entry=en.name),
        )
    players_left = [lk for lk in links if lk.role != "substitute" and lk.id != link.id]
    needs_substitute = ev.entry_type != "team" or (link.role != "substitute" and len(players_left) < 4)
    if substitute is None and needs_substitute:
        raise ServiceError(
            "substitute-required",
            _("{entry} keeps its place only with a named substitute for {name}.").format(
                entry=en.name, name=leaving.name
            ),
        )
    before = {**_entrant_snapshot(en), "members": [lk.member_id for lk in links]}
    link.active = False
    link.left_at = now
    new_member: Member | None = None
    if substitute is not None:
        new_member = _member(s, substitute)
        if _entry_of_member(s, ev, new_member.id) is not None:
            raise ServiceError(
                "already-registered",
                _("{name} is already entered in {event}.").format(name=new_member.name, event=ev.name),
            )
        new_link = EntrantMember(entrant_id=en.id, member_id=new_member.id, role=link.role, joined_at=now)
        s.add(new_link)
        s.flush()
        link.replaced_by_id = new_link.id
    s.flush()
    if ev.entry_type == "pair":
        en.name = " / ".join(m.name for m in _members_of(s, en.id))
    audit(
        s,
        actor,
        "entrant.substitute",
        "entrant",
        en.id,
        before=before,
        after={**_entrant_snapshot(en), "members": [lk.member_id for lk in _active_links(s, en.id)]},
        event_id=ev.id,
    )
    message = _("{name} left {entry}.").format(name=leaving.name, entry=en.name)
    if new_member is not None:
        message = _("{new} replaces {old} in {entry}.").format(
            new=new_member.name, old=leaving.name, entry=en.name
        )
    return Withdrawal(entrant=en.id, refund=0, refunds=(), promoted=None, message=message)


def promote(
    db: Database, actor: Actor, event_id: int, entrant_id: int, *, now: datetime | None = None
) -> int:
    """The desk moves a waiting entrant up by hand (e.g. after raising the capacity). Needs a free place."""
    now = _now(now)
    with db.session() as s:
        lock_event(s, event_id)  # issue 25: one desk at a time per event (places, payments, rounds)
        ev = load_event(s, event_id)
        en = _entrant(s, ev, entrant_id)
        if en.status != "waitlisted":
            raise ServiceError("not-waiting", _("{name} is not on the waiting list.").format(name=en.name))
        if ev.status in DRAWN_STATUSES:
            raise ServiceError("event-drawn", _("The draw is made; the waiting list is closed."))
        if not _has_room(s, ev):
            raise ServiceError(
                "event-full",
                _(
                    "{event} is full ({capacity} places); withdraw an entrant or raise the capacity first."
                ).format(event=ev.name, capacity=ev.capacity),
            )
        _promote(s, actor, ev, en, now, _("moved up by the desk"))
        return en.id


def fill_free_places(db: Database, actor: Actor, event_id: int, *, now: datetime | None = None) -> list[int]:
    """After the capacity was raised: waiting entrants move up in order while there is room (rule T2c)."""
    now = _now(now)
    out: list[int] = []
    with db.session() as s:
        lock_event(s, event_id)  # issue 25: one desk at a time per event (places, payments, rounds)
        ev = load_event(s, event_id)
        if ev.status in DRAWN_STATUSES:
            return out
        while _has_room(s, ev):
            nxt = _first_waiting(s, ev)
            if nxt is None:
                break
            _promote(s, actor, ev, nxt, now, _("a place is free"))
            s.flush()
            out.append(nxt.id)
    return out


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
    require(actor, "desk.pay", db)  # permission table (issue 23)
    paid_at = _now(paid_at)
    if method not in METHODS:
        raise ServiceError(
            "bad-method",
            _("Unknown payment method {method}; use one of {choices}.").format(
                method=method, choices=", ".join(METHODS)
            ),
        )
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise ServiceError("bad-amount", _("A payment is a positive amount."))
    if abs((paid_at.date() - date.today()).days) > 5 * 366:  # issue 23: no payments dated 0001-01-01
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
        lock_event(s, event_id)  # issue 25: one desk at a time per event (places, payments, rounds)
        ev = load_event(s, event_id)
        en = _entrant(s, ev, entrant_id)
        if en.status not in ACTIVE_STATUSES:
            raise ServiceError(
                "not-active",
                _("{name} is not entered any more ({status}); nothing to pay.").format(
                    name=en.name, status=_st(en.status)
                ),
            )
        pays = _payments(s, en.id)
        _price, _paid, owed_before = _money(en, ev, pays)
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
            recorded_at=_now(None),
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
        return _pay_info(p)


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
    require(actor, "desk.refund", db)  # permission table (issue 23)
    now = _now(now)
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise ServiceError("bad-amount", _("A refund is a positive amount."))
    with db.session() as s:
        lock_event(s, event_id)  # issue 25: one desk at a time per event (places, payments, rounds)
        ev = load_event(s, event_id)
        en = _entrant(s, ev, entrant_id)
        paid = sum(p.amount for p in _payments(s, en.id))
        if amount > paid:
            raise ServiceError(
                "refund-too-large",
                _("Cannot refund {amount}: {name} has paid {paid}.").format(
                    amount=money_text(amount, ev.currency), name=en.name, paid=money_text(paid, ev.currency)
                ),
            )
        return [_pay_info(p) for p in _give_back(s, actor, ev, en, amount, now, reason or _("refund"))]


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
        _price, paid, owed = _money(en, ev, _payments(s, en.id))
        return Receipt(
            payment=_pay_info(p),
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
        en = _entrant(s, ev, entrant_id)
        return [_pay_info(p) for p in _payments(s, en.id)]


def cash_box(db: Database, day: date | None = None, *, event_id: int | None = None) -> CashBox:
    """The money of one day at the desk, per currency and method (refunds counted out)."""
    day = day or _now(None).date()  # the desk clock, as payments and refunds are stamped
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
    return CashBox(day=day, event_id=event_id, lines=lines, payments=tuple(_pay_info(p) for p in pays))


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
            price, paid, owed = _money(en, ev, _payments(s, en.id))
            out.append(
                EntrantRow(
                    entrant=en.id,
                    name=en.name,
                    status=en.status,
                    waitlist_position=en.waitlist_position,
                    code=en.code,
                    members=tuple(m.number for m in _members_of(s, en.id)),
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
    from clubdesk.collation import sort_key

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
    now = _now(now)
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


# --------------------------------------------------------------------------- check-in


def _find_for_checkin(s: Session, ev: Event, query: str) -> Entrant:
    text = query.strip()
    if not text:
        raise ServiceError("checkin-empty", _("Type or scan a check-in code, member number or phone."))
    if text.upper().startswith(QR_PREFIX):
        rest = text[len(QR_PREFIX) :]
        parts = rest.split(":")
        if len(parts) != 2 or not parts[0].strip().isdigit():
            raise ServiceError(
                "bad-qr", _("This QR code is not a ClubDesk check-in code: {text}").format(text=text)
            )
        if int(parts[0]) != ev.id:
            raise ServiceError(
                "wrong-event",
                _("This code is for another event (event {other}), not {event}.").format(
                    other=parts[0], event=ev.name
                ),
            )
        text = parts[1]
    code = normalise_code(text)
    en = s.scalar(select(Entrant).where(Entrant.event_id == ev.id, Entrant.code == code))
    if en is not None:
        return en
    other = s.scalar(select(Entrant).where(Entrant.code == code))
    if other is not None:
        raise ServiceError(
            "wrong-event",
            _("This code is for another event (event {other}), not {event}.").format(
                other=other.event_id, event=ev.name
            ),
        )
    # member number
    m = s.scalar(select(Member).where(Member.number == text))
    if m is not None:
        while m.merged_into_id is not None:
            nxt = s.get(Member, m.merged_into_id)
            if nxt is None:
                break
            m = nxt
        found = _entry_any_status(s, ev, [m.id])
        if found is not None:
            return found
    # registered phone
    digits = phone_digits(text)
    if len(digits.lstrip("0")) >= MIN_PHONE_DIGITS and re.fullmatch(r"[\d\s\-+().]+", text):
        ids = [
            row.id
            for row in s.scalars(
                select(Member)
                .join(EntrantMember, EntrantMember.member_id == Member.id)
                .join(Entrant, Entrant.id == EntrantMember.entrant_id)
                .where(Entrant.event_id == ev.id, EntrantMember.active.is_(True))
            )
            if row.phone and phones_match(row.phone, text)
        ]
        found = _entry_any_status(s, ev, ids)
        if found is not None:
            return found
    raise ServiceError(
        "checkin-unknown",
        _("Nobody in {event} has the code, member number or phone {text}.").format(
            event=ev.name, text=query.strip()
        ),
    )


def _entry_any_status(s: Session, ev: Event, member_ids: list[int]) -> Entrant | None:
    if not member_ids:
        return None
    rows = list(
        s.scalars(
            select(Entrant)
            .join(EntrantMember, EntrantMember.entrant_id == Entrant.id)
            .where(
                Entrant.event_id == ev.id,
                EntrantMember.member_id.in_(member_ids),
                EntrantMember.active.is_(True),
            )
            .order_by(Entrant.id)
        )
    )
    active = [en for en in rows if en.status in ACTIVE_STATUSES]
    if active:
        return active[0]
    return rows[0] if rows else None


def checkin(db: Database, actor: Actor, event_id: int, query: str, *, now: datetime | None = None) -> CheckIn:
    """Rule T3a: check an entrant in by code, QR payload, member number or registered phone.

    Before the draw a waiting entrant may check in too (present, ready to take a no-show's place). After the
    draw a latecomer is refused in elimination and fixed round-robin formats; in Swiss, lives and open league
    events the latecomer is paired from the next round (``joins_from_round``), missed rounds counting as
    zero-point byes.
    """
    now = _now(now)
    with db.session() as s:
        lock_event(s, event_id)  # issue 25: one desk at a time per event (places, payments, rounds)
        ev = load_event(s, event_id)
        en = _find_for_checkin(s, ev, query)
        if en.status == "withdrawn":
            raise ServiceError(
                "checkin-withdrawn",
                _("{name} has withdrawn from {event}.").format(name=en.name, event=ev.name),
            )
        if en.status == "no_show":
            raise ServiceError(
                "checkin-place-given",
                _("{name} did not check in in time; the place went to a waiting player.").format(
                    name=en.name
                ),
            )
        if en.status not in ACTIVE_STATUSES:
            raise ServiceError(
                "checkin-refused",
                _("{name} cannot check in ({status}).").format(name=en.name, status=_st(en.status)),
            )
        if en.checked_in_at is not None:
            raise ServiceError(
                "checkin-repeated",
                _("{name} is already checked in (since {when:%H:%M}).").format(
                    name=en.name, when=en.checked_in_at
                ),
            )
        before = _entrant_snapshot(en)
        message = _("{name} is checked in.").format(name=en.name)
        if ev.status in DRAWN_STATUSES:
            if en.status != "registered":
                raise ServiceError(
                    "checkin-after-draw",
                    _("The draw is made; {name} has no place in {event}.").format(
                        name=en.name, event=ev.name
                    ),
                )
            if ev.format not in LATE_JOIN_FORMATS:
                kind = _("an elimination") if ev.format in ELIMINATION_FORMATS else _("a fixed round-robin")
                raise ServiceError(
                    "checkin-after-draw",
                    _("The draw is made and {event} is {kind} event: a latecomer cannot join.").format(
                        event=ev.name, kind=kind
                    ),
                )
            en.joins_from_round = ev.current_round + 1
            message = _("{name} is checked in late and is paired from round {round}.").format(
                name=en.name, round=en.joins_from_round
            )
        elif en.status == "waitlisted":
            message = _(
                "{name} is present, on the waiting list at position {pos}: a place goes to them if a player "
                "does not check in."
            ).format(name=en.name, pos=en.waitlist_position)
        en.checked_in_at = now
        audit(
            s,
            actor,
            "entrant.checkin",
            "entrant",
            en.id,
            before=before,
            after=_entrant_snapshot(en),
            event_id=ev.id,
        )
        _price, _paid, owed = _money(en, ev, _payments(s, en.id))
        if owed:
            message += " " + _("Still to pay: {owed}.").format(owed=money_text(owed, ev.currency))
        return CheckIn(
            entrant=en.id,
            name=en.name,
            code=en.code,
            status=en.status,
            waitlist_position=en.waitlist_position,
            joins_from_round=en.joins_from_round,
            checked_in_at=now,
            owed=owed,
            currency=ev.currency,
            message=message,
        )


def arrival_deadline(ev_start: datetime | None, minutes: int) -> datetime | None:
    """Rule G15: entrants must be present this many minutes before the start."""
    return None if ev_start is None else ev_start - timedelta(minutes=minutes)


def give_no_show_places(
    db: Database, actor: Actor, event_id: int, *, now: datetime | None = None
) -> list[NoShowSwap]:
    """Rule T3a: before the draw, each registered entrant not checked in gives the place to the first waiting
    entrant who is present (waiting-list order); the no-show gets no refund (rule T2d)."""
    now = _now(now)
    with db.session() as s:
        lock_event(s, event_id)  # issue 25: one desk at a time per event (places, payments, rounds)
        ev = load_event(s, event_id)
        if ev.status in DRAWN_STATUSES:
            raise ServiceError("event-drawn", _("The draw is made; places can no longer change hands."))
        deadline = arrival_deadline(ev.start_at, ev.arrival_deadline_minutes)
        if deadline is not None and now < deadline:
            raise ServiceError(
                "before-deadline",
                _("Players have until {when:%H:%M} to check in.").format(when=deadline),
            )
        absent = list(
            s.scalars(
                select(Entrant)
                .where(
                    Entrant.event_id == ev.id, Entrant.status == "registered", Entrant.checked_in_at.is_(None)
                )
                .order_by(Entrant.registered_at.desc(), Entrant.id.desc())
            )
        )
        swaps: list[NoShowSwap] = []
        for gone in absent:
            nxt = _first_waiting(s, ev, present_only=True)
            if nxt is None:
                break
            before = _entrant_snapshot(gone)
            gone.status = "no_show"
            audit(
                s,
                actor,
                "entrant.no_show",
                "entrant",
                gone.id,
                before=before,
                after=_entrant_snapshot(gone),
                event_id=ev.id,
            )
            _promote(s, actor, ev, nxt, now, _("place of {name}, not checked in").format(name=gone.name))
            s.flush()
            swaps.append(NoShowSwap(gone.id, gone.name, nxt.id, nxt.name))
        return swaps


def draw_list(db: Database, event_id: int) -> list[EntrantRow]:
    """Rule T3a: no check-in, no draw. The entrants who take part in the draw."""
    return [r for r in entrants(db, event_id) if r.status == "registered" and r.checked_in]
