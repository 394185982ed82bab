"""The register's plain records and their checks: what the member dialog or a CSV line holds
(:class:`MemberData`), a member as the organiser sees it (:class:`MemberInfo`), what public views show
(:class:`PublicMember`, rule T14), and the validation of a member's fields.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.competition import privacy
from clubdesk.i18n import _
from clubdesk.models.club import Club
from clubdesk.models.member import Member
from clubdesk.services.kernel import ServiceError
from clubdesk.text import invisible_problem

DEFAULT_RATING = 1500.0  # rule T12c: new players start at 1500
FIRST_NUMBER = 1001
MAX_NAME = 120
MAX_NUMBER = 20

# a member number: Latin letters, digits 0-9 and dashes, never a leading dash (a number is typed on the
# command line, written into CSV cells and file names, so "-1", "=1+1" or "../x" are refused at the edge)
_NUMBER = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*")
# runs of spaces a typed text may hold; control characters (tab, line break...) are not spaces: refused
_SPACES = re.compile(r"[^\S\x00-\x1f\x7f-\x9f]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

_EMAIL = re.compile(r"^[^@\s,;<>]+@[^@\s,;<>]+\.[^@\s,;<>.]{2,}$")
_PHONE_CHARS = re.compile(r"^\+?[0-9 ()./-]+$")
PHONE_EXAMPLE = "+62 812-3456-7890"  # a form phone_ok accepts, shown when a number is refused

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
    public_name: str = privacy.FULL  # what public outputs show: "full" or "initials" (his consent)


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
    public_name: str = privacy.FULL  # his consent for public outputs: "full" or "initials"

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
            public_name=self.public_name,
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


# --------------------------------------------------------------------------- validation


def field_errors(
    data: MemberData, *, examples: bool = True, current_number: str | None = None
) -> dict[str, str]:
    """Every problem of a member's data, keyed by field name (``name``, ``email``...), translated; a
    refused phone number with an accepted form beside it (``examples``; an import's bad lines go without).
    ``current_number``: the number the member already holds, accepted as it is."""
    errors: dict[str, str] = {}
    name = squeeze(data.name)
    if (control := control_problem(data.name)) is not None:
        errors["name"] = control
    elif not name:
        errors["name"] = _("The name is missing.")
    elif len(name) > MAX_NAME:
        errors["name"] = _("The name is too long (120 characters at most).")
    elif (problem := invisible_problem(name)) is not None:  # no escapes, bidi marks or blank names
        errors["name"] = _("The name is not valid: {reason}").format(reason=problem)
    number = squeeze(data.number)
    if number and number != current_number:  # a number stored before this rule stays its member's
        if (problem := number_problem(number)) is not None:
            errors["number"] = problem
    licence = data.licence.strip()
    if len(licence) > 40:  # rule E15
        errors["licence"] = _("The licence number is too long (40 characters at most).")
    if data.phone.strip() and not phone_ok(data.phone) and not examples:
        errors["phone"] = _("Malformed phone number: {phone}").format(phone=data.phone.strip())
    elif data.phone.strip() and not phone_ok(data.phone):
        errors["phone"] = _(
            "Malformed phone number: {phone}. Write 7 to 15 digits, with a + in front for the country code "
            "if needed, as in {example}."
        ).format(phone=data.phone.strip(), example=PHONE_EXAMPLE)
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
    if data.public_name not in privacy.CONSENTS:
        errors["public_name"] = _("The name on public outputs is full or initials.")
    if len(data.club.strip()) > 120:
        errors["club"] = _("The club name is too long (120 characters at most).")
    elif data.club.strip() and (problem := invisible_problem(data.club.strip())) is not None:
        errors["club"] = _("The club name is not valid: {reason}").format(reason=problem)
    if data.city.strip() and (problem := invisible_problem(data.city.strip())) is not None:
        errors["city"] = _("The city is not valid: {reason}").format(reason=problem)
    return errors


def squeeze(text: str) -> str:
    """``text`` with each run of spaces made one space and none at the ends; control characters kept, so
    that the checks see (and refuse) a tab or a line break instead of a space."""
    return _SPACES.sub(" ", text).strip(" ")


def control_problem(text: str) -> str | None:
    """Why a name holding a control character (U+0000-U+001F, U+007F-U+009F) is refused, or None."""
    found = _CONTROL.search(text)
    if found is None:
        return None
    if found.group() in "\t\n\r\v\f\x1c\x1d\x1e\x85":
        return _("The name must be written on one line, without tabs or line breaks.")
    return _("The name contains a control character (U+{code:04X}); retype it.").format(
        code=ord(found.group())
    )


def number_problem(number: str) -> str | None:
    """Why a member number is refused, or None: Latin letters, digits and dashes, 20 at most, no leading
    dash."""
    if len(number) > MAX_NUMBER:
        return _("The member number is too long (20 characters at most).")
    if number.startswith("-"):
        return _("The member number cannot begin with a dash.")
    if not _NUMBER.fullmatch(number):
        return _("The member number uses Latin letters, the digits 0-9 and the dash (-) only.")
    return None


def phone_ok(phone: str) -> bool:
    """Digits with an optional leading +, spaces, dashes, dots, slashes, brackets; 7 to 15 digits."""
    text = phone.strip()
    digits = sum(ch.isdigit() for ch in text)
    return bool(_PHONE_CHARS.match(text)) and 7 <= digits <= 15


def email_ok(email: str) -> bool:
    return bool(_EMAIL.match(email.strip()))


def clean(data: MemberData) -> MemberData:
    return replace(
        data,
        name=squeeze(data.name),
        number=squeeze(data.number),
        club=squeeze(data.club),
        city=squeeze(data.city),
        gender=data.gender.strip().lower(),
        phone=data.phone.strip(),
        email=data.email.strip(),
        notes=data.notes.strip(),
        licence=data.licence.strip(),
    )


def refuse_fields(errors: dict[str, str]) -> None:
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
        public_name=m.public_name or privacy.FULL,
    )


def infos_of(s: Session, rows: Iterable[Member]) -> list[MemberInfo]:
    clubs = {int(r[0]): str(r[1]) for r in s.execute(select(Club.id, Club.name))}
    rows = list(rows)
    merged_ids = {m.merged_into_id for m in rows if m.merged_into_id is not None}
    numbers: dict[int, str] = {}
    if merged_ids:
        found = s.execute(select(Member.id, Member.number).where(Member.id.in_(merged_ids)))
        numbers = {int(r[0]): str(r[1]) for r in found}
    return [_info(m, clubs, numbers) for m in rows]
