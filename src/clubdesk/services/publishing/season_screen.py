"""The Season screen's data (rule T12d, T4g): the seasons, a season's events with their
coefficients, the ranking (best N of M, shared places averaged: ``season_ranking.season_data`` on
the season's engine), the Super Final invitations and the finalists' starting lives.

The season scale is an event's night setting (``night-config --season-scale``): the season is ranked by the
scale of its latest finished event that has one (else its latest event). Starting lives come from the
scale's ``"starting_lives": {"bands": [{"from": 1, "to": 2, "lives": 3}], "default": 2}`` (rule T4g: a
season final may hand out starting lives by season rank); without it every finalist starts with 2.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from clubdesk.i18n import _
from clubdesk.models.event import Event
from clubdesk.models.round import EventNight
from clubdesk.reports import data as report_data
from clubdesk.reports.words import centi_text
from clubdesk.services import night
from clubdesk.services.kernel import ServiceError
from clubdesk.services.publishing import season_ranking
from clubdesk.standings.season import (
    LivesBand,
    LivesTable,
    SeasonError,
    starting_lives,
    super_final_invitations,
)
from clubdesk.storage import Database

DEFAULT_LIVES = 2  # every finalist's lives when the scale hands out none by rank (the night's default)


@dataclass(frozen=True)
class SeasonEventLine:
    """One event of the season: its class and that class's coefficient (hundredths, None: no scale)."""

    id: int
    name: str
    starts_on: dt.date | None
    status: str
    coefficient_class: str
    coefficient: int | None
    finished: bool


@dataclass(frozen=True)
class Finalist:
    rank: int
    name: str
    points_text: str
    lives: int  # starting lives in a lives-format season final (T4g)


@dataclass(frozen=True)
class SeasonOverview:
    season: str
    events: tuple[SeasonEventLine, ...]
    reference_event: int  # the event whose season scale ranks the season (print the season PDF with it)
    has_scale: bool
    data: report_data.SeasonData
    finalists: tuple[Finalist, ...]


def seasons(db: Database) -> list[str]:
    """Every season some event belongs to, the latest (by its latest event) first."""
    with db.session() as s:
        latest: dict[str, tuple[dt.date, int]] = {}
        for e in s.scalars(select(Event)):
            name = e.season.strip()
            if name:
                key = (e.starts_on or dt.date.min, e.id)
                latest[name] = max(latest.get(name, key), key)
    return sorted(latest, key=lambda k: latest[k], reverse=True)


def _lives_table(settings: dict[str, Any]) -> LivesTable:
    raw = settings.get("starting_lives") or {}
    bands = tuple(
        LivesBand(int(b["from"]), int(b.get("to", b["from"])), int(b["lives"])) for b in raw.get("bands", [])
    )
    return LivesTable(bands, default_lives=int(raw.get("default", DEFAULT_LIVES)))


def season_overview(db: Database, season: str) -> SeasonOverview:
    """The season's events, ranking, Super Final invitations and starting lives (T12d, T4g)."""
    with db.session() as s:
        events = [
            e
            for e in s.scalars(select(Event).order_by(Event.starts_on, Event.id))
            if e.season.strip() == season.strip()
        ]
        if not events:
            raise ServiceError(
                "no-season",
                _("No event belongs to the season {season}.").format(season=season),
                season=season,
            )
        lines: list[SeasonEventLine] = []
        scaled: list[int] = []
        finished: list[int] = []
        for e in events:
            n = s.get(EventNight, e.id)
            try:
                scale = night.season_scale_from(n.season_scale if n is not None else None)
            except (KeyError, TypeError, ValueError):
                scale = None
            done = n is not None and n.finished_at is not None
            coefficient = None
            if scale is not None:
                coefficient = scale.coefficients.get(e.coefficient_class)
            lines.append(
                SeasonEventLine(e.id, e.name, e.starts_on, e.status, e.coefficient_class, coefficient, done)
            )
            if done:
                finished.append(e.id)
                if scale is not None:
                    scaled.append(e.id)
        ref = (scaled or finished or [events[-1].id])[-1]
        rk = season_ranking.season_ranking(s, s.get(Event, ref))  # type: ignore[arg-type]
    data = season_ranking.season_data(db, ref)
    invited = super_final_invitations(rk.rows, data.super_final)  # rule T12d: the season's top players
    try:
        table = _lives_table(rk.settings)
    except (KeyError, TypeError, ValueError, AttributeError, SeasonError):
        table = LivesTable((), default_lives=DEFAULT_LIVES)
    lives = starting_lives(invited, table)  # rule T4g: starting lives by season rank
    finalists = tuple(
        Finalist(r.rank, rk.people[int(r.entrant)].name, centi_text(r.points), lives[r.entrant])
        for r in invited
    )
    return SeasonOverview(
        season=season.strip(),
        events=tuple(lines),
        reference_event=ref,
        has_scale=bool(scaled),
        data=data,
        finalists=finalists,
    )
