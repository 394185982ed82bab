"""The Prizes tab of the Standings section (rules T13a-T13e): "Plan and preview" (the event's prize plan and
the amounts it gives, :mod:`clubdesk.ui.ranking.prize_plan`) and "Awards and payments" (the prizes awarded and
each one's payment, :mod:`clubdesk.ui.money.prize_payments`). A plan being edited is kept while results come
in; once the event is over the plan is read-only.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QLabel,
    QTabWidget,
    QVBoxLayout,
)

from clubdesk.i18n import _
from clubdesk.services import money
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.money.prize_payments import PrizePaymentsTab
from clubdesk.ui.ranking.prize_plan import PrizePlanTab
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.fit import fit_combos


class PrizesPanel(PrizePlanTab, PrizePaymentsTab):
    """The Prizes tab: the plan and its preview (:mod:`clubdesk.ui.ranking.prize_plan`), the awards and their
    payments (:mod:`clubdesk.ui.money.prize_payments`)."""

    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.event_id: int | None = None
        self.ctx: money.PrizeContext | None = None
        self.exp = 2
        self.currency = ""
        self.loading = False
        self.dirty = False  # the plan on screen differs from the stored one
        self.context = QLabel("")
        self.context.setObjectName("prizeContext")
        self.context.setWordWrap(True)
        self.inner = QTabWidget()
        self.inner.setObjectName("prizeTabs")
        self.inner.addTab(self.plan_tab(), _("Plan and preview"))
        self.inner.addTab(self.awards_tab(), _("Awards and payments"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.context)
        layout.addWidget(self.inner, 1)
        fit_combos(self)

    def show_event(self, event_id: int | None) -> None:
        if event_id != self.event_id:
            self.dirty = False  # another event: its own plan
        self.event_id = event_id
        self.refresh()

    def refresh(self) -> None:
        """Reread the event; a plan being edited (not saved yet) is kept while results come in."""
        self.ctx = None
        if self.event_id is not None:
            try:
                self.ctx = money.prize_context(self.state.db, self.event_id)
            except ServiceError as exc:
                self.context.setText(exc.message)
        if self.dirty and self.ctx is not None and not self.ctx.finished:
            self.show_context()
            self.update_preview()
        else:
            self.load_plan()
        self.load_awards()
