"""Reading the register: members in the Members screen's order, searched in SQL, a page at a time.

- The search looks at number, name, club and city folded (case and accents ignored), never at phone or
  e-mail (rule T14): every typed word must occur in the folded ``members.search_text`` or in the member's
  club's name.
- The order is the language's alphabet, read from the stored, indexed keys ``members.sort_key``
  (``_es``, ``_tr``): a page is ``LIMIT`` rows after a keyset ``(key, number)``, so a keystroke reads about
  one page of the register, not all of it.
- A word of three letters or more is looked up in the FTS5 trigram index ``member_search`` (SQLite) when few
  members hold it: those few are read and sorted; when many hold it, walking the sort index finds a page of
  them sooner. Either way the same conditions are applied, so both give the same rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy import LargeBinary, column, func, literal, literal_column, or_, select, text, tuple_
from sqlalchemy.orm import Session

from clubdesk.collation import stored_language
from clubdesk.i18n import _
from clubdesk.models.club import Club
from clubdesk.models.member import Member
from clubdesk.services.kernel import ServiceError
from clubdesk.services.members.records import MemberInfo, PublicMember, infos_of
from clubdesk.storage import Database, is_server
from clubdesk.text import fold

PAGE = 200  # rows of a page of the Members screen


@dataclass(frozen=True)
class MemberPage:
    """One page of the register: its rows, whether more follow, and where the next page starts."""

    rows: tuple[MemberInfo, ...]
    more: bool
    after: tuple[bytes, str] | None  # pass as ``after`` to read the next page (None: no row on this page)


_KEYS = {"": Member.sort_key, "es": Member.sort_key_es, "tr": Member.sort_key_tr}


def _sort_column(lang: str | None = None) -> Any:
    return _KEYS[stored_language(lang)]


def _has_fts(s: Session) -> bool:
    if is_server(s):
        return False
    found = s.execute(text("SELECT 1 FROM sqlite_master WHERE name = 'member_search'")).first()
    return found is not None


def _like(word: str) -> str:
    return "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _conditions(
    s: Session, search: str, include_inactive: bool, include_merged: bool
) -> tuple[list[Any], list[str]]:
    """The WHERE terms of a search, and the words the trigram index can look up (three letters or more,
    not found in a club's name)."""
    conds: list[Any] = []
    if not include_inactive:
        conds.append(Member.active.is_(True))
    if not include_merged:
        # "+": not through the index of merged_into_id, which would read the whole register to sort it
        conds.append(literal_column("+members.merged_into_id").is_(None))
    words = fold(search).split()
    indexed: list[str] = []
    if words:  # the few clubs' names are matched here; the members' own text in SQL
        clubs = [(int(i), fold(str(n))) for i, n in s.execute(select(Club.id, Club.name))]
        for w in words:
            in_club = [i for i, n in clubs if w in n]
            cond = Member.search_text.like(_like(w), escape="\\")
            conds.append(or_(cond, Member.club_id.in_(in_club)) if in_club else cond)
            if len(w) >= 3 and not in_club:
                indexed.append(w)
    # every word is in the folded number, name or city, or in the club's name: what ``matches`` says
    return conds, indexed


def _fts_ids(indexed: list[str]) -> Any:
    match = " ".join('"' + w.replace('"', '""') + '"' for w in indexed)
    return text("SELECT rowid FROM member_search WHERE member_search MATCH :match").bindparams(match=match)


def _few_enough(s: Session, indexed: list[str], limit: int | None) -> bool:
    """Read and sort the members the trigram index finds rather than walk the sort index? Sorting n found
    rows costs about n; walking to ``limit`` of them about limit * register / n: the first while n² is
    less."""
    if limit is None:
        return True
    register = int(s.scalar(select(func.max(Member.id))) or 0)
    most = math.isqrt((limit + 1) * max(register, 1))  # counting stops there: only "more or not" matters
    sub = _fts_ids(indexed).columns(column("rowid")).subquery()
    first = select(sub.c.rowid).limit(most + 1).subquery()
    return int(s.scalar(select(func.count()).select_from(first)) or 0) <= most


def _page(
    s: Session,
    search: str,
    *,
    include_inactive: bool,
    include_merged: bool,
    limit: int | None,
    after: tuple[bytes, str] | None,
) -> list[tuple[Any, ...]]:
    key = _sort_column()
    conds, indexed = _conditions(s, search, include_inactive, include_merged)
    if after is not None:
        conds.append(tuple_(key, Member.number) > tuple_(literal(after[0], LargeBinary), literal(after[1])))
    order: list[Any] = [key, Member.number]
    if indexed and _has_fts(s) and _few_enough(s, indexed, limit):
        conds.append(Member.id.in_(_fts_ids(indexed).columns(column("rowid"))))
        order = [text(f"+members.{key.key}"), Member.number]  # sort the few found, not walk the index
    stmt = select(*_COLUMNS, key).where(*conds).order_by(*order)
    if limit is not None:
        stmt = stmt.limit(limit + 1)
    return [tuple(r) for r in s.execute(stmt)]


# the columns a MemberInfo shows, read as plain rows (no ORM object per listed member)
_COLUMNS = (
    Member.id,
    Member.number,
    Member.name,
    Member.club_id,
    Member.city,
    Member.gender,
    Member.birth_year,
    Member.rating,
    Member.rating_experience,
    Member.phone,
    Member.email,
    Member.notes,
    Member.active,
    Member.merged_into_id,
    Member.licence,
    Member.public_name,
)


def _row_infos(s: Session, rows: list[tuple[Any, ...]]) -> list[MemberInfo]:
    clubs = {int(r[0]): str(r[1]) for r in s.execute(select(Club.id, Club.name))}
    merged_ids = {r[13] for r in rows if r[13] is not None}
    numbers: dict[int, str] = {}
    if merged_ids:
        found = s.execute(select(Member.id, Member.number).where(Member.id.in_(merged_ids)))
        numbers = {int(r[0]): str(r[1]) for r in found}
    return [
        MemberInfo(
            id=r[0],
            number=r[1],
            name=r[2],
            club=clubs.get(r[3], "") if r[3] is not None else "",
            city=r[4] or "",
            gender=r[5] or "",
            birth_year=r[6],
            rating=float(r[7]),
            rating_experience=int(r[8]),
            phone=r[9] or "",
            email=r[10] or "",
            notes=r[11] or "",
            active=bool(r[12]),
            merged_into=numbers.get(r[13]) if r[13] is not None else None,
            licence=r[14] or "",
            public_name=r[15] or "full",
        )
        for r in rows
    ]


def list_members(
    db: Database,
    search: str = "",
    *,
    include_inactive: bool = False,
    include_merged: bool = False,
    limit: int | None = None,
    after: tuple[bytes, str] | None = None,
) -> list[MemberInfo]:
    """Members sorted by name in the language's alphabet (then number), filtered by ``search`` ignoring case
    and accents; at most ``limit`` of them, those after ``after`` (a :class:`MemberPage`'s ``after``).

    The search looks at number, name, club and city, never at phone or e-mail (rule T14)."""
    return list(
        member_page(
            db,
            search,
            include_inactive=include_inactive,
            include_merged=include_merged,
            limit=limit,
            after=after,
        ).rows
    )


def member_page(
    db: Database,
    search: str = "",
    *,
    include_inactive: bool = False,
    include_merged: bool = False,
    limit: int | None = PAGE,
    after: tuple[bytes, str] | None = None,
) -> MemberPage:
    """One page of :func:`list_members` (a keystroke reads a page, not the register)."""
    with db.read_session() as s:
        found = _page(
            s,
            search,
            include_inactive=include_inactive,
            include_merged=include_merged,
            limit=limit,
            after=after,
        )
        more = limit is not None and len(found) > limit
        found = found[:limit] if limit is not None else found
        infos = _row_infos(s, found)
    last = (bytes(found[-1][-1]), str(found[-1][1])) if found else None
    return MemberPage(tuple(infos), more, last)


def count_matching(
    db: Database, search: str = "", *, include_inactive: bool = False, include_merged: bool = False
) -> int:
    """How many members :func:`list_members` would give (the Members screen's count)."""
    with db.read_session() as s:
        conds, indexed = _conditions(s, search, include_inactive, include_merged)
        if indexed and _has_fts(s):
            conds.append(Member.id.in_(_fts_ids(indexed).columns(column("rowid"))))
        return int(s.scalar(select(func.count(Member.id)).where(*conds)) or 0)


def public_list(db: Database, search: str = "", *, limit: int | None = None) -> list[PublicMember]:
    """Active members for public views: number, name, club, city, rating (rule T14)."""
    return [m.public() for m in list_members(db, search, limit=limit)]


def get_member(db: Database, number: str, *, follow_merged: bool = True) -> MemberInfo:
    """The member with this number; a number merged away leads to the kept member (rule T2a)."""
    with db.session() as s:
        member = by_number(s, number, follow_merged=follow_merged)
        return infos_of(s, [member])[0]


def by_number(s: Session, number: str, *, follow_merged: bool = True) -> Member:
    member = s.scalars(select(Member).where(Member.number == number.strip())).one_or_none()
    if member is None:
        raise ServiceError(
            "unknown-member", _("No member has the number {number}.").format(number=number), number=number
        )
    seen = {member.id}
    while follow_merged and member.merged_into_id is not None:
        nxt = s.get(Member, member.merged_into_id)
        if nxt is None or nxt.id in seen:
            break
        seen.add(nxt.id)
        member = nxt
    return member


def count_members(db: Database, *, include_inactive: bool = True) -> int:
    with db.session() as s:
        stmt = select(func.count(Member.id))
        if not include_inactive:
            stmt = stmt.where(Member.active.is_(True))
        return int(s.scalar(stmt) or 0)


def likely_duplicates(db: Database, name: str, club: str = "") -> list[MemberInfo]:
    """Members (not merged away) with the same name in the same club, both folded (case, accents and spacing
    ignored; no club matches no club): the same person added twice, most likely."""
    wanted, wanted_club = fold(name), fold(club)
    if not wanted:
        return []
    with db.session() as s:
        # the stored search text holds the folded name: it narrows in SQL, the comparison is exact below
        found = s.scalars(
            select(Member).where(
                Member.merged_into_id.is_(None), Member.search_text.contains(wanted, autoescape=True)
            )
        ).all()
        same = [m for m in found if fold(m.name) == wanted]
        return [m for m in infos_of(s, same) if fold(m.club) == wanted_club]
