"""The desk's registration: entries, withdrawals with their refunds, replacing a partner, the waiting
list and its promotions (rules T2c, T2d, T2e, BC4)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.labels import entrant_status_label as _st
from clubdesk.models.event import (
    DRAWN_STATUSES,
    Entrant,
    EntrantMember,
    Event,
)
from clubdesk.models.member import Member
from clubdesk.services.desk.records import (
    ACTIVE_STATUSES,
    Registration,
    Withdrawal,
    active_links,
    entrant_of,
    entrant_payments,
    entrant_snapshot,
    entry_name,
    entry_of_member,
    fee_for,
    first_waiting,
    give_back,
    has_room,
    member_of,
    members_of,
    money,
    new_code,
    pay_info,
    promote_waiting,
    renumber_waitlist,
)
from clubdesk.services.kernel import DESK_CLOCK, Actor, ServiceError, audit, load_event, money_text, require
from clubdesk.storage import Database, lock_event

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
    require(actor, "desk.register", db)  # permission table
    now = DESK_CLOCK.at(now)
    with db.session() as s:
        lock_event(s, event_id)  # one desk at a time per event (places, payments, rounds)
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
            m = member_of(s, num)
            if m.id in {x.id for x in members}:
                raise ServiceError(
                    "member-twice", _("{name} is named twice in this entry.").format(name=m.name)
                )
            existing = entry_of_member(s, ev, m.id)
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
        full = not has_room(s, ev)
        fee = fee_for(s, ev, ev.fee, members, roles)
        early = None if ev.early_fee is None else fee_for(s, ev, ev.early_fee, members, roles)
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
            name=entry_name(ev, members, team_name),
            status="waitlisted" if full else "registered",
            waitlist_position=waiting_count + 1 if full else None,
            code=new_code(s),
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
                **entrant_snapshot(en),
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
    require(actor, "desk.withdraw", db)  # permission table
    now = DESK_CLOCK.at(now)
    with db.session() as s:
        lock_event(s, event_id)  # one desk at a time per event (places, payments, rounds)
        ev = load_event(s, event_id)
        en = entrant_of(s, ev, entrant_id)
        if en.status not in ACTIVE_STATUSES:
            raise ServiceError(
                "not-active",
                _("{name} is not entered any more ({status}).").format(name=en.name, status=_st(en.status)),
            )
        if member is not None:
            return _replace_member(s, actor, ev, en, member, substitute, now)
        if substitute is not None:
            raise ServiceError("substitute-without-member", _("Say which player the substitute replaces."))
        pays = entrant_payments(s, en.id)
        _price, paid, _owed = money(en, ev, pays)
        pct = refund_percent(ev, en, now)
        refund = max(paid, 0) * pct // 100
        was_registered = en.status == "registered"
        before = entrant_snapshot(en)
        en.status = "withdrawn"
        en.waitlist_position = None
        en.withdrawn_at = now
        for link in active_links(s, en.id):
            link.left_at = now
        audit(
            s,
            actor,
            "entrant.withdraw",
            "entrant",
            en.id,
            before=before,
            after={**entrant_snapshot(en), "refund": refund, "refund_percent": pct},
            event_id=ev.id,
            reason=reason or None,
        )
        refunds = give_back(s, actor, ev, en, refund, now, _("withdrawal")) if refund else []
        renumber_waitlist(s, ev)
        promoted: Entrant | None = None
        if was_registered and ev.status not in DRAWN_STATUSES and has_room(s, ev):
            promoted = first_waiting(s, ev)
            if promoted is not None:
                promote_waiting(s, actor, ev, promoted, now, _("place freed by {name}").format(name=en.name))
        message = _("{name} withdrew; refund {amount}.").format(
            name=en.name, amount=money_text(refund, ev.currency)
        )
        if promoted is not None:
            message += " " + _("{name} moves up from the waiting list.").format(name=promoted.name)
        return Withdrawal(
            entrant=en.id,
            refund=refund,
            refunds=tuple(pay_info(r) for r in refunds),
            promoted=None if promoted is None else promoted.id,
            message=message,
        )


def _replace_member(
    s: Session, actor: Actor, ev: Event, en: Entrant, member: str, substitute: str | None, now: datetime
) -> Withdrawal:
    leaving = member_of(s, member)
    links = active_links(s, en.id)
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
    before = {**entrant_snapshot(en), "members": [lk.member_id for lk in links]}
    link.active = False
    link.left_at = now
    new_member: Member | None = None
    if substitute is not None:
        new_member = member_of(s, substitute)
        if entry_of_member(s, ev, new_member.id) is not None:
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
        en.name = " / ".join(m.name for m in members_of(s, en.id))
    audit(
        s,
        actor,
        "entrant.substitute",
        "entrant",
        en.id,
        before=before,
        after={**entrant_snapshot(en), "members": [lk.member_id for lk in active_links(s, en.id)]},
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
    require(actor, "desk.register", db)  # permission table
    now = DESK_CLOCK.at(now)
    with db.session() as s:
        lock_event(s, event_id)  # one desk at a time per event (places, payments, rounds)
        ev = load_event(s, event_id)
        en = entrant_of(s, ev, entrant_id)
        if en.status != "waitlisted":
            raise ServiceError("not-waiting", _("{name} is not on the waiting list.").format(name=en.name))
        if ev.status in DRAWN_STATUSES:
            raise ServiceError("event-drawn", _("The draw is made; the waiting list is closed."))
        if not has_room(s, ev):
            raise ServiceError(
                "event-full",
                _(
                    "{event} is full ({capacity} places); withdraw an entrant or raise the capacity first."
                ).format(event=ev.name, capacity=ev.capacity),
            )
        promote_waiting(s, actor, ev, en, now, _("moved up by the desk"))
        return en.id


def fill_free_places(db: Database, actor: Actor, event_id: int, *, now: datetime | None = None) -> list[int]:
    """After the capacity was raised: waiting entrants move up in order while there is room (rule T2c)."""
    now = DESK_CLOCK.at(now)
    out: list[int] = []
    with db.session() as s:
        lock_event(s, event_id)  # one desk at a time per event (places, payments, rounds)
        ev = load_event(s, event_id)
        if ev.status in DRAWN_STATUSES:
            return out
        while has_room(s, ev):
            nxt = first_waiting(s, ev)
            if nxt is None:
                break
            promote_waiting(s, actor, ev, nxt, now, _("a place is free"))
            s.flush()
            out.append(nxt.id)
    return out
