"""Changing the register: clubs, adding and changing members, deactivating (records are never deleted)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from clubdesk.collation import sort_key
from clubdesk.i18n import _
from clubdesk.models.club import Club
from clubdesk.models.member import Member
from clubdesk.services.kernel import Actor, ServiceError, audit, require
from clubdesk.services.members.records import (
    DEFAULT_RATING,
    FIRST_NUMBER,
    ClubInfo,
    MemberData,
    MemberInfo,
    clean,
    field_errors,
    infos_of,
    refuse_fields,
)
from clubdesk.services.members.search import by_number
from clubdesk.storage import Database
from clubdesk.text import fold

# --------------------------------------------------------------------------- clubs


def list_clubs(db: Database) -> list[ClubInfo]:
    with db.session() as s:
        rows = s.execute(
            select(Member.club_id, func.count(Member.id))
            .where(Member.active.is_(True))
            .group_by(Member.club_id)
        )
        counts = {r[0]: int(r[1]) for r in rows}
        clubs = [ClubInfo(c.id, c.name, c.city, int(counts.get(c.id, 0))) for c in s.scalars(select(Club))]
    return sorted(clubs, key=lambda c: sort_key(c.name))


def _club_by_name(s: Session, name: str) -> Club | None:
    wanted = fold(name)
    for club in s.scalars(select(Club)):
        if fold(club.name) == wanted:
            return club
    return None


def save_club(
    db: Database, actor: Actor, name: str, city: str = "", *, club_id: int | None = None
) -> ClubInfo:
    """Create a club (``club_id`` None) or rename it / change its city."""
    require(actor, "members.edit", db)  # permission table
    name = " ".join(name.split())
    city = " ".join(city.split())
    if not name:
        raise ServiceError(
            "club-name-required", _("The club needs a name."), fields={"name": _("The club needs a name.")}
        )
    if len(name) > 120:
        msg = _("The club name is too long (120 characters at most).")
        raise ServiceError("club-name-too-long", msg, fields={"name": msg})
    with db.session() as s:
        other = _club_by_name(s, name)
        if other is not None and other.id != club_id:
            msg = _("There is already a club called {name}.").format(name=other.name)
            raise ServiceError("duplicate-club", msg, fields={"name": msg})
        if club_id is None:
            club = Club(name=name, city=city)
            s.add(club)
            s.flush()
            audit(s, actor, "club.create", "club", club.id, after={"name": name, "city": city})
        else:
            found = s.get(Club, club_id)
            if found is None:
                raise ServiceError("unknown-club", _("That club does not exist any more."))
            club = found
            before = {"name": club.name, "city": club.city}
            club.name, club.city = name, city
            audit(s, actor, "club.change", "club", club.id, before=before, after={"name": name, "city": city})
        members = int(s.scalar(select(func.count(Member.id)).where(Member.club_id == club.id)) or 0)
        return ClubInfo(club.id, club.name, club.city, members)


def _club_id(s: Session, actor: Actor, name: str, city: str) -> int | None:
    if not name:
        return None
    club = _club_by_name(s, name)
    if club is None:
        club = Club(name=name, city=city)
        s.add(club)
        s.flush()
        audit(s, actor, "club.create", "club", club.id, after={"name": name, "city": city})
    return club.id


# --------------------------------------------------------------------------- changes


def next_number(s: Session, taken: Iterable[str] = ()) -> str:
    numbers = [n for n in s.scalars(select(Member.number)) if n.isdigit()] + [n for n in taken if n.isdigit()]
    return str(max([FIRST_NUMBER - 1, *(int(n) for n in numbers)]) + 1)


def snapshot(m: Member, club: str) -> dict[str, Any]:
    return {
        "number": m.number,
        "name": m.name,
        "club": club,
        "city": m.city,
        "gender": m.gender,
        "birth_year": m.birth_year,
        "rating": m.rating,
        "rating_experience": m.rating_experience,
        "phone": m.phone,
        "email": m.email,
        "notes": m.notes,
        "active": m.active,
        "licence": m.licence,
        "public_name": m.public_name,
    }


def apply(s: Session, actor: Actor, m: Member, data: MemberData) -> None:
    m.name = data.name
    m.club_id = _club_id(s, actor, data.club, data.city)
    m.city = data.city
    m.gender = data.gender or None
    m.birth_year = data.birth_year
    if data.rating is not None:
        m.rating = data.rating
    m.rating_experience = data.rating_experience
    m.phone = data.phone
    m.email = data.email
    m.notes = data.notes
    m.active = data.active
    m.licence = data.licence  # rule E15
    m.public_name = data.public_name  # his consent for public outputs


def create_member(db: Database, actor: Actor, data: MemberData) -> MemberInfo:
    """Add a member; without a number the next free one is given. Refused: ServiceError, nothing written."""
    require(actor, "members.edit", db)  # permission table
    data = clean(data)
    refuse_fields(field_errors(data))
    with db.session() as s:
        number = data.number or next_number(s)
        refuse_taken(s, number)
        m = Member(number=number, rating=DEFAULT_RATING, rating_experience=0)
        s.add(m)
        apply(s, actor, m, data)
        s.flush()
        info = infos_of(s, [m])[0]
        audit(s, actor, "member.create", "member", m.number, after=snapshot(m, info.club))
        return info


def refuse_taken(s: Session, number: str, *, except_id: int | None = None) -> None:
    other = s.scalars(select(Member).where(Member.number == number)).one_or_none()
    if other is not None and other.id != except_id:
        msg = _("The member number {number} is already taken by {name}.").format(
            number=number, name=other.name
        )
        raise ServiceError("duplicate-number", msg, fields={"number": msg}, number=number)


def update_member(db: Database, actor: Actor, number: str, data: MemberData) -> MemberInfo:
    """Change a member's data (the number too, if the new one is free)."""
    require(actor, "members.edit", db)  # permission table
    data = clean(data)
    refuse_fields(field_errors(data, current_number=number))
    with db.session() as s:
        m = by_number(s, number, follow_merged=False)
        before = snapshot(m, infos_of(s, [m])[0].club)
        new_number = data.number or m.number
        refuse_taken(s, new_number, except_id=m.id)
        m.number = new_number
        apply(s, actor, m, data)
        s.flush()
        info = infos_of(s, [m])[0]
        after = snapshot(m, info.club)
        if after != before:
            audit(s, actor, "member.change", "member", m.number, before=before, after=after)
        return info


def set_active(db: Database, actor: Actor, number: str, active: bool) -> MemberInfo:
    """Deactivate (or reactivate) a member; records are never deleted."""
    require(actor, "members.edit", db)  # permission table
    with db.session() as s:
        m = by_number(s, number, follow_merged=False)
        if m.merged_into_id is not None and active:
            raise ServiceError(
                "member-merged",
                _("{number} was merged into another member and stays inactive.").format(number=number),
            )
        if m.active != active:
            audit(
                s,
                actor,
                "member.activate" if active else "member.deactivate",
                "member",
                m.number,
                before={"active": m.active},
                after={"active": active},
            )
            m.active = active
        return infos_of(s, [m])[0]


def deactivate_member(db: Database, actor: Actor, number: str) -> MemberInfo:
    return set_active(db, actor, number, False)
