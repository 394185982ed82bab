"""The Discipline screens (pytest-qt): the incident form (also as score entry opens it), a refused incident
keeping the form open, penalties, the appeal workflow with the G16 refund, the audit view and its CSV."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog

from clubdesk.services.discipline import appeals, incidents
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.storage import Database
from clubdesk.ui.discipline.incident_form import IncidentDialog, open_incident_dialog
from clubdesk.ui.discipline.section import DisciplineSection
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_discipline_service import make_event, member_of, start_round
from tests.waits import READY_MS

REF = Actor("Ana", Role.REFEREE)


@pytest.fixture
def setup(tmp_path: Path, qtbot):  # type: ignore[no-untyped-def]
    db = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "b")
    eid, ids = make_event(db, "domino-es", "round-robin", 4, per=2)
    rv = start_round(db, eid)
    state = DeskState(db, REF)
    yield state, eid, rv
    db.close()


def test_incident_dialog_writes_the_act_line(qtbot, setup) -> None:  # type: ignore[no-untyped-def]
    state, eid, rv = setup
    dialog = IncidentDialog(state, eid, 1, 1)
    qtbot.addWidget(dialog)
    dialog.kind.setCurrentIndex(dialog.kind.findData("false-think"))
    # rule E15: the decisions offered are annul, replay from the breach, none
    offered = [dialog.decision.itemData(i) for i in range(dialog.decision.count())]
    assert offered == ["", "annul-hand", "replay-from-breach", "none"]
    dialog.player.setText(member_of(state.db, rv.tables[0].sides[0]))
    qtbot.keyClicks(dialog.text, "thought with one playable tile")
    dialog.decision.setCurrentIndex(dialog.decision.findData("annul-hand"))
    dialog.save()
    assert dialog.result() == QDialog.DialogCode.Accepted
    [inc] = incidents.discipline_list(state.db, eid).incidents
    assert (inc.kind, inc.side, inc.decision, inc.text) == (
        "false-think",
        0,
        "annul-hand",
        "thought with one playable tile",
    )


def test_refused_incident_keeps_the_form_and_writes_nothing(qtbot, setup) -> None:  # type: ignore[no-untyped-def]
    state, eid, _rv = setup
    dialog = IncidentDialog(state, eid, 1, 9)  # there is no table 9
    qtbot.addWidget(dialog)
    dialog.save()
    assert dialog.result() != QDialog.DialogCode.Accepted
    assert "has no table 9" in dialog.error.text()
    assert incidents.discipline_list(state.db, eid).incidents == ()


def test_open_incident_dialog_from_score_entry(qtbot, setup) -> None:  # type: ignore[no-untyped-def]
    state, eid, _rv = setup
    seen: list[str] = []
    state.dataChanged.connect(seen.append)

    def fill() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, IncidentDialog)
        # the table score entry showed is already filled in
        assert (dialog.round_no.value(), dialog.table_no.value()) == (1, 2)
        dialog.side.setCurrentIndex(dialog.side.findData(1))
        dialog.kind.setCurrentIndex(dialog.kind.findData("talk"))
        dialog.save()

    QTimer.singleShot(0, fill)
    view = open_incident_dialog(state, eid, 1, 2)
    assert view is not None and (view.round, view.table, view.kind, view.side) == (1, 2, "talk", 1)
    assert "discipline" in seen


def test_section_penalty_appeal_workflow_and_audit(qtbot, setup, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    state, eid, rv = setup
    section = DisciplineSection(state)
    qtbot.addWidget(section)
    assert section.event_id() == eid
    # a penalty through its dialog: a warning on table 1
    pd = section.penalty_dialog()
    assert pd is not None
    qtbot.addWidget(pd)
    pd.kind.setCurrentIndex(pd.kind.findData("warning"))
    pd.reason.setText("E12 talk")
    pd.save()
    section.refresh()
    assert section.penalties.rowCount() == 1
    # an appeal with a 5.00 EUR fee, heard and upheld: the fee comes back (rule G16)
    ad = section.appeal_dialog()
    assert ad is not None
    qtbot.addWidget(ad)
    ad.by.setCurrentIndex(ad.by.findData(rv.tables[0].sides[1]))
    ad.fee.setText("5")
    ad.text.setPlainText("the warning was wrong")
    ad.save()
    assert ad.result() == QDialog.DialogCode.Accepted
    section.refresh()
    section.tabs.setCurrentIndex(1)
    section.appeal_view.selectRow(0)
    section.appellant_notes.setPlainText("we were silent")
    section.respondent_notes.setPlainText("they talked")
    section.reasons.setPlainText("nobody else heard it")
    qtbot.mouseClick(section.uphold, Qt.MouseButton.LeftButton)
    [appeal] = incidents.discipline_list(state.db, eid).appeals
    assert (appeal.status, appeal.fee, appeal.refund) == ("upheld", 500, 500)
    assert appeal.respondent_notes == "they talked"
    assert "upheld" in section.message.text()
    # rules G16, T10: the decision is final; a second appeal on the table and subject is refused, naming it
    again = section.appeal_dialog()
    assert again is not None
    qtbot.addWidget(again)
    again.by.setCurrentIndex(again.by.findData(rv.tables[0].sides[0]))
    again.text.setPlainText("we appeal the decision")
    again.save()
    assert again.result() != QDialog.DialogCode.Accepted
    assert f"Appeal {appeal.id}" in again.error.text() and "final" in again.error.text()
    # the referee reopens it, with a reason
    section.refresh()
    section.appeal_view.selectRow(0)
    assert section.reopen_button.isEnabled() and not section.uphold.isEnabled()
    assert section.reopen("the other side's witness was not heard")
    assert appeals.get_appeal(state.db, appeal.id).status == "open"
    # the audit view: filtered by person, exported as CSV
    section.person.setText("ana")
    actions = {section.audit.rows[i].action for i in range(section.audit.rowCount())}
    assert {"penalty.add", "appeal.file", "appeal.decide"} <= actions
    out = tmp_path / "audit.csv"
    n = section.export_csv(out)
    with out.open(encoding="utf-8-sig", newline="") as fh:
        lines = list(csv.reader(fh))
    assert n == len(lines) - 1 == section.audit.rowCount()


def test_ctrl_i_opens_the_incident_form(qtbot, setup, active) -> None:  # type: ignore[no-untyped-def]
    state, _eid, _rv = setup
    section = DisciplineSection(state)
    active(section)
    opened: list[bool] = []

    def close() -> None:
        dialog = QApplication.activeModalWidget()
        opened.append(isinstance(dialog, IncidentDialog))
        if dialog is not None:
            dialog.reject()

    QTimer.singleShot(50, close)
    qtbot.keyClick(section, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: bool(opened), timeout=READY_MS)
    assert opened == [True]


def test_audit_view_reports_an_outside_edit_of_the_log(qtbot, setup) -> None:  # type: ignore[no-untyped-def]
    # issue 23: the hash chain names the first row edited outside ClubDesk
    import sqlite3

    state, _eid, _rv = setup
    db = state.db
    section = DisciplineSection(state)
    qtbot.addWidget(section)
    assert section.verify_audit() and "intact" in section.chain_label.text()
    con = sqlite3.connect(db.path)
    victim = con.execute("SELECT min(id) FROM audit_log").fetchone()[0] + 1
    con.execute("UPDATE audit_log SET reason = 'nothing happened' WHERE id = ?", (victim,))
    con.commit()
    con.close()
    assert not section.verify_audit()
    assert f"row {victim}" in section.chain_label.text() and "edited" in section.chain_label.text()
