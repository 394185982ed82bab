"""The hall pages' data: what anyone on the hall's network may read on a phone or the
projector — the round's pairings by table and by name ("where do I play?"), the live standings, the
countdown to the table call and the bracket. Plain frozen values only; public data only (rule T14: names,
clubs and cities, never a phone number or an e-mail). The words are in the language in force (the web
request's own, ``clubdesk.i18n.language_context``); names are sorted in that language's alphabet.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import Select, func, select

from clubdesk import labels
from clubdesk.collation import collator
from clubdesk.competition import formats
from clubdesk.i18n import _
from clubdesk.models.event import Event
from clubdesk.models.result import Match
from clubdesk.models.round import Round
from clubdesk.reports import data as report_data
from clubdesk.reports.public import publicly
from clubdesk.services import events as events_service
from clubdesk.services import members as members_service
from clubdesk.services import night
from clubdesk.services.kernel import ServiceError
from clubdesk.services.publishing import header, night_data
from clubdesk.storage import Database
from clubdesk.text import fold


@dataclass(frozen=True)
class HallEvent:
    id: int
    name: str
    kind: str  # "Tavla, Swiss system": translated labels
    round: int | None  # the latest published round
    elimination: bool
    tonight: bool = True  # not finished, or played today: the hall's index lists it; the others behind a link


@dataclass(frozen=True)
class HallTable:
    table: int
    side_a: str
    side_b: str | None  # None: a bye
    points_a: str
    points_b: str
    result: str  # "3-1" once final, "" before


@dataclass(frozen=True)
class HallName:
    """A line of "where do I play?": a player (a member of a pair or team, or the entrant itself), his
    side's name when it is not his own, the table and the opponent."""

    name: str
    side: str
    table: int
    opponent: str  # "" for a bye
    folded: str = ""  # the name lower-case without accents, for the page's filter (Şükrü found by "sukru")


@dataclass(frozen=True)
class HallRound:
    event: HallEvent
    round: int
    tables: tuple[HallTable, ...]
    by_name: tuple[HallName, ...]
    call_at: str  # "19:30", "" when not set
    call_due: datetime | None  # the table call, local wall-clock time (as the desk's countdown, T3b)
    locked: bool

    def call_in(self, now: datetime | None = None) -> int | None:
        """Seconds until the table call; None when no call is set or it is past."""
        if self.call_due is None:
            return None
        left = int((self.call_due - (now or night.local_now())).total_seconds())
        return left if left > 0 else None


@dataclass(frozen=True)
class HallStandings:
    event: HallEvent
    codes: tuple[str, ...]  # tie-break columns after the points
    rows: tuple[report_data.StandingsRow, ...]
    after_round: int | None
    final: bool
    explanations: tuple[str, ...] = ()  # what split each tie (T12b): shown under the table on every width


def _tonight(info: events_service.EventInfo, today: date) -> bool:
    """An event the hall is playing tonight: not finished yet, or its day (its days) include today."""
    if info.status != "finished":
        return True
    first = info.starts_on
    last = info.ends_on or first
    return first is not None and last is not None and first <= today <= last


def _event(info: events_service.EventInfo, round_no: int | None, today: date | None = None) -> HallEvent:
    kind = f"{labels.ruleset_label(info.ruleset)}, {labels.format_label(info.format)}"
    tonight = _tonight(info, today or night.local_now().date())
    return HallEvent(info.id, info.name, kind, round_no, info.format in formats.ELIMINATION, tonight)


def _published(db: Database, event_id: int) -> int | None:
    """The latest published round of the event (a proposed one is not shown in the hall)."""
    try:
        rv = night.get_round(db, event_id)
    except ServiceError:
        return None
    if rv.status != "proposed":
        return rv.round
    return rv.round - 1 if rv.round > 1 else None


def events(db: Database) -> list[HallEvent]:
    """The events with a published round, the running ones first (then the newest first); each says
    whether it is tonight's (:attr:`HallEvent.tonight`)."""
    today = night.local_now().date()
    out = []
    for info in events_service.list_events(db, include_finished=True):
        rno = _published(db, info.id)
        if rno is not None:
            out.append((info.status != "running", _event(info, rno, today)))
    return [e for _later, e in sorted(out, key=lambda x: x[0])]


def _results_statement(event_id: int | None) -> Select[tuple[int, int]]:
    query = (
        select(func.count(), func.coalesce(func.sum(Match.version), 0))
        .select_from(Match)
        .join(Round, Round.id == Match.round_id)
        .where(Match.status.in_(tuple(night.FINAL_STATUSES)))
    )
    if event_id is None:
        return query.join(Event, Event.id == Round.event_id).where(Event.status != "finished")
    return query.where(Round.event_id == event_id)


def _results_sql(every: bool) -> str:
    """The same read as :func:`_results_statement` for a club file's driver (SQLite's ``?`` marks)."""
    marks = ", ".join("?" for _status in night.FINAL_STATUSES)
    head = (
        f"SELECT count(*), coalesce(sum(m.version), 0) FROM {Match.__tablename__} m"
        f" JOIN {Round.__tablename__} r ON r.id = m.round_id"
    )
    if every:
        events = f" JOIN {Event.__tablename__} e ON e.id = r.event_id"
        return f"{head}{events} WHERE m.status IN ({marks}) AND e.status != ?"
    return f"{head} WHERE m.status IN ({marks}) AND r.event_id = ?"


def results_key(db: Database, event_id: int | None) -> str:
    """What changes whenever a table of the event is confirmed, corrected or reopened (the number of its
    final matches and the sum of their versions, which every write moves): a hall page built under
    another key is not shown again, so no page shows standings older than the last confirmed table.
    ``None``: the tables of every event not finished (the index, which may be tonight's only pairings).
    On a club file one statement on a pooled connection, cheap enough for the web server's event loop
    after each change of the file; on the club server, in a read transaction."""
    if db.is_server:
        with db.read_session() as s:
            count, versions = s.execute(_results_statement(event_id)).one()
    else:
        last: object = "finished" if event_id is None else event_id
        rows = db.read_now(_results_sql(event_id is None), (*night.FINAL_STATUSES, last))
        count, versions = rows[0]
    return f"{count}.{versions}"


def event(db: Database, event_id: int) -> HallEvent:
    info = events_service.get_event(db, event_id)  # refuses an unknown event, translated
    return _event(info, _published(db, event_id))


def round_view(db: Database, event_id: int, round_no: int | None = None) -> HallRound:
    """The round's pairings by table and by name, and the table call (the latest published round)."""
    ev = event(db, event_id)
    rno = round_no if round_no is not None else ev.round
    if rno is None:
        raise ServiceError("no-round", _("Event {e} has no round yet.").format(e=event_id), event=event_id)
    rv = night.get_round(db, event_id, rno)
    if rv.status == "proposed":
        raise ServiceError("no-round", _("Round {r} has not been published.").format(r=rno), round=rno)
    hide = members_service.public_names(db)  # each member's consent: initials and club only
    pd = publicly(night_data.pairings_data(db, event_id, rno), hide)
    with db.read_session() as s:  # a read: no write lock while the tables post
        who = publicly(header.public(s, night.get_event(s, event_id)), hide)  # rule T14: no contacts
    names = {t.table: (t.sides[0], t.sides[1]) for t in pd.tables}
    entrants = {tv.table: tv.sides for tv in rv.tables}
    tables = tuple(
        HallTable(
            table=t.table,
            side_a=t.sides[0].name,
            side_b=t.sides[1].name if t.sides[1] is not None else None,
            points_a=t.sides[0].points,
            points_b=t.sides[1].points if t.sides[1] is not None else "",
            result=t.result,
        )
        for t in pd.tables
    )
    lines: list[HallName] = []
    for table, (a, b) in names.items():
        ids = entrants.get(table, (None, None))
        for k, (me, other) in enumerate(((a, b), (b, a))):
            if me is None:
                continue
            opponent = other.name if other is not None else ""
            entrant = ids[k] if k < len(ids) else None
            members = [nm for _num, nm in who[entrant].members] if entrant in who else []
            if len(members) > 1:  # a pair or a team: each player finds his own name
                lines += [HallName(nm, me.name, table, opponent, fold(nm)) for nm in members]
            else:
                lines.append(HallName(me.name, "", table, opponent, fold(me.name)))
    key = collator()  # the page's language: Turkish Ç after C, Spanish Ñ after N
    lines.sort(key=lambda x: (key(x.name), x.name, x.table))
    locked = all(t.locked for t in rv.tables) if rv.tables else False
    return HallRound(ev, rno, tables, tuple(lines), pd.call_time, rv.call_at, locked)


def standings(db: Database, event_id: int) -> HallStandings:
    ev = event(db, event_id)
    sd = publicly(night_data.standings_data(db, event_id), members_service.public_names(db))
    codes = tuple(c for c in sd.codes if c != "PTS")
    return HallStandings(ev, codes, sd.rows, sd.after_round, sd.final, tuple(sd.explanations))


def bracket(db: Database, event_id: int) -> tuple[HallEvent, report_data.BracketData]:
    """The elimination bracket with every confirmed result; refused for an event that has none."""
    return event(db, event_id), publicly(
        night_data.bracket_data(db, event_id), members_service.public_names(db)
    )


def now_text(when: datetime | None = None) -> str:
    return (when or night.local_now()).strftime("%H:%M:%S")
