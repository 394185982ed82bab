"""The incident form of the match act (rules E8–E20, G2, T1, T11), one shortcut away from score entry."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QPlainTextEdit,
    QWidget,
)

from clubdesk.competition import discipline as discipline_rules
from clubdesk.i18n import _
from clubdesk.services import desk, discipline
from clubdesk.ui.discipline.form import FormDialog, optional_value, spin_box
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.name_field import NameField


class IncidentDialog(FormDialog):
    """The incident form of the match act (rules E8–E20, G2, T1, T11)."""

    def __init__(
        self,
        state: DeskState,
        event_id: int,
        round_no: int | None = None,
        table_no: int | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(_("Incident for the match act"), parent)
        self.setObjectName("incidentDialog")
        self.state = state
        self.event_id = event_id
        self.round_no = spin_box(round_no, 1)
        self.table_no = spin_box(table_no, 1)
        self.game_no = spin_box(1, 1, 9)
        self.hand = spin_box(None, 0, 99, _("—"))
        self.kind = QComboBox()
        self.kind.setObjectName("incidentKind")
        self.kinds = discipline.kinds_for_event(state.db, event_id)
        for k in self.kinds:
            self.kind.addItem(k.title(), k.key)
        # the event's players by name (accent-insensitive), or a member (licence) number
        self.player = NameField(lambda text: desk.entrant_member_choices(state.db, event_id, text))
        self.player.setObjectName("incidentPlayer")
        self.player.setPlaceholderText(_("player: name or member (licence) number"))
        self.side = QComboBox()
        self.side.addItem(_("from the player"), None)
        self.side.addItem(_("first named side"), 0)
        self.side.addItem(_("second named side"), 1)
        self.text = QPlainTextEdit()
        self.text.setObjectName("incidentText")
        self.text.setTabChangesFocus(True)
        self.text.setFixedHeight(80)
        self.decision = QComboBox()
        self.decision.setObjectName("incidentDecision")
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self._kind_changed()
        self.form.addRow(_("&Round"), self.round_no)
        self.form.addRow(_("&Table"), self.table_no)
        self.form.addRow(_("&Game"), self.game_no)
        self.form.addRow(_("&Hand"), self.hand)
        self.form.addRow(_("&Kind"), self.kind)
        self.form.addRow(_("&Player"), self.player)
        self.form.addRow(_("&Side"), self.side)
        self.form.addRow(_("&What happened"), self.text)
        self.form.addRow(_("&Decision"), self.decision)
        self.kind.setFocus()

    def _kind_changed(self) -> None:
        key = self.kind.currentData()
        kind = next((k for k in self.kinds if k.key == key), None)
        self.decision.clear()
        self.decision.addItem(_("not decided yet"), "")
        for d in kind.decisions if kind else ():
            self.decision.addItem(_(discipline_rules.PENALTY_LABELS.get(d, d)), d)

    def submit(self) -> discipline.IncidentView:
        return discipline.record_incident(
            self.state.db,
            self.state.actor,
            self.event_id,
            round_no=self.round_no.value(),
            table_no=self.table_no.value(),
            kind=str(self.kind.currentData()),
            text=self.text.toPlainText(),
            player=self.player.value() or None,
            hand=optional_value(self.hand),
            game_no=self.game_no.value(),
            side=self.side.currentData(),
            decision=str(self.decision.currentData() or ""),
        )


def open_incident_dialog(
    state: DeskState, event_id: int, round_no: int, table_no: int, parent: QWidget | None = None
) -> discipline.IncidentView | None:
    """Open the incident form for a table (score entry binds this to one shortcut). Returns what was written,
    or None when cancelled."""
    dialog = IncidentDialog(state, event_id, round_no, table_no, parent)
    if dialog.exec() == QDialog.DialogCode.Accepted:
        state.dataChanged.emit("discipline")
        view: discipline.IncidentView = dialog.result_view
        return view
    return None
