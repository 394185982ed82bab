"""The Discipline section: the match act of an event (incidents, penalties, appeals), the appeal workflow,
and the audit view with filters and CSV export.

The incident form is one shortcut away from score entry: the score-entry screen calls
:func:`~clubdesk.ui.discipline.incident_form.open_incident_dialog` with the table it shows. Shortcuts here:
Ctrl+I new incident, Ctrl+P penalty, Ctrl+Shift+A new appeal, F5 refresh.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clubdesk import labels
from clubdesk.competition import discipline as discipline_rules
from clubdesk.competition.discipline import (
    ordinal,
)
from clubdesk.i18n import _, ngettext
from clubdesk.services import club, discipline
from clubdesk.services.kernel import Changes, ServiceError, verify_chain
from clubdesk.timefmt import local_text
from clubdesk.ui.discipline.appeal_dialog import AppealDialog
from clubdesk.ui.discipline.form import optional_value, spin_box
from clubdesk.ui.discipline.incident_form import IncidentDialog
from clubdesk.ui.discipline.penalty_form import PenaltyDialog
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.widgets.event_choice import EventChoice
from clubdesk.ui.widgets.fit import DropColumns
from clubdesk.ui.widgets.money import money
from clubdesk.ui.widgets.rows import ROW_ROLE, Column, RowsModel, set_message
from clubdesk.ui.widgets.tables import row_table


def _table(model: RowsModel, name: str) -> QTableView:
    view = row_table(model, name)
    view.horizontalHeader().setStretchLastSection(True)
    view.setWordWrap(False)
    return view


def _when(value: Any) -> str:
    """A stored (naive UTC) time on the club's wall clock."""
    return local_text(value) if isinstance(value, datetime) else ("" if value is None else str(value))


# --------------------------------------------------------------------------------------------- section
class DisciplineSection(QWidget):
    """The match act of an event, the appeal workflow and the audit view."""

    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.event_box = EventChoice(state, "disciplineEvent")  # the window's event in use
        self.round_filter = spin_box(None, 0, 999, _("all rounds"))
        self.table_filter = spin_box(None, 0, 999, _("all tables"))
        self.message = QLabel()
        self.message.setObjectName("disciplineMessage")
        top = QHBoxLayout()
        top.addWidget(QLabel(_("Event")))
        top.addWidget(self.event_box, 1)
        top.addWidget(self.round_filter)
        top.addWidget(self.table_filter)
        self.new_incident = QPushButton(_("New &incident…"))
        self.new_penalty = QPushButton(_("&Penalty…"))
        self.new_appeal = QPushButton(_("New &appeal…"))
        for b in (self.new_incident, self.new_penalty, self.new_appeal):
            top.addWidget(b)

        self.incidents = RowsModel(
            [
                Column(_("Time"), lambda i: _when(i.occurred_at)),
                Column(_("Round"), lambda i: i.round or "", True),
                Column(_("Table"), lambda i: i.table or "", True),
                Column(_("Hand"), lambda i: i.hand or "", True),
                Column(_("Player"), lambda i: f"{i.player} ({i.player_number})" if i.player else ""),
                Column(_("Kind"), lambda i: i.kind_label),
                Column(_("Count"), lambda i: ordinal(i.occurrence) if i.occurrence else ""),
                Column(_("Decision"), lambda i: i.decision_label),
                Column(_("Recorded by"), lambda i: i.recorded_by),
                Column(_("What happened"), lambda i: i.text),
            ]
        )
        self.penalties = RowsModel(
            [
                Column(_("Time"), lambda p: _when(p.decided_at)),
                Column(_("Round"), lambda p: p.round or "", True),
                Column(_("Table"), lambda p: p.table or "", True),
                Column(_("Entrant"), lambda p: p.entrant_name),
                Column(_("Penalty"), lambda p: p.kind_label),
                Column(_("Points"), lambda p: "" if p.points is None else p.points, True),
                Column(_("By"), lambda p: p.decided_by),
                Column(
                    _("Reason"), lambda p: p.reason + (f" [{p.override_reason}]" if p.override_reason else "")
                ),
            ]
        )
        self.appeals = RowsModel(
            [
                Column(_("No."), lambda a: a.id, True),
                Column(_("Filed"), lambda a: _when(a.filed_at)),
                Column(_("Round"), lambda a: a.round or "", True),
                Column(_("Table"), lambda a: a.table or "", True),
                Column(_("By"), lambda a: a.entrant_name),
                Column(_("Fee"), lambda a: money(a.fee, a.currency), True),
                Column(_("Status"), lambda a: labels.appeal_status_label(a.status)),
                Column(_("Refund"), lambda a: money(a.refund, a.currency) if a.refund else "", True),
                Column(_("Appeal"), lambda a: a.text),
            ]
        )
        self.incident_view = _table(self.incidents, "incidentsTable")
        self.penalty_view = _table(self.penalties, "penaltiesTable")
        self.appeal_view = _table(self.appeals, "appealsTable")

        act = QWidget()
        act_layout = QVBoxLayout(act)
        act_layout.addWidget(QLabel(_("Incidents")))
        act_layout.addWidget(self.incident_view, 2)
        act_layout.addWidget(QLabel(_("Penalties and decisions")))
        act_layout.addWidget(self.penalty_view, 1)

        # the appeal workflow: pick an appeal, note both sides, decide with reasons
        appeals = QWidget()
        ap_layout = QVBoxLayout(appeals)
        ap_layout.addWidget(self.appeal_view, 1)
        form = QFormLayout()
        self.appellant_notes = QPlainTextEdit()
        self.appellant_notes.setObjectName("appellantNotes")
        self.respondent_notes = QPlainTextEdit()
        self.respondent_notes.setObjectName("respondentNotes")
        self.reasons = QPlainTextEdit()
        self.reasons.setObjectName("appealReasons")
        for box in (self.appellant_notes, self.respondent_notes, self.reasons):
            box.setFixedHeight(60)
            box.setTabChangesFocus(True)
        form.addRow(_("Appellant says"), self.appellant_notes)
        form.addRow(_("Other side says"), self.respondent_notes)
        form.addRow(_("Reasons"), self.reasons)
        ap_layout.addLayout(form)
        buttons = QHBoxLayout()
        self.save_notes = QPushButton(_("Save &notes"))
        self.uphold = QPushButton(_("&Uphold"))
        self.uphold.setObjectName("upholdAppeal")
        self.reject = QPushButton(_("&Reject"))
        self.reject.setObjectName("rejectAppeal")
        # rules G16, T10: a decision is final; only a referee reopens it, with a reason
        self.reopen_button = QPushButton(_("Re&open…"))
        self.reopen_button.setObjectName("reopenAppeal")
        self.reopen_button.setEnabled(False)
        for b in (self.save_notes, self.uphold, self.reject, self.reopen_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        ap_layout.addLayout(buttons)

        # the audit view
        audit = QWidget()
        au_layout = QVBoxLayout(audit)
        filters = QHBoxLayout()
        self.audit_all_events = QComboBox()
        self.audit_all_events.addItem(_("this event"), True)
        self.audit_all_events.addItem(_("every event and the register"), False)
        self.person = QLineEdit()
        self.person.setObjectName("auditPerson")
        self.person.setPlaceholderText(_("person: who acted, or a name or number in the change"))
        self.export = QPushButton(_("Export &CSV…"))
        self.export.setObjectName("auditExport")
        filters.addWidget(self.audit_all_events)
        filters.addWidget(self.person, 1)
        filters.addWidget(self.export)
        self.audit = RowsModel(
            [
                Column(_("When"), lambda r: local_text(r.at, "%Y-%m-%d %H:%M:%S")),  # stored UTC
                Column(_("Who"), lambda r: f"{r.actor} ({labels.role_label(r.role)})"),
                Column(_("Action"), lambda r: labels.audit_action_label(r.action)),
                Column(_("What"), lambda r: f"{labels.entity_label(r.entity)} {r.entity_id or ''}".strip()),
                Column(_("Round"), lambda r: r.round or "", True),
                Column(_("Table"), lambda r: r.table or "", True),
                Column(_("Before"), lambda r: r.before or ""),
                Column(_("After"), lambda r: r.after or ""),
                Column(_("Reason"), lambda r: r.reason or ""),
            ]
        )
        self.audit_view = _table(self.audit, "auditTable")
        # a busy event's log (long before/after values) never widens the screen: cells elide, with their
        # text as tooltip, and a narrow screen drops what the filters above say already
        self.audit_view.horizontalHeader().setMaximumSectionSize(170)
        self.audit_drop = DropColumns(self.audit_view, 8, [3, 5, 4], min_stretch=80)
        # the hash chain tells whether the log was edited outside ClubDesk
        self.verify_button = QPushButton(_("Check the log's chain"))
        self.verify_button.setObjectName("auditVerify")
        self.verify_button.clicked.connect(self.verify_audit)
        self.chain_label = QLabel("")
        self.chain_label.setObjectName("auditChain")
        self.chain_label.setWordWrap(True)
        filters.addWidget(self.verify_button)
        au_layout.addLayout(filters)
        au_layout.addWidget(self.chain_label)
        au_layout.addWidget(self.audit_view, 1)

        self.tabs = QTabWidget()
        self.tabs.addTab(act, _("Match act"))
        self.tabs.addTab(appeals, _("Appeals"))
        self.tabs.addTab(audit, _("Audit log"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        title = QLabel(_("Discipline"))
        title.setStyleSheet("font-size: 16pt; font-weight: 600;")
        layout.addWidget(title)
        layout.addLayout(top)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.message)

        self.event_box.currentIndexChanged.connect(self.refresh)
        self.round_filter.valueChanged.connect(self.refresh)
        self.table_filter.valueChanged.connect(self.refresh)
        self.audit_all_events.currentIndexChanged.connect(self.refresh_audit)
        self.person.textChanged.connect(self.refresh_audit)
        self.new_incident.clicked.connect(self.add_incident)
        self.new_penalty.clicked.connect(self.add_penalty)
        self.new_appeal.clicked.connect(self.add_appeal)
        self.appeal_view.selectionModel().selectionChanged.connect(self._appeal_selected)
        self.save_notes.clicked.connect(self.save_appeal_notes)
        self.uphold.clicked.connect(lambda: self.decide(True))
        self.reject.clicked.connect(lambda: self.decide(False))
        self.reopen_button.clicked.connect(lambda: self.reopen())
        self.export.clicked.connect(lambda: self.export_csv())
        for keys, slot in (
            ("Ctrl+I", self.add_incident),
            ("Ctrl+P", self.add_penalty),
            ("Ctrl+Shift+A", self.add_appeal),
            ("F5", self.reload),
        ):
            sc = QShortcut(QKeySequence(keys), self)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(slot)
        state.dataChanged.connect(self._data_changed)
        state.changed.connect(self._changes)
        self.reload()

    # ------------------------------------------------------------------------------------------- data
    def reload(self) -> None:
        """The club's events in the shared order, on the window's event in use."""
        self.event_box.reload()
        self._events = {e.id: e for e in self.event_box.events}
        self.refresh()

    def event_id(self) -> int | None:
        data = self.event_box.currentData()
        return None if data is None else int(data)

    def refresh(self) -> None:
        eid = self.event_id()
        if eid is None:
            self.incidents.set_rows([])
            self.penalties.set_rows([])
            self.appeals.set_rows([])
        else:
            lst = discipline.discipline_list(
                self.state.db,
                eid,
                round_no=optional_value(self.round_filter),
                table_no=optional_value(self.table_filter),
            )
            self.incidents.set_rows(list(lst.incidents))
            self.penalties.set_rows(list(lst.penalties))
            self.appeals.set_rows(list(lst.appeals))
        self.refresh_audit()

    def audit_filters(self) -> dict[str, Any]:
        one_event = bool(self.audit_all_events.currentData())
        return {
            "event_id": self.event_id() if one_event else None,
            "round_no": optional_value(self.round_filter) if one_event else None,
            "table_no": optional_value(self.table_filter) if one_event else None,
            "person": self.person.text().strip() or None,
        }

    def refresh_audit(self) -> None:
        rows = club.audit_rows(self.state.db, limit=5000, viewer=self.state.actor, **self.audit_filters())
        self.audit.set_rows(rows)

    def verify_audit(self) -> bool:
        """Walk the audit log's hash chain; a break is named by its row and time."""

        report = verify_chain(self.state.db)
        self.chain_label.setText(report.message())
        self.chain_label.setStyleSheet("" if report.ok else themed("color: #b00020; font-weight: 600;"))
        return report.ok

    def _data_changed(self, area: str) -> None:
        if area != "discipline-section":
            self.refresh()

    def _changes(self, changes: Changes, _origin: object) -> None:
        if changes.event_id == self.event_id():  # its tables and rounds, as the incidents name them
            self.refresh()

    def _changed(self, text: str) -> None:
        set_message(self.message, text, ok=True)
        self.refresh()
        self.state.dataChanged.emit("discipline-section")

    # ---------------------------------------------------------------------------------------- actions
    def _need_event(self) -> int | None:
        eid = self.event_id()
        if eid is None:
            set_message(self.message, _("Choose an event first."), ok=False)
        return eid

    def incident_dialog(self) -> IncidentDialog | None:
        eid = self._need_event()
        if eid is None:
            return None
        return IncidentDialog(
            self.state, eid, optional_value(self.round_filter), optional_value(self.table_filter), self
        )

    def add_incident(self) -> None:
        dialog = self.incident_dialog()
        if dialog is not None and dialog.exec() == QDialog.DialogCode.Accepted:
            self._changed(_("Incident {id} written.").format(id=dialog.result_view.id))

    def penalty_dialog(self) -> PenaltyDialog | None:
        eid = self._need_event()
        if eid is None:
            return None
        family = discipline_rules.family_of(self._events[eid].ruleset)
        return PenaltyDialog(
            self.state,
            eid,
            family,
            optional_value(self.round_filter),
            optional_value(self.table_filter),
            self,
        )

    def add_penalty(self) -> None:
        dialog = self.penalty_dialog()
        if dialog is not None and dialog.exec() == QDialog.DialogCode.Accepted:
            self._changed(_("Penalty {id} recorded.").format(id=dialog.result_view.id))

    def appeal_dialog(self) -> AppealDialog | None:
        eid = self._need_event()
        if eid is None:
            return None
        return AppealDialog(self.state, eid, self._events[eid].currency, self)

    def add_appeal(self) -> None:
        dialog = self.appeal_dialog()
        if dialog is not None and dialog.exec() == QDialog.DialogCode.Accepted:
            self.tabs.setCurrentIndex(1)
            self._changed(_("Appeal {id} filed.").format(id=dialog.result_view.id))

    def selected_appeal(self) -> discipline.AppealView | None:
        rows = self.appeal_view.selectionModel().selectedRows()
        if not rows:
            return None
        view: discipline.AppealView = self.appeals.data(rows[0], ROW_ROLE)
        return view

    def _appeal_selected(self, *args: object) -> None:
        a = self.selected_appeal()
        if a is None:
            return
        self.appellant_notes.setPlainText(a.appellant_notes)
        self.respondent_notes.setPlainText(a.respondent_notes)
        self.reasons.setPlainText(a.reasons)
        open_ = a.status == "open"
        for w in (self.save_notes, self.uphold, self.reject):
            w.setEnabled(open_)
        self.reopen_button.setEnabled(not open_)

    def save_appeal_notes(self) -> None:
        a = self.selected_appeal()
        if a is None:
            return
        try:
            discipline.hear_appeal(
                self.state.db,
                self.state.actor,
                a.id,
                appellant_notes=self.appellant_notes.toPlainText(),
                respondent_notes=self.respondent_notes.toPlainText(),
            )
        except ServiceError as exc:
            set_message(self.message, exc.message, ok=False)
            return
        self._changed(_("Both sides' statements saved."))

    def decide(self, upheld: bool) -> None:
        a = self.selected_appeal()
        if a is None:
            set_message(self.message, _("Choose an appeal first."), ok=False)
            return
        try:
            done = discipline.decide_appeal(
                self.state.db,
                self.state.actor,
                a.id,
                upheld=upheld,
                reasons=self.reasons.toPlainText(),
                appellant_notes=self.appellant_notes.toPlainText(),
                respondent_notes=self.respondent_notes.toPlainText(),
            )
        except ServiceError as exc:
            set_message(self.message, exc.message, ok=False)
            return
        if upheld:
            text = _("Appeal {id} upheld; refund {amount}.").format(
                id=done.id, amount=money(done.refund, done.currency)
            )
        else:
            text = _("Appeal {id} rejected; the fee is kept.").format(id=done.id)
        self._changed(text)

    def reopen(self, reason: str | None = None) -> bool:
        """Rules G16, T10: the referee reopens a decided appeal, with a written reason (audited)."""
        a = self.selected_appeal()
        if a is None:
            set_message(self.message, _("Choose an appeal first."), ok=False)
            return False
        if reason is None:
            reason, ok = QInputDialog.getText(
                self, _("Reopen the appeal"), _("Why is the decision reopened?")
            )
            if not ok:
                return False
        try:
            discipline.reopen_appeal(self.state.db, self.state.actor, a.id, reason)
        except ServiceError as exc:
            set_message(self.message, exc.message, ok=False)
            return False
        self._changed(_("Appeal {id} reopened: it is open again.").format(id=a.id))
        return True

    def export_csv(self, path: str | Path | None = None) -> int:
        if path is None:
            chosen, _filter = QFileDialog.getSaveFileName(
                self, _("Export the audit log"), "audit.csv", "CSV (*.csv)"
            )
            if not chosen:
                return 0
            path = chosen

        def progress(k: int) -> None:  # the log is streamed; the screen says how far it is
            set_message(self.message, _("Exporting the audit log: {n} rows written…").format(n=k), ok=True)
            QApplication.processEvents()

        n = club.export_audit_csv(self.state.db, Path(path), progress=progress, **self.audit_filters())
        set_message(
            self.message,
            ngettext("{n} row written to {file}.", "{n} rows written to {file}.", n).format(n=n, file=path),
            ok=True,
        )
        return n
