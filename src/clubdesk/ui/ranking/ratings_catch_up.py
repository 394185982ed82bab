"""A correction of an old tavla match re-rates, in the background, every rated match after it (rule T12c). The
correction itself is saved at once (``services.night.ranking.ratings.rerate_from`` only notes what is to do);
this object runs ``services.night.ranking.ratings.catch_up`` in a worker thread with plain values (the
database and numbers, no ORM objects), shows its progress in the status bar without blocking the window, and
tells the screens to reload their ratings when it is done. A second correction meanwhile is picked up by the
running worker, which starts again from the earliest changed match.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QCoreApplication, QObject, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar

from clubdesk.i18n import _, ngettext
from clubdesk.services import night
from clubdesk.services.kernel import Changes
from clubdesk.storage import Database
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.workers import Worker, run_in_pool

# the re-rating itself (services.night.ranking.ratings, with the standings engines) is imported when one is to
# be done; at start-up the window only notes that it re-rates in the background and looks whether one waits

AREA = "ratings"  # the dataChanged area sent when the ratings are up to date again


class RatingsCatchUp(QObject):
    done = Signal(int)  # matches re-rated

    def __init__(self, state: DeskState, status_bar: QStatusBar) -> None:
        super().__init__(status_bar)
        self.state = state
        self.status_bar = status_bar
        self.label = QLabel()
        self.label.setObjectName("ratingsProgressLabel")
        self.bar = QProgressBar()
        self.bar.setObjectName("ratingsProgress")
        self.bar.setMaximumWidth(160)
        self.bar.setTextVisible(False)
        status_bar.addPermanentWidget(self.label)
        status_bar.addPermanentWidget(self.bar)
        self._show(False)
        self._worker: Worker | None = None
        self._stop = threading.Event()
        night.rerate_in_background(state.db)
        state.dataChanged.connect(self._data_changed)
        state.changed.connect(self._changes)
        state.databaseChanged.connect(self._database_changed)
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self._quit)  # the rest waits in the database for the next start
        QTimer.singleShot(0, self.check)  # a re-rating cut short when the window closed goes on

    def running(self) -> bool:
        return self._worker is not None

    def check(self) -> None:
        """Start the worker when a re-rating waits and none runs."""
        if self._worker is not None or self._stop.is_set():
            return
        try:
            waiting = night.pending(self.state.db)
        except Exception:  # noqa: BLE001 - a database closed under us: nothing to do now
            return
        if waiting:
            self._start(self.state.db)

    def _start(self, db: Database) -> None:
        from clubdesk.services import night

        self.label.setText(_("Updating ratings…"))
        self.bar.setRange(0, 0)  # busy until the first part is done
        self._show(True)
        self._worker = run_in_pool(
            night.catch_up,
            db,
            stop=self._stop.is_set,
            on_done=self._finished,
            on_error=self._failed,
            on_progress=self._progress,
        )

    def _progress(self, done: int, total: int) -> None:
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(done)
        self.label.setText(_("Updating ratings: {done} of {total} matches").format(done=done, total=total))

    def _finished(self, count: object) -> None:
        self._worker = None
        self._show(False)
        n = int(count) if isinstance(count, int) else 0
        if n:
            self.status_bar.showMessage(
                ngettext(
                    "Ratings updated ({n} match re-rated).", "Ratings updated ({n} matches re-rated).", n
                ).format(n=n),
                8000,
            )
        self.state.dataChanged.emit(AREA)  # the ratings screens reload
        self.done.emit(n)
        if n:
            self.check()  # a correction at the very end (0: nothing left, or another desk re-rates)

    def _failed(self, exc: object) -> None:
        self._worker = None
        self._show(False)
        self.status_bar.showMessage(
            _("The ratings could not be updated yet: {error}").format(error=exc), 10000
        )

    def _data_changed(self, area: str) -> None:
        if area != AREA:
            self.check()

    def _changes(self, changes: Changes, _origin: object) -> None:
        if changes.standings:  # a counted result may leave re-ratings for the background (T12c)
            self.check()

    def _database_changed(self, db: Database) -> None:
        night.rerate_in_background(db)
        QTimer.singleShot(0, self.check)

    def _quit(self) -> None:
        """The window closes: the worker stops after the part it is doing (at most a few tenths of a
        second); what is left is kept in the database and done at the next start."""
        self._stop.set()
        if self._worker is not None:
            QThreadPool.globalInstance().waitForDone(5000)

    def _show(self, on: bool) -> None:
        self.label.setVisible(on)
        self.bar.setVisible(on)
