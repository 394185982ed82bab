"""What the hall's projector shows: the published round's tables, the same pairings by
name, the standings, the bracket, the table call / forfeit countdown and the desk's announcement.

Everything is plain frozen dataclasses built from the public report data
(:mod:`clubdesk.services.publishing.night_data`):
names, table numbers, results, points. Privacy (rule T14): no phone and no e-mail is read into these classes,
so the projector cannot show one. A round still being proposed at the desk is not shown to the hall.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from clubdesk.collation import sort_key
from clubdesk.i18n import _
from clubdesk.models.audit import AuditEntry
from clubdesk.models.event import Event
from clubdesk.reports.public import publicly
from clubdesk.reports.words import bracket_rounds, side_text, standings_title
from clubdesk.services import club, night
from clubdesk.services import members as members_service
from clubdesk.services.kernel import Actor, ServiceError
from clubdesk.services.publishing import header, night_data
from clubdesk.services.publishing.night_data import bracket_data
from clubdesk.storage import Database

ANNOUNCEMENT_KEY = "projector.announcement"
ANNOUNCEMENT_MAX = 280
PUBLIC_ROUND = ("published", "in_play", "closed")  # a proposed round is the desk's draft, not the hall's


@dataclass(frozen=True)
class HallTable:
    table: int
    side_a: str
    side_b: str | None  # None: a bye
    result: str  # "3-1" once confirmed, "" before


@dataclass(frozen=True)
class HallName:
    """One line of "where do I play?": a player's name, the table and the opponent."""

    name: str
    table: int
    opponent: str | None  # None: a bye


@dataclass(frozen=True)
class HallStanding:
    place: str
    name: str
    points: str
    tiebreaks: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True)
class HallData:
    event_id: int | None
    event_name: str
    round: int | None  # the published round shown (None: none yet)
    tables: tuple[HallTable, ...]
    by_name: tuple[HallName, ...]  # alphabetical in the language in force (clubdesk.collation)
    standings_title: str
    standings_codes: tuple[str, ...]  # the tie-break columns shown after the points
    standings: tuple[HallStanding, ...]
    has_results: bool  # a result is confirmed (before that the standings are all level)
    elimination: bool
    bracket: dict[str, Any] | None  # Bracket.to_data() with the confirmed results
    bracket_names: dict[str, str]
    call_at: datetime | None  # local wall-clock time of the table call
    forfeit_due: datetime | None
    forfeit_rule: str  # "G15" or "T3b"
    announcement: str
    # the bracket round by round (heading, rows of side 1, result, side 2): the projector's large-type pages
    bracket_rounds: tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...] = ()


def announcement(db: Database) -> str:
    value = club.get(db, ANNOUNCEMENT_KEY, "")
    return value if isinstance(value, str) else ""


def set_announcement(db: Database, actor: Actor, text: str) -> str:
    """The desk's announcement for the hall (one or a few lines); "" clears it."""
    text = "\n".join(line.rstrip() for line in text.strip().splitlines())
    if len(text) > ANNOUNCEMENT_MAX:
        raise ServiceError(
            "announcement-too-long",
            _("An announcement has at most {n} characters (this one has {m}).").format(
                n=ANNOUNCEMENT_MAX, m=len(text)
            ),
        )
    club.put(db, actor, ANNOUNCEMENT_KEY, text)
    return text


def change_mark(db: Database) -> int:
    """A number that grows with every committed change (each service writes an audit row): the projector
    reads its data again when it moves, so it follows other desks and processes too."""
    with db.read_session() as s:
        return int(s.scalar(select(func.max(AuditEntry.id))) or 0)


def _members(db: Database, event_id: int) -> dict[str, tuple[str, ...]]:
    """Entrant name -> its players' names, for teams and pairs (a single player is the entrant)."""
    with db.session() as s:
        ev = s.get(Event, event_id)
        if ev is None:
            return {}
        who = header.public(s, ev)  # the reports' public face of an entrant (rule T14: no contact data)
        return {w.name: tuple(name for _n, name in w.members) for w in who.values() if len(w.members) > 1}


def _public_round(db: Database, event_id: int) -> int | None:
    with db.session() as s:
        ev = night.get_event(s, event_id)
        shown = [r.number for r in night.rounds_of(s, ev.id) if r.status in PUBLIC_ROUND]
        return shown[-1] if shown else None


def empty(event_id: int | None = None, name: str = "", text: str = "") -> HallData:
    return HallData(
        event_id, name, None, (), (), _("Standings"), (), (), False, False, None, {}, None, None, "", text
    )


def hall_data(db: Database, event_id: int | None) -> HallData:
    """The projector's data for an event (None: the running event with the latest published round)."""
    text = announcement(db)
    if event_id is None:
        event_id = night.default_event(db)
    if event_id is None:
        return empty(text=text)
    with db.session() as s:
        ev = s.get(Event, event_id)
        if ev is None:
            return empty(text=text)
        name, fmt = ev.name, ev.format
    elimination = fmt in ("single-elimination", "double-elimination")
    rno = _public_round(db, event_id)
    tables: list[HallTable] = []
    by_name: list[HallName] = []
    call_at = forfeit_due = None
    forfeit_rule = ""
    if rno is not None:
        pd = night_data.pairings_data(db, event_id, rno)
        members = _members(db, event_id)
        for t in pd.tables:
            a, b = t.sides
            tables.append(HallTable(t.table, a.name, b.name if b is not None else None, t.result))
            for me, other in ((a, b), (b, a)):
                if me is None:
                    continue
                opponent = other.name if other is not None else None
                for person in members.get(me.name, (me.name,)):
                    by_name.append(HallName(person, t.table, opponent))
        by_name.sort(key=lambda e: (sort_key(e.name), e.name, e.table))
        rv = night.get_round(db, event_id, rno)
        call_at, forfeit_due, forfeit_rule = rv.call_at, rv.forfeit_due, rv.forfeit_rule
    sd = night_data.standings_data(db, event_id)
    codes = tuple(c for c in sd.codes if c != "PTS")[:2]
    standings = tuple(
        HallStanding(
            str(r.rank),
            r.name,
            r.points,
            tuple(str(r.tiebreaks.get(c, "")) for c in codes),
            r.note,
        )
        for r in sd.rows
    )
    bracket: dict[str, Any] | None = None
    names: dict[str, str] = {}
    rounds: list[tuple[str, tuple[tuple[str, str, str], ...]]] = []
    if elimination:
        raw = night.bracket_data(db, event_id)
        if raw is not None:
            bracket, names = raw

            for head, matches in bracket_rounds(bracket_data(db, event_id)):
                rows = tuple(
                    (side_text(m, 0), " – ".join(m.score) if any(m.score) else "–", side_text(m, 1))
                    for m in matches
                )
                # the winners' rounds say "Bracket · Round n" (not the night's round); the others name
                # their bracket already ("Losers' bracket · Round n", "Final")
                rounds.append((_("Bracket") + " · " + head if matches[0].bracket == "W" else head, rows))

    # each member's consent (initials and club only) honoured on the hall's screen, sorted as shown
    hide = members_service.public_names(db)
    shown = publicly(tuple(by_name), hide)
    return publicly(
        HallData(
            event_id,
            name,
            rno,
            tuple(tables),
            tuple(sorted(shown, key=lambda e: (sort_key(e.name), e.name, e.table))),
            standings_title(sd),
            codes,
            standings,
            sd.after_round is not None or sd.final,
            elimination,
            bracket,
            names,
            call_at,
            forfeit_due,
            forfeit_rule,
            text,
            tuple(rounds),
        ),
        hide,
    )
