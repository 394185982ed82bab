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
