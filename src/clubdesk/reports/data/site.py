"""The static site's content, gathered before a file is written (rule T14: what the public PDFs print)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from clubdesk.reports.data.night import BracketData, CrossTable, PairingsData, StandingsData
from clubdesk.reports.data.season import SeasonData


@dataclass(frozen=True)
class SiteEvent:
    id: int
    name: str
    kind: str  # "tavla, Swiss": the ruleset and the format, translated
    date: dt.date | None
    standings: StandingsData
    rounds: tuple[PairingsData, ...]
    cross: CrossTable
    bracket: BracketData | None = None


@dataclass(frozen=True)
class SiteData:
    club: str
    language: str
    season: str
    events: tuple[SiteEvent, ...]
    ranking: SeasonData | None = None
    logo_path: str | None = None
