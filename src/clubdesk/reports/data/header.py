"""The frame of every page: who prints, which event and round, in which language, on which paper."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

PageSize = Literal["A4", "Letter"]


@dataclass(frozen=True)
class ReportHeader:
    """The common frame of every page: who prints, what event, which round, when, in which language."""

    club_name: str
    event_name: str = ""
    logo_path: str | None = None
    round: int | None = None
    date: dt.date | None = None  # the event's (or round's) date
    language: str = "en"  # en / id / es / tr, or the pseudo-locale xx
    page_size: PageSize = "A4"
    printed_on: dt.datetime | None = None  # None: now (fixed in tests for reproducible files)
    # on sheets people sign (score sheets, the act): the audit log's head (short) and its rows when printed,
    # the same state as the anchor written outside the club file at that print
    audit_head: str = ""
    audit_rows: int = 0
