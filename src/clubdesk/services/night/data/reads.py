"""An event's rounds and tables as the services read them: the event and its night settings, rounds,
matches and entrants, the plain views of a round and a table, the audit row of a table's change and the
round's closed state. The lowest layer of the night's services: it imports none of them, so
``rounds``, ``results``, ``standings``, ``followups`` and ``phones.posts`` all build on it without cycles.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match
from clubdesk.models.round import EventNight, Round
from clubdesk.services.kernel import Actor, Role, ServiceError, audit
from clubdesk.storage import Database

FINAL_STATUSES = ("confirmed", "bye")


BYE_FORMATS = ("swiss", "lives", "open-round-robin")  # a requested bye (T4e, T4g, league)


DONE_STATUSES = ("confirmed", "bye", "postponed")


@dataclass(frozen=True)
class TableView:
    table: int
    sides: tuple[int, int | None]
    names: tuple[str, str | None]
    status: str
    kind: str
    score: tuple[int, int]
    points: tuple[int, int] | None
    winner: int | None
    ref: str
    locked: bool
    scorer: str
    counter: str
    match_length: int | None
    seats: dict[str, Any] | None
    version: int = 0  # the match version this view was read at (give it back when changing)


@dataclass(frozen=True)
class RoundView:
    event: int
    round: int
    status: str
    kind: str
    seed: int
    call_at: datetime | None
    tables: tuple[TableView, ...]
    explanations: tuple[str, ...]
    start_at: datetime | None = None  # rule G15: the match start
    forfeit_due: datetime | None = None  # from this time an absent side can be forfeited (G15 / T3b)
    forfeit_rule: str = ""  # "G15" (before the start) or "T3b" (after the table call)

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "tables": [{"table": t.table, "sides": [t.sides[0], t.sides[1]]} for t in self.tables],
        }


def get_event(s: Session, event_id: int) -> Event:
    ev = s.get(Event, event_id)
    if ev is None:
        raise ServiceError("no-such-event", _("There is no event {id}.").format(id=event_id), event=event_id)
    return ev


def default_night(ev: Event) -> EventNight:
    """The settings of an event night not configured yet (not added to any session)."""
    return EventNight(
        event_id=ev.id,
        result_mode="entries",
        tiebreaks="",
        lives=2,
        call_minutes=ev.arrival_deadline_minutes or 10,
        encounter_games=2 if ev.entry_type == "team" and ev.ruleset == "domino-es" else 0,
        state="{}",
        prize_plan="{}",
        season_scale="{}",
    )


def night(s: Session, ev: Event) -> EventNight:
    n = s.get(EventNight, ev.id)
    if n is None:
        n = default_night(ev)
        s.add(n)
        s.flush()
    return n


def state_of(n: EventNight) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(n.state or "{}")
    return data


def params_of(ev: Event) -> tuple[str, dict[str, Any]]:
    overrides = json.loads(ev.ruleset_overrides or "{}")
    if ev.target:
        overrides.setdefault("target", ev.target)
    return formats.ruleset_params(ev.ruleset, overrides)


def match_length_for(ev: Event, round_no: int) -> int | None:
    """Rule T8a: the match length of each round (the last one given goes on)."""
    family, params = params_of(ev)
    if family != "tavla":
        return None
    lengths = [int(x) for x in json.loads(ev.match_lengths or "[]")]
    if lengths:
        return lengths[min(round_no, len(lengths)) - 1]
    return int(params.get("match_length", 5))


def rounds_of(s: Session, event_id: int) -> list[Round]:
    return list(s.scalars(select(Round).where(Round.event_id == event_id).order_by(Round.number)))


def matches_of(s: Session, event_id: int, round_id: int | None = None) -> list[Match]:
    q = select(Match).where(Match.event_id == event_id)
    if round_id is not None:
        q = q.where(Match.round_id == round_id)
    return list(s.scalars(q.order_by(Match.round_no, Match.table_no)))


def entrant_names(s: Session, event_id: int) -> dict[int, str]:
    rows = s.execute(select(Entrant.id, Entrant.name).where(Entrant.event_id == event_id))
    return {eid: name for eid, name in rows}


def entrant_members(s: Session, entrant_id: int) -> list[Member]:
    rows = s.scalars(
        select(Member)
        .join(EntrantMember, EntrantMember.member_id == Member.id)
        .where(EntrantMember.entrant_id == entrant_id, EntrantMember.left_at.is_(None))
        .order_by(EntrantMember.id)
    )
    return list(rows)


def find_round(s: Session, ev: Event, number: int) -> Round:
    rnd = s.scalar(select(Round).where(Round.event_id == ev.id, Round.number == number))
    if rnd is None:
        raise ServiceError("no-such-round", _("Event {e} has no round {r}.").format(e=ev.id, r=number))
    return rnd


def find_table(s: Session, ev: Event, round_no: int, table_no: int) -> tuple[Round, Match]:
    rnd = find_round(s, ev, round_no)
    m = s.scalar(select(Match).where(Match.round_id == rnd.id, Match.table_no == table_no))
    if m is None:
        raise ServiceError(
            "no-such-table",
            _("Round {r} has no table {t}.").format(r=round_no, t=table_no),
            round=round_no,
            table=table_no,
        )
    return rnd, m


def table_view(m: Match, names: dict[int, str]) -> TableView:
    return TableView(
        m.table_no,
        (m.side_a, m.side_b),
        (names.get(m.side_a, str(m.side_a)), None if m.side_b is None else names.get(m.side_b)),
        m.status,
        m.kind,
        (m.score_a, m.score_b),
        None if m.points_a is None or m.points_b is None else (m.points_a, m.points_b),
        m.winner,
        m.ref,
        m.locked,
        m.scorer,
        m.counter,
        m.match_length,
        json.loads(m.seats) if m.seats else None,
        m.version or 0,
    )


def forfeit_deadline(s: Session, ev: Event, rnd: Round) -> tuple[datetime | None, str]:
    """When an absent side can be forfeited, and the rule that says so.

    The ruleset's ``forfeit_from`` says what the night's waiting time counts from: ``"start"`` (rule G15,
    gaple: present N minutes *before* the match starts, so the deadline is start - N; without a recorded
    start time the table call is the start) or ``"call"`` (rule T3b, tavla: N minutes *after* the table
    call). N is the night's ``call_minutes`` (default 10)."""
    n = night(s, ev)
    _family, params = params_of(ev)
    minutes = timedelta(minutes=n.call_minutes)
    if params.get("forfeit_from", "call") == "start":
        base = rnd.start_at or rnd.call_at or rnd.published_at
        return (base - minutes if base else None), "G15"
    base = rnd.call_at or rnd.published_at
    return (base + minutes if base else None), "T3b"


def view(s: Session, ev: Event, rnd: Round) -> RoundView:
    names = entrant_names(s, ev.id)
    due, rule = forfeit_deadline(s, ev, rnd) if rnd.status != "proposed" else (None, "")
    return RoundView(
        ev.id,
        rnd.number,
        rnd.status,
        rnd.kind,
        rnd.seed,
        rnd.call_at,
        tuple(table_view(m, names) for m in matches_of(s, ev.id, rnd.id)),
        tuple(json.loads(rnd.explanations or "[]")),
        rnd.start_at,
        due,
        rule,
    )


def get_round(db: Database, event_id: int, round_no: int | None = None) -> RoundView:
    """A round (the latest when ``round_no`` is None)."""
    with db.session() as s:
        ev = get_event(s, event_id)
        rounds = rounds_of(s, ev.id)
        if not rounds:
            raise ServiceError("no-round", _("Event {e} has no round yet.").format(e=ev.id))
        rnd = rounds[-1] if round_no is None else find_round(s, ev, round_no)
        return view(s, ev, rnd)


def get_table(db: Database, event_id: int, round_no: int, table_no: int) -> TableView:
    """One table of a round as stored now: a screen follows the table a change named without reading
    the whole round."""
    with db.read_session() as s:
        ev = get_event(s, event_id)
        _rnd, m = find_table(s, ev, round_no, table_no)
        sides = [e for e in (m.side_a, m.side_b) if e is not None]
        names = {
            eid: name
            for eid, name in s.execute(select(Entrant.id, Entrant.name).where(Entrant.id.in_(sides)))
        }
        return table_view(m, names)


def default_event(db: Database) -> int | None:
    """The event a night screen opens on: the running event whose latest round was published most
    recently; None when no event is running with a published round (the screen then shows its first)."""
    with db.session() as s:
        row = s.execute(
            select(Round.event_id)
            .join(Event, Event.id == Round.event_id)
            .where(Event.status == "running", Round.published_at.is_not(None))
            .order_by(Round.published_at.desc(), Round.id.desc())
            .limit(1)
        ).first()
        return None if row is None else int(row[0])


def audit_match(
    s: Session,
    actor: Actor,
    action: str,
    ev: Event,
    m: Match,
    *,
    before: Any,
    after: Any,
    reason: str | None = None,
) -> None:
    """The audit row of a change to one table's match, filed under its event, round and table; the
    match remembers who changed it and when (named when another desk's change is refused)."""
    m.changed_by = actor.name
    m.changed_at = utcnow()
    audit(
        s,
        actor,
        action,
        "match",
        m.id,
        before=before,
        after=after,
        event_id=ev.id,
        round_no=m.round_no,
        table_no=m.table_no,
        reason=reason,
    )


def round_closed_check(s: Session, ev: Event, rnd: Round) -> None:
    """A round is closed when every table has a final result (postponed ones keep it open, G20)."""
    ms = matches_of(s, ev.id, rnd.id)
    if rnd.status in ("published", "in_play") and ms and all(m.status in FINAL_STATUSES for m in ms):
        rnd.status = "closed"
        rnd.closed_at = utcnow()
    elif rnd.status == "closed" and not all(m.status in FINAL_STATUSES for m in ms):
        rnd.status = "in_play"
        rnd.closed_at = None


def local_now() -> datetime:
    """The club's local wall-clock time: table calls (T3b), arrival (G15) and deadlines (BC3) are typed
    and compared in local time, like the desk's times; audit timestamps stay UTC."""
    return datetime.now().replace(microsecond=0)


def require_referee(actor: Actor, what: str) -> None:
    if actor.role is not Role.REFEREE:
        raise ServiceError("referee-only", _("Only a referee can {what}.").format(what=what))


def disqualified_ids(s: Session, ev: Event) -> list[str]:
    """Rule T9c: entrants disqualified from the event (out of ranking, prizes and season points)."""
    rows = s.scalars(
        select(Entrant.id)
        .where(Entrant.event_id == ev.id, Entrant.status == "disqualified")
        .order_by(Entrant.id)
    )
    return [str(x) for x in rows]


def withdrawn_ids(s: Session, ev: Event) -> set[int]:
    return set(s.scalars(select(Entrant.id).where(Entrant.event_id == ev.id, Entrant.status == "withdrawn")))
