"""The Prizes tab of the Standings section (rule T13e, issue 19): the event's prizes, paid or not, and
"Record payment…" (place, method, day) through ``services.prize_payments``."""

from __future__ import annotations

from PySide6.QtCore import QDate
from PySide6.QtWidgets import (
    QComboBox,
    QDateEdit,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.labels import payment_method_label
from clubdesk.models.money import METHODS
from clubdesk.services import prize_payments as PP
from clubdesk.services.base import ServiceError
from clubdesk.ui.state import DeskState
from clubdesk.ui.theme import themed


class PrizesPanel(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.event_id: int | None = None
        self.list = QPlainTextEdit()
        self.list.setObjectName("prizeList")
        self.list.setReadOnly(True)
        self.place = QSpinBox()
        self.place.setObjectName("prizePlace")
        self.place.setRange(1, 999)
        self.method = QComboBox()
        self.method.setObjectName("prizeMethod")
        for m in METHODS:
            self.method.addItem(payment_method_label(m), m)
        self.day = QDateEdit(QDate.currentDate())
        self.day.setObjectName("prizeDay")
        self.day.setCalendarPopup(True)
        self.pay_button = QPushButton(_("Record payment"))
        self.pay_button.setObjectName("prizePay")
        self.pay_button.clicked.connect(self.record)
        self.message = QLabel("")
        self.message.setObjectName("prizeMessage")
        self.message.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(QLabel(_("Place")))
        row.addWidget(self.place)
        row.addWidget(self.method)
        row.addWidget(self.day)
        row.addWidget(self.pay_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list, 1)
        layout.addLayout(row)
        layout.addWidget(self.message)

    def show_event(self, event_id: int | None) -> None:
        self.event_id = event_id
        self.refresh()

    def refresh(self) -> None:
        if self.event_id is None:
            self.list.setPlainText("")
            return
        lines = []
        for p in PP.prize_lines(self.state.db, self.event_id):
            amount = f"{p.amount / 100:.2f} {p.currency}" if p.kind == "money" else (p.description or p.kind)
            state = (
                _("paid {d} by {who} ({how})").format(
                    d=p.paid_at.strftime("%Y-%m-%d"), who=p.paid_by, how=payment_method_label(p.method)
                )
                if p.paid_at
                else _("unpaid")
            )
            lines.append(f"{p.place:>3}  {p.name:<30} {amount:>14}  {state}")
        self.list.setPlainText("\n".join(lines) or _("No prizes awarded (yet)."))

    def record(self) -> bool:
        if self.event_id is None:
            return False
        d = self.day.date()
        from datetime import date

        try:
            res = PP.pay_prize(
                self.state.db,
                self.state.actor,
                self.event_id,
                self.place.value(),
                str(self.method.currentData()),
                on=date(d.year(), d.month(), d.day()),
            )
        except ServiceError as exc:
            self.message.setText(exc.message)
            self.message.setStyleSheet(themed("color: #b00020;"))
            return False
        self.message.setText(_("Prize for place {p} paid to {name}.").format(p=res.place, name=res.paid_to))
        self.message.setStyleSheet(themed("color: #14532d;"))
        self.refresh()
        return True
