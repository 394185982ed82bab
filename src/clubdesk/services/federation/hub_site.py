"""The circuit's season on paper and on the web: the season PDF (the club desk's season report) and the
static site (as ``share site``) for every club's events, from the hub (rules T12d, T14: names, clubs and
results only)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from clubdesk.i18n import _, language_context
from clubdesk.reports import data as report_data
from clubdesk.reports.season import season as season_pdf
from clubdesk.reports.site import write as write_site
from clubdesk.reports.words import centi_text
from clubdesk.services.federation.hub_season import CircuitSeason, circuit_season, event_places
from clubdesk.services.kernel import ServiceError
from clubdesk.storage.hub import Hub


def _cell(uid: str, counted: dict[str, int], dropped: dict[str, int]) -> str:
    if uid in counted:
        return centi_text(counted[uid])
    if uid in dropped:
        return f"({centi_text(dropped[uid])})"  # rule T12d: beyond the best N, not counted
    return ""


def season_data(cs: CircuitSeason) -> report_data.SeasonData:
    """The circuit's season in the club desk's season report shape."""
    rows = []
    for r in cs.rows:
        counted, dropped = dict(r.counted), dict(r.dropped)
        rows.append(
            report_data.SeasonRowData(
                rank=r.rank,
                name=r.name,
                points=r.points // 100,
                points_text=centi_text(r.points),
                club=", ".join(r.clubs),
                events=tuple(_cell(ev.uid, counted, dropped) for ev in cs.events),
            )
        )
    return report_data.SeasonData(
        season=cs.season,
        event_columns=tuple(f"{ev.name} ({ev.club})" for ev in cs.events),
        rows=tuple(rows),
        super_final=cs.super_final,
        best_of=cs.best_of,
        events_total=len(cs.events),
    )


def circuit_pdf(hub: Hub, season: str, out: Path, *, federation_name: str = "", language: str = "en") -> int:
    """The circuit's season ranking as a PDF (the club desk's season report); pages written."""
    cs = circuit_season(hub, season, ratings=False)  # the PDF and the site show no ratings
    with language_context(language):
        header = report_data.ReportHeader(
            club_name=federation_name or _("Federation"),
            event_name=_("Season {season}").format(season=cs.season),
            date=dt.date.today(),
            language=language,
        )
        try:
            return season_pdf(out, header, season_data(cs))
        except OSError as exc:
            raise ServiceError(
                "cannot-write", _("Cannot write {file}: {why}").format(file=out, why=exc)
            ) from exc


def circuit_site(
    hub: Hub, season: str, folder: Path, *, federation_name: str = "", language: str = "en"
) -> list[Path]:
    """The circuit's static site: the season ranking with the Super Final line and each venue's events with
    their final places (T12a); the files written (``index.html`` first)."""
    cs = circuit_season(hub, season, ratings=False)  # the PDF and the site show no ratings
    with language_context(language):
        events = []
        for n, ev in enumerate(cs.events, start=1):
            events.append(
                report_data.SiteEvent(
                    id=n,
                    name=f"{ev.name} ({ev.club})",
                    kind=ev.tier,
                    date=ev.starts_on,
                    standings=_places(hub, ev.uid, n),
                    rounds=(),
                    cross=report_data.CrossTable(str(n), 0, ()),
                )
            )
        data = report_data.SiteData(
            club=federation_name or _("Federation"),
            language=language,
            season=cs.season,
            events=tuple(events),
            ranking=season_data(cs),
        )
        folder.mkdir(parents=True, exist_ok=True)
        return [folder / name for name in write_site(folder, data)]


def _places(hub: Hub, uid: str, n: int) -> report_data.StandingsData:
    rows = tuple(
        report_data.StandingsRow(rank=place, name=name, club=club, points=centi_text(points))
        for place, name, club, points in event_places(hub, uid)
    )
    return report_data.StandingsData(event_id=str(n), codes=("PTS",), rows=rows, final=True)
