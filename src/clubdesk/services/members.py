"""The club's register: members and clubs, search, CSV import and export, merging duplicates.

- A member's ``number`` is the club's own ID; ``licence`` his federation licence number, which the match act
  records (rule E15; "" when he has none: the act then prints the club number under its own label).
- Public views show number, name, club, city and rating only; phone and e-mail appear in the member
  dialog and the organiser's export (rule T14): see :class:`PublicMember` and :func:`public_list`.
- Merging (rule T2a) moves every row of every table that points at ``members.id`` to the kept member; the
  tables are found by inspecting ``Base.metadata``, so tables added by later migrations are covered.
- CSV import is all-or-nothing: :func:`preview_import` lists what would be added and every bad line with its
  line number and reason; :func:`import_members` writes only when there is no bad line.

Encodings read by the import: UTF-8 with or without BOM first. A file that is not valid UTF-8 is read as a
Windows code page. Windows-1254 (Turkish) and Windows-1252 (Western) differ only in six letters: bytes
D0 DD DE F0 FD FE are Ğ İ Ş ğ ı ş in 1254 and Ð Ý Þ ð ý þ in 1252 (and 8E/9E, Ž/ž, exist in 1252 only).
So: if any of those six bytes occurs, the file is Windows-1254 (in a register of Turkish, Spanish and
Indonesian names the Turkish letters are far likelier than Icelandic ones); otherwise Windows-1252, which
then reads every letter exactly as 1254 would, and also Ž/ž. Bytes that neither code page defines, NUL bytes
(UTF-16 or binary files) and files mixing valid UTF-8 with invalid bytes are refused as unreadable.

The export is UTF-8 with a BOM (Excel then shows the accents right), comma-separated by default; cells
starting with = + - @ get a leading apostrophe so Excel shows them as text instead of running a formula,
and the import removes that apostrophe again.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import func, inspect, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from clubdesk.collation import sort_key
from clubdesk.db import Database
from clubdesk.i18n import N_, _, ngettext
from clubdesk.models.base import Base
from clubdesk.models.club import Club
from clubdesk.models.member import Member
from clubdesk.services.base import Actor, ServiceError, audit
from clubdesk.services.permissions import require
from clubdesk.services.text import excel_safe, fold, invisible_problem

DEFAULT_RATING = 1500.0  # rule T12c: new players start at 1500
FIRST_NUMBER = 1001
MAX_NAME = 120

# CSV columns, in export order. Header names are compared folded; a few spellings are accepted.
COLUMNS: tuple[str, ...] = (
    "number",
    "name",
    "club",
    "city",
    "gender",
    "birth_year",
    "rating",
    "rating_experience",
    "phone",
    "email",
    "notes",
    "active",
    "licence",  # rule E15: the federation licence number (an optional column on import)
)
_ALIASES = {
    "e-mail": "email",
    "mail": "email",
    "birth year": "birth_year",
    "birthyear": "birth_year",
    "rating experience": "rating_experience",
    "member number": "number",
    "member_number": "number",
    "license": "licence",
    "licence number": "licence",
    "licence_number": "licence",
    "license number": "licence",
}

# The export's header in the language in force (English: the column keys above); the import reads English,
# Indonesian, Spanish and Turkish headers alike.
COLUMN_TITLES: dict[str, str] = {
    # TRANSLATORS: a column of the members CSV export; short, one word or words_with_underscores is fine
    "number": N_("number"),
    "name": N_("name"),
    "club": N_("club"),
    "city": N_("city"),
    "gender": N_("gender"),
    "birth_year": N_("birth_year"),
    "rating": N_("rating"),
    "rating_experience": N_("rating_experience"),
    "phone": N_("phone"),
    "email": N_("email"),
    "notes": N_("notes"),
    "active": N_("active"),
    "licence": N_("licence"),  # rule E15
}


def _local_headers() -> dict[str, str]:
    from clubdesk.i18n import locale_dir

    return dict(_headers_in(str(locale_dir())))


@lru_cache(maxsize=4)
def _headers_in(folder: str) -> tuple[tuple[str, str], ...]:
    """Every language's header of every column, folded: {"numara": "number", "nombre": "name", ...}."""
    from clubdesk.i18n import LANGUAGES, translation_in

    out: dict[str, str] = {}
    for lang in LANGUAGES:
        for key, title in COLUMN_TITLES.items():
            folded = fold(translation_in(lang, title))
            out.setdefault(folded, key)
            out.setdefault(folded.replace(" ", "_"), key)
    return tuple(out.items())


_EMAIL = re.compile(r"^[^@\s,;<>]+@[^@\s,;<>]+\.[^@\s,;<>.]{2,}$")
_PHONE_CHARS = re.compile(r"^\+?[0-9 ()./-]+$")


# --------------------------------------------------------------------------- plain results


@dataclass(frozen=True)
class MemberData:
    """What a person types into the member dialog (or a CSV line holds). ``club`` is a club name."""

    name: str
    number: str = ""
    club: str = ""
    city: str = ""
    gender: str = ""
    birth_year: int | None = None
    rating: float | None = None
    rating_experience: int = 0
    phone: str = ""
    email: str = ""
    notes: str = ""
    active: bool = True
    licence: str = ""  # rule E15: federation licence number


@dataclass(frozen=True)
class MemberInfo:
    """A member as the organiser sees it (contact details included: member dialog and exports only)."""

    id: int
    number: str
    name: str
    club: str
    city: str
    gender: str
    birth_year: int | None
    rating: float
    rating_experience: int
    phone: str
    email: str
    notes: str
    active: bool
    merged_into: str | None = None  # number of the member this record was merged into
    licence: str = ""  # rule E15: federation licence number ("" when none)

    def public(self) -> PublicMember:
        return PublicMember(self.number, self.name, self.club, self.city, self.rating)

    def data(self) -> MemberData:
        return MemberData(
            name=self.name,
            number=self.number,
            club=self.club,
            city=self.city,
            gender=self.gender,
            birth_year=self.birth_year,
            rating=self.rating,
            rating_experience=self.rating_experience,
            phone=self.phone,
            email=self.email,
            notes=self.notes,
            active=self.active,
            licence=self.licence,
        )


@dataclass(frozen=True)
class PublicMember:
    """What every public view shows (rule T14): no phone, no e-mail."""

    number: str
    name: str
    club: str
    city: str
    rating: float

    def as_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "name": self.name,
            "club": self.club,
            "city": self.city,
            "rating": self.rating,
        }


@dataclass(frozen=True)
class ClubInfo:
    id: int
    name: str
    city: str
    members: int  # active members


@dataclass(frozen=True)
class BadLine:
    line: int  # 1-based line of the file (the header is line 1)
    reason: str

    def __str__(self) -> str:
        return _("line {line}: {reason}").format(line=self.line, reason=self.reason)


@dataclass(frozen=True)
class ImportPreview:
    """What an import would do: the members it adds, the clubs it creates, every bad line."""

    encoding: str
    additions: tuple[MemberData, ...]
    new_clubs: tuple[str, ...]
    bad_lines: tuple[BadLine, ...]

    @property
    def ok(self) -> bool:
        return not self.bad_lines and bool(self.additions)


@dataclass(frozen=True)
class MergePreview:
    """The two records side by side and how much history each one has, table by table."""

    keep: MemberInfo
    drop: MemberInfo
    history: tuple[tuple[str, int, int], ...]  # (table.column, rows of keep, rows of drop)
    result: MemberData  # the kept record after the merge


@dataclass(frozen=True)
class MergeResult:
    keep: str
    drop: str
    moved: dict[str, int] = field(default_factory=dict)  # table.column -> rows moved


# --------------------------------------------------------------------------- validation


def field_errors(data: MemberData) -> dict[str, str]:
    """Every problem of a member's data, keyed by field name (``name``, ``email``...), translated."""
    errors: dict[str, str] = {}
    name = data.name.strip()
    if not name:
        errors["name"] = _("The name is missing.")
    elif len(name) > MAX_NAME:
        errors["name"] = _("The name is too long (120 characters at most).")
    elif (problem := invisible_problem(name)) is not None:  # issue 23: no escapes, bidi marks or blank names
        errors["name"] = _("The name is not valid: {reason}").format(reason=problem)
    number = data.number.strip()
    if len(number) > 40:
        errors["number"] = _("The member number is too long (40 characters at most).")
    elif number and any(ch.isspace() for ch in number):
        errors["number"] = _("The member number must not contain spaces.")
    elif number and not number.isascii():
        errors["number"] = _("The member number uses the digits 0-9 and Latin letters only.")
    elif number and not all(ch.isprintable() for ch in number):
        errors["number"] = _("The member number contains a control character.")
    licence = data.licence.strip()
    if len(licence) > 40:  # rule E15
        errors["licence"] = _("The licence number is too long (40 characters at most).")
    if data.phone.strip() and not phone_ok(data.phone):
        errors["phone"] = _("Malformed phone number: {phone}").format(phone=data.phone.strip())
    if data.email.strip() and not email_ok(data.email):
        errors["email"] = _("Malformed e-mail address: {email}").format(email=data.email.strip())
    if data.gender.strip().lower() not in ("", "m", "f"):
        errors["gender"] = _("Gender must be m, f or empty.")
    year = date.today().year
    if data.birth_year is not None and not 1900 <= data.birth_year <= year:
        errors["birth_year"] = _("The birth year must be between 1900 and {year}.").format(year=year)
    if data.rating is not None and not 0 <= data.rating <= 5000:
        errors["rating"] = _("The rating must be between 0 and 5000.")
    if data.rating_experience < 0:
        errors["rating_experience"] = _("The rating experience cannot be negative.")
    elif data.rating_experience > 100_000:
        errors["rating_experience"] = _("The rating experience is at most 100000 matches.")
    if len(data.club.strip()) > 120:
        errors["club"] = _("The club name is too long (120 characters at most).")
    elif data.club.strip() and (problem := invisible_problem(data.club.strip())) is not None:
        errors["club"] = _("The club name is not valid: {reason}").format(reason=problem)
    if data.city.strip() and (problem := invisible_problem(data.city.strip())) is not None:
        errors["city"] = _("The city is not valid: {reason}").format(reason=problem)
    return errors


def phone_ok(phone: str) -> bool:
    """Digits with an optional leading +, spaces, dashes, dots, slashes, brackets; 7 to 15 digits."""
    text = phone.strip()
    digits = sum(ch.isdigit() for ch in text)
    return bool(_PHONE_CHARS.match(text)) and 7 <= digits <= 15


def email_ok(email: str) -> bool:
    return bool(_EMAIL.match(email.strip()))


def _clean(data: MemberData) -> MemberData:
    return replace(
        data,
        name=" ".join(data.name.split()),
        number=data.number.strip(),
        club=" ".join(data.club.split()),
        city=" ".join(data.city.split()),
        gender=data.gender.strip().lower(),
        phone=data.phone.strip(),
        email=data.email.strip(),
        notes=data.notes.strip(),
        licence=data.licence.strip(),
    )


def _refuse_fields(errors: dict[str, str]) -> None:
    if errors:
        first = next(iter(errors))
        raise ServiceError(
            f"invalid-{first.replace('_', '-')}",
            errors[first],
            list(errors.values()) if len(errors) > 1 else [],
            fields=errors,
        )


# --------------------------------------------------------------------------- reading


def _info(m: Member, clubs: dict[int, str], numbers: dict[int, str]) -> MemberInfo:
    return MemberInfo(
        id=m.id,
        number=m.number,
        name=m.name,
        club=clubs.get(m.club_id, "") if m.club_id is not None else "",
        city=m.city or "",
        gender=m.gender or "",
        birth_year=m.birth_year,
        rating=float(m.rating),
        rating_experience=int(m.rating_experience),
        phone=m.phone or "",
        email=m.email or "",
        notes=m.notes or "",
        active=bool(m.active),
        merged_into=numbers.get(m.merged_into_id) if m.merged_into_id is not None else None,
        licence=m.licence or "",
    )


def _infos(s: Session, rows: Iterable[Member]) -> list[MemberInfo]:
    clubs = {int(r[0]): str(r[1]) for r in s.execute(select(Club.id, Club.name))}
    rows = list(rows)
    merged_ids = {m.merged_into_id for m in rows if m.merged_into_id is not None}
    numbers: dict[int, str] = {}
    if merged_ids:
        found = s.execute(select(Member.id, Member.number).where(Member.id.in_(merged_ids)))
        numbers = {int(r[0]): str(r[1]) for r in found}
    return [_info(m, clubs, numbers) for m in rows]


def list_members(
    db: Database, search: str = "", *, include_inactive: bool = False, include_merged: bool = False
) -> list[MemberInfo]:
    """Members sorted by name (folded), filtered by ``search`` ignoring case and accents.

    The search looks at number, name, club and city, never at phone or e-mail (rule T14)."""
    with db.session() as s:
        stmt = select(Member)
        if not include_inactive:
            stmt = stmt.where(Member.active.is_(True))
        if not include_merged:
            stmt = stmt.where(Member.merged_into_id.is_(None))
        words = fold(search).split()
        if words:  # issue 22: the search in SQL on the folded column (and the few clubs' names)
            clubs = [(int(i), fold(str(n))) for i, n in s.execute(select(Club.id, Club.name))]
            for w in words:
                pattern = "%" + w.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
                in_club = [i for i, n in clubs if w in n]
                cond = Member.search_text.like(pattern, escape="\\")
                stmt = stmt.where(or_(cond, Member.club_id.in_(in_club)) if in_club else cond)
        # every word is in the folded number, name or city, or in the club's name: what ``matches`` says
        infos = _infos(s, s.scalars(stmt))
    return sorted(infos, key=lambda m: (sort_key(m.name), m.number))  # the language's alphabet


def public_list(db: Database, search: str = "") -> list[PublicMember]:
    """Active members for public views: number, name, club, city, rating (rule T14)."""
    return [m.public() for m in list_members(db, search)]


def get_member(db: Database, number: str, *, follow_merged: bool = True) -> MemberInfo:
    """The member with this number; a number merged away leads to the kept member (rule T2a)."""
    with db.session() as s:
        member = _by_number(s, number, follow_merged=follow_merged)
        return _infos(s, [member])[0]


def _by_number(s: Session, number: str, *, follow_merged: bool = True) -> Member:
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


def _next_number(s: Session, taken: Iterable[str] = ()) -> str:
    numbers = [n for n in s.scalars(select(Member.number)) if n.isdigit()] + [n for n in taken if n.isdigit()]
    return str(max([FIRST_NUMBER - 1, *(int(n) for n in numbers)]) + 1)


def _snapshot(m: Member, club: str) -> dict[str, Any]:
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
    }


def _apply(s: Session, actor: Actor, m: Member, data: MemberData) -> None:
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


def create_member(db: Database, actor: Actor, data: MemberData) -> MemberInfo:
    """Add a member; without a number the next free one is given. Refused: ServiceError, nothing written."""
    require(actor, "members.edit", db)  # permission table (issue 23)
    data = _clean(data)
    _refuse_fields(field_errors(data))
    with db.session() as s:
        number = data.number or _next_number(s)
        _refuse_taken(s, number)
        m = Member(number=number, rating=DEFAULT_RATING, rating_experience=0)
        s.add(m)
        _apply(s, actor, m, data)
        s.flush()
        info = _infos(s, [m])[0]
        audit(s, actor, "member.create", "member", m.number, after=_snapshot(m, info.club))
        return info


def _refuse_taken(s: Session, number: str, *, except_id: int | None = None) -> None:
    other = s.scalars(select(Member).where(Member.number == number)).one_or_none()
    if other is not None and other.id != except_id:
        msg = _("The member number {number} is already taken by {name}.").format(
            number=number, name=other.name
        )
        raise ServiceError("duplicate-number", msg, fields={"number": msg}, number=number)


def update_member(db: Database, actor: Actor, number: str, data: MemberData) -> MemberInfo:
    """Change a member's data (the number too, if the new one is free)."""
    require(actor, "members.edit", db)  # permission table (issue 23)
    data = _clean(data)
    _refuse_fields(field_errors(data))
    with db.session() as s:
        m = _by_number(s, number, follow_merged=False)
        before = _snapshot(m, _infos(s, [m])[0].club)
        new_number = data.number or m.number
        _refuse_taken(s, new_number, except_id=m.id)
        m.number = new_number
        _apply(s, actor, m, data)
        s.flush()
        info = _infos(s, [m])[0]
        after = _snapshot(m, info.club)
        if after != before:
            audit(s, actor, "member.change", "member", m.number, before=before, after=after)
        return info


def set_active(db: Database, actor: Actor, number: str, active: bool) -> MemberInfo:
    """Deactivate (or reactivate) a member; records are never deleted."""
    require(actor, "members.edit", db)  # permission table (issue 23)
    with db.session() as s:
        m = _by_number(s, number, follow_merged=False)
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
        return _infos(s, [m])[0]


def deactivate_member(db: Database, actor: Actor, number: str) -> MemberInfo:
    return set_active(db, actor, number, False)


# --------------------------------------------------------------------------- merge (rule T2a)


def member_references(existing: set[str] | None = None) -> list[tuple[str, str]]:
    """(table, column) of every foreign key in ``Base.metadata`` pointing at ``members.id``.

    Imports every model module first, so tables of later issues are found too. ``existing``: only these
    tables (the ones the open database has)."""
    import clubdesk.models  # noqa: F401  (registers every table)

    refs: list[tuple[str, str]] = []
    for table in Base.metadata.sorted_tables:
        if existing is not None and table.name not in existing:
            continue  # a model whose migration this file has not got
        for fk in table.foreign_keys:
            if fk.column.table.name == "members" and fk.column.name == "id":
                refs.append((table.name, fk.parent.name))
    return sorted(refs)


def _tables(s: Session) -> set[str]:
    return set(inspect(s.connection()).get_table_names())


def _history_counts(s: Session, member_id: int) -> dict[str, int]:
    counts: dict[str, int] = {}
    for table_name, column in member_references(_tables(s)):
        table = Base.metadata.tables[table_name]
        n = s.scalar(select(func.count()).select_from(table).where(table.c[column] == member_id))
        counts[f"{table_name}.{column}"] = int(n or 0)
    return counts


def _merged_data(keep: MemberInfo, drop: MemberInfo) -> MemberData:
    """The kept record wins; its empty fields are filled from the dropped one. The rating is the one of the
    record with more rated matches, and the experience of both adds up (their results are combined, T2a)."""
    rating = keep.rating if keep.rating_experience >= drop.rating_experience else drop.rating
    notes = (
        keep.notes
        if not drop.notes or drop.notes in keep.notes
        else "\n".join(x for x in (keep.notes, drop.notes) if x)
    )
    return MemberData(
        name=keep.name,
        number=keep.number,
        club=keep.club or drop.club,
        city=keep.city or drop.city,
        gender=keep.gender or drop.gender,
        birth_year=keep.birth_year if keep.birth_year is not None else drop.birth_year,
        rating=rating,
        rating_experience=keep.rating_experience + drop.rating_experience,
        phone=keep.phone or drop.phone,
        email=keep.email or drop.email,
        notes=notes,
        active=True,
        licence=keep.licence or drop.licence,
    )


def _merge_pair(s: Session, keep_number: str, drop_number: str) -> tuple[Member, Member]:
    if keep_number.strip() == drop_number.strip():
        raise ServiceError("merge-same", _("A member cannot be merged with itself."))
    keep = _by_number(s, keep_number, follow_merged=False)
    drop = _by_number(s, drop_number, follow_merged=False)
    for m in (keep, drop):
        if m.merged_into_id is not None:
            raise ServiceError(
                "member-merged",
                _("{number} ({name}) was already merged into another member.").format(
                    number=m.number, name=m.name
                ),
            )
    return keep, drop


def merge_preview(db: Database, keep_number: str, drop_number: str) -> MergePreview:
    with db.session() as s:
        keep, drop = _merge_pair(s, keep_number, drop_number)
        k, d = _infos(s, [keep, drop])
        hk, hd = _history_counts(s, keep.id), _history_counts(s, drop.id)
        history = tuple((key, hk[key], hd[key]) for key in hk)
        return MergePreview(k, d, history, _merged_data(k, d))


def merge_members(db: Database, actor: Actor, keep_number: str, drop_number: str) -> MergeResult:
    """Merge ``drop`` into ``keep`` (rule T2a): every row pointing at the dropped member now points at the
    kept one; the dropped record stays, inactive, marked as merged into the kept one.
    One transaction, audited."""
    require(actor, "members.merge", db)  # permission table (issue 23)
    try:
        with db.session() as s:
            keep, drop = _merge_pair(s, keep_number, drop_number)
            k, d = _infos(s, [keep, drop])
            moved: dict[str, int] = {}
            for table_name, column in member_references(_tables(s)):
                table = Base.metadata.tables[table_name]
                col = table.c[column]
                result = s.execute(update(table).where(col == drop.id).values({column: keep.id}))
                rows = int(getattr(result, "rowcount", 0) or 0)
                if rows:
                    moved[f"{table_name}.{column}"] = rows
            merged = _merged_data(k, d)
            before_keep = _snapshot(keep, k.club)
            _apply(s, actor, keep, merged)
            keep.rating = merged.rating if merged.rating is not None else keep.rating
            drop.active = False
            drop.merged_into_id = keep.id
            s.flush()
            audit(
                s,
                actor,
                "member.merge",
                "member",
                keep.number,
                before={"keep": before_keep, "drop": _snapshot(drop, d.club)},
                after={
                    "keep": _snapshot(keep, _infos(s, [keep])[0].club),
                    "dropped": drop.number,
                    "moved": moved,
                },
                reason=_("{drop} merged into {keep}").format(drop=drop.number, keep=keep.number),
            )
            return MergeResult(keep.number, drop.number, moved)
    except IntegrityError as exc:
        raise ServiceError(
            "merge-conflict",
            _(
                "The two members cannot be merged: both appear in the same place "
                "(for instance the same event). Nothing was changed."
            ),
        ) from exc


# --------------------------------------------------------------------------- CSV import

_TURKISH_ONLY = frozenset(b"\xd0\xdd\xde\xf0\xfd\xfe")


def decode_csv(raw: bytes) -> tuple[str, str, list[BadLine]]:
    """(text, encoding, problems). See the module doc for how Windows-1254 and 1252 are told apart."""
    if raw.startswith(b"\xef\xbb\xbf"):
        encoding = "utf-8-sig"
    else:
        encoding = "utf-8"
    if b"\x00" in raw:
        return (
            "",
            "",
            [
                BadLine(
                    1,
                    _(
                        "unreadable encoding: the file is not text (UTF-16 or a spreadsheet?); "
                        "save it as CSV UTF-8"
                    ),
                )
            ],
        )
    try:
        return raw.decode(encoding), encoding, []
    except UnicodeDecodeError:
        pass
    lines = raw.split(b"\n")
    # Valid non-ASCII UTF-8 on some lines and invalid bytes on others: a damaged or mixed file.
    good_utf8 = False
    bad: list[int] = []
    for i, line in enumerate(lines, start=1):
        try:
            line.decode("utf-8")
            if any(b >= 0x80 for b in line):
                good_utf8 = True
        except UnicodeDecodeError:
            bad.append(i)
    if good_utf8:
        reason = _("unreadable encoding: not valid UTF-8, while the rest of the file is UTF-8")
        return "", "", [BadLine(i, reason) for i in bad]
    encoding = "cp1254" if any(b in _TURKISH_ONLY for b in raw) else "cp1252"
    problems: list[BadLine] = []
    for i, line in enumerate(lines, start=1):
        try:
            line.decode(encoding)
        except UnicodeDecodeError:
            problems.append(
                BadLine(i, _("unreadable encoding: not UTF-8, Windows-1254 or Windows-1252 text"))
            )
    if problems:
        return "", "", problems
    return raw.decode(encoding), encoding, []


def _delimiter(header: str) -> str:
    counts = {d: header.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def _unescape(cell: str) -> str:
    cell = cell.strip()
    if len(cell) > 1 and cell[0] == "'" and cell[1] in "=+-@":
        return cell[1:]
    return cell


@lru_cache(maxsize=4)
def _yes_no(folder: str) -> tuple[frozenset[str], frozenset[str]]:
    """The export's own "yes" and "no" in every language, folded (per catalog folder)."""
    from clubdesk.i18n import LANGUAGES, translation_in

    return (
        frozenset(fold(translation_in(lang, "yes")) for lang in LANGUAGES),
        frozenset(fold(translation_in(lang, "no")) for lang in LANGUAGES),
    )


def _parse_bool(text: str) -> bool | None:
    from clubdesk.i18n import locale_dir

    t = fold(text)
    if t in ("", "1", "yes", "y", "true", "evet", "ya", "si", "x", "active"):
        return True
    if t in ("0", "no", "n", "false", "hayir", "tidak", "inactive"):
        return False
    yes, no = _yes_no(str(locale_dir()))  # the export's own yes / no in any language
    if t in yes:
        return True
    if t in no:
        return False
    return None


def parse_csv(raw: bytes) -> tuple[str, list[tuple[int, MemberData]], list[BadLine]]:
    """Read a register CSV: (encoding, [(line, data)], bad lines). Checks each line on its own and the
    numbers within the file; duplicates against the database are checked by :func:`preview_import`."""
    text, encoding, problems = decode_csv(raw)
    if problems:
        return encoding, [], problems
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    first_line = text.split("\n", 1)[0]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(first_line))
    rows: list[tuple[int, list[str]]] = []
    last = 0
    try:
        for row in reader:
            start = last + 1
            last = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            rows.append((start, row))
    except csv.Error as exc:  # e.g. a field longer than 131,072 characters (issue 23)
        return encoding, [], [BadLine(last + 1, _("the line cannot be read: {reason}").format(reason=exc))]
    if not rows:
        return encoding, [], [BadLine(1, _("the file is empty: it needs a header line and members"))]
    header_line, header = rows[0]
    columns: list[str] = []
    local = _local_headers()
    for cell in header:
        key = fold(cell.strip().lstrip("\ufeff"))
        key = _ALIASES.get(key, key.replace(" ", "_"))
        if key not in COLUMNS:
            key = local.get(fold(cell.strip().lstrip("\ufeff")), key)  # a header in id, es or tr
        if key not in COLUMNS:
            problems.append(BadLine(header_line, _("unknown column “{column}”").format(column=cell.strip())))
        elif key in columns:
            problems.append(
                BadLine(header_line, _("the column “{column}” appears twice").format(column=cell.strip()))
            )
        columns.append(key)
    if "name" not in columns:
        problems.append(BadLine(header_line, _("the header has no “name” column")))
    if problems:
        return encoding, [], problems
    out: list[tuple[int, MemberData]] = []
    seen_numbers: dict[str, int] = {}
    for line, row in rows[1:]:
        if len(row) > len(columns) and any(c.strip() for c in row[len(columns) :]):
            problems.append(BadLine(line, _("more values than columns ({n} columns)").format(n=len(columns))))
            continue
        values = {col: _unescape(row[i]) if i < len(row) else "" for i, col in enumerate(columns)}
        reasons: list[str] = []
        data, conversion = _row_to_data(values)
        reasons += conversion
        if data is not None:
            errors = field_errors(data)
            reasons += list(errors.values())
            if data.number:
                if data.number in seen_numbers:
                    reasons.append(
                        _("member number {number} appears twice in the file (also line {other})").format(
                            number=data.number, other=seen_numbers[data.number]
                        )
                    )
                else:
                    seen_numbers[data.number] = line
        for reason in reasons:
            problems.append(BadLine(line, _lower_first(reason)))
        if not reasons and data is not None:
            out.append((line, data))
    if len(rows) == 1:
        problems.append(BadLine(header_line, _("the file has a header but no members")))
    return encoding, out, problems


def _lower_first(text: str) -> str:
    text = text.rstrip(".")
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def _row_to_data(v: dict[str, str]) -> tuple[MemberData | None, list[str]]:
    reasons: list[str] = []
    birth_year: int | None = None
    rating: float | None = None
    experience = 0
    if v.get("birth_year"):
        try:
            birth_year = int(v["birth_year"])
        except ValueError:
            reasons.append(_("the birth year is not a number: {value}").format(value=v["birth_year"]))
    if v.get("rating"):
        try:
            rating = float(v["rating"].replace(",", "."))
        except ValueError:
            reasons.append(_("the rating is not a number: {value}").format(value=v["rating"]))
    if v.get("rating_experience"):
        try:
            experience = int(v["rating_experience"])
        except ValueError:
            reasons.append(
                _("the rating experience is not a whole number: {value}").format(value=v["rating_experience"])
            )
    active = _parse_bool(v.get("active", ""))
    if active is None:
        reasons.append(_("active must be yes or no: {value}").format(value=v["active"]))
    data = _clean(
        MemberData(
            name=v.get("name", ""),
            number=v.get("number", ""),
            club=v.get("club", ""),
            city=v.get("city", ""),
            gender=v.get("gender", ""),
            birth_year=birth_year,
            rating=rating,
            rating_experience=experience,
            phone=v.get("phone", ""),
            email=v.get("email", ""),
            notes=v.get("notes", ""),
            active=bool(active) if active is not None else True,
            licence=v.get("licence", ""),
        )
    )
    return data, reasons


def preview_import(db: Database, source: Path | bytes) -> ImportPreview:
    """What importing ``source`` would add, and every bad line (nothing is written)."""
    raw = source if isinstance(source, bytes) else _read(source)
    encoding, rows, problems = parse_csv(raw)
    additions: list[MemberData] = []
    new_clubs: list[str] = []
    with db.session() as s:
        existing = {str(r[0]): str(r[1]) for r in s.execute(select(Member.number, Member.name))}
        club_names = {fold(n) for n in s.scalars(select(Club.name))}
        taken = set(existing)
        for line, data in rows:
            if data.number and data.number in existing:
                problems.append(
                    BadLine(
                        line,
                        _("member number {number} is already in the register ({name})").format(
                            number=data.number, name=existing[data.number]
                        ),
                    )
                )
                continue
            if data.club and fold(data.club) not in club_names:
                club_names.add(fold(data.club))
                new_clubs.append(data.club)
            additions.append(data)
        # members without a number get the next free numbers, in file order
        numbered: list[MemberData] = []
        for data in additions:
            if not data.number:
                data = replace(data, number=_next_number(s, taken))
            taken.add(data.number)
            numbered.append(data)
    problems.sort(key=lambda b: b.line)
    return ImportPreview(encoding, tuple(numbered), tuple(new_clubs), tuple(problems))


def _read(path: Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise ServiceError(
            "file-unreadable",
            _("Cannot read {file}: {reason}").format(file=path, reason=exc.strerror or exc),
        ) from exc


def import_members(
    db: Database, actor: Actor, source: Path | bytes, *, dry_run: bool = False
) -> ImportPreview:
    """Import a register CSV, all or nothing. Any bad line: ServiceError listing every bad line, nothing
    written. ``dry_run``: check everything, write nothing."""
    require(actor, "members.import", db)  # permission table (issue 23)
    preview = preview_import(db, source)
    if preview.bad_lines:
        raise ServiceError(
            "import-refused",
            ngettext(
                "The file was not imported: {n} bad line; nothing was written.",
                "The file was not imported: {n} bad lines; nothing was written.",
                len({b.line for b in preview.bad_lines}),
            ).format(n=len({b.line for b in preview.bad_lines})),
            [str(b) for b in preview.bad_lines],
        )
    if not preview.additions:
        raise ServiceError("import-empty", _("The file has no members to import."))
    if dry_run:
        return preview
    with db.session() as s:
        for data in preview.additions:
            _refuse_taken(s, data.number)
            m = Member(number=data.number, rating=DEFAULT_RATING, rating_experience=0)
            s.add(m)
            _apply(s, actor, m, data)
        s.flush()
        audit(
            s,
            actor,
            "member.import",
            "member",
            None,
            after={
                "count": len(preview.additions),
                "numbers": [d.number for d in preview.additions],
                "new_clubs": list(preview.new_clubs),
                "encoding": preview.encoding,
            },
        )
    return preview


# --------------------------------------------------------------------------- CSV export


def export_csv(db: Database, actor: Actor, path: Path, *, delimiter: str = ",") -> int:
    """The organiser's export: every member not merged away, all columns (phone and e-mail included, T14:
    this file is for the organiser only). UTF-8 with BOM so Excel shows the accents right. Audited."""
    require(actor, "members.export", db)  # permission table (issue 23)
    members = list_members(db, include_inactive=True)
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow([_(COLUMN_TITLES[c]) for c in COLUMNS])  # the header in the language in force
    for m in members:
        rating = f"{m.rating:g}"
        writer.writerow(
            [
                excel_safe(x)
                for x in (
                    m.number,
                    m.name,
                    m.club,
                    m.city,
                    m.gender,
                    "" if m.birth_year is None else str(m.birth_year),
                    rating,
                    str(m.rating_experience),
                    m.phone,
                    m.email,
                    m.notes,
                    _("yes") if m.active else _("no"),
                    m.licence,
                )
            ]
        )
    try:
        Path(path).write_bytes(buffer.getvalue().encode("utf-8-sig"))
    except OSError as exc:
        raise ServiceError(
            "file-unwritable",
            _("Cannot write {file}: {reason}").format(file=path, reason=exc.strerror or exc),
        ) from exc
    with db.session() as s:
        audit(s, actor, "member.export", "member", None, after={"count": len(members), "file": str(path)})
    return len(members)
