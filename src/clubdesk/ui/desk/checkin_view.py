"""The check-in screen (rule T3a): one field ready for a USB scanner, which types the QR payload
(``CLUBDESK:CHECKIN:<event>:<code>``) and Enter; a name, check-in code, member number or phone typed by hand
works the same (a name that several entrants answer to is refused, and they are offered to choose from). Who
was checked in is shown large; a refusal is shown large in red. The field is cleared and keeps the focus,
ready for the next person.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QListWidget, QVBoxLayout, QWidget

from clubdesk.i18n import _
from clubdesk.services import desk
from clubdesk.services.desk import Choice
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.widgets.name_field import NameField


class CheckinView(QWidget):
    def __init__(self, state: DeskState, event_id: Callable[[], int | None]) -> None:
        super().__init__()
        self.state = state
        self._event_id = event_id
        self.setObjectName("checkinView")
        hint = QLabel(
            _(
                "Scan the QR code of the receipt, or type the name, check-in code, member number or phone, "
                "then Enter."
            )
        )
        hint.setWordWrap(True)
        # a name typed offers the event's entrants (accent-insensitive); a scan or code works as before
        self.field = NameField(self._entrants)
        self.field.setObjectName("scanField")
        self.field.setPlaceholderText(_("Scan, or type a name, code, number or phone…"))
        self.field.setStyleSheet("font-size: 20pt; padding: 8px;")
        self.field.returnPressed.connect(self.submit)
        # "type the name, then Enter": Enter on the name offered checks in (the name picked is the entrant's)
        self.field.picked.connect(lambda _label: self.submit())
        self.result = QLabel("")
        self.result.setObjectName("checkinResult")
        self.result.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.result.setWordWrap(True)
        self.result.setMinimumHeight(70)
        self.result.setMaximumHeight(220)
        self.detail = QLabel("")
        self.detail.setObjectName("checkinDetail")
        self.detail.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.detail.setWordWrap(True)
        self.detail.setStyleSheet("font-size: 14pt;")
        self.counter = QLabel("")
        self.counter.setObjectName("checkinCounter")
        self.counter.setStyleSheet(themed("font-size: 12pt; color: #444;"))
        self.recent = QListWidget()
        self.recent.setObjectName("recentCheckins")
        self.recent.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.addWidget(hint)
        layout.addWidget(self.field)
        layout.addWidget(self.result)
        layout.addWidget(self.detail)
        layout.addWidget(self.counter)
        layout.addWidget(QLabel(_("Last check-ins")))
        layout.addWidget(self.recent, 1)
        self.setFocusProxy(self.field)
        self.refresh()

    def refresh(self) -> None:
        event_id = self._event_id()
        if event_id is None:
            self.counter.setText(_("Choose an event first."))
            return
        rows = [r for r in desk.by_name(desk.entrants(self.state.db, event_id)) if r.status == "registered"]
        done = sum(1 for r in rows if r.checked_in)
        self.counter.setText(
            _("{done} of {total} registered entrants checked in.").format(done=done, total=len(rows))
        )

    def _show(self, text: str, ok: bool, detail: str = "") -> None:
        color = "#1b5e20" if ok else "#b00020"
        background = "#e8f5e9" if ok else "#fdecea"
        self.result.setStyleSheet(
            themed(
                f"font-size: 30pt; font-weight: 700; color: {color}; background: {background}; "
                "border-radius: 8px; padding: 12px;"
            )
        )
        self.result.setText(text)
        self.detail.setText(detail)

    def _entrants(self, text: str) -> list[Choice]:
        event_id = self._event_id()
        return [] if event_id is None else desk.entrant_choices(self.state.db, event_id, text)

    def submit(self) -> None:
        text = self.field.value()
        self.field.clear()
        self.field.setFocus()
        event_id = self._event_id()
        if event_id is None:
            self._show(_("Choose an event first."), False)
            return
        try:
            done = desk.checkin(self.state.db, self.state.actor, event_id, text)
        except ServiceError as exc:
            self._show(_("Not checked in"), False, exc.message)
            if exc.code == "checkin-ambiguous":  # the name typed stays, its entrants offered to choose
                self.field.setText(text)
                self.field.offer(exc.params["choices"])
            return
        self._show(_("✔ {name}").format(name=done.name), True, done.message)
        self.recent.insertItem(0, f"{done.checked_in_at:%H:%M}  {done.name}  ({done.code})")
        self.refresh()
        self.state.dataChanged.emit("desk")
