"""The registration desk: pick the event; entrants with status, waiting-list position, paid/owed and
check-in; register, pay, withdraw, promote; the check-in screen; the cash box; the outbox.

Keyboard: Ctrl+PgDown / Ctrl+PgUp or Alt+T, Alt+C, Alt+B, Alt+O, Alt+H switch tabs (Entrants, Check-in,
Cash box, Outbox, Phones: table entry on the players' phones; Ctrl+1 … Ctrl+0 are the window's
sections); in Entrants, Alt+N focuses the member field (a name
offers the matching members, or type the number; Enter registers), Alt+A the amount (Enter pays the
selected entrant); Alt+W withdraws, Alt+U promotes the selected entrant.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clubdesk import labels
from clubdesk.i18n import _
from clubdesk.services import desk
from clubdesk.services import events as events_service
from clubdesk.timefmt import local_text
from clubdesk.ui.desk.checkin_view import CheckinView
from clubdesk.ui.desk.entrants_view import EntrantsView
from clubdesk.ui.money.cashbox_view import CashBoxView
from clubdesk.ui.phones.phones_view import PhonesView
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.widgets.event_choice import EventChoice
from clubdesk.ui.widgets.fit import fit_combo
from clubdesk.ui.widgets.money import money


class OutboxView(QWidget):
    def __init__(self, section: DeskSection) -> None:
        super().__init__()
        self.section = section
        self.text = QPlainTextEdit()
        self.text.setObjectName("outboxText")
        self.text.setReadOnly(True)
        self.mark = QPushButton(_("Mark all as sent"))
        self.mark.clicked.connect(self.mark_sent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.addWidget(QLabel(_("Notifications to print or send (promotions from the waiting list).")))
        layout.addWidget(self.text, 1)
        layout.addWidget(self.mark, 0, Qt.AlignmentFlag.AlignLeft)
        self.items: list[desk.OutboxItem] = []

    def refresh(self) -> None:
        self.items = desk.outbox(self.section.state.db, event_id=self.section.event_id(), unsent_only=True)
        self.text.setPlainText(
            "\n\n".join(
                # created_at is stored as naive UTC (models.base.utcnow): shown on the wall clock
                f"{local_text(i.created_at)}  [{i.member_number or '-'}]\n{i.text}"
                for i in self.items
            )
            or _("Nothing to send.")
        )

    def mark_sent(self) -> None:
        desk.mark_sent(self.section.state.db, self.section.state.actor, [i.id for i in self.items])
        self.refresh()


class DeskSection(QWidget):
    """The Desk section of the main window."""

    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self._info: events_service.EventInfo | None = None
        self.event_combo = EventChoice(state, "deskEvent")  # the window's event in use
        fit_combo(self.event_combo, 40)  # the header has room for the whole name, game and date
        self.event_combo.currentIndexChanged.connect(self._event_changed)
        self.title = QLabel(_("Registration desk"))
        self.title.setStyleSheet("font-size: 16pt; font-weight: 600;")
        self.event_line = QLabel("")
        self.event_line.setObjectName("deskEventLine")
        self.event_line.setStyleSheet(themed("color: #444;"))
        top = QHBoxLayout()
        top.addWidget(self.title)
        top.addStretch(1)
        event_label = QLabel(_("&Event"))
        event_label.setBuddy(self.event_combo)
        top.addWidget(event_label)
        top.addWidget(self.event_combo)
        self.entrants_view = EntrantsView(self)
        self.checkin_view = CheckinView(state, self.event_id)
        self.cashbox_view = CashBoxView(state, self.event_id)
        self.outbox_view = OutboxView(self)
        self.phones_view = PhonesView(state)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("deskTabs")
        # Alt+letter or Ctrl+PgDown/PgUp: Ctrl+1 … Ctrl+0 belong to the window's sidebar
        self.tabs.addTab(self.entrants_view, _("En&trants"))
        self.tabs.addTab(self.checkin_view, _("&Check-in"))
        self.tabs.addTab(self.cashbox_view, _("Cash &box"))
        self.tabs.addTab(self.outbox_view, _("&Outbox"))
        self.tabs.addTab(self.phones_view, _("P&hones"))
        self.tabs.currentChanged.connect(self._tab_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 12, 18, 12)
        layout.addLayout(top)
        layout.addWidget(self.event_line)
        layout.addWidget(self.tabs, 1)
        state.dataChanged.connect(self._data_changed)
        self.load_events()

    def load_events(self) -> None:
        """The club's events in the shared order, on the window's event in use."""
        self.event_combo.reload()
        self._event_changed()

    def event_id(self) -> int | None:
        data = self.event_combo.currentData()
        return None if data is None else int(data)

    def event_info(self) -> events_service.EventInfo | None:
        return self._info

    def set_event(self, event_id: int) -> None:
        self.event_combo.select(event_id)

    def _event_changed(self, *args: object) -> None:
        event_id = self.event_id()
        self._info = None if event_id is None else events_service.get_event(self.state.db, event_id)
        info = self._info
        if info is None:
            self.event_line.setText(_("No event yet: create one in Events."))
        else:
            fee = money(info.fee, info.currency)
            if info.early_fee is not None and info.early_until is not None:
                fee += " " + _("({early} if paid by {day})").format(
                    early=money(info.early_fee, info.currency), day=info.early_until.isoformat()
                )
            parts = [
                labels.ruleset_label(info.ruleset),
                labels.format_label(info.format),
                _("fee {fee}").format(fee=fee),
                labels.event_status_label(info.status),
            ]
            if info.start_at is not None:
                parts.append(_("start {when:%Y-%m-%d %H:%M}").format(when=info.start_at))
            self.event_line.setText(" · ".join(parts))
        self.refresh()

    def refresh(self) -> None:
        self.entrants_view.refresh()
        self.checkin_view.refresh()
        self.cashbox_view.refresh()
        self.outbox_view.refresh()

    def _tab_changed(self, index: int) -> None:
        widget = self.tabs.widget(index)
        if widget is self.checkin_view:
            self.checkin_view.field.setFocus()

    def _data_changed(self, area: str) -> None:
        if area == "events":
            self.load_events()
        elif area in ("desk", "members"):
            self.refresh()
