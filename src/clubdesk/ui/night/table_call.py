"""The table call's line on the Rounds screen: when absent sides can be forfeited (rule T3b: the night's
minutes after the table call; rule G15: the night's minutes before the match start) and the countdown."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from clubdesk.competition.table_call import warning_from
from clubdesk.i18n import _, ngettext
from clubdesk.services import night


def call_due_at(rv: night.RoundView | None, call_minutes: Callable[[], int]) -> datetime | None:
    """When the desk warns that absent sides can be forfeited: the services' deadline (rule G15: the night's
    minutes before the match start; rule T3b: after the table call, as the ruleset says), never before the
    call itself; else the night's ``call_minutes()`` after the call (read only then: the line is drawn
    every second)."""
    if rv is None or rv.call_at is None:
        return None
    if rv.forfeit_due is not None:
        return warning_from(rv.call_at, rv.forfeit_due)
    return rv.call_at + timedelta(minutes=call_minutes())


def deadline_note(rv: night.RoundView) -> str:
    """Rule G15 says the deadline is before the start: show the start and the deadline."""
    if rv.forfeit_rule != "G15" or rv.forfeit_due is None:
        return ""
    start = rv.start_at or rv.call_at
    if start is None:
        return ""
    return " · " + _("start {s}, present by {d} (G15)").format(
        s=start.strftime("%H:%M"), d=rv.forfeit_due.strftime("%H:%M")
    )


def call_line(rv: night.RoundView | None, due: datetime | None, now: datetime) -> tuple[str, str]:
    """The call line's text and style: the call time once every table plays, the countdown while tables
    wait, then how many waiting tables can be forfeited. ("", "") when the round has no call."""
    if due is None or rv is None or rv.call_at is None:
        return "", ""
    waiting = [t for t in rv.tables if t.status == "waiting"]
    called = rv.call_at.strftime("%H:%M")
    # the call time is a local wall-clock time (services/night/play/rounds.py), like the forfeit check (T3b)
    left = due - now
    if not waiting:
        return (
            _("Tables called at {t}").format(t=called),
            "font-size: 12pt; font-weight: 600; color: #14532d;",
        )
    if left.total_seconds() > 0:
        secs = int(left.total_seconds())
        text = _("Called {t} · forfeit of absent sides in {m:02d}:{s:02d}").format(
            t=called, m=secs // 60, s=secs % 60
        )
        return text + deadline_note(rv), "font-size: 12pt; font-weight: 600; color: #1e3a8a;"
    text = ngettext(
        "Called {t} · time is up: {n} table waiting can be forfeited",
        "Called {t} · time is up: {n} tables waiting can be forfeited",
        len(waiting),
    ).format(t=called, n=len(waiting))
    return text, "font-size: 12pt; font-weight: 700; color: #b00020;"
