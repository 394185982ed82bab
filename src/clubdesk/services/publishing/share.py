"""Standings and pairings to share: images for the club's group chat and a static site.

``share KIND EVENT`` draws phone-sized PNG images (:mod:`clubdesk.reports.images`) and ``share site`` writes a
small self-contained web site (:mod:`clubdesk.reports.site`), both from the same plain report data as the
PDFs (:mod:`clubdesk.services.publishing.night_data`). Everything is gathered first and written into a
temporary folder
inside the target, then moved into place: a refused request or a failed write leaves the folder as it was.

Privacy (rule T14): only the public fields the PDFs print (name, club, city, results); never a phone, an
e-mail or an incident's notes (the share code reads no incident at all).
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import select

from clubdesk import labels
from clubdesk.i18n import N_, _, current_language
from clubdesk.labels import localized_number
from clubdesk.models.event import Event
from clubdesk.reports import data as report_data
from clubdesk.reports import site
from clubdesk.reports.bracket_image import bracket_tree
from clubdesk.reports.data import CrossRow, CrossTable, SiteData, SiteEvent
from clubdesk.reports.frame import fmt_money
from clubdesk.reports.images import Column, Sheet, render
from clubdesk.reports.pairings import by_name_lines
from clubdesk.reports.public import publicly
from clubdesk.reports.words import crosstable_legend, standings_title
from clubdesk.services import club as club_service
from clubdesk.services import members as members_service
from clubdesk.services import night
from clubdesk.services.kernel import ServiceError
from clubdesk.services.publishing import header as publishing_header
from clubdesk.services.publishing import money_lists, night_data, season_ranking
from clubdesk.storage import Database

SHARE_KINDS: tuple[str, ...] = ("pairings", "standings", "bracket", "crosstable", "season", "prizes")
SHARE_KIND_LABELS: dict[str, str] = {
    "pairings": N_("Pairings"),
    "standings": N_("Standings"),
    "bracket": N_("Bracket"),
    "crosstable": N_("Cross-table"),
    "season": N_("Season ranking"),
    "prizes": N_("Prize list"),
}
FORMATS: tuple[str, ...] = ("png",)


# ------------------------------------------------------------------------------------------ cross-table
WIN, LOSS, DRAW = "+", "−", "="


def crosstable_data(db: Database, event_id: int, est: night.EventStandings | None = None) -> CrossTable:
    """Every entrant in standings order with, per round, the opponent's rank and the result (``est``: the
    event's standings when the caller has them already)."""
    est = est if est is not None else night.event_standings(db, event_id)
    rank_of = {r.entrant: r.rank for r in est.rows}
    with db.session() as s:
        ev = night.get_event(s, event_id)
        rounds = [r.number for r in night.rounds_of(s, ev.id)]
        games: dict[int, dict[int, str]] = {}
        for m in night.matches_of(s, ev.id):
            if m.status not in night.FINAL_STATUSES:
                continue
            if m.side_b is None:
                games.setdefault(m.side_a, {})[m.round_no] = WIN  # a bye
                continue
            for me, other in ((m.side_a, m.side_b), (m.side_b, m.side_a)):
                mark = DRAW if m.winner is None else (WIN if m.winner == me else LOSS)
                opp = rank_of.get(other)
                games.setdefault(me, {})[m.round_no] = f"{opp if opp is not None else '?'}{mark}"
    rows = tuple(
        CrossRow(
            rank=r.rank,
            name=r.name,
            points=localized_number(night_data.fraction_text(r.points)),
            cells=tuple(games.get(r.entrant, {}).get(n, "") for n in rounds),
        )
        for r in est.rows
    )
    return CrossTable(event_id=str(event_id), rounds=len(rounds), rows=rows)


# ------------------------------------------------------------------------------------------ checks
def _check_event(db: Database, event_id: int, round_no: int | None = None) -> int | None:
    """The event exists and has a round (an empty event has nothing to share); the round asked for exists.
    The round shared (the latest when none is asked for), or None."""
    with db.session() as s:
        ev = night.get_event(s, event_id)
        rounds = [r.number for r in night.rounds_of(s, ev.id)]
        if not rounds:
            raise ServiceError("no-round", _("Event {e} has no round yet.").format(e=ev.id), event=ev.id)
        if round_no is not None:
            night.find_round(s, ev, round_no)
            return round_no
        return rounds[-1]


def _publish(
    out: str | Path, write: Callable[[Path], list[str]], stale: Callable[[str], bool] | None = None
) -> list[Path]:
    """Write every file into a temporary folder inside ``out``, then move each into ``out``: nothing
    half-written. ``stale``: older files of ``out`` that the new set replaces (removed once it is in)."""
    target = Path(out)
    created = not target.exists()
    try:
        target.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".clubdesk-share-", dir=target))
    except OSError as exc:
        raise ServiceError(
            "cannot-write",
            _("Cannot write into the folder {path}: {error}").format(path=target, error=exc.strerror or exc),
            path=str(target),
        ) from exc
    moved: list[Path] = []
    try:
        names = write(tmp)
        if stale is not None:
            for old in target.iterdir():
                if old.is_file() and stale(old.name) and old.name not in names:
                    old.unlink()
        for name in names:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            os.replace(tmp / name, target / name)
            moved.append(target / name)
    except OSError as exc:
        raise ServiceError(
            "cannot-write",
            _("Cannot write into the folder {path}: {error}").format(path=target, error=exc.strerror or exc),
            path=str(target),
        ) from exc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if created and not moved:
            shutil.rmtree(target, ignore_errors=True)
    return moved


# ------------------------------------------------------------------------------------------ images
def _sheets(
    db: Database, kind: str, event_id: int, round_no: int | None, header: report_data.ReportHeader
) -> list[object]:
    """The kind's tables (:class:`clubdesk.reports.images.Sheet`) from the PDFs' report data; the bracket
    as a tree (:class:`clubdesk.reports.bracket_image.Tree`). Each member's consent is honoured (initials and
    club only where he chose so)."""
    hide = members_service.public_names(db)

    if kind == "pairings":
        pd = publicly(night_data.pairings_data(db, event_id, round_no), hide)
        rows = [t.shared_row() for t in pd.tables]
        by_table = Sheet(
            title=_("Pairings, round {n}").format(n=pd.round),
            columns=(
                Column(_("Table"), align="c", width=90),
                Column(_("Side 1"), 1.0),
                Column(_("Pts"), align="r", width=70),
                Column(_("Result"), align="c", width=110),
                Column(_("Side 2"), 1.0),
                Column(_("Pts"), align="r", width=70),
            ),
            rows=tuple(rows),
            notes=(_("Tables are called at {time}.").format(time=pd.call_time),) if pd.call_time else (),
        )
        entries = [(line.name, str(line.table), line.opponent) for line in by_name_lines(pd)]
        by_name = Sheet(
            title=_("Pairings by name, round {n}").format(n=pd.round),
            columns=(
                Column(_("Name"), 1.0),
                Column(_("Table"), align="c", width=110),
                Column(_("Opponent"), 1.0),
            ),
            rows=tuple(entries),
        )
        return [by_table, by_name]
    if kind == "standings":
        sd = publicly(night_data.standings_data(db, event_id), hide)
        codes = [c for c in sd.codes if c != "PTS"]
        return [
            Sheet(
                title=standings_title(sd),
                columns=(
                    Column("#", align="r", width=70),
                    Column(_("Name"), 1.0),
                    Column(_("Pts"), align="r", width=90),
                    *(Column(c, align="r", width=max(90, 22 * len(c) + 20)) for c in codes[:4]),
                ),
                rows=tuple(
                    (
                        str(r.rank),
                        r.name + (" ⚑" if r.playoff else ""),
                        r.points,
                        *(r.tiebreaks.get(c, "") for c in codes[:4]),
                    )
                    for r in sd.rows
                ),
            )
        ]
    if kind == "bracket":
        bd = publicly(night_data.bracket_data(db, event_id), hide)
        title = _("Double elimination") if bd.kind == "double" else _("Single elimination")
        return [bracket_tree(bd, header, title)]
    if kind == "crosstable":
        ct = publicly(crosstable_data(db, event_id), hide)
        sheets: list[object] = []
        # at most 6 rounds side by side, so that the names keep their room at 30 px
        for first in range(0, max(1, ct.rounds), 6):
            shown = range(first, min(ct.rounds, first + 6))
            title = _("Cross-table")
            if ct.rounds > 6:
                title += " · " + _("rounds {a}–{b}").format(a=first + 1, b=shown[-1] + 1)
            sheets.append(
                Sheet(
                    title=title,
                    columns=(
                        Column("#", align="r", width=70),
                        Column(_("Name"), 1.0),
                        Column(_("Pts"), align="r", width=80),
                        *(Column(str(n + 1), align="c", width=80) for n in shown),
                    ),
                    rows=tuple(
                        (str(r.rank), r.name, r.points, *(r.cells[n] for n in shown)) for r in ct.rows
                    ),
                    notes=(crosstable_legend(),),
                )
            )
        return sheets
    if kind == "season":
        se = publicly(season_ranking.season_data(db, event_id), hide)
        return [season_sheet(se)]
    pz = publicly(money_lists.prizes_data(db, event_id), hide)

    lang = current_language()
    return [
        Sheet(
            title=_("Prize list"),
            columns=(
                Column(_("Place"), align="c", width=110),
                Column(_("Name"), 1.2),
                Column(_("Prize"), 1.0),
                Column(_("Amount"), align="r", width=200),
            ),
            rows=tuple(
                (r.place, r.name, r.prize, fmt_money(r.amount, pz.currency, lang) if r.amount else "")
                for r in pz.rows
            ),
        )
    ]


def season_sheet(se: report_data.SeasonData) -> object:

    notes = []
    if se.super_final:
        notes.append(
            _("The first {n} are invited to the Super Final (the line under rank {n}).").format(
                n=se.super_final
            )
        )
    return Sheet(
        title=_("Season ranking {season}").format(season=se.season),
        columns=(
            Column("#", align="r", width=70),
            Column(_("Name"), 1.4),
            Column(_("Club"), 1.0),
            Column(_("Points"), align="r", width=130),
        ),
        rows=tuple((str(r.rank), r.name, r.club, r.points_text or str(r.points)) for r in se.rows),
        notes=tuple(notes),
        rules_after=frozenset({se.super_final - 1}) if se.super_final else frozenset(),
    )


def image_stem(kind: str, event_id: int, round_no: int | None) -> str:
    """Stable names: ``standings-12-01.png``, ``pairings-12-r3-01.png``."""
    if kind == "pairings" and round_no is not None:
        return f"{kind}-{event_id}-r{round_no}"
    return f"{kind}-{event_id}"


def share_images(
    db: Database,
    kind: str,
    event_id: int,
    out: str | Path,
    *,
    round_no: int | None = None,
    language: str | None = None,
    fmt: str = "png",
) -> list[Path]:
    """``share KIND EVENT [--round R] [--lang L] --format png --out DIR``: the images written, in order."""

    if kind not in SHARE_KINDS:
        raise ServiceError("unknown-share", _("Unknown kind: {kind}").format(kind=kind), kind=kind)
    if fmt not in FORMATS:
        raise ServiceError("unknown-format", _("Unknown format: {fmt}").format(fmt=fmt), fmt=fmt)
    lang = publishing_header.report_language_of(db, language, event_id)
    if kind != "pairings" and round_no is not None:
        raise ServiceError("round-not-used", _("A round can only be chosen for the pairings."), kind=kind)
    rno = _check_event(db, event_id, round_no)
    shown_round = rno if kind == "pairings" else None
    header = publishing_header.report_header(db, event_id, round_no=shown_round, language=lang)
    with publishing_header.in_language(lang):
        sheets = _sheets(db, kind, event_id, rno if kind == "pairings" else None, header)
        stem = image_stem(kind, event_id, shown_round)

        def write(tmp: Path) -> list[str]:
            return [p.name for p in render(header, sheets, tmp, stem)]  # type: ignore[arg-type]

        return _publish(out, write, stale=lambda name: name.startswith(stem + "-") and name.endswith(".png"))


def season_events(db: Database, season: str | None) -> tuple[str, list[int]]:
    """The season shown (the one asked for, else the latest event's) and its events, oldest first; every
    event when no event has a season."""
    with db.session() as s:
        events = list(s.scalars(select(Event).order_by(Event.starts_on, Event.id)))
        if season is not None:
            chosen = [e for e in events if e.season.strip() == season.strip()]
            if not chosen:
                raise ServiceError(
                    "no-season",
                    _("No event belongs to the season {season}.").format(season=season),
                    season=season,
                )
            return season.strip(), [e.id for e in chosen]
        seasons = [e for e in events if e.season.strip()]
        if seasons:
            latest = max(seasons, key=lambda e: (e.starts_on or dt.date.min, e.id)).season.strip()
            return latest, [e.id for e in events if e.season.strip() == latest]
        return "", [e.id for e in events]


def site_data(db: Database, season: str | None, lang: str) -> SiteData:
    """Everything the site shows, gathered (in the site's language) before a file is written."""

    chosen, ids = season_events(db, season)
    events: list[SiteEvent] = []
    ranking: report_data.SeasonData | None = None
    for eid in ids:
        with db.session() as s:
            ev = night.get_event(s, eid)
            rounds = [r.number for r in night.rounds_of(s, ev.id)]
            name, starts, fmt, ruleset = ev.name, ev.starts_on, ev.format, ev.ruleset
            elimination = ev.format in ("single-elimination", "double-elimination")
        if not rounds:
            continue  # nothing played or paired yet: nothing to show
        bracket = None
        if elimination:
            try:
                bracket = night_data.bracket_data(db, eid)
            except ServiceError:
                bracket = None
        est = night.event_standings(db, eid)  # once for the standings page and the cross-table
        events.append(
            SiteEvent(
                id=eid,
                name=name,
                kind=f"{labels.ruleset_label(ruleset)}, {labels.format_label(fmt)}",
                date=starts,
                standings=night_data.standings_data(db, eid, est),
                rounds=night_data.pairings_rounds(db, eid, rounds),
                cross=crosstable_data(db, eid, est),
                bracket=bracket,
            )
        )
    if chosen and ids:
        ranking = season_ranking.season_data(db, ids[-1])
    club = club_service.club_settings(db)
    hide = members_service.public_names(db)  # each member's consent: initials and club only
    return SiteData(
        club=club.club_name,
        language=lang,
        season=chosen,
        events=publicly(tuple(events), hide),
        ranking=publicly(ranking, hide),
        logo_path=club.logo_path if club.logo_path and Path(club.logo_path).is_file() else None,
    )


def share_site(
    db: Database, out: str | Path, *, season: str | None = None, language: str | None = None
) -> list[Path]:
    """``share site [--season S] [--lang L] --out DIR``: the files written (``index.html`` first)."""

    lang = publishing_header.report_language_of(db, language)
    with publishing_header.in_language(lang):
        data = site_data(db, season, lang)
        return _publish(out, lambda tmp: site.write(tmp, data))
