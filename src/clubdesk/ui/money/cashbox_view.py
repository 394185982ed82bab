"""The cash box of the night: what came in and went out per payment method, and the payments themselves."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QDate
from PySide6.QtWidgets import (
    QCheckBox,
    QDateEdit,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import N_, _
from clubdesk.services import money as money_service
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.money import money
from clubdesk.ui.widgets.rows import Column, RowsModel

METHOD_NAMES = {"cash": N_("Cash"), "card": N_("Card"), "transfer": N_("Bank transfer"), "pos": N_("POS")}


class CashBoxView(QWidget):
    def __init__(self, state: DeskState, event_id: Callable[[], int | None]) -> None:
        super().__init__()
        self.state = state
        self._event_id = event_id
        self.date = QDateEdit(QDate.currentDate())
        self.date.setCalendarPopup(True)
        self.date.setDisplayFormat("yyyy-MM-dd")
        self.date.dateChanged.connect(self.refresh)
        self.this_event = QCheckBox(_("Only this event"))
        self.this_event.setChecked(True)
        self.this_event.toggled.connect(self.refresh)
        top = QHBoxLayout()
        top.addWidget(QLabel(_("Day")))
        top.addWidget(self.date)
        top.addWidget(self.this_event)
        top.addStretch(1)
        self.lines_model = RowsModel(
            [
                Column(_("Method"), lambda r: _(METHOD_NAMES.get(r.method, r.method))),
                Column(_("Received"), lambda r: money(r.received, r.currency), True),
                Column(_("Refunded"), lambda r: money(r.refunded, r.currency), True),
                Column(_("Net"), lambda r: money(r.net, r.currency), True),
                Column(_("Payments"), lambda r: r.count, True),
            ]
        )
        self.lines = QTableView()
        self.lines.setObjectName("cashLines")
        self.lines.setModel(self.lines_model)
        self.lines.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.lines.setMaximumHeight(170)
        self.lines.setMinimumHeight(60)
        self.total = QLabel("")
        self.total.setObjectName("cashTotal")
        self.total.setStyleSheet("font-size: 16pt; font-weight: 600;")
        self.pay_model = RowsModel(
            [
                Column(_("Receipt"), lambda p: p.id, True),
                Column(_("Time"), lambda p: f"{p.paid_at:%H:%M}"),
                Column(_("Entrant"), lambda p: p.entrant, True),
                Column(_("Method"), lambda p: _(METHOD_NAMES.get(p.method, p.method))),
                Column(
                    _("Amount"),
                    lambda p: money(p.amount, p.currency),
                    True,
                    lambda p: "#b00020" if p.amount < 0 else None,
                ),
                Column(_("Reference"), lambda p: p.reference),
                Column(_("By"), lambda p: p.recorded_by),
            ]
        )
        self.payments = QTableView()
        self.payments.setObjectName("cashPayments")
        self.payments.setModel(self.pay_model)
        self.payments.horizontalHeader().setStretchLastSection(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.addLayout(top)
        layout.addWidget(self.lines)
        layout.addWidget(self.total)
        layout.addWidget(QLabel(_("Payments and refunds of the day")))
        layout.addWidget(self.payments, 1)
        self.refresh()

    def refresh(self) -> None:
        day = self.date.date().toPython()
        event_id = self._event_id() if self.this_event.isChecked() else None
        box = money_service.cash_box(self.state.db, day, event_id=event_id)  # type: ignore[arg-type]
        self.lines_model.set_rows(list(box.lines))
        self.pay_model.set_rows(list(box.payments))
        currencies = sorted({line.currency for line in box.lines})
        if not currencies:
            self.total.setText(_("No money moved on this day."))
        else:
            self.total.setText(
                _("In the box: {amounts}").format(
                    amounts=", ".join(money(box.total(c), c) for c in currencies)
                )
            )
