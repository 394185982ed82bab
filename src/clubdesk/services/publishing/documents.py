"""Printed outputs: gather plain data from the database and hand it to ``clubdesk.reports``.

One function per report kind of CONTRACTS.md §4 (``score-sheets``, ``pairings``, ``standings``, ``bracket``,
``incident-act``, ``receipts``, ``prizes``, ``season``) plus :func:`generate`, which checks the request,
gathers everything first and only then writes the file (a refused request writes nothing; a finished file
replaces the target in one move). Every function returns the number of pages.

The score sheets live in :mod:`~clubdesk.services.publishing.score_sheets`, receipts and prizes in
:mod:`~clubdesk.services.publishing.money_lists`, the season in
:mod:`~clubdesk.services.publishing.season_ranking`, the match act in
:mod:`~clubdesk.services.publishing.match_act` and what they share in
:mod:`~clubdesk.services.publishing.header`.

Privacy (rule T14): the public reports are filled from name, club, city and results only; phone and e-mail
are read by the two private lists alone (:func:`member_history_report`, :func:`contact_list_report`).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from sqlalchemy import select

from clubdesk.i18n import _
from clubdesk.labels import entrant_status_label
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.result import FinalPlace, Match, RatingEntry
from clubdesk.reports import data as report_data
from clubdesk.reports.bracket import bracket
from clubdesk.reports.crosstable import crosstable
from clubdesk.reports.pairings import pairings
from clubdesk.reports.player_card import player_card
from clubdesk.reports.private import contact_list, member_history
from clubdesk.reports.standings import standings
from clubdesk.reports.words import centi_text, crosstable_legend, place_text
from clubdesk.services import desk, members, night
from clubdesk.services.kernel import Actor, ServiceError, require
from clubdesk.services.publishing import players
from clubdesk.services.publishing.header import (
    KINDS,
    PLAYER_CARD,
    Progress,
    ReportRequest,
    club_of,
    clubs_of,
    in_language,
    page_size,
    render,
    report_header,
    report_language_of,
    write_atomically,
)
from clubdesk.services.publishing.match_act import (
    incident_act_report,
)
from clubdesk.services.publishing.money_lists import (
    prizes_report,
    receipts_report,
)
from clubdesk.services.publishing.night_data import bracket_data, pairings_data, standings_data
from clubdesk.services.publishing.score_sheets import (
    score_sheets_report,
)
from clubdesk.services.publishing.season_ranking import (
    season_report,
)
from clubdesk.storage import Database

# ------------------------------------------------------------------------------------------ pairings


def pairings_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    round_no: int | None = None,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:

    data = pairings_data(db, event_id, round_no)
    header = report_header(
        db, event_id, round_no=data.round, language=language, paper=paper, printed_on=printed_on
    )
    return write_atomically(out, lambda p: pairings(p, header, data))


# ------------------------------------------------------------------------------------------ standings


def standings_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:

    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    return render(out, header, standings, lambda: standings_data(db, event_id))


# ------------------------------------------------------------------------------------------ bracket


def bracket_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:

    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    return render(out, header, bracket, lambda: bracket_data(db, event_id))


# ------------------------------------------------------------------------------------------ private (T14)
def member_history_report(
    db: Database,
    number: str,
    out: str | Path,
    *,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    """PRIVATE (rule T14): a member's own history with his contact data, for him or the organiser."""

    info = members.get_member(db, number)
    with db.session() as s:
        member = s.scalar(select(Member).where(Member.number == info.number))
        assert member is not None
        ratings = {
            r.event_id: r.after
            for r in s.scalars(
                select(RatingEntry).where(RatingEntry.member_id == member.id).order_by(RatingEntry.id)
            )
        }

        rows: list[report_data.HistoryRow] = []
        for en in s.scalars(
            select(Entrant)
            .join(EntrantMember, EntrantMember.entrant_id == Entrant.id)
            .where(EntrantMember.member_id == member.id)
        ):
            ev = s.get(Event, en.event_id)
            if ev is None:
                continue
            fp = s.scalar(select(FinalPlace).where(FinalPlace.entrant_id == en.id))
            won = lost = 0
            for m in s.scalars(
                select(Match).where(
                    (Match.side_a == en.id) | (Match.side_b == en.id), Match.side_b.isnot(None)
                )
            ):
                if m.status in night.FINAL_STATUSES and m.winner is not None:
                    won += m.winner == en.id
                    lost += m.winner != en.id
            rows.append(
                report_data.HistoryRow(
                    date=ev.starts_on or en.registered_at.date(),
                    event=ev.name,
                    place="" if fp is None else place_text(fp.place_from, fp.place_to),
                    result=_("{w} won, {l} lost").format(w=won, l=lost),
                    season_points=centi_text(fp.season_points) if fp and fp.season_points else "",
                    rating=f"{ratings[ev.id]:.1f}" if ev.id in ratings else "",
                )
            )
    rows.sort(key=lambda r: r.date)
    data = report_data.MemberHistory(
        name=info.name,
        number=info.number,
        rows=tuple(rows),
        club=info.club,
        city=info.city,
        phone=info.phone,
        email=info.email,
        rating=f"{info.rating:.1f}",
    )
    header = report_header(db, None, language=language, paper=paper, printed_on=printed_on)
    return write_atomically(out, lambda p: member_history(p, header, data), private=True)  # rule T14


def contact_list_report(
    db: Database,
    actor: Actor,
    event_id: int,
    out: str | Path,
    *,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    """PRIVATE (rule T14): the organiser's list of entrants with phone and e-mail."""
    require(actor, "members.export", db)  # permission table: phones and e-mails leave the desk (T14)

    rows = desk.entrants(db, event_id)
    out_rows: list[report_data.ContactRow] = []
    with db.session() as s:
        clubs = clubs_of(s)
        for r in rows:
            for num in r.members:
                m = s.scalar(select(Member).where(Member.number == num))
                if m is None:
                    continue
                out_rows.append(
                    report_data.ContactRow(
                        name=m.name,
                        number=m.number,
                        club=club_of(clubs, m),
                        phone=m.phone,
                        email=m.email,
                        status=entrant_status_label(r.status),
                    )
                )
    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    data = report_data.ContactList(event_id=str(event_id), rows=tuple(out_rows))
    return write_atomically(out, lambda p: contact_list(p, header, data), private=True)  # rule T14


# ------------------------------------------------------------------------ cross-table and player card
def crosstable_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    """The event's cross-table (public: names and results, rule T14)."""

    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    with in_language(header.language):
        data = players.crosstable(db, event_id)
        legend = crosstable_legend()
    return write_atomically(out, lambda p: crosstable(p, header, data, legend))


def player_card_report(
    db: Database,
    number: str,
    out: str | Path,
    *,
    viewer: Actor | None = None,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    """A member's player card: never a phone or an e-mail (rule T14); his incidents only when ``viewer``
    may see them (``incidents.view``), and then the page is marked private."""

    header = report_header(db, None, language=language, paper=paper, printed_on=printed_on)
    with in_language(header.language):
        data = players.player_card(db, number, viewer)
    return write_atomically(out, lambda p: player_card(p, header, data))


# ------------------------------------------------------------------------------------------ one entry
def generate(
    db: Database,
    request: ReportRequest,
    out: str | Path,
    progress: Progress | None = None,
) -> int:
    """CONTRACTS.md §4 ``report KIND EVENT [--round R] [--table T] [--lang L] --out FILE.pdf``: the number
    of pages written. An unknown kind, event, round or table is refused before anything is written."""
    kind = request.kind
    if kind == PLAYER_CARD:  # a member's card, no event
        if not request.member:
            raise ServiceError("no-member", _("Choose a member for the player card."))
        page_size(request.paper)
        report_language_of(db, request.language)
        pages = player_card_report(
            db,
            request.member,
            out,
            viewer=request.viewer,
            language=request.language,
            paper=request.paper,
            printed_on=request.printed_on,
        )
        if progress is not None:
            progress(1, 1)
        return pages
    if kind not in KINDS:
        raise ServiceError("unknown-report", _("Unknown report kind: {kind}").format(kind=kind), kind=kind)
    if request.table is not None and kind not in ("score-sheets", "incident-act"):
        raise ServiceError(
            "table-not-used",
            _("A table can only be chosen for score sheets and the match act."),
            kind=kind,
        )
    common: dict[str, Any] = {
        "language": request.language,
        "paper": request.paper,
        "printed_on": request.printed_on,
    }
    page_size(request.paper)  # refuse a bad paper size before any work
    report_language_of(db, request.language)
    ev, rno, tno = request.event_id, request.round, request.table
    if kind == "score-sheets":
        pages = score_sheets_report(db, ev, out, round_no=rno, table_no=tno, progress=progress, **common)
    elif kind == "pairings":
        pages = pairings_report(db, ev, out, round_no=rno, **common)
    elif kind == "standings":
        pages = standings_report(db, ev, out, **common)
    elif kind == "bracket":
        pages = bracket_report(db, ev, out, **common)
    elif kind == "incident-act":
        pages = incident_act_report(db, ev, out, round_no=rno, table_no=tno, **common)
    elif kind == "receipts":
        pages = receipts_report(db, ev, out, **common)
    elif kind == "prizes":
        pages = prizes_report(db, ev, out, **common)
    elif kind == "crosstable":
        pages = crosstable_report(db, ev, out, **common)
    else:
        pages = season_report(db, ev, out, **common)
    if progress is not None:
        progress(1, 1)
    return pages
