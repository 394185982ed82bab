"""Whether an event's regular rounds are complete: every round of its schedule played, published and each of
its tables confirmed. The standings send a tie that survives every tie-break to a play-off (BC2) only then;
after round 1 of 3 a tie on points is only the standings of the moment.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.models.event import Event
from clubdesk.models.result import Match
from clubdesk.models.round import EventNight, Round
from clubdesk.services.night.data import reads
from clubdesk.services.night.data.rows import played_matches


def regular_rounds_over(
    s: Session, ev: Event, n: EventNight, played: Sequence[formats.Played] | None = None
) -> bool:
    """Every regular round of the event played and confirmed: its schedule played out
    (:func:`clubdesk.competition.formats.schedule_played`), no regular round only proposed, and no table of a
    regular round without its final result. Play-off rounds (BC2) are not counted. ``played``: the event's
    final tables when the caller has them all (read here only for an open league, whose pairings they are)."""
    if ev.format in formats.ELIMINATION or ev.format == "lives":
        return False  # rules T12a, T4g: the bracket or the lives place them, never a play-off
    regular = s.execute(
        select(Round.status).where(Round.event_id == ev.id, Round.kind == "regular")
    ).scalars()
    statuses = list(regular)
    if any(status == "proposed" for status in statuses):
        return False
    state = reads.state_of(n)
    if ev.format == "open-round-robin" and played is None:
        played = played_matches(s, ev)
    if not formats.schedule_played(ev.format, state, len(statuses), ev.rounds, played or ()):
        return False
    regular_ids = select(Round.id).where(Round.event_id == ev.id, Round.kind == "regular")
    still_open = s.scalar(
        select(
            exists().where(
                Match.event_id == ev.id,
                Match.round_id.in_(regular_ids),
                Match.status.not_in(reads.FINAL_STATUSES),
            )
        )
    )
    return not still_open
