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
