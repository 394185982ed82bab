"""The organiser's private lists (rule T14): a member's history and the contact list, marked private."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True)
class HistoryRow:
    date: dt.date
    event: str
    place: str = ""
    result: str = ""
    season_points: str = ""
    rating: str = ""


@dataclass(frozen=True)
class MemberHistory:
    """A member's own history: private, contact data included (rule T14)."""

    name: str
    number: str
    rows: tuple[HistoryRow, ...]
    club: str = ""
    city: str = ""
    phone: str = ""
    email: str = ""
    rating: str = ""


@dataclass(frozen=True)
class ContactRow:
    name: str
    number: str = ""
    club: str = ""
    phone: str = ""
    email: str = ""
    status: str = ""


@dataclass(frozen=True)
class ContactList:
    """The organiser's private list of entrants with phone and e-mail (rule T14)."""

    event_id: str
    rows: tuple[ContactRow, ...]


@dataclass(frozen=True)
class PersonalSection:
    """One part of everything held about a member: a heading and a table of already-written cells."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class PersonalRecord:
    """Everything the club holds about a member (his right of access: GDPR art. 15, KVKK art. 11,
    UU PDP 2022 art. 7): private, contact data included."""

    number: str
    name: str
    sections: tuple[PersonalSection, ...]
