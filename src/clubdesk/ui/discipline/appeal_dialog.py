"""File an appeal (rules T10, G16): in time, or a late one let in by the referee with a reason."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.services import discipline
from clubdesk.ui.discipline.form import FormDialog, spin_box
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.money import parse_money


class AppealDialog(FormDialog):
    """File an appeal (rules T10, G16): in time, or a late one let in by the referee with a reason."""

    def __init__(self, state: DeskState, event_id: int, currency: str, parent: QWidget | None = None) -> None:
        super().__init__(_("New appeal"), parent)
        self.setObjectName("appealDialog")
        self.state = state
        self.event_id = event_id
        self.currency = currency
        self.round_no = spin_box(1, 1)
        self.table_no = spin_box(1, 1)
        self.by = QComboBox()
        self.by.setObjectName("appealBy")
        for eid, name in sorted(discipline.appeal_entrants(state.db, event_id).items()):
            self.by.addItem(f"{name} ({eid})", eid)
        self.fee = QLineEdit()
        self.fee.setObjectName("appealFee")
        self.fee.setPlaceholderText(_("e.g. 5 or 12.50 {currency}").format(currency=currency))
        self.text = QPlainTextEdit()
        self.text.setObjectName("appealText")
        self.text.setTabChangesFocus(True)
        self.text.setFixedHeight(80)
        self.override = QLineEdit()
        self.override.setPlaceholderText(_("referee's reason to hear a late appeal"))
        # rules G16, T10: what the appeal is about; a decided appeal on the same table and subject is final
        self.subject = QLineEdit("result")
        self.subject.setObjectName("appealSubject")
        self.form.addRow(_("&Round"), self.round_no)
        self.form.addRow(_("&Table"), self.table_no)
        self.form.addRow(_("&By"), self.by)
        self.form.addRow(_("&Subject"), self.subject)
        self.form.addRow(_("&Fee"), self.fee)
        self.form.addRow(_("&Appeal"), self.text)
        self.form.addRow(_("&Late override"), self.override)

    def submit(self) -> discipline.AppealView:
        fee = 0
        if self.fee.text().strip():
            fee = parse_money(self.fee.text(), self.currency)
        return discipline.file_appeal(
            self.state.db,
            self.state.actor,
            self.event_id,
            round_no=self.round_no.value(),
            table_no=self.table_no.value(),
            entrant_id=int(self.by.currentData()),
            text=self.text.toPlainText(),
            fee=fee,
            override=self.override.text().strip() or None,
            subject=self.subject.text(),
        )
