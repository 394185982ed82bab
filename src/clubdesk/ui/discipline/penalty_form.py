"""A referee's penalty or decision on a table (rules G3, B7, E15, E16, E20, G15, T3b, T9c, T9d)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QLineEdit,
    QWidget,
)

from clubdesk.competition import discipline as discipline_rules
from clubdesk.i18n import _
from clubdesk.services import discipline
from clubdesk.ui.discipline.form import FormDialog, optional_value, spin_box
from clubdesk.ui.shell.state import DeskState


class PenaltyDialog(FormDialog):
    """A referee's penalty or decision on a table (rules G3, B7, E15, E16, E20, G15, T3b, T9c, T9d)."""

    def __init__(
        self,
        state: DeskState,
        event_id: int,
        family: str,
        round_no: int | None = None,
        table_no: int | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(_("Penalty or decision"), parent)
        self.setObjectName("penaltyDialog")
        self.state = state
        self.event_id = event_id
        self.round_no = spin_box(round_no, 1)
        self.table_no = spin_box(table_no, 1)
        self.side = QComboBox()
        self.side.addItem(_("first named side"), 0)
        self.side.addItem(_("second named side"), 1)
        self.kind = QComboBox()
        self.kind.setObjectName("penaltyKind")
        for k in discipline_rules.PENALTY_KINDS:
            if k in discipline_rules.FAMILY_PENALTIES.get(family, frozenset()):
                self.kind.addItem(_(discipline_rules.PENALTY_LABELS[k]), k)
        self.points = spin_box(None, 0, 9999, _("—"))
        self.points.setObjectName("penaltyPoints")
        self.after_hand = spin_box(None, -1, 99, _("at the end"))
        self.reason = QLineEdit()
        self.reason.setObjectName("penaltyReason")
        self.override = QLineEdit()
        self.override.setPlaceholderText(_("only to change a locked result (rule T10)"))
        self.form.addRow(_("&Round"), self.round_no)
        self.form.addRow(_("&Table"), self.table_no)
        self.form.addRow(_("&Side"), self.side)
        self.form.addRow(_("&Kind"), self.kind)
        self.form.addRow(_("&Points"), self.points)
        self.form.addRow(_("After &hand"), self.after_hand)
        self.form.addRow(_("R&eason"), self.reason)
        self.form.addRow(_("&Override reason"), self.override)

    def submit(self) -> discipline.PenaltyView:
        return discipline.impose_penalty(
            self.state.db,
            self.state.actor,
            self.event_id,
            round_no=self.round_no.value(),
            table_no=self.table_no.value(),
            side=int(self.side.currentData()),
            kind=str(self.kind.currentData()),
            points=optional_value(self.points),
            reason=self.reason.text(),
            override=self.override.text().strip() or None,
            after_hand=optional_value(self.after_hand),
        )
