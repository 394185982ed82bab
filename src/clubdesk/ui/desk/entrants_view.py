"""The Desk's entrants tab: register a member, take a payment, withdraw (with the refund the policy gives),
promote from the waiting list, mark no-shows, draw the pairs of a pairs event.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clubdesk import labels
from clubdesk.i18n import _
from clubdesk.services import desk, events
from clubdesk.services import money as money_service
from clubdesk.services.desk import Choice
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.money.cashbox_view import METHOD_NAMES
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.money import money, parse_money
from clubdesk.ui.widgets.name_field import NameField
from clubdesk.ui.widgets.rows import ROW_ROLE, Column, RowsModel, set_message
from clubdesk.ui.widgets.tables import row_table


class DeskHost(Protocol):
    """What a Desk tab needs from the Desk section: the state, the chosen event, a refresh of every tab."""

    state: DeskState

    def event_id(self) -> int | None: ...

    def event_info(self) -> events.EventInfo | None: ...

    def refresh(self) -> None: ...


STATUS_COLORS = {
    "waitlisted": "#8a5a00",
    "withdrawn": "#777777",
    "no_show": "#b00020",
    "disqualified": "#b00020",
}


def entrant_columns() -> list[Column]:
    return [
        Column(_("No."), lambda r: r.entrant, True),
        Column(_("Name"), lambda r: r.name),
        Column(
            _("Status"),
            lambda r: labels.entrant_status_label(r.status),
            False,
            lambda r: STATUS_COLORS.get(r.status),
        ),
        Column(_("Waiting"), lambda r: r.waitlist_position or "", True),
        Column(_("Code"), lambda r: r.code),
        Column(_("Price"), lambda r: money(r.price, r.currency), True),
        Column(_("Paid"), lambda r: money(r.paid, r.currency), True),
        Column(
            _("Owed"),
            lambda r: money(r.owed, r.currency) if r.owed else "",
            True,
            lambda r: "#b00020" if r.owed else None,
        ),
        Column(
            _("Checked in"),
            lambda r: f"✔ {r.checked_in_at:%H:%M}" if r.checked_in_at else "",
            False,
            lambda r: "#1b5e20" if r.checked_in_at else None,
        ),
    ]


class EntrantsView(QWidget):
    def __init__(self, section: DeskHost) -> None:
        super().__init__()
        self.section = section
        self.state = section.state
        self.model = RowsModel(entrant_columns())
        self.table = row_table(self.model, "entrantsTable")
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)

        # register
        # a member by name (accent-insensitive, as the register's search) or by number
        self.number = NameField(self._members)
        self.number.setObjectName("registerNumber")
        self.number.setPlaceholderText(_("member: name or number"))
        self.partner = NameField(self._members)
        self.partner.setObjectName("registerPartner")
        self.partner.setPlaceholderText(_("partner: name or number"))
        self.register_button = QPushButton(_("&Register"))
        self.register_button.setObjectName("registerButton")
        self.register_button.clicked.connect(self.register)
        self.number.returnPressed.connect(self.register)
        self.partner.returnPressed.connect(self.register)
        reg_box = QGroupBox(_("New entry"))
        reg_row = QHBoxLayout(reg_box)
        number_label = QLabel(_("Member: &name or no."))
        number_label.setBuddy(self.number)
        reg_row.addWidget(number_label)
        reg_row.addWidget(self.number)
        reg_row.addWidget(self.partner)
        reg_row.addWidget(self.register_button)

        # pay
        self.selected_label = QLabel(_("Select an entrant"))
        self.selected_label.setObjectName("selectedEntrant")
        self.selected_label.setStyleSheet("font-weight: 600;")
        self.amount = QLineEdit()
        self.amount.setObjectName("payAmount")
        self.amount.setPlaceholderText(_("amount"))
        self.amount.setMaximumWidth(120)
        self.method = QComboBox()
        self.method.setObjectName("payMethod")
        for key, name in METHOD_NAMES.items():
            self.method.addItem(_(name), key)
        self.reference = QLineEdit()
        self.reference.setObjectName("payReference")
        self.reference.setPlaceholderText(_("reference (transfer text, card slip)"))
        self.pay_button = QPushButton(_("&Pay"))
        self.pay_button.setObjectName("payButton")
        self.pay_button.clicked.connect(self.pay)
        self.amount.returnPressed.connect(self.pay)
        self.withdraw_button = QPushButton(_("&Withdraw…"))
        self.withdraw_button.setObjectName("withdrawButton")
        self.withdraw_button.clicked.connect(self.withdraw)
        self.promote_button = QPushButton(_("Move &up"))
        self.promote_button.setObjectName("promoteButton")
        self.promote_button.clicked.connect(self.promote)
        self.no_show_button = QPushButton(_("Give no-shows' places"))
        self.no_show_button.setToolTip(
            _("Places of registered entrants not checked in go to waiting entrants present")
        )
        self.no_show_button.clicked.connect(self.no_shows)
        # rule B1: a pair league's partners drawn by lot, once
        self.pairs_draw_button = QPushButton(_("Draw pairs by lot…"))
        self.pairs_draw_button.setObjectName("pairsDrawButton")
        self.pairs_draw_button.setToolTip(_("Rule B1: the league's partners drawn by lot, once, from a seed"))
        self.pairs_draw_button.clicked.connect(self._ask_pairs_draw)
        pay_box = QGroupBox(_("Selected entrant"))
        pay_layout = QVBoxLayout(pay_box)
        pay_layout.addWidget(self.selected_label)
        pay_row = QHBoxLayout()
        amount_label = QLabel(_("&Amount"))
        amount_label.setBuddy(self.amount)
        pay_row.addWidget(amount_label)
        pay_row.addWidget(self.amount)
        pay_row.addWidget(self.method)
        pay_row.addWidget(self.reference, 1)
        pay_row.addWidget(self.pay_button)
        pay_layout.addLayout(pay_row)
        act_row = QHBoxLayout()
        act_row.addWidget(self.withdraw_button)
        act_row.addWidget(self.promote_button)
        act_row.addStretch(1)
        act_row.addWidget(self.pairs_draw_button)
        act_row.addWidget(self.no_show_button)
        pay_layout.addLayout(act_row)

        self.message = QLabel("")
        self.message.setObjectName("deskMessage")
        self.message.setWordWrap(True)
        self.summary = QLabel("")
        self.summary.setObjectName("deskSummary")

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.addWidget(reg_box)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(pay_box)
        layout.addWidget(self.message)
        self._selection_changed()

    # ------------------------------------------------------------------ data

    def refresh(self) -> None:
        keep = self.selected()
        event_id = self.section.event_id()
        rows = [] if event_id is None else desk.by_name(desk.entrants(self.state.db, event_id))
        self.model.set_rows(rows)
        info = self.section.event_info()
        if info is not None:
            pair = info.entry_type != "single"
            self.partner.setVisible(pair)
            self.pairs_draw_button.setVisible(info.entry_type == "pair")
            registered = sum(1 for r in rows if r.status == "registered")
            waiting = sum(1 for r in rows if r.status == "waitlisted")
            paid = sum(r.paid for r in rows)
            owed = sum(r.owed for r in rows)
            cap = info.capacity if info.capacity is not None else "∞"
            self.summary.setText(
                _("{reg} of {cap} places taken · {wait} waiting · paid {paid} · still owed {owed}").format(
                    reg=registered,
                    cap=cap,
                    wait=waiting,
                    paid=money(paid, info.currency),
                    owed=money(owed, info.currency),
                )
            )
        if keep is not None:
            self.select(keep.entrant)
        self._selection_changed()

    def selected(self) -> desk.EntrantRow | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        row: desk.EntrantRow = self.model.data(rows[0], ROW_ROLE)
        return row

    def select(self, entrant_id: int) -> None:
        for i, row in enumerate(self.model.rows):
            if row.entrant == entrant_id:
                self.table.selectRow(i)
                return

    def _selection_changed(self, *args: object) -> None:
        row = self.selected()
        has = row is not None
        for w in (self.pay_button, self.withdraw_button, self.amount):
            w.setEnabled(has and row is not None and row.status in ("registered", "waitlisted"))
        self.promote_button.setEnabled(row is not None and row.status == "waitlisted")
        if row is None:
            self.selected_label.setText(_("Select an entrant"))
            return
        self.selected_label.setText(
            _("{name} · code {code} · paid {paid} · owed {owed}").format(
                name=row.name,
                code=row.code,
                paid=money(row.paid, row.currency),
                owed=money(row.owed, row.currency),
            )
        )
        if row.owed and not self.amount.text():
            from clubdesk.standings.money import minor_to_major_str

            self.amount.setText(minor_to_major_str(row.owed, row.currency))

    def _changed(self, text: str, ok: bool = True) -> None:
        set_message(self.message, text, ok)
        self.refresh()
        self.state.dataChanged.emit("desk")

    # ------------------------------------------------------------------ actions

    def _members(self, text: str) -> list[Choice]:
        return desk.member_choices(self.state.db, text)

    def register(self) -> None:
        event_id = self.section.event_id()
        if event_id is None:
            set_message(self.message, _("Choose an event first."), False)
            return
        try:
            reg = desk.register(
                self.state.db,
                self.state.actor,
                event_id,
                self.number.value(),
                partner=self.partner.value() or None if self.partner.isVisible() else None,
            )
        except ServiceError as exc:
            set_message(self.message, exc.message, False)
            return
        self.number.clear()
        self.partner.clear()
        self.amount.clear()
        self._changed(reg.message, True)
        self.select(reg.entrant)
        self.amount.setFocus()

    def pay(self) -> None:
        row = self.selected()
        info = self.section.event_info()
        if row is None or info is None:
            set_message(self.message, _("Select an entrant first."), False)
            return
        try:
            amount = parse_money(self.amount.text() or "0", info.currency)
            p = money_service.pay(
                self.state.db,
                self.state.actor,
                info.id,
                row.entrant,
                amount,
                str(self.method.currentData()),
                reference=self.reference.text(),
            )
        except ServiceError as exc:
            set_message(self.message, exc.message, False)
            return
        self.amount.clear()
        self.reference.clear()
        self._changed(
            _("Receipt {id}: {amount} from {name}.").format(
                id=p.id, amount=money(p.amount, p.currency), name=row.name
            )
        )
        self.number.setFocus()

    def withdraw(self) -> None:
        row = self.selected()
        info = self.section.event_info()
        if row is None or info is None:
            return
        answer = QMessageBox.question(
            self,
            _("Withdraw"),
            _("Withdraw {name} from {event}? The refund follows the event's policy.").format(
                name=row.name, event=info.name
            ),
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        self.do_withdraw(row.entrant)

    def do_withdraw(self, entrant_id: int) -> None:
        event_id = self.section.event_id()
        if event_id is None:
            return
        try:
            out = desk.withdraw(self.state.db, self.state.actor, event_id, entrant_id)
        except ServiceError as exc:
            set_message(self.message, exc.message, False)
            return
        self._changed(out.message)

    def promote(self) -> None:
        row = self.selected()
        event_id = self.section.event_id()
        if row is None or event_id is None:
            return
        try:
            desk.promote(self.state.db, self.state.actor, event_id, row.entrant)
        except ServiceError as exc:
            set_message(self.message, exc.message, False)
            return
        self._changed(_("{name} moved up from the waiting list.").format(name=row.name))

    def no_shows(self) -> None:
        event_id = self.section.event_id()
        if event_id is None:
            return
        try:
            swaps = desk.give_no_show_places(self.state.db, self.state.actor, event_id)
        except ServiceError as exc:
            set_message(self.message, exc.message, False)
            return
        text = " ".join(
            _("{new} takes the place of {old}.").format(new=x.promoted_name, old=x.no_show_name)
            for x in swaps
        )
        self._changed(text or _("No place changed hands: no waiting entrant is present."))

    def _ask_pairs_draw(self) -> None:
        import random

        seed, ok = QInputDialog.getInt(
            self,
            _("Draw pairs by lot"),
            _("Seed of the draw (the same seed gives the same pairs):"),
            random.randrange(1, 1_000_000),
            0,
            2_147_483_647,
        )
        if ok:
            self.draw_pairs(seed)

    def draw_pairs(self, seed: int) -> bool:
        """Rule B1: draw the event's pairs by lot from ``seed``; the drawn pairs are shown."""
        from clubdesk.services.kernel import ServiceError

        event_id = self.section.event_id()
        if event_id is None:
            return False
        try:
            res = events.draw_league_pairs(self.state.db, self.state.actor, event_id, seed)
        except ServiceError as exc:
            set_message(self.message, exc.message, False)
            return False
        self._changed(" ".join(res.explanations))
        return True
