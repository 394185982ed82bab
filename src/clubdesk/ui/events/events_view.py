"""Events: the list of competitions and the event editor (ruleset, format, entry type, rounds and match
lengths (T8a), fees per entrant or person (BC4), early price (T2b), side events (T2e), refund policy (T2d),
capacity, registration close, start time and arrival deadline (G15)), and the event's rule readings
(B6, B8, T12b, G3's floor) with a switch to the preset's readings that shows first which tables
and places would change.

Keyboard: Ctrl+N new event, Ctrl+Shift+N new event from the selected one (a weekly night, next
week's date), Ctrl+S save (the event, or its night settings on that tab); each refusal is shown next to its
field. The Night settings tab (``ui.events.event_settings``) sets what ``night-config`` sets. The list can put
this week's night first, marked.

Unsaved edits are never lost: moving to another event or a new one asks first (save, discard or stay).
Once the draw is made (a running event) the fields the services refuse to change are read-only, with the
reason shown above them; the title says whether the form holds unsaved changes.
"""

from __future__ import annotations

from datetime import date, timedelta

from PySide6.QtCore import QDate, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clubdesk import labels
from clubdesk.i18n import _
from clubdesk.services import events as ev_service
from clubdesk.services.kernel import Changes, ServiceError
from clubdesk.ui.events.editor import EventEditor
from clubdesk.ui.events.event_settings import EventSettings
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.fit import DropColumns
from clubdesk.ui.widgets.money import money
from clubdesk.ui.widgets.rows import ROW_ROLE, Column, RowsModel, set_message
from clubdesk.ui.widgets.tables import row_table


class CopyEventDialog(QDialog):
    """The "New event from…" dialog: the date (next week, same weekday) and the name of the copy."""

    def __init__(self, info: ev_service.EventInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("copyEventDialog")
        self.setWindowTitle(_("New event from {name}").format(name=info.name))
        self.day = QDateEdit(QDate(ev_service.next_week(info.starts_on)))
        self.day.setObjectName("copyDate")
        self.day.setDisplayFormat("yyyy-MM-dd")
        self.day.setCalendarPopup(True)
        self.name = QLineEdit(info.name)
        self.name.setObjectName("copyName")
        note = QLabel(
            _(
                "The copy takes the event's settings, night settings, prize plan and ruleset; not its "
                "entrants, payments or results."
            )
        )
        note.setWordWrap(True)
        form = QFormLayout()
        form.addRow(_("&Date"), self.day)
        form.addRow(_("&Name"), self.name)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(note)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def values(self) -> tuple[date, str]:
        picked: date = self.day.date().toPython()  # type: ignore[assignment]
        return picked, self.name.text()


def this_week(day: date | None, today: date | None = None) -> bool:
    """Whether ``day`` falls in the current week (Monday to Sunday)."""
    if day is None:
        return False
    today = today or date.today()
    monday = today - timedelta(days=today.weekday())
    return monday <= day < monday + timedelta(days=7)


def _event_day(e: ev_service.EventInfo) -> date | None:
    return e.starts_on or (e.start_at.date() if e.start_at else None)


class EventsSection(QWidget):
    """The Events section of the main window."""

    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self._week: set[int] = set()  # this week's events
        self.model = RowsModel(
            [
                Column(_("No."), lambda e: e.id, True),
                Column(_("Name"), self._name_text),
                Column(_("Ruleset"), lambda e: labels.ruleset_label(e.ruleset)),
                Column(_("Format"), lambda e: labels.format_label(e.format)),
                Column(_("Status"), lambda e: labels.event_status_label(e.status)),
                Column(_("Places"), lambda e: f"{e.registered}/{e.capacity or '∞'}", True),
                Column(_("Waiting"), lambda e: e.waitlisted or "", True),
                Column(_("Fee"), lambda e: money(e.fee, e.currency), True),
                Column(_("Start"), lambda e: f"{e.start_at:%Y-%m-%d %H:%M}" if e.start_at else ""),
            ]
        )
        self.table = row_table(self.model, "eventsTable")
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        # narrow screen: waiting list, start, fee and the number go first (the editor shows them); the
        # ruleset and the places stay as long as the name has room (1366 pixels, every language)
        self.table.horizontalHeader().setMaximumSectionSize(150)  # a long ruleset name is elided
        DropColumns(self.table, 1, [6, 8, 7, 0, 5, 2], min_stretch=140)
        self.table.selectionModel().selectionChanged.connect(self._selected)
        self.new_button = QPushButton(_("Ne&w event"))
        self.new_button.setObjectName("newEvent")
        self.new_button.clicked.connect(self.new_event)
        # a weekly night is last week's event again, with the next date
        self.copy_button = QPushButton(_("New event fro&m…"))
        self.copy_button.setObjectName("copyEvent")
        self.copy_button.setToolTip(
            _("Ctrl+Shift+N: the selected event's settings and prize plan, next week")
        )
        self.copy_button.clicked.connect(self.copy_selected)
        self.send_button = QPushButton(_("Send to federation"))
        self.send_button.setObjectName("sendFederation")
        self.send_button.setToolTip(
            _("A finished event's results, signed with the club's key, to the federation's hub")
        )
        self.send_button.setEnabled(False)
        self.send_button.clicked.connect(self.send_selected)
        self.week_first = QCheckBox(_("This wee&k's night first"))
        self.week_first.setObjectName("weekFirst")
        self.week_first.setChecked(True)
        self.week_first.toggled.connect(lambda _on: self.refresh(select=self.editor.event_id))
        # an empty list says what to do first
        self.empty = QLabel(
            _(
                "No events yet. Press Ctrl+N (New event) and fill in the form on the right; next week, "
                "New event from… (Ctrl+Shift+N) copies it with its settings."
            )
        )
        self.empty.setObjectName("eventsEmpty")
        self.empty.setWordWrap(True)
        self.editor = EventEditor(self)
        self.settings = EventSettings(state)
        self.settings.saved = self.editor.reload_info  # type: ignore[method-assign]  # season, class
        self.tabs = QTabWidget()
        self.tabs.setObjectName("eventTabs")
        self.tabs.addTab(self.editor, _("Event"))
        self.tabs.addTab(self.settings, _("Night settings"))
        left = QWidget()
        left_layout = QVBoxLayout(left)
        title = QLabel(_("Events"))
        title.setStyleSheet("font-size: 16pt; font-weight: 600;")
        left_layout.addWidget(title)
        left_layout.addWidget(self.empty)
        left_layout.addWidget(self.table, 1)
        # the list's filter on a line of its own, above the buttons: on one line with them the list was too
        # wide for a 1366-pixel screen in Spanish (a horizontal scroll bar hid the form's right edge)
        left_layout.addWidget(self.week_first)
        row = QHBoxLayout()
        row.addWidget(self.new_button)
        row.addWidget(self.copy_button)
        row.addStretch(1)
        left_layout.addLayout(row)
        # on a line of its own: beside the two others it made the list too wide at 150 % in Spanish
        send_row = QHBoxLayout()
        send_row.addWidget(self.send_button)
        send_row.addStretch(1)
        left_layout.addLayout(send_row)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([840, 460])  # the editor keeps its narrowest layout, the list the rest
        self.table.setWordWrap(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.addWidget(splitter)
        for keys, slot in (
            ("Ctrl+N", self.new_event),
            ("Ctrl+Shift+N", self.copy_selected),
            ("Ctrl+S", self.save_current),
        ):
            sc = QShortcut(QKeySequence(keys), self)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(slot)
        state.dataChanged.connect(self._data_changed)
        state.changed.connect(self._changes)
        self.refresh()

    def _name_text(self, e: ev_service.EventInfo) -> str:
        text = ("↳ " if e.parent_event_id else "") + e.name
        if e.id in self._week:
            text = "★ " + text + "  · " + _("this week")
        return text

    def refresh(self, select: int | None = None) -> None:
        events = ev_service.list_events(self.state.db)
        # newest main events first, each followed by its side events
        events.sort(key=lambda e: (-(e.parent_event_id or e.id), e.parent_event_id is not None, e.id))
        self._week = {e.id for e in events if this_week(_event_day(e))}
        if self.week_first.isChecked() and self._week:
            # this week's night (and its side events) at the top, marked
            tops = {e.parent_event_id or e.id for e in events if e.id in self._week}
            events.sort(key=lambda e: (e.parent_event_id or e.id) not in tops)
        self.table.blockSignals(True)
        self.model.set_rows(events)
        self.table.blockSignals(False)
        self.empty.setVisible(not events)
        self.copy_button.setEnabled(bool(events))
        if select is not None:
            for i, e in enumerate(events):
                if e.id == select:
                    self.table.selectRow(i)

    def _selected(self, *args: object) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return
        info: ev_service.EventInfo = self.model.data(rows[0], ROW_ROLE)
        self.send_button.setEnabled(info.status == "finished")  # rule T12d: only final places travel
        if info.id != self.editor.event_id or info.id != self.settings.event_id:
            if not self.editor.confirm_discard() or not self.settings.confirm_discard():
                self._reselect(self.editor.event_id)  # stay on the event being edited
                return
            if info.id != self.editor.event_id:
                self.editor.load(info.data(), info)
            self.settings.load(info.id)

    def send_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            from clubdesk.ui.club.federation_panel import send_event

            send_event(self, self.state, self.model.data(rows[0], ROW_ROLE).id)

    def _reselect(self, event_id: int | None) -> None:
        self.table.selectionModel().blockSignals(True)
        self.table.clearSelection()
        for i, e in enumerate(self.model.rows):
            if e.id == event_id:
                self.table.selectRow(i)
        self.table.selectionModel().blockSignals(False)
        self.table.viewport().update()

    def new_event(self) -> None:
        if not self.editor.confirm_discard() or not self.settings.confirm_discard():
            return
        self._reselect(None)
        self.editor.clear()
        self.settings.load(None)
        self.tabs.setCurrentWidget(self.editor)
        self.editor.name.setFocus()

    def save_current(self) -> bool:
        """Ctrl+S: the tab in front is saved."""
        if self.tabs.currentWidget() is self.settings:
            return self.settings.save()
        return self.editor.save()

    # ------------------------------------------------------------------ weekly nights
    def selected_event(self) -> ev_service.EventInfo | None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            info: ev_service.EventInfo = self.model.data(rows[0], ROW_ROLE)
            return info
        return None

    def ask_copy(self, info: ev_service.EventInfo) -> tuple[date, str] | None:
        """The date and name of the copy, or None (a method, so tests can answer it)."""
        dialog = CopyEventDialog(info, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.values()

    def copy_selected(self) -> int | None:
        """New event from the selected one (the form asks first about unsaved edits)."""
        info = self.selected_event()
        if info is None:
            set_message(self.editor.message, _("Choose the event to copy in the list first."), False)
            return None
        if not self.editor.confirm_discard() or not self.settings.confirm_discard():
            return None
        answer = self.ask_copy(info)
        if answer is None:
            return None
        day, name = answer
        try:
            new = ev_service.copy_event(self.state.db, self.state.actor, info.id, starts_on=day, name=name)
        except ServiceError as exc:
            set_message(self.editor.message, exc.message, False)
            return None
        self.refresh(select=new.id)
        self.editor.load(new.data(), new)
        self.settings.load(new.id)
        set_message(
            self.editor.message,
            _(
                "Event {id} created from {name}, on {day}: settings and prize plan copied, no entrants."
            ).format(id=new.id, name=info.name, day=day.isoformat()),
            True,
        )
        self.state.dataChanged.emit("events")
        return new.id

    def _data_changed(self, area: str) -> None:
        if area in ("desk", "rounds"):  # registrations, statuses: the list and the editor stay current
            self._follow()

    def _changes(self, changes: Changes, _origin: object) -> None:
        if changes.event or changes.rounds:  # an event's status, its rounds (a published round locks)
            self._follow()

    def _follow(self) -> None:
        """The list, the editor and the settings as stored (settings being edited are kept)."""
        self.refresh(select=self.editor.event_id)
        self.editor.reload_info()
        if self.settings.event_id is not None and not self.settings.dirty():
            self.settings.load(self.settings.event_id)  # a published round locks settings
