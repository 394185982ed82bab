"""A change to one table, as the hand use cases (:mod:`clubdesk.services.night.play.hands`) and the approvals
(:mod:`clubdesk.services.night.play.approvals`) make it: the table named by numbers, opened in one statement
and checked (a phone's page rules first), and the typed answer with what changed."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.models.event import Event
from clubdesk.models.result import Match
from clubdesk.models.round import EventNight, Round
from clubdesk.services.kernel import Actor, Changes, ServiceError
from clubdesk.services.night.data import reads
from clubdesk.services.night.play.hand_guard import PhoneGuard, check_page, stored_answer
from clubdesk.services.night.play.table_result import (
    TableResult,
    check_lock,
    check_version,
    match_snapshot,
    table_result,
)
from clubdesk.storage import is_server


@dataclass(frozen=True)
class TableId:
    """A table of a round of an event, as the desk and the phones name it."""

    event_id: int
    round_no: int
    table_no: int


@dataclass(frozen=True)
class HandResult:
    """A hand use case's answer: the table's result, its new version, what changed; for a phone's post
    the answer stored with it (``repeated``: the post was stored before, nothing was written now)."""

    table: TableResult
    changes: Changes
    version: int
    answer: str = ""
    repeated: bool = False


# ------------------------------------------------------------------------------------------ the table


@dataclass
class OpenTable:
    """A table opened for a change: its rows, and its result, round and event state before it."""

    ev: Event
    rnd: Round
    m: Match
    before: dict[str, Any]
    round_status: str
    event_status: str


@lru_cache(maxsize=1)
def _table_statement() -> Any:
    """The one read of :func:`open_for_change`, built once (the desk's commonest change: every hand)."""
    return (
        select(Event, Round, Match, EventNight)
        .join(Round, Round.event_id == Event.id)
        .join(Match, Match.round_id == Round.id)
        .outerjoin(EventNight, EventNight.event_id == Event.id)
        .where(Event.id == bindparam("e"), Round.number == bindparam("r"), Match.table_no == bindparam("t"))
    )


def open_for_change(
    s: Session,
    actor: Actor,
    t: TableId,
    *,
    override: str | None,
    seen_version: int | None,
    guard: PhoneGuard | None = None,
) -> OpenTable | str:
    """The table, read in one statement (its event's night settings with it) and checked for a change:
    the guard's rules first, then the version the face showed, the round, a bye, the lock (T10). A guard
    whose post is stored already gives that post's answer instead (nothing is checked or written)."""
    row = s.execute(_table_statement(), {"e": t.event_id, "r": t.round_no, "t": t.table_no}).first()
    if row is None:  # the refusal naming what is missing: the event, the round or the table
        ev = reads.get_event(s, t.event_id)
        rnd, m = reads.find_table(s, ev, t.round_no, t.table_no)
    else:
        ev, rnd, m = row[0], row[1], row[2]
    if is_server(s):  # one desk at a time changes a table; the next reads what it wrote
        s.refresh(m, with_for_update=True)
    if guard is not None:
        repeated = stored_answer(s, guard.post_id)
        if repeated is not None:
            return repeated
        check_page(s, guard, ev, rnd, m, seen_version)
    check_version(m, seen_version)
    if rnd.status == "proposed":
        raise ServiceError("round-not-published", _("Round {r} is not published yet.").format(r=t.round_no))
    if m.side_b is None:
        raise ServiceError(
            "bye-table", _("Table {t} is a bye: it has no result to enter.").format(t=t.table_no)
        )
    check_lock(actor, m, override)
    return OpenTable(ev, rnd, m, match_snapshot(m), rnd.status, ev.status)


_COUNTED = ("pending", "confirmed", "bye", "disputed")  # a table whose result the standings may show


def changes_of(o: OpenTable, *, entries: bool, approvals: bool) -> Changes:
    """What the change to the opened table touched, from its state before and now."""
    m = o.m
    after = match_snapshot(m)
    event_moved = o.ev.status != o.event_status
    return Changes(
        o.ev.id,
        m.round_no,
        frozenset({m.table_no}),
        entries=entries,
        approvals=approvals or (o.before["scorer"], o.before["counter"]) != (m.scorer, m.counter),
        rounds=o.rnd.status != o.round_status,
        standings=(o.before["status"] in _COUNTED or m.status in _COUNTED) and o.before != after,
        money=event_moved,
        event=event_moved,
    )


def hand_result(
    s: Session,
    o: OpenTable,
    count: int | None,
    *,
    entries: bool = True,
    approvals: bool = False,
    answer: str = "",
) -> HandResult:
    """The typed answer of a change to the opened table (``count``: its entries, when known)."""
    s.flush()  # the table's new version
    changes = changes_of(o, entries=entries, approvals=approvals)
    return HandResult(table_result(s, o.m, count), changes, o.m.version, answer)


def repeated_result(s: Session, t: TableId, answer: str) -> HandResult:
    """A repeated post's answer: the table as it is, nothing changed."""
    ev = reads.get_event(s, t.event_id)
    _rnd, m = reads.find_table(s, ev, t.round_no, t.table_no)
    return HandResult(table_result(s, m), Changes(t.event_id, t.round_no), m.version, answer, repeated=True)
