"""The season ranking (rule T12d)."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.models.event import Event
from clubdesk.models.member import Member
from clubdesk.models.result import FinalPlace
from clubdesk.models.round import EventNight
from clubdesk.reports import data as report_data
from clubdesk.reports.season import season
from clubdesk.reports.words import centi_text
from clubdesk.services import night as night_service
from clubdesk.services.kernel import ServiceError
from clubdesk.services.publishing.header import (
    DEFAULT_SUPER_FINAL,
    club_of,
    clubs_of,
    entrants_of,
    members_of,
    render,
    report_event,
    report_header,
)
from clubdesk.standings.season import EventScore, SeasonRow, SeasonScale, rank_scores
from clubdesk.storage import Database


# ------------------------------------------------------------------------------------------ season
@dataclass(frozen=True)
class SeasonRanking:
    """The season of an event as the season engine ranks it (T12d): the finished events (id, name) that are
    its columns, the engine's rows, the members by id, the scale and the season scale's raw settings."""

    season: str
    columns: tuple[tuple[int, str], ...]
    rows: tuple[SeasonRow, ...]
    people: dict[int, Member]
    scale: SeasonScale
    settings: dict[str, Any]


def season_ranking(s: Session, ev: Event) -> SeasonRanking:
    """Every finished event of ``ev``'s season is a column with each member's season points (stored when it
    ended); the ranking, the best-N rule (from ``ev``'s season scale, ``best_of``), the dropped results and
    the tie-breaks are the season engine's (:func:`clubdesk.standings.season.rank_scores`)."""

    season = ev.season.strip()
    if not season:
        raise ServiceError("no-season", _("Event {e} belongs to no season.").format(e=ev.id), event=ev.id)
    events = list(
        s.scalars(select(Event).where(Event.season == ev.season).order_by(Event.starts_on, Event.id))
    )
    columns: list[tuple[int, str]] = []
    scores: list[EventScore] = []
    people: dict[int, Member] = {}
    for e in events:
        places = list(s.scalars(select(FinalPlace).where(FinalPlace.event_id == e.id)))
        if not places:
            continue
        columns.append((e.id, e.name))
        status = {en.id: en.status for en in entrants_of(s, e)}
        members = members_of(s, e)  # one query per event, not per entrant (a share's 3 s target)
        for fp in places:
            for m in members.get(fp.entrant_id, []):
                people[m.id] = m
                scores.append(
                    EventScore(
                        event_id=str(e.id),
                        held_on=e.starts_on or dt.date.min,
                        entrant=str(m.id),
                        place_from=fp.place_from,
                        place_to=fp.place_to,
                        points=fp.season_points,
                        disqualified=status.get(fp.entrant_id) == "disqualified",
                    )
                )
    night = s.get(EventNight, ev.id)
    raw = night.season_scale if night is not None else "{}"
    try:
        settings = json.loads(raw or "{}")
        scale = night_service.season_scale_from(raw) or SeasonScale((), {})
    except (KeyError, TypeError, ValueError):
        settings, scale = {}, SeasonScale((), {})
    rows = tuple(rank_scores(scores, scale))
    return SeasonRanking(
        season, tuple(columns), rows, people, scale, settings if isinstance(settings, dict) else {}
    )


def season_data(db: Database, event_id: int, super_final: int | None = None) -> report_data.SeasonData:
    """The season ranking of the event's season (T12d), see :func:`season_ranking`."""
    with db.session() as s:
        ev = report_event(s, event_id)
        rk = season_ranking(s, ev)
        clubs = clubs_of(s)
        rows: list[report_data.SeasonRowData] = []
        for r in rk.rows:
            m = rk.people[int(r.entrant)]
            counted = {x.event_id: x.points for x in r.counted}
            dropped = {x.event_id: x.points for x in r.dropped}

            rows.append(
                report_data.SeasonRowData(
                    rank=r.rank,
                    name=m.name,
                    points=r.points // 100,
                    points_text=centi_text(r.points),
                    club=club_of(clubs, m),
                    city=m.city,
                    events=tuple(_season_cell(str(eid), counted, dropped) for eid, _n in rk.columns),
                    note=_("disqualified") if r.disqualified_in else "",
                )
            )
    configured = rk.settings.get("super_final")
    n_final = super_final if super_final is not None else int(configured or DEFAULT_SUPER_FINAL)
    return report_data.SeasonData(
        season=rk.season,
        event_columns=tuple(name for _id, name in rk.columns),
        rows=tuple(rows),
        super_final=min(n_final, len(rows)),
        best_of=rk.scale.best_of,
        events_total=len(rk.columns),
    )


def _season_cell(event: str, counted: dict[str, int], dropped: dict[str, int]) -> str:
    if event in counted:
        return centi_text(counted[event])
    if event in dropped:
        return f"({centi_text(dropped[event])})"  # rule T12d: not among the best N results, not counted
    return ""


def season_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    super_final: int | None = None,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:

    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    return render(out, header, season, lambda: season_data(db, event_id, super_final))
