"""The one order of events every selector shows (Desk, Rounds, Standings, Discipline, Reports, Share, the
projector, the status bar's event in use): tonight's and in-play events first, then the upcoming ones, then
the finished ones.

- In play: a drawn or running event, or one whose dates include today; the one whose round was published most
  recently first (the event a night screen opens on), then the latest start.
- Upcoming: the soonest start first; an event without a date after the dated ones.
- Finished: the most recent first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from enum import IntEnum

from sqlalchemy import func, select

from clubdesk.models.event import Event
from clubdesk.models.round import Round
from clubdesk.services.events.events import EventInfo, info_of
from clubdesk.services.kernel import DESK_CLOCK
from clubdesk.storage import Database

IN_PLAY_STATUSES = frozenset({"drawn", "running"})


class EventGroup(IntEnum):
    IN_PLAY = 0
    UPCOMING = 1
    FINISHED = 2


def event_group(info: EventInfo, today: date) -> EventGroup:
    """Where ``info`` stands in the selectors' order on ``today``."""
    if info.status == "finished":
        return EventGroup.FINISHED
    if info.status in IN_PLAY_STATUSES:
        return EventGroup.IN_PLAY
    if info.starts_on is not None and info.starts_on <= today <= (info.ends_on or info.starts_on):
        return EventGroup.IN_PLAY
    return EventGroup.UPCOMING


def order_events(
    infos: Sequence[EventInfo], today: date, last_published: Mapping[int, datetime] | None = None
) -> list[EventInfo]:
    """``infos`` in the selectors' order (see the module's text); ``last_published``: each event's latest
    round publication, which puts tonight's busiest event first."""
    published = last_published or {}

    def key(info: EventInfo) -> tuple[int, float, int, int]:
        group = event_group(info, today)
        day = info.starts_on.toordinal() if info.starts_on is not None else None
        if group is EventGroup.IN_PLAY:
            when = published.get(info.id)
            stamp = when.timestamp() if when is not None else float("-inf")
            return (group, -stamp, -(day or 0), -info.id)
        if group is EventGroup.UPCOMING:
            return (group, 0.0, day if day is not None else 10**9, info.id)
        end = info.ends_on or info.starts_on
        return (group, 0.0, -(end.toordinal() if end is not None else 0), -info.id)

    return sorted(infos, key=key)


def events_in_order(db: Database, *, today: date | None = None) -> list[EventInfo]:
    """Every event of the club, in the order every selector shows them."""
    with db.session() as s:
        infos = [info_of(s, ev) for ev in s.scalars(select(Event))]
        rows = s.execute(
            select(Round.event_id, func.max(Round.published_at))
            .where(Round.published_at.is_not(None))
            .group_by(Round.event_id)
        ).all()
    published = {int(event_id): when for event_id, when in rows if when is not None}
    return order_events(infos, today or DESK_CLOCK.now().date(), published)
