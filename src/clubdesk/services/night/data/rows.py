"""The results of an event read for its standings and pairings as plain rows (a 20,000-match
league): the final tables as :class:`~clubdesk.competition.formats.Played`, everybody drawn at a table, and
the plain played games summed per pair in SQL for the standings' per-pair sums. The lowest layer of the
night's services: it reads, it changes nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import ColumnElement, Select, String, and_, case, cast, func, not_, or_, select
from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.models.event import Entrant, Event
from clubdesk.models.result import Match
from clubdesk.models.round import Round
from clubdesk.services.night.data.reads import FINAL_STATUSES
from clubdesk.standings.summed import NOT_PLAIN, PairSums


def played_matches(s: Session, ev: Event) -> list[formats.Played]:
    """Final tables (confirmed results, forfeits, byes) and latecomers' missed rounds as zero-point byes.
    Row tuples, not ORM objects (a 20,000-match league)."""
    return played_and_drawn(s, ev)[0]


AnySelect = Select[*tuple[Any, ...]]  # a select of any columns
_PLAIN_SQL: dict[tuple[Any, ...], str] = {}  # (dialect, key) -> the statement's SQL, values written in


def plain_rows(
    s: Session, build: Callable[[], AnySelect], key: tuple[Any, ...] | None = None
) -> list[tuple[Any, ...]]:
    """The rows of the statement ``build()`` makes, as plain tuples inside the session's transaction,
    read straight from the driver's cursor on SQLite (a 20,000-row read without a result
    object per row). ``key``: what the statement depends on (its values are written into the SQL, which
    is kept, so the statement is neither built nor compiled again). Nothing is flushed."""
    conn = s.connection()
    if conn.dialect.name != "sqlite":
        return [tuple(r) for r in conn.execute(build())]
    full = None if key is None else (id(conn.dialect), *key)
    sql = None if full is None else _PLAIN_SQL.get(full)
    if sql is None:
        sql = str(build().compile(dialect=conn.dialect, compile_kwargs={"literal_binds": True}))
        if full is not None:
            if len(_PLAIN_SQL) > 2000:
                _PLAIN_SQL.clear()
            _PLAIN_SQL[full] = sql
    cur = conn.connection.cursor()
    try:
        cur.execute(sql)
        return list(cur.fetchall())
    finally:
        cur.close()


def played_and_drawn(s: Session, ev: Event) -> tuple[list[formats.Played], set[str]]:
    """:func:`played_matches` and every entrant drawn at a table of the event (any status, for
    :func:`standing_ids`). The final tables are read as :class:`~clubdesk.competition.formats.Played` rows
    as they come from the database (ids as text), the others only for their sides."""
    if s.autoflush:
        s.flush()  # the reads below do not autoflush as an ORM query would
    published = set(
        s.connection()
        .execute(select(Round.number).where(Round.event_id == ev.id, Round.status != "proposed"))
        .scalars()
    )
    rows = plain_rows(s, lambda: _final_rows(ev.id), ("final-rows", ev.id))
    make = formats.Played._make
    # a proposed round's bye is not final until the round is published
    out = [make(r) for r in rows if r[0] in published]
    drawn = {r[1] for r in rows}
    drawn.update(r[2] for r in rows if r[2] is not None)
    others = plain_rows(s, lambda: _open_sides(ev.id), ("open-sides", ev.id))
    for _r, a, b in others:
        drawn.add(a)
        if b is not None:
            drawn.add(b)
    # rule T3a: a latecomer's rounds before joining are zero-point byes
    if ev.format in ("swiss", "lives", "open-round-robin"):
        late = s.connection().execute(
            select(Entrant.id, Entrant.joins_from_round)
            .where(Entrant.event_id == ev.id, Entrant.joins_from_round.is_not(None))
            .order_by(Entrant.id)
        )
        late_ids = [(str(e), j) for e, j in late if j]
        if late_ids:
            seen: dict[int, set[str]] = {}
            for r in (*rows, *others):
                seen.setdefault(r[0], set()).update({r[1], *([r[2]] if r[2] else [])})
            for eid, joins in late_ids:
                for rn in sorted(published):
                    if rn < joins and eid not in seen.get(rn, set()):
                        out.append(formats.Played(rn, eid, None, "zero-bye"))
    return out, drawn


def _played_columns() -> tuple[Any, ...]:
    """A table's columns in the order of :class:`~clubdesk.competition.formats.Played` (ids as text)."""
    return (
        Match.round_no,
        cast(Match.side_a, String),
        cast(Match.side_b, String),
        Match.kind,
        Match.score_a,
        Match.score_b,
        Match.points_a,
        Match.points_b,
        cast(Match.winner, String),
        Match.ref,
    )


def _final_rows(event_id: int) -> AnySelect:
    """The final tables of an event as :class:`~clubdesk.competition.formats.Played` rows (ids as text)."""
    return (
        select(*_played_columns())
        .where(Match.event_id == event_id, Match.status.in_(FINAL_STATUSES))
        .order_by(Match.round_no, Match.table_no)
    )


def _open_sides(event_id: int) -> AnySelect:
    return select(Match.round_no, cast(Match.side_a, String), cast(Match.side_b, String)).where(
        Match.event_id == event_id, Match.status.not_in(FINAL_STATUSES)
    )


def _plain_games(event_id: int) -> ColumnElement[bool]:
    """The plain played games of the regular rounds: final, of a published round, no play-off (BC2),
    two sides and no kind that :func:`~clubdesk.standings.records.event_from_rows` reads otherwise."""
    pub = select(Round.number).where(Round.event_id == event_id, Round.status != "proposed")
    return and_(
        Match.event_id == event_id,
        Match.status.in_(FINAL_STATUSES),
        Match.round_no.in_(pub),
        func.substr(Match.ref, 1, len(formats.PLAYOFF_PREFIX)) != formats.PLAYOFF_PREFIX,
        Match.side_b.is_not(None),
        Match.kind.not_in(NOT_PLAIN),
    )


def _pair_sums(event_id: int) -> AnySelect:
    """:class:`~clubdesk.standings.summed.PairSums` of an event's plain played games, summed in SQL."""
    return (
        select(
            cast(Match.side_a, String),
            cast(Match.side_b, String),
            func.count(),
            func.sum(case((Match.score_a > Match.score_b, 1), else_=0)),
            func.sum(case((Match.score_a < Match.score_b, 1), else_=0)),
            func.sum(
                func.coalesce(Match.points_a, Match.score_a) - func.coalesce(Match.points_b, Match.score_b)
            ),
            func.max(Match.round_no),
        )
        .where(_plain_games(event_id))
        .group_by(Match.side_a, Match.side_b)
    )


def _unsummed(event_id: int) -> AnySelect:
    """Every other table of an event, with its status (final or not), as :func:`_final_rows` reads it."""
    return (
        select(Match.status, *_played_columns())
        .where(Match.event_id == event_id, not_(_plain_games(event_id)))
        .order_by(Match.round_no, Match.table_no)
    )


def _int_sums(row: Sequence[Any]) -> PairSums:
    """A row of sums from a server, whose SUM may come as a decimal."""
    a, b, *counts = row
    return PairSums(a, b, *(int(x) for x in counts))


def summed_tables(
    s: Session, ev: Event
) -> tuple[list[PairSums], list[formats.Played], list[formats.Played], set[str]]:
    """The event's tables as the standings' per-pair sums read them: the plain played games
    of the regular rounds summed per pair in SQL (``summed.PairSums``), the other final tables one by
    one (byes, forfeits, both-lost, latecomers' zero-point byes, as :func:`played_matches` has them),
    the play-off tables (BC2), and every entrant drawn at any table (for :func:`standing_ids`)."""
    if s.autoflush:
        s.flush()  # the reads below do not autoflush as an ORM query would
    conn = s.connection()
    published = set(
        conn.execute(
            select(Round.number).where(Round.event_id == ev.id, Round.status != "proposed")
        ).scalars()
    )
    as_read = PairSums._make if conn.dialect.name == "sqlite" else _int_sums
    sums = [as_read(r) for r in plain_rows(s, lambda: _pair_sums(ev.id), ("pair-sums", ev.id))]
    rows = plain_rows(s, lambda: _unsummed(ev.id), ("unsummed", ev.id))
    make = formats.Played._make
    rest: list[formats.Played] = []
    playoffs: list[formats.Played] = []
    drawn = {p.a for p in sums} | {p.b for p in sums}
    for r in rows:
        drawn.add(r[2])
        if r[3] is not None:
            drawn.add(r[3])
        if r[0] in FINAL_STATUSES and r[1] in published:  # a proposed round's bye is not final yet
            p = make(r[1:])
            (playoffs if p.ref.startswith(formats.PLAYOFF_PREFIX) else rest).append(p)
    # rule T3a: a latecomer's rounds before joining are zero-point byes
    if ev.format in ("swiss", "lives", "open-round-robin"):
        late = [
            (str(e), j)
            for e, j in conn.execute(
                select(Entrant.id, Entrant.joins_from_round)
                .where(Entrant.event_id == ev.id, Entrant.joins_from_round.is_not(None))
                .order_by(Entrant.id)
            )
            if j
        ]
        if late:
            keys = [int(e) for e, _j in late]
            seen: dict[int, set[str]] = {}
            for rn, a, b in plain_rows(
                s,
                lambda: select(Match.round_no, cast(Match.side_a, String), cast(Match.side_b, String)).where(
                    Match.event_id == ev.id, or_(Match.side_a.in_(keys), Match.side_b.in_(keys))
                ),
            ):
                seen.setdefault(rn, set()).update({a, *([b] if b else [])})
            for eid, joins in late:
                for rn in sorted(published):
                    if rn < joins and eid not in seen.get(rn, set()):
                        rest.append(formats.Played(rn, eid, None, "zero-bye"))
    return sums, rest, playoffs, drawn


def standing_ids(s: Session, ev: Event, drawn: set[str] | None = None) -> list[str]:
    """Everybody who has played or been drawn (withdrawn entrants keep their results, T9b). Set-based:
    two queries whatever the field; ``drawn`` (ids as text) from :func:`played_and_drawn`
    saves them."""
    if drawn is None:
        drawn = {str(x) for x in s.scalars(select(Match.side_a).where(Match.event_id == ev.id))}
        drawn |= {
            str(x)
            for x in s.scalars(select(Match.side_b).where(Match.event_id == ev.id, Match.side_b.is_not(None)))
        }
    ids: list[str] = []
    for eid, status, checked_in in s.execute(
        select(Entrant.id, Entrant.status, Entrant.checked_in_at)
        .where(Entrant.event_id == ev.id)
        .order_by(Entrant.id)
    ):
        key = str(eid)
        if key in drawn or (status == "registered" and checked_in is not None):
            ids.append(key)
    return ids
