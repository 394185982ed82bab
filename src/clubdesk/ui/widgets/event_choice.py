"""The one event selector: every section that works on an event shows the event in use in it, named and
ordered the same way (``services.events.events_in_order``), and a choice made in one is followed by all."""

from __future__ import annotations

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QComboBox, QWidget

from clubdesk import labels
from clubdesk.services import events as events_service
from clubdesk.ui.shell.state import DeskState


def event_choice_text(info: events_service.EventInfo) -> str:
    """An event as every selector names it: its name, its game and its first day."""
    parts = [info.name, labels.ruleset_label(info.ruleset)]
    if info.starts_on is not None:
        parts.append(info.starts_on.isoformat())
    return " · ".join(parts)


class EventChoice(QComboBox):
    """A selector of the club's events bound to the window's event in use: choosing here makes the event
    in use (``DeskState.use_event``); a choice made elsewhere is followed here (``currentIndexChanged``
    fires, so the section shows it). :meth:`reload` fills it again after events changed."""

    def __init__(self, state: DeskState, object_name: str = "event", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.setObjectName(object_name)
        self.events: list[events_service.EventInfo] = []
        self.currentIndexChanged.connect(self._chosen)
        state.eventChanged.connect(self._follow)

    def reload(self) -> None:
        """Every event in the shared order, on the event in use (the first one when none is in use yet,
        which then becomes the event in use); no ``currentIndexChanged`` is sent: the caller refreshes."""
        keep = self.event_id()
        self.events = events_service.events_in_order(self.state.db)
        self.blockSignals(True)
        self.clear()
        for info in self.events:
            self.addItem(event_choice_text(info), info.id)
        wanted = self.state.event_in_use if self.state.event_in_use is not None else keep
        index = self.findData(wanted) if wanted is not None else -1
        self.setCurrentIndex(index if index >= 0 else (0 if self.events else -1))
        self.blockSignals(False)
        self.setToolTip(self.currentText())
        self.state.use_event(self.event_id())

    def event_id(self) -> int | None:
        data = self.currentData()
        return int(data) if data is not None else None

    def current_event(self) -> events_service.EventInfo | None:
        i = self.currentIndex()
        return self.events[i] if 0 <= i < len(self.events) else None

    def select(self, event_id: int | None) -> bool:
        """Show ``event_id`` (and make it the event in use); False when it is not one of the club's events."""
        index = self.findData(event_id) if event_id is not None else -1
        if index < 0:
            return False
        self.setCurrentIndex(index)
        return True

    def _chosen(self, _index: int) -> None:
        self.setToolTip(self.currentText())  # the whole name where the box is narrow
        self.state.use_event(self.event_id())

    def _follow(self, _event_id: object) -> None:
        """Another selector chose: a screen on view follows at once, a hidden one when it is shown next (a
        section out of sight does not recompute its standings for nothing)."""
        if self.isVisible():
            self.follow_event_in_use()

    def follow_event_in_use(self) -> None:
        wanted = self.state.event_in_use
        if wanted != self.currentData() and self.findData(wanted) >= 0:
            self.setCurrentIndex(self.findData(wanted))

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        self.follow_event_in_use()
