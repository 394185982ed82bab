"""Live refresh across desks: the club server's NOTIFY turned into the window's ``dataChanged``.

A background thread holds one LISTEN connection; every committed change on any desk arrives within a
fraction of a second and, gathered over 300 ms, makes the window reload its events, rounds, desk and
members data. A lost connection is said in the status bar and retried every two seconds. On the SQLite file
a timer reads the file's data version every 300 ms instead: a hand posted from a phone (the table
server in the window's background, or ``clubdesk-cli serve`` in another process) reaches the Rounds screen
within a second, without any user action.
"""

from __future__ import annotations

import logging
import threading

from PySide6.QtCore import QObject, QTimer, Signal

from clubdesk.i18n import _
from clubdesk.storage import DataVersion, listen_changes
from clubdesk.ui.shell.state import DeskState

log = logging.getLogger("clubdesk.live")
# the areas that reload from what another desk changed ("events": a new or changed event reaches the
# Standings, Reports and Events lists too, not only the rounds and the desk)
AREAS = ("events", "rounds", "desk", "members")
POLL_MS = 300  # SQLite: how often the file's data version is read (desk <-> phone within 1 s)


class LiveRefresh(QObject):
    notified = Signal(str)  # from the listening thread (queued into the window's thread)
    connection = Signal(bool)
    status = Signal(str)  # a line for the status bar ("" once connected again)

    def __init__(self, state: DeskState, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pending: set[str] = set()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(300)
        self._timer.timeout.connect(self._flush)
        self.notified.connect(self._queue)
        self.connection.connect(self._connection)
        self.online = True
        self._version: DataVersion | None = None
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._check_version)
        state.databaseChanged.connect(lambda _db: self.restart())

    def restart(self) -> None:
        """Listen on the database the window now uses (nothing on a file)."""
        self.stop()
        self._stop = threading.Event()
        self._pending.clear()
        self._connection(True)
        self.start()

    def start(self) -> None:
        if not self.state.db.is_server:
            self._start_polling()
            return
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="clubdesk-listen", daemon=True)
        self._thread.start()

    def _start_polling(self) -> None:
        if self._version is not None:
            return
        try:
            self._version = DataVersion(self.state.db.path)
        except Exception as exc:  # noqa: BLE001 - the file cannot be watched: the window still works
            log.info("data version not watched: %s", exc)
            return
        self._poll.start()

    def _check_version(self) -> None:
        if self._version is not None and self._version.changed():
            self._queue("")

    def stop(self) -> None:
        self._poll.stop()
        if self._version is not None:
            self._version.close()
            self._version = None
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3)
            self._thread = None

    def _run(self) -> None:
        was_online = True
        while not self._stop.is_set():
            try:
                conn = listen_changes(self.state.db)
            except Exception as exc:  # noqa: BLE001 - any failure: say so and retry
                log.info("listen failed: %s", exc)
                if was_online:
                    self.connection.emit(False)
                    was_online = False
                self._stop.wait(2.0)
                continue
            if not was_online:
                self.connection.emit(True)
                self.notified.emit("")  # what others did meanwhile
                was_online = True
            try:
                with conn:
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self.notified.emit(note.payload)
            except Exception as exc:  # noqa: BLE001
                log.info("listen connection lost: %s", exc)

    def _queue(self, payload: str) -> None:
        self._pending.add(payload)
        if not self._timer.isActive():
            self._timer.start()

    def _flush(self) -> None:
        self._pending.clear()
        for area in AREAS:
            self.state.dataChanged.emit(area)

    def _connection(self, ok: bool) -> None:
        self.online = ok
        self.status.emit(
            ""
            if ok
            else _("The club server cannot be reached: retrying. Entries are refused until it answers again.")
        )
