"""Members' consent for public outputs: the names share images, the site, the hall pages and the projector
show instead of a full name (``clubdesk.competition.privacy.public_name`` is the rule; this module reads
the register for it)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.competition import privacy
from clubdesk.models.club import Club
from clubdesk.models.event import Entrant, EntrantMember
from clubdesk.models.member import Member
from clubdesk.storage import Database


def public_names_in(s: Session) -> dict[str, str]:
    """Each name stored for a member who chose initials (his own, and the name of every side he plays in)
    mapped to what public outputs show; empty when every member shows his full name (the usual case: one
    small query)."""
    hidden = list(s.scalars(select(Member).where(Member.public_name != privacy.FULL)))
    if not hidden:
        return {}
    clubs = {int(r[0]): str(r[1]) for r in s.execute(select(Club.id, Club.name))}

    def club(m: Member) -> str:
        return clubs.get(m.club_id, "") if m.club_id is not None else ""

    names = {m.name: privacy.public_name(m.name, club(m), m.public_name) for m in hidden}
    sides = select(EntrantMember.entrant_id).where(EntrantMember.member_id.in_([m.id for m in hidden]))
    rows = s.execute(
        select(Entrant.id, Entrant.name, Member)
        .join(EntrantMember, EntrantMember.entrant_id == Entrant.id)
        .join(Member, Member.id == EntrantMember.member_id)
        .where(Entrant.id.in_(sides), EntrantMember.left_at.is_(None))
        .order_by(Entrant.id, EntrantMember.id)
    )
    players: dict[int, tuple[str, list[tuple[str, str, str]]]] = {}
    for entrant_id, entrant_name, member in rows:
        players.setdefault(entrant_id, (entrant_name, []))[1].append(
            (member.name, club(member), member.public_name)
        )
    for side_name, members in players.values():
        if side_name not in names:
            shown = privacy.public_side(members, side_name)
            if shown != side_name:
                names[side_name] = shown
    return names


def public_names(db: Database) -> dict[str, str]:
    """:func:`public_names_in` in a read of its own (what every public output applies with
    ``clubdesk.reports.public.publicly``)."""
    with db.read_session() as s:
        return public_names_in(s)
