"""The status bar's event in use: the one event the whole window works on (``DeskState.event_in_use``),
named as every selector names it; clicking it opens the desk of that event."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QPushButton

from clubdesk.i18n import _
from clubdesk.services import events as events_service
from clubdesk.services.kernel import Changes, ServiceError
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.event_choice import event_choice_text

FRAME = 8  # pixels a flat button keeps on each side of its text
MIN_WIDTH = 160  # the least the status bar may leave it: "Event in use: Gaple Ni…"


class EventInUse(QPushButton):
    """A flat button in the status bar: "Event in use: <name · game · date>"."""

    openDesk = Signal()

    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.setObjectName("eventInUse")
        self.setFlat(True)
        self.clicked.connect(self.openDesk.emit)
        # filled once the window has painted: the first section's data comes before the events' engines
        # (money, games) are imported for this line
        self.ready = False
        self.whole = ""  # the line as written; shown cut at its end (…) when the status bar is short
        state.eventChanged.connect(self._event_changed)
        state.dataChanged.connect(self._data_changed)
        state.changed.connect(self._changes)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        super().paintEvent(event)
        if not self.ready:
            self.ready = True
            QTimer.singleShot(0, self.refresh)  # after this paint of the whole window

    def text(self) -> str:  # type: ignore[override]
        """The whole line, whatever the room: what the button says when it has room for it."""
        return self.whole

    def setText(self, text: str) -> None:  # type: ignore[override]  # noqa: N802 - Qt's name
        self.whole = text
        self.updateGeometry()
        self._fit()

    def _fit(self) -> None:
        """A status bar too short for the line (a long event name, Spanish words, the database path beside
        it) cuts its end with …: never its first words, which a centred, clipped text lost."""
        room = self.width() - 2 * FRAME
        shown = self.fontMetrics().elidedText(self.whole, Qt.TextElideMode.ElideRight, max(room, 0))
        super().setText(shown if room > 0 else self.whole)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        hint = super().sizeHint()
        return QSize(self.fontMetrics().horizontalAdvance(self.whole) + 2 * FRAME + 4, hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(min(MIN_WIDTH, self.sizeHint().width()), super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit()

    def _event_changed(self, _event_id: object) -> None:
        self.refresh()

    def _data_changed(self, what: str) -> None:
        if what == "events":  # a name or a date changed
            self.refresh()

    def _changes(self, changes: Changes, _origin: object) -> None:
        if changes.event:
            self.refresh()

    def refresh(self) -> None:
        if not self.ready:
            return
        if self.state.event_in_use is None:  # a new window (or club file) starts on the first of the order
            first = events_service.events_in_order(self.state.db)
            if first:
                self.state.use_event(first[0].id)  # sends eventChanged, which refreshes this
                return
        event_id = self.state.event_in_use
        info = None
        if event_id is not None:
            try:
                info = events_service.get_event(self.state.db, event_id)
            except ServiceError:
                info = None
        self.setVisible(info is not None)
        if info is not None:
            self.setText(_("Event in use: {event}").format(event=event_choice_text(info)))
            self.setToolTip(
                self.whole + "\n" + _("Every section works on this event; choose another in any event list.")
            )
