"""The table call (rules T3b, G15): when the tables are called if the desk types no time, and from when the
desk warns that absent sides can be forfeited."""

from __future__ import annotations

from datetime import datetime, timedelta


def default_call_at(published: datetime, call_minutes: int, start_at: datetime | None = None) -> datetime:
    """The table call when none is typed: the publication plus the night's call notice (``call_minutes``),
    at the latest the match start (G15). Called at the publication itself, the sides would have no time to
    come to their tables."""
    call = published + timedelta(minutes=call_minutes)
    return call if start_at is None else min(call, start_at)


def warning_from(call_at: datetime, forfeit_due: datetime) -> datetime:
    """From when the desk warns that waiting tables can be forfeited: the forfeit deadline (T3b: after the
    call; G15: before the start), never before the tables are called (G15 without a start time counts
    from the call as the start, and its deadline would fall before the call)."""
    return max(call_at, forfeit_due)
