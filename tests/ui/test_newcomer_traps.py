"""Traps a first-time secretary met walking a whole night at 1366×768 in Spanish: the status bar's event in
use cut at both ends ("…ión en uso: Demo night…", its first words lost), and the forfeit buttons cut in their
action ("A · İbrahim Ç…s Wijaya ausente: incomp…"): what a button does must stay readable (G15, T3b)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QPushButton, QStyle, QStyleOptionComboBox

from clubdesk import i18n
from clubdesk.games import load_ruleset
from clubdesk.models.event import Entrant as EntrantRow
from clubdesk.services import desk, events, members
from clubdesk.services.kernel import Actor
from clubdesk.storage import Database
from clubdesk.ui.desk.checkin_view import CheckinView
from clubdesk.ui.night.pairing_wizard import PairingWizard
from clubdesk.ui.shell.main_window import MainWindow
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_night_helpers import make_event, open_db
from tests.ui.conftest import show_active
from tests.ui.test_rounds_refresh import REF


def spanish_window(qtbot, demo_file: Path, tmp_path: Path) -> tuple[MainWindow, Database]:  # type: ignore[no-untyped-def]
    path = tmp_path / "demo.sqlite3"
    shutil.copy(demo_file, path)
    db = Database(path)
    i18n.set_language("es")
    window = MainWindow(DeskState(db))
    window.resize(1366, 740)  # a 1366×768 laptop less the title bar
    show_active(qtbot, window)
    return window, db


def test_the_event_in_use_keeps_its_first_words(qtbot, demo_file: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window, db = spanish_window(qtbot, demo_file, tmp_path)
    try:
        button = window.event_in_use
        qtbot.waitUntil(lambda: bool(button.text()), timeout=5000)
        longest = max(events.events_in_order(db), key=lambda e: len(e.name))
        window.state.use_event(longest.id)
        qtbot.waitUntil(lambda: longest.name in button.text(), timeout=5000)
        qtbot.waitUntil(lambda: button.width() >= button.minimumSizeHint().width(), timeout=5000)  # laid out
        shown = QPushButton.text(button)  # what is drawn
        assert shown.startswith("Competición en uso: ")
        assert button.fontMetrics().horizontalAdvance(shown) <= button.width()
        if shown != button.text():  # cut at its end, the whole line in the tooltip
            assert shown.endswith("…") and button.text() in button.toolTip()
    finally:
        window.close()
        i18n.set_language("en")
        db.close()


def test_a_forfeit_button_says_what_it_does(qtbot, demo_file: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window, db = spanish_window(qtbot, demo_file, tmp_path)
    try:
        window.show_section("rounds")
        rounds = window.pages["rounds"]
        opened = 0
        for ev in events.list_events(db, include_finished=True):
            if load_ruleset(ev.ruleset).family != "gaple":
                continue
            rounds.select_event(ev.id)
            if rounds.round is None or rounds.open_for_entry("SR") is None:
                continue
            for name in ("forfeitA", "forfeitB"):
                button = rounds.panel.findChild(QPushButton, name)
                assert button.text().endswith("ausente: incomparecencia"), button.text()
                assert button.fontMetrics().horizontalAdvance(button.text()) <= 260
            opened += 1
        assert opened
    finally:
        window.close()
        i18n.set_language("en")
        db.close()


def test_a_long_club_file_path_leaves_who_acts_whole(qtbot, demo_file: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """In Turkish, a club file deep in the user's folders cut "(değiştirmek için F2)" to "(değiştirmek
    için F": the path gives way (whole in its tooltip), who acts, F2 and the event in use stay whole."""
    deep = tmp_path / ("kulup-dosyalari-" * 6) / "yedekler"
    deep.mkdir(parents=True)
    path = deep / "Kadıköy Tavla ve Gaple Kulübü.sqlite3"
    shutil.copy(demo_file, path)
    db = Database(path)
    i18n.set_language("tr")
    window = MainWindow(DeskState(db))
    try:
        window.resize(1366, 740)
        show_active(qtbot, window)
        actor, event = window.actor_label, window.event_in_use
        qtbot.waitUntil(
            lambda: bool(event.text()) and event.width() >= event.minimumSizeHint().width(), timeout=5000
        )
        assert "F2" in actor.text()
        assert actor.width() >= actor.sizeHint().width()  # drawn whole
        assert QPushButton.text(event) == event.text()  # the event in use whole too
        assert str(path) in window.db_label.toolTip()
    finally:
        window.close()
        i18n.set_language("en")
        db.close()


@pytest.mark.parametrize("lang", ["id", "es", "tr"])
def test_an_entry_prompt_is_shown_whole(qtbot, demo_file: Path, tmp_path: Path, lang: str) -> None:  # type: ignore[no-untyped-def]
    """A tavla table's "Winner" read "— tarafı yazın (1 veya" in Turkish: the prompt that says what to type
    lost its end to the screen's narrow combo boxes. Every prompt of each family's entry form fits its box."""
    path = tmp_path / "demo.sqlite3"
    shutil.copy(demo_file, path)
    db = Database(path)
    i18n.set_language(lang)
    window = MainWindow(DeskState(db))
    cut: list[str] = []
    try:
        window.resize(1366, 740)
        show_active(qtbot, window)
        window.show_section("rounds")
        rounds = window.pages["rounds"]
        families = set()
        for ev in events.list_events(db, include_finished=True):
            rounds.select_event(ev.id)
            if rounds.round is None or not rounds.round.tables or rounds.open_for_entry("SR") is None:
                continue
            families.add(load_ruleset(ev.ruleset).family)
            for combo in rounds.panel.form.findChildren(QComboBox):
                if combo.currentData() is not None or not combo.isVisible():
                    continue
                option = QStyleOptionComboBox()
                combo.initStyleOption(option)
                field = combo.style().subControlRect(
                    QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, combo
                )
                if combo.fontMetrics().horizontalAdvance(combo.currentText()) > field.width():
                    cut.append(f"{ev.ruleset} {combo.objectName()}: {combo.currentText()}")
        assert families == {"gaple", "domino", "tavla"}
    finally:
        window.close()
        i18n.set_language("en")
        db.close()
    assert cut == []


def test_check_in_by_name_takes_one_enter(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The check-in says "type the name …, then Enter": the name typed is offered in a list that has the
    keyboard, and its Enter only put the name in the field; the secretary believed the player checked in."""
    db = Database(tmp_path / "club.sqlite3")
    actor = Actor("Sekreter")
    try:
        ev = events.create_event(db, actor, events.EventData(name="Tavla", ruleset="tavla", format="swiss"))
        for name in ("Şükrü Öztürk", "Işıl Çelik"):
            member = members.create_member(db, actor, members.MemberData(name=name))
            desk.register(db, actor, ev.id, member.number)
        view = CheckinView(DeskState(db, actor), lambda: ev.id)
        show_active(qtbot, view)
        view.field.setFocus()
        qtbot.keyClicks(view.field, "SUKRU")
        popup = view.field.completer_.popup()
        qtbot.waitUntil(popup.isVisible, timeout=5000)
        qtbot.keyClick(popup, Qt.Key.Key_Return)  # where the keyboard is while the list is shown
        assert "Şükrü Öztürk" in view.result.text()
        assert view.recent.count() == 1 and view.field.text() == ""
        checked = {r.name for r in desk.entrants(db, ev.id) if r.checked_in}
        assert checked == {"Şükrü Öztürk"}
        view.close()
    finally:
        db.close()


def test_a_late_arrival_by_name_takes_one_enter_in_the_wizard(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The wizard's late arrival by name: Enter on the name offered checks in, and the page stays."""
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=6, rounds=3)
    with db.session() as s:  # E5 and E6 are late
        for row in s.query(EntrantRow).filter(EntrantRow.id.in_(ids[4:])):
            row.checked_in_at = None
    wizard = PairingWizard(DeskState(db, REF), ev)
    show_active(qtbot, wizard)
    field = wizard.attendance.checkin
    field.setFocus()
    qtbot.keyClicks(field, "e5")  # the entrant's name, in small letters
    popup = field.completer_.popup()
    qtbot.waitUntil(popup.isVisible, timeout=5000)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert "5 entrants" in wizard.attendance.summary.text()
    assert wizard.currentPage() is wizard.attendance and field.text() == ""
    wizard.close()
    db.close()
