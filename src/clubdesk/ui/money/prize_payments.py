"""The prize payments tab of the Standings section's Prizes panel: once the event is over, the prizes per
place (a shared place's money split, T13c), each one unpaid or paid (date, method, who: T13e, never twice —
the services refuse a second payment), and "Print prize list" (the prize list PDF of services.publishing).
"""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate
from PySide6.QtWidgets import (
    QComboBox,
    QDateEdit,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.labels import payment_method_label
from clubdesk.models.money import METHODS
from clubdesk.services import money as money_service
from clubdesk.services import publishing
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.shell.printing import JobResult, ReportRunner
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.money import money
from clubdesk.ui.widgets.rows import ROW_ROLE, Column, RowsModel, set_message
from clubdesk.ui.widgets.tables import row_table


class PrizePaymentsTab(QWidget):
    """The payments tab's widgets and logic, hosted by the Prizes panel (``ui/ranking/prizes_panel.py``)."""

    # the panel's own: set in PrizesPanel.__init__ and show_event
    state: DeskState
    event_id: int | None
    ctx: money_service.PrizeContext | None
    exp: int
    currency: str
    dirty: bool
    loading: bool
    context: QLabel
    inner: QTabWidget  # the panel's two tabs: this one is the second

    def awards_tab(self) -> QWidget:
        self.awards_empty = QLabel("")
        self.awards_empty.setObjectName("awardsEmpty")
        self.awards_empty.setWordWrap(True)
        self.awards_model = RowsModel(
            [
                Column(_("Place"), self._place_text),
                Column(_("Name"), lambda p: p.name),
                Column(_("Prize"), self._prize_text),
                Column(_("Amount"), lambda p: money(p.amount, p.currency) if p.kind == "money" else "", True),
                Column(_("Paid"), self._paid_text, color=lambda p: None if p.paid_at else "#b00020"),
            ]
        )
        self.awards = row_table(self.awards_model, "awards")
        self.awards.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
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
        self.print_button = QPushButton(_("Print prize list"))
        self.print_button.setObjectName("printPrizes")
        self.print_button.clicked.connect(self.print_list)
        self.save_pdf_button = QPushButton(_("Save as PDF…"))
        self.save_pdf_button.setObjectName("savePrizesPdf")
        self.save_pdf_button.clicked.connect(self.save_pdf)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(120)
        self.progress.setVisible(False)
        self.report_message = QLabel("")
        self.report_message.setObjectName("prizeReportMessage")
        self.runner = ReportRunner(
            self.state.db, self, self.progress, self.report_message, [self.print_button, self.save_pdf_button]
        )
        self.last_result: JobResult | None = None
        self.runner.done.connect(self._report_done)
        self.runner.busy_changed.connect(self.progress.setVisible)
        w = QWidget()
        v = QVBoxLayout(w)
        v.setContentsMargins(0, 0, 0, 0)
        v.addWidget(self.awards_empty)
        v.addWidget(self.awards, 1)
        row = QHBoxLayout()
        row.addWidget(QLabel(_("Selected prize paid by")))
        row.addWidget(self.method)
        row.addWidget(QLabel(_("on")))
        row.addWidget(self.day)
        row.addWidget(self.pay_button)
        row.addWidget(self.message, 1)
        v.addLayout(row)
        row = QHBoxLayout()
        row.addWidget(self.print_button)
        row.addWidget(self.save_pdf_button)
        row.addWidget(self.progress)
        row.addWidget(self.report_message, 1)
        v.addLayout(row)
        return w

    @staticmethod
    def _place_text(p: money_service.PrizeLine) -> str:
        return (
            money_service.label_category(p.place_text) if p.key.startswith("cat:") else p.place_text
        )  # T13d

    @staticmethod
    def _prize_text(p: money_service.PrizeLine) -> str:
        if p.kind == "money":
            return _("Category prize money") if p.key.startswith("cat:") else _("Prize money")
        kind = money_service.payment_item_label(p.kind)
        return f"{kind}: {p.description}" if p.description else kind

    @staticmethod
    def _paid_text(p: money_service.PrizeLine) -> str:
        if p.paid_at is None:
            return _("unpaid")
        return _("paid {d} by {who} ({how})").format(
            d=p.paid_at.strftime("%Y-%m-%d"), who=p.paid_by, how=payment_method_label(p.method)
        )

    def load_awards(self) -> None:
        lines = (
            money_service.prize_lines(self.state.db, self.event_id)
            if self.ctx is not None and self.event_id is not None
            else []
        )
        self.awards_model.set_rows(lines)
        ctx = self.ctx
        if ctx is None:
            text = _("Create an event first (Events).")
        elif lines:
            text = ""
        elif ctx.finished:
            text = (
                _("The event ended without prizes: it had no prize plan.")
                if ctx.plan is None
                else _("The event ended; nobody could receive a prize of its plan.")
            )
        elif ctx.plan is None:
            text = _(
                "No prizes yet. Set a prize plan in Plan and preview; the prizes are awarded when the "
                "event ends, and their payments are recorded here."
            )
        else:
            text = _("The prizes are awarded when the event ends; then record each payment here.")
        self.awards_empty.setText(text)
        self.awards_empty.setVisible(bool(text))
        for w in (self.pay_button, self.method, self.day):
            w.setEnabled(bool(lines))
        for w in (self.print_button, self.save_pdf_button):
            w.setEnabled(ctx is not None and not self.runner.busy)
        if ctx is not None and ctx.finished and lines:
            self.inner.setCurrentIndex(1)
        if lines and not self.awards.selectionModel().hasSelection():
            first = next((k for k, p in enumerate(lines) if p.paid_at is None), 0)
            self.awards.selectRow(first)

    def selected_line(self) -> money_service.PrizeLine | None:
        idx = self.awards.selectionModel().selectedRows()
        if not idx:
            return None
        line = self.awards_model.data(idx[0], ROW_ROLE)
        return line if isinstance(line, money_service.PrizeLine) else None

    def select_place(self, place: int) -> bool:
        for k, p in enumerate(self.awards_model.rows):
            if p.place == place and not p.key.startswith("cat:"):
                self.awards.selectRow(k)
                return True
        return False

    def record(self) -> bool:
        """Record the payment of the selected prize (T13e); a second payment is refused with its reason."""
        line = self.selected_line()
        if self.event_id is None or line is None:
            set_message(self.message, _("Select a prize first."), False)
            return False
        d = self.day.date()
        try:
            res = money_service.pay_prize(
                self.state.db,
                self.state.actor,
                self.event_id,
                line.place,
                str(self.method.currentData()),
                on=date(d.year(), d.month(), d.day()),
                entrant=line.entrant,
                award=line.award if line.key.startswith("cat:") else None,  # rule T13d: its own payment
            )
        except ServiceError as exc:
            set_message(self.message, exc.message, False)
            return False
        set_message(
            self.message, _("Prize for place {p} paid to {name}.").format(p=res.place, name=res.paid_to), True
        )
        row = self.awards.currentIndex().row()
        self.load_awards()
        self.awards.selectRow(row)
        return True

    def _request(self) -> publishing.ReportRequest | None:
        if self.event_id is None:
            return None
        return publishing.ReportRequest(kind="prizes", event_id=self.event_id)

    def print_list(self) -> None:
        req = self._request()
        if req is not None:
            self.runner.print(req)

    def save_pdf(self, path: str | None = None) -> None:
        req = self._request()
        if req is not None:
            self.runner.save_as(self, req, path)

    def _report_done(self, result: JobResult) -> None:
        self.last_result = result
