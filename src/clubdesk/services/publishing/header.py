"""What the printed outputs share: the report
kinds and request, the event's people as the public reports may show them (rule T14: name, club, city),
the paper, the language, the header and writing a finished file in one move.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from clubdesk.i18n import LANGUAGES, N_, PSEUDO, _
from clubdesk.models.club import Club
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.money import Payment
from clubdesk.models.round import Round
from clubdesk.reports import data as report_data
from clubdesk.reports.frame import report_language
from clubdesk.services import club as club_service
from clubdesk.services import night
from clubdesk.services.events import event_language
from clubdesk.services.kernel import Actor, ServiceError, anchor_for_print
from clubdesk.storage import Database, DatabaseError
from clubdesk.storage import write_atomically as write_whole

KINDS: tuple[str, ...] = (
    "score-sheets",
    "pairings",
    "standings",
    "bracket",
    "incident-act",
    "receipts",
    "prizes",
    "season",
    "crosstable",
)
KIND_LABELS: dict[str, str] = {
    "score-sheets": N_("Score sheets"),
    "pairings": N_("Pairings"),
    "standings": N_("Standings"),
    "bracket": N_("Bracket"),
    "incident-act": N_("Match act"),
    "receipts": N_("Receipts"),
    "prizes": N_("Prize list"),
    "season": N_("Season ranking"),
    "crosstable": N_("Cross-table"),
}
PLAYER_CARD = "player-card"  # a member's card (ReportRequest.member), not an event's report
PAPERS: dict[str, report_data.PageSize] = {"a4": "A4", "letter": "Letter"}
DEFAULT_SUPER_FINAL = 8  # rule T12d: the season's top players are invited; a club may set its own number

Progress = Callable[[int, int], None]  # (done, total)


@dataclass(frozen=True)
class ReportRequest:
    """What to print: a kind of :data:`KINDS` for an event, optionally one round and one table."""

    kind: str
    event_id: int
    round: int | None = None
    table: int | None = None
    language: str | None = None  # None: the app's language
    paper: str = "a4"
    printed_on: dt.datetime | None = None  # None: now
    member: str | None = None  # the member number of a player card (kind "player-card")
    viewer: Actor | None = None  # who prints a player card (its incidents: organiser only)


# ------------------------------------------------------------------------------------------ helpers
def report_event(s: Session, event_id: int) -> Event:
    return night.get_event(s, event_id)


def clubs_of(s: Session) -> dict[int, str]:
    return {c.id: c.name for c in s.scalars(select(Club))}


def club_of(clubs: dict[int, str], m: Member) -> str:
    return clubs.get(m.club_id, "") if m.club_id is not None else ""


def entrants_of(s: Session, ev: Event) -> list[Entrant]:
    return list(s.scalars(select(Entrant).where(Entrant.event_id == ev.id)))


def event_payments(ev: Event) -> Select[Payment]:
    """Every payment (and refund) of the event's entrants."""
    return select(Payment).join(Entrant, Entrant.id == Payment.entrant_id).where(Entrant.event_id == ev.id)


def report_round(
    s: Session, ev: Event, round_no: int | None, table_no: int | None = None
) -> tuple[int, Round]:
    """The round asked for (None: the latest) and, when a table is asked for, a check that it exists."""
    rno = round_no if round_no is not None else _last_round(s, ev)
    rnd = night.find_round(s, ev, rno)
    if table_no is not None:
        night.find_table(s, ev, rno, table_no)
    return rno, rnd


@dataclass(frozen=True)
class Who:
    """The public face of an entrant (rule T14: no phone, no e-mail)."""

    name: str
    club: str
    city: str
    number: str
    members: tuple[tuple[str, str], ...]  # (member number, member name)


def members_of(s: Session, ev: Event) -> dict[int, list[Member]]:
    """Every entrant's current members in one query (as R.entrant_members, in its order)."""
    of: dict[int, list[Member]] = {}
    rows = s.execute(
        select(EntrantMember.entrant_id, Member)
        .join(Member, EntrantMember.member_id == Member.id)
        .join(Entrant, Entrant.id == EntrantMember.entrant_id)
        .where(Entrant.event_id == ev.id, EntrantMember.left_at.is_(None))
        .order_by(EntrantMember.id)
    )
    for entrant_id, member in rows:
        of.setdefault(entrant_id, []).append(member)
    return of


def public(s: Session, ev: Event) -> dict[int, Who]:
    clubs = clubs_of(s)
    out: dict[int, Who] = {}
    of = members_of(s, ev)
    for en in entrants_of(s, ev):
        members = of.get(en.id, [])
        club_names = sorted({clubs.get(m.club_id, "") for m in members if m.club_id is not None})
        cities = sorted({m.city for m in members if m.city})
        out[en.id] = Who(
            name=en.name,
            club=" / ".join(club_names),
            city=" / ".join(cities),
            number=members[0].number if len(members) == 1 else "",
            members=tuple((m.number, m.name) for m in members),
        )
    return out


def page_size(paper: str) -> report_data.PageSize:
    size = PAPERS.get(paper.strip().lower())
    if size is None:
        raise ServiceError(
            "unknown-paper", _("Unknown paper size: {paper} (a4 or letter).").format(paper=paper), paper=paper
        )
    return size


def report_language_of(db: Database, language: str | None, event_id: int | None = None) -> str:
    """The report's language: the one asked for, else the event's (events.event_language), else the club's;
    never the window's."""

    lang = (
        language
        or (event_language(db, event_id) if event_id is not None else None)
        or club_service.club_settings(db).language
        or "en"
    )
    if lang not in LANGUAGES and lang != PSEUDO:
        raise ServiceError("unknown-language", _("Unknown language: {lang}").format(lang=lang), lang=lang)
    return lang


def report_header(
    db: Database,
    event_id: int | None,
    *,
    round_no: int | None = None,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> report_data.ReportHeader:
    """The common frame: the club's name and logo (settings), the event, the round and its date."""
    club = club_service.club_settings(db)
    name = ""
    date: dt.date | None = None
    if event_id is not None:
        with db.session() as s:
            ev = report_event(s, event_id)
            name = ev.name
            date = ev.starts_on
            if round_no is not None:
                for rnd in night.rounds_of(s, ev.id):
                    if rnd.number == round_no and rnd.call_at is not None:
                        date = rnd.call_at.date()
    return report_data.ReportHeader(
        club_name=club.club_name,
        event_name=name,
        logo_path=club.logo_path,
        round=round_no,
        date=date,
        language=report_language_of(db, language, event_id),
        page_size=page_size(paper),
        printed_on=printed_on,
    )


def signed_header(db: Database, header: report_data.ReportHeader) -> report_data.ReportHeader:
    """The frame of a sheet people sign (score sheets, the act): its footer prints the audit log's head
    and rows, the state anchored outside the club file at this print (so a log cut later is seen)."""
    anchor = anchor_for_print(db)
    if anchor is None:
        return header
    return replace(header, audit_head=anchor.head, audit_rows=anchor.rows)


def file_mode(private: bool = False) -> int:
    """The mode a printed file gets: as any file the user saves (0666 less the umask: 0644 with the usual
    022), not the owner-only 0600 of a temporary file; a private list (phones and e-mails, rule T14)
    stays owner-only."""
    if private:
        return 0o600
    mask = os.umask(0)  # read the umask: only os.umask tells it, by setting it (put back at once)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomically(out: str | Path, writer: Callable[[Path], int], *, private: bool = False) -> int:
    """Write next to the target and move into place: a failed print (a full disk, a read-only folder)
    leaves no half file behind and is one clear refusal naming the file. The file gets :func:`file_mode`."""
    target = Path(out)
    if target.parent and not target.parent.is_dir():
        raise ServiceError(
            "no-folder", _("The folder does not exist: {path}").format(path=target.parent), path=str(target)
        )

    def with_mode(tmp: Path) -> int:
        pages = writer(tmp)
        os.chmod(tmp, file_mode(private))
        return pages

    try:
        return write_whole(target, with_mode, suffix=".pdf")
    except DatabaseError as exc:
        raise ServiceError(exc.code, str(exc), path=str(target)) from exc


_T = TypeVar("_T")


def render(
    out: str | Path,
    header: report_data.ReportHeader,
    write: Callable[[Path, report_data.ReportHeader, _T], int],
    gather: Callable[[], _T],
) -> int:
    """The data gathered in the header's language (its translated words), then the file written."""
    with in_language(header.language):
        data = gather()
    return write_atomically(out, lambda p: write(p, header, data))


def _last_round(s: Session, ev: Event) -> int:
    rounds = [r for r in night.rounds_of(s, ev.id)]
    if not rounds:
        raise ServiceError("no-round", _("Event {e} has no round yet.").format(e=ev.id), event=ev.id)
    return rounds[-1].number


def in_language(lang: str) -> Any:

    return report_language(lang)
