"""The status bar's event in use: the one event the whole window works on (``DeskState.event_in_use``),
named as every selector names it; clicking it opens the desk of that event."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QPushButton

from clubdesk.i18n import _
from clubdesk.services import events as events_service
from clubdesk.services.kernel import Changes, ServiceError
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.event_choice import event_choice_text


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
        state.eventChanged.connect(self._event_changed)
        state.dataChanged.connect(self._data_changed)
        state.changed.connect(self._changes)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        super().paintEvent(event)
        if not self.ready:
            self.ready = True
            QTimer.singleShot(0, self.refresh)  # after this paint of the whole window

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
            self.setToolTip(_("Every section works on this event; choose another in any event list."))
