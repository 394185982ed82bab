"""Showing stored times on the club's wall clock.

Timestamps written with :func:`clubdesk.models.base.utcnow` (incident and decision times, appeals,
confirmations, audit rows, notification times) are stored as naive UTC. People read them in local time,
so every screen, printout and CLI line that shows one converts it here first; storage stays UTC.

Times that are already local wall-clock times are never passed through here: the desk's payments and
check-ins (``services/desk/``), the table-call time and deadlines of a round
(``services/night/play/rounds.py``) and the times typed by the secretary (event start, registration close).

No Qt, no SQLAlchemy: the local zone is the system's (``TZ`` on Unix), read at each call.
"""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["local_from_utc", "local_text"]


def local_from_utc(naive_utc: datetime) -> datetime:
    """A naive UTC timestamp as the naive local wall-clock time of this computer.

    An aware datetime is converted from its own zone. Example with ``TZ=Asia/Jakarta`` (UTC+7):
    ``2025-05-04 12:30`` UTC is ``2025-05-04 19:30`` local.
    """
    aware = naive_utc if naive_utc.tzinfo is not None else naive_utc.replace(tzinfo=UTC)
    return aware.astimezone().replace(tzinfo=None)


def local_text(naive_utc: datetime | None, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """:func:`local_from_utc` formatted with ``fmt``; an empty string for no time."""
    return "" if naive_utc is None else local_from_utc(naive_utc).strftime(fmt)
