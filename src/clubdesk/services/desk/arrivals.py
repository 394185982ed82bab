"""The desk's check-in: by name, code, QR payload, member number or phone; no-shows' places given to waiting
players present (rule T3a)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.labels import entrant_status_label as _st
from clubdesk.models.event import (
    DRAWN_STATUSES,
    ELIMINATION_FORMATS,
    LATE_JOIN_FORMATS,
    Entrant,
    EntrantMember,
    Event,
)
from clubdesk.models.member import Member
from clubdesk.services.desk.lists import entrants
from clubdesk.services.desk.name_lookup import Choice
from clubdesk.services.desk.records import (
    ACTIVE_STATUSES,
    MIN_PHONE_DIGITS,
    QR_PREFIX,
    CheckIn,
    EntrantRow,
    NoShowSwap,
    entrant_payments,
    entrant_snapshot,
    first_waiting,
    money,
    normalise_code,
    phone_digits,
    phones_match,
    promote_waiting,
)
from clubdesk.services.kernel import DESK_CLOCK, Actor, ServiceError, audit, load_event, money_text, require
from clubdesk.storage import Database, lock_event
from clubdesk.text import fold

# --------------------------------------------------------------------------- check-in


def _find_for_checkin(s: Session, ev: Event, query: str) -> Entrant:
    text = query.strip()
    if not text:
        raise ServiceError(
            "checkin-empty", _("Type a name, or type or scan a check-in code, member number or phone.")
        )
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
    named = _by_name(s, ev, text)
    if len(named) == 1:
        return named[0]
    if named:
        choices = [Choice(f"{en.name} — {en.code}", en.code) for en in named]
        raise ServiceError(
            "checkin-ambiguous",
            _(
                "{text} matches several entrants in {event}: {names}. Choose one, or type the check-in code."
            ).format(event=ev.name, text=query.strip(), names="; ".join(c.label for c in choices)),
            choices=choices,
        )
    # another event's code is named only when nobody here answers to the text (a name may look like a code)
    other = s.scalar(select(Entrant).where(Entrant.code == code))
    if other is not None:
        raise ServiceError(
            "wrong-event",
            _("This code is for another event (event {other}), not {event}.").format(
                other=other.event_id, event=ev.name
            ),
        )
    raise ServiceError(
        "checkin-unknown",
        _("Nobody in {event} has the name, code, member number or phone {text}.").format(
            event=ev.name, text=query.strip()
        ),
    )


def _answers_to(query: list[str], name: str) -> bool:
    """Every word typed starts a word of the name (folded: "ayse yil" answers to "Ayşe Yılmaz")."""
    words = fold(name).split()
    return all(any(w.startswith(q) for w in words) for q in query)


def _by_name(s: Session, ev: Event, text: str) -> list[Entrant]:
    """The event's entrants who answer to a typed name: the entrant's own name (a pair's, a team's) or one of
    its players'. A name matched whole wins over names it only begins; an entry withdrawn and entered again
    under the same name counts once, as the active entry."""
    query = fold(text).split()
    if not query or not any(ch.isalpha() for ch in text):
        return []
    players: dict[int, list[str]] = {}
    for entrant_id, name in s.execute(
        select(EntrantMember.entrant_id, Member.name)
        .join(Member, Member.id == EntrantMember.member_id)
        .join(Entrant, Entrant.id == EntrantMember.entrant_id)
        .where(Entrant.event_id == ev.id, EntrantMember.active.is_(True))
    ):
        players.setdefault(entrant_id, []).append(name)
    rows = list(s.scalars(select(Entrant).where(Entrant.event_id == ev.id).order_by(Entrant.id)))
    names = {en.id: [en.name, *players.get(en.id, [])] for en in rows}
    found = [en for en in rows if any(_answers_to(query, n) for n in names[en.id])]
    whole = [en for en in found if any(fold(n) == " ".join(query) for n in names[en.id])]
    found = whole or found
    active = {fold(en.name) for en in found if en.status in ACTIVE_STATUSES}
    return [en for en in found if en.status in ACTIVE_STATUSES or fold(en.name) not in active]


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
    """Rule T3a: check an entrant in by code, QR payload, member number, registered phone or name.

    A name is matched case- and accent-insensitively (``clubdesk.text.fold``); when several entrants answer
    to it the check-in is refused (``checkin-ambiguous``) naming them, the refusal's ``choices`` giving each
    one's label and check-in code so the desk can choose.

    Before the draw a waiting entrant may check in too (present, ready to take a no-show's place). After the
    draw a latecomer is refused in elimination and fixed round-robin formats; in Swiss, lives and open league
    events the latecomer is paired from the next round (``joins_from_round``), missed rounds counting as
    zero-point byes.
    """
    now = DESK_CLOCK.at(now)
    with db.session() as s:
        lock_event(s, event_id)  # one desk at a time per event (places, payments, rounds)
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
        before = entrant_snapshot(en)
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
            after=entrant_snapshot(en),
            event_id=ev.id,
        )
        _price, _paid, owed = money(en, ev, entrant_payments(s, en.id))
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
    require(actor, "desk.register", db)  # permission table
    now = DESK_CLOCK.at(now)
    with db.session() as s:
        lock_event(s, event_id)  # one desk at a time per event (places, payments, rounds)
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
            nxt = first_waiting(s, ev, present_only=True)
            if nxt is None:
                break
            before = entrant_snapshot(gone)
            gone.status = "no_show"
            audit(
                s,
                actor,
                "entrant.no_show",
                "entrant",
                gone.id,
                before=before,
                after=entrant_snapshot(gone),
                event_id=ev.id,
            )
            promote_waiting(
                s, actor, ev, nxt, now, _("place of {name}, not checked in").format(name=gone.name)
            )
            s.flush()
            swaps.append(NoShowSwap(gone.id, gone.name, nxt.id, nxt.name))
        return swaps


def draw_list(db: Database, event_id: int) -> list[EntrantRow]:
    """Rule T3a: no check-in, no draw. The entrants who take part in the draw."""
    return [r for r in entrants(db, event_id) if r.status == "registered" and r.checked_in]
