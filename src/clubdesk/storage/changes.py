"""Knowing that the data changed: which events a transaction wrote, the club server's ``NOTIFY`` of them at
commit, and a club file's ``PRAGMA data_version`` for a timer that follows the file.

The session hooks that call :func:`note_changes`, :func:`notify_changes` and :func:`forget_changes` are
registered on ClubDesk's own session class (``storage.database.ClubSession``), never on SQLAlchemy's.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.orm import Session

from clubdesk.storage.sqlite import busy_seconds

CHANGES_CHANNEL = "clubdesk_changes"  # payload: the event id, or "" for club-wide data
_CHANGED = "clubdesk.changed"
_CHANGED_EVENTS = "clubdesk.changed_events"


def changed_events(session: Session) -> set[int]:
    """The events this transaction has written (or locked to write), announced at its commit."""
    found: set[int] = session.info.setdefault(_CHANGED_EVENTS, set())
    return found


def note_changes(session: Session) -> None:
    """After a flush: the transaction wrote, and these rows belong to these events."""
    changed = changed_events(session)
    session.info[_CHANGED] = True
    for obj in [*session.new, *session.dirty, *session.deleted]:
        ev = getattr(obj, "event_id", None)
        if ev is None and getattr(obj, "__tablename__", "") == "events":
            ev = getattr(obj, "id", None)
        if isinstance(ev, int):
            changed.add(ev)


def notify_changes(session: Session) -> None:
    """Before a club server's commit: one ``NOTIFY`` per changed event (or one club-wide), delivered with
    the commit and only if it succeeds."""
    if not session.info.pop(_CHANGED, False):
        return
    events = session.info.pop(_CHANGED_EVENTS, set())
    for ev in sorted(events) or [None]:
        payload = "" if ev is None else str(ev)
        session.execute(text("SELECT pg_notify(:ch, :p)"), {"ch": CHANGES_CHANNEL, "p": payload})
        if ev is not None:
            session.execute(text("SELECT pg_notify(:ch, '')"), {"ch": f"clubdesk_event_{ev}"})


def forget_changes(session: Session) -> None:
    """A rollback, or a club file's commit (its readers follow ``data_version`` instead)."""
    session.info.pop(_CHANGED, None)
    session.info.pop(_CHANGED_EVENTS, None)


class DataVersion:
    """SQLite's ``PRAGMA data_version`` on a connection of its own: it moves whenever another
    connection commits (the window's own, a table server's thread, ``clubdesk-cli serve`` in another
    process), so a timer can follow the file without reading any table. ``changed()`` is cheap."""

    def __init__(self, path: Path) -> None:
        uri = f"{path.resolve().as_uri()}?mode=ro"
        self._lock = threading.Lock()  # the web server's threads share one watcher
        self._conn: sqlite3.Connection | None = sqlite3.connect(
            uri, uri=True, timeout=busy_seconds(), check_same_thread=False
        )
        self._last = -1
        self._last = self._read()

    def _read(self) -> int:
        with self._lock:
            if self._conn is None:
                return -1
            try:
                return int(self._conn.execute("PRAGMA data_version").fetchone()[0])
            except sqlite3.Error:
                return self._last

    def value(self) -> int:
        """The version now (it only ever differs from an earlier value after another connection's commit)."""
        return self._read()

    def changed(self) -> bool:
        now = self._read()
        moved, self._last = now != self._last, now
        return moved

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
