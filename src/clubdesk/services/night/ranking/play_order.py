"""The order of play that FIBS ratings follow (rule T12c): which matches are rated and each one's place
(day played, round, table, match id), read set-based from the club file."""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.models.base import utcnow
from clubdesk.models.event import EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match
from clubdesk.models.round import Round

# the window's start-up needs these without the rating engine
from clubdesk.standings.ratings import RatedMatch, match_order_key, play_day

# Rule T12c rates matches in the order of play: the day played (``play_day``: a postponed match's day, else
# the round's day within the event's days), then round, table and match id, whatever the order the
# results were entered in. ``rating_history`` rows are written in that order (their ids follow it), each
# with its match's day (``played_on``), so a change re-rates only the matches from the changed one on: a
# result of the latest round re-rates one match, a late or corrected older one what follows it.
RateKey = tuple[date, int, int, int]  # (day played, round, table, match id)
# Marks a history written in the order of play; a history written before (by day of confirmation) is
# rated again in full once, at the first change.
ORDER_KEY = "ratings.order"
ORDER_OF_PLAY = '"day-round-table"'  # a JSON string, as every settings row


def tavla_rulesets(s: Session) -> list[str]:
    out: list[str] = []
    for rs in s.scalars(select(Event.ruleset).distinct()):
        try:
            if formats.ruleset_params(rs)[0] == "tavla":
                out.append(rs)
        except Exception:  # noqa: BLE001 - an unknown preset is no tavla event
            continue
    return out


def rated_conditions(rulesets: list[str]) -> list[Any]:
    tavla_events = select(Event.id).where(Event.ruleset.in_(rulesets))
    return [
        Match.status == "confirmed",
        Match.kind == "played",
        Match.side_b.is_not(None),
        Match.winner.is_not(None),
        Match.event_id.in_(tavla_events),
    ]


def match_key(
    mid: int,
    round_no: int,
    table_no: int,
    postponed_to: datetime | None,
    round_at: datetime | None,
    confirmed_at: datetime | None,
    starts_on: date | None,
    ends_on: date | None,
) -> RateKey:
    fallback = confirmed_at.date() if confirmed_at is not None else utcnow().date()
    day = play_day(
        postponed_to.date() if postponed_to is not None else None,
        round_at.date() if round_at is not None else None,
        starts_on,
        ends_on,
        fallback,
    )
    return (day, round_no, table_no, mid)


KEY_COLUMNS = (
    Match.id,
    Match.round_no,
    Match.table_no,
    Match.postponed_to,
    func.coalesce(Round.start_at, Round.call_at),
    Match.confirmed_at,
    Event.starts_on,
    Event.ends_on,
)


def keyed(stmt: Any) -> Any:
    return stmt.join(Round, Round.id == Match.round_id).join(Event, Event.id == Match.event_id)


def may_follow(since: RateKey) -> Any:
    """SQL: the matches whose day of play (:func:`play_day`) can be ``since``'s day or later (the exact
    order is checked in Python)."""
    day = since[0]
    start = datetime.combine(day, time.min)
    round_at = func.coalesce(Round.start_at, Round.call_at, Match.confirmed_at)
    return or_(
        Match.postponed_to >= start,
        and_(
            Match.postponed_to.is_(None),
            or_(
                Event.ends_on >= day,
                and_(Event.ends_on.is_(None), Event.starts_on >= day),
                and_(
                    Event.starts_on.is_(None),
                    Event.ends_on.is_(None),
                    or_(round_at.is_(None), round_at >= start),
                ),
            ),
        ),
    )


def play_key(s: Session, match_id: int) -> RateKey | None:
    """Match ``match_id``'s place in the order of play (rule T12c)."""
    row = s.execute(keyed(select(*KEY_COLUMNS)).where(Match.id == match_id)).first()
    return None if row is None else match_key(*row)


def rated_since(s: Session, since: RateKey | None) -> list[tuple[RatedMatch, int]]:
    """Played, confirmed tavla matches between single members from ``since`` on (all when None), in
    the order of play, with their event: set-based (one query for the matches, one for their players)."""
    rulesets = tavla_rulesets(s)
    if not rulesets:
        return []
    cond = rated_conditions(rulesets)
    if since is not None:
        cond.append(may_follow(since))
    rows = s.execute(
        keyed(
            select(*KEY_COLUMNS, Match.event_id, Match.side_a, Match.side_b, Match.winner, Match.match_length)
        ).where(*cond)
    ).all()
    if not rows:
        return []
    chosen = select(Match.id).join(Round, Round.id == Match.round_id).join(Event, Event.id == Match.event_id)
    chosen = chosen.where(*cond)
    sides = (
        select(Match.side_a)
        .where(Match.id.in_(chosen))
        .union(select(Match.side_b).where(Match.id.in_(chosen)))
    )
    players: dict[int, list[int]] = {}
    for ent, mem in s.execute(
        select(EntrantMember.entrant_id, EntrantMember.member_id)
        .join(Member, Member.id == EntrantMember.member_id)
        .where(EntrantMember.left_at.is_(None), EntrantMember.entrant_id.in_(sides))
        .order_by(EntrantMember.id)
    ):
        players.setdefault(ent, []).append(mem)
    out: list[tuple[RatedMatch, int]] = []
    for row in rows:
        key = match_key(*row[:8])
        ev_id, a, b, winner, length = row[8:]
        ma, mb = players.get(a, []), players.get(b or 0, [])
        if len(ma) != 1 or len(mb) != 1:
            continue
        if since is not None and key < since:
            continue
        w, lo = (ma[0], mb[0]) if winner == a else (mb[0], ma[0])
        day, round_no, table_no, mid = key
        rated = RatedMatch(
            str(mid), day, str(w), str(lo), length or 1, sequence=mid, round_no=round_no, table_no=table_no
        )
        out.append((rated, ev_id))
    out.sort(key=lambda x: match_order_key(x[0]))
    return out
