"""A whole gaple night as a first-time secretary runs it, at 1366×768, in each language: the event made in
Events (Ctrl+N, the form), Open the desk, register and pay, check in by name (accents and case ignored),
pair with the wizard (Ctrl+P, page by page), hands typed at the Rounds screen, both approvals, the standings
saved as PDF and read back. Along the way: one event in use everywhere (status bar too), no forfeit alarm
before its time (G15), what a scorer needs in view without scrolling, no clipped letters."""

from __future__ import annotations

import re
import subprocess
from datetime import timedelta
from functools import partial
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QLineEdit,
    QScrollArea,
    QTableView,
    QWidget,
    QWizard,
)

from clubdesk import i18n
from clubdesk.services import club, members, night
from clubdesk.services.club.settings import LANGUAGE
from clubdesk.services.kernel import Actor
from clubdesk.storage import Database
from clubdesk.text import fold
from clubdesk.ui.night.pairing_wizard import PairingWizard
from clubdesk.ui.shell.main_window import MainWindow
from clubdesk.ui.shell.qt_i18n import install_qt_translator
from clubdesk.ui.shell.state import DeskState
from tests.ui.conftest import show_active
from tests.ui.test_fits_the_laptop import NEEDED, in_view
from tests.ui.whole_letters import clipped
from tests.waits import READY_MS

LANGS = ("en", "id", "es", "tr")
# four pairs, names with the letters a club of each language has (typed back without accents or case)
PLAYERS = (
    "Şükrü Öztürk",
    "Işıl Çelik",
    "José Peña",
    "Iñaki Núñez",
    "Budi Santoso",
    "Dewi Lestari",
    "Ayşe Kaya",
    "Émile Roux",
)
EVENT = "Gaple Night 1"
ON_EVENT = ("desk", "rounds", "standings", "discipline", "reports")


def holder_of(window: MainWindow) -> QScrollArea:
    return next(h for h in window.findChildren(QScrollArea) if h.widget() is window.current_page())


def event_in_every_section(window: MainWindow, event_id: int) -> list[str]:
    wrong = []
    for key in ON_EVENT:
        window.show_section(key)
        boxes = [b for b in window.current_page().findChildren(QComboBox) if b.findData(event_id) >= 0]
        if not boxes or boxes[0].currentData() != event_id:
            wrong.append(key)
    if EVENT not in window.event_in_use.text():
        wrong.append("status bar")
    return wrong


def last_row_shown(sheet: QTableView) -> bool:
    last = sheet.model().index(sheet.model().rowCount() - 1, 0)
    return sheet.viewport().rect().contains(sheet.visualRect(last))


def type_into(qtbot, field: QWidget, text: str, enter: bool = True) -> None:  # type: ignore[no-untyped-def]
    field.setFocus()
    if isinstance(field, QLineEdit):
        field.selectAll()
    qtbot.keyClicks(field, text)
    if enter:
        qtbot.keyClick(field, Qt.Key.Key_Return)


def pick_by_key(qtbot, combo: QComboBox, data: object) -> None:  # type: ignore[no-untyped-def]
    """A KeyCombo item chosen as a scorer does: the first letter (or digit) of its text."""
    index = combo.findData(data)
    assert index >= 0
    combo.setFocus()
    for _ in range(combo.count()):
        if combo.currentIndex() == index:
            return
        qtbot.keyClick(combo, fold(combo.itemText(index)[:1]))
    assert combo.currentIndex() == index, combo.itemText(index)


def drive_wizard(qtbot, finished: list[str]) -> None:  # type: ignore[no-untyped-def]
    wizard = QApplication.activeModalWidget()
    try:
        assert isinstance(wizard, PairingWizard)
        qtbot.waitUntil(lambda: wizard.attendance.isComplete(), timeout=READY_MS)
        wizard.next()
        qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=READY_MS)
        # the proposal page shows the pairing: two tables, every pair by name
        shown = wizard.proposal.table
        assert shown.rowCount() == 2
        text = " ".join(
            shown.item(r, c).text()
            for r in range(shown.rowCount())
            for c in range(shown.columnCount())
            if shown.item(r, c)
        )
        assert "Budi" in text and "Işıl" in text
        # Qt's own buttons in the window's language too
        nexts = wizard.button(QWizard.WizardButton.NextButton).text()
        assert (nexts == "&Next >") == (i18n.current_language() == "en"), nexts
        while wizard.currentPage() is not wizard.publish_page:
            wizard.next()
        wizard.next()  # publish
        qtbot.waitUntil(lambda: wizard.published is not None, timeout=READY_MS)
        wizard.accept()
        finished.append("published")
    except BaseException as exc:  # the failure is reported after exec() returns
        finished.append(repr(exc))
        if wizard is not None:
            wizard.reject()


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_gaple_night(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:  # type: ignore[no-untyped-def]
    db = Database(tmp_path / "club.sqlite3")
    secretary = Actor("Sekreter")
    for name in PLAYERS:  # the club's register, kept before the night
        members.create_member(db, secretary, members.MemberData(name=name))
    # the club's language, as chosen in Settings on its first day: the window's and its reports'
    club.put(db, secretary, LANGUAGE, lang)
    i18n.set_language(lang)
    install_qt_translator(QApplication.instance(), lang)  # as clubdesk.app does at start: Qt's own words
    window = MainWindow(DeskState(db))
    try:
        window.resize(1366, 740)
        show_active(qtbot, window)
        window.activateWindow()
        trouble: list[str] = []

        # Events: Ctrl+N, the form, Ctrl+S
        window.show_section("events")
        page = window.current_page()
        qtbot.keyClick(page, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
        editor = page.editor
        type_into(qtbot, editor.name, EVENT, enter=False)
        editor.ruleset.setCurrentIndex(editor.ruleset.findData("gaple-club"))
        editor.format.setCurrentIndex(editor.format.findData("swiss"))
        editor.entry_type.setCurrentIndex(editor.entry_type.findData("pair"))
        editor.rounds.setValue(1)
        editor.fee.setText("10")
        qtbot.keyClick(page, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: editor.event_id is not None, timeout=READY_MS)
        ev = editor.event_id
        trouble += [f"events: {t}" for t in clipped(page)]

        # Open the desk: that event, in use everywhere
        editor.open_desk.click()
        assert window.current_section() == "desk"
        assert window.state.event_in_use == ev
        desk = window.current_page()
        view = desk.entrants_view
        for first, second in zip(PLAYERS[::2], PLAYERS[1::2], strict=True):
            type_into(qtbot, view.number, fold(first).split()[0], enter=False)
            qtbot.waitUntil(lambda: bool(view.number.choices()), timeout=READY_MS)
            qtbot.keyClick(view.number.completer_.popup(), Qt.Key.Key_Return)
            type_into(qtbot, view.partner, fold(second).split()[0].upper(), enter=False)
            qtbot.waitUntil(lambda: bool(view.partner.choices()), timeout=READY_MS)
            qtbot.keyClick(view.partner.completer_.popup(), Qt.Key.Key_Return)
            qtbot.keyClick(view.partner, Qt.Key.Key_Return)
            qtbot.waitUntil(lambda: view.amount.hasFocus(), timeout=READY_MS)
            type_into(qtbot, view.amount, "10")
        rows = view.model.rows
        assert len(rows) == 4, view.message.text()
        trouble += [f"desk: {t}" for t in clipped(desk)]

        # Check-in by name, without accents and in capitals
        desk.tabs.setCurrentWidget(desk.checkin_view)
        checkin = desk.checkin_view
        for name in PLAYERS[::2]:
            type_into(qtbot, checkin.field, fold(name).upper(), enter=False)
            qtbot.waitUntil(lambda: bool(checkin.field.choices()), timeout=READY_MS)
            qtbot.keyClick(checkin.field.completer_.popup(), Qt.Key.Key_Return)  # one Enter, as the hint says
        assert checkin.recent.count() == 4, checkin.detail.text()
        assert event_in_every_section(window, ev) == []

        # Rounds: Ctrl+P, the wizard page by page
        window.show_section("rounds")
        rounds = window.current_page()
        finished: list[str] = []
        QTimer.singleShot(0, lambda: drive_wizard(qtbot, finished))
        qtbot.keyClick(rounds, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
        assert finished == ["published"]
        qtbot.waitUntil(lambda: rounds.round is not None and len(rounds.round.tables) == 2, timeout=READY_MS)
        # G15: the alarm that tables can be forfeited only once the waiting time has passed
        due = rounds.call_due_at()
        assert due is not None
        at_publication = rounds.call_label.text()
        monkeypatch.setattr(night, "local_now", lambda: due + timedelta(minutes=1))
        rounds._tick()
        alarm = rounds.call_label.text()
        monkeypatch.setattr(night, "local_now", lambda: due - timedelta(minutes=1))
        rounds._tick()
        almost = rounds.call_label.text()
        assert alarm and at_publication and almost
        alarm_words = (
            i18n.ngettext(
                "Called {t} · time is up: {n} table waiting can be forfeited",
                "Called {t} · time is up: {n} tables waiting can be forfeited",
                2,
            )
            .format(t="@", n=2)
            .split("@")[-1]
        )
        assert alarm_words in alarm
        assert alarm_words not in at_publication and alarm_words not in almost, (at_publication, almost)
        monkeypatch.undo()
        rounds._tick()

        # hands by keyboard at the Rounds screen: Ctrl+T, the table, initials, the hands, both approvals
        holder = holder_of(window)
        for table in (1, 2):
            qtbot.keyClick(rounds, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
            type_into(qtbot, rounds.table_field, str(table))
            qtbot.waitUntil(lambda: rounds.panel is not None and rounds.panel.isVisible(), timeout=READY_MS)
            panel = rounds.panel
            type_into(qtbot, panel.initials, "SR")
            form = panel.form
            qtbot.waitUntil(form.isVisible, timeout=READY_MS)
            for widget in (
                rounds.event_box,
                rounds.round_box,
                rounds.table_field,
                *(panel.findChild(QWidget, n) for n in NEEDED),
            ):
                if widget is None or not widget.isVisible() or not in_view(holder, widget):
                    trouble.append(f"table {table}: {widget.objectName() if widget else '?'} out of view")
            while not form.finished():
                hand = len(form.entries)
                pick_by_key(qtbot, form.outcome, "out")
                pick_by_key(qtbot, form.seat, (hand + table) % 4)
                for field in form.pips:
                    if field.isEnabled() and field.isVisible():
                        type_into(qtbot, field, "20" if hand % 2 else "30", enter=False)
                qtbot.keyClick(
                    form.pips[-1] if form.pips[-1].isEnabled() else form.outcome, Qt.Key.Key_Return
                )
                assert len(form.entries) == hand + 1, form.error.text()
                assert hand < 30
            trouble += [f"table {table}: {t}" for t in clipped(window)]
            # the hand just entered is in view on the sheet, whole, once the messages have rewrapped
            qtbot.waitUntil(partial(last_row_shown, form.view), timeout=READY_MS)
            approve_a = panel.findChild(QLineEdit, "approveA")
            approve_b = panel.findChild(QLineEdit, "approveB")
            qtbot.keyClick(panel, Qt.Key.Key_A, Qt.KeyboardModifier.AltModifier)
            type_into(qtbot, approve_a, "AA")
            qtbot.keyClick(panel, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)
            type_into(qtbot, approve_b, "BB")
            confirmed = night.get_round(db, ev, 1).tables[table - 1].status == "confirmed"
            assert confirmed, panel.message.text()
        assert event_in_every_section(window, ev) == []

        # print: the standings saved as PDF, their figures read back
        window.show_section("reports")
        reports = window.current_page()
        reports.kind.setCurrentIndex(reports.kind.findData("standings"))
        assert reports.language.currentData() == lang  # printed in the club's language
        target = tmp_path / "standings.pdf"
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
        reports.save_button.click()
        qtbot.waitUntil(lambda: target.exists() and reports.runner.job is None, timeout=4 * READY_MS)
        assert PdfReader(str(target)).pages  # a PDF that reads back
        printed = subprocess.run(
            ["pdftotext", "-layout", str(target), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert EVENT in printed
        standings = night.event_standings(db, ev)
        assert len(standings.rows) == 4
        for row in standings.rows:  # each pair's line carries its place, points and tie-break figures
            line = next((x for x in printed.splitlines() if row.name.split(" / ")[0] in x), "")
            figures = re.findall(r"-?\d+(?:[.,]\d+)?", line.split(row.name.split(" / ")[-1])[-1])
            wanted = [str(row.points), *(v for v in row.shown.values() if re.fullmatch(r"-?\d+", v))]
            assert line.strip().startswith(str(row.rank)), (row, printed)
            assert all(w in figures for w in wanted), (row, line, figures)
        assert event_in_every_section(window, ev) == []
        assert trouble == []
    finally:
        window.close()
        i18n.set_language("en")
        install_qt_translator(QApplication.instance(), "en")
        db.close()
