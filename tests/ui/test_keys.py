"""Issue 20: one keyboard map without clashes; every section reached and worked with the keyboard alone."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QTabWidget

from clubdesk.ui.shell.shortcuts import bindings, clashes

CTRL = Qt.KeyboardModifier.ControlModifier
ALT = Qt.KeyboardModifier.AltModifier


def focus():  # type: ignore[no-untyped-def]
    return QApplication.focusWidget()


def press(qtbot, key: Qt.Key, mod: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClick(focus() or QApplication.activeWindow(), key, mod)


def described(found) -> list[str]:  # type: ignore[no-untyped-def]
    return [f"{a.key}: {a.what} / {b.what}" for a, b in found]


def test_no_two_keys_clash_in_any_section_tab_or_open_table(window) -> None:  # type: ignore[no-untyped-def]
    problems: list[str] = []
    for key in window.pages:
        window.show_section(key)
        problems += described(clashes(bindings(window)))
        for tabs in window.current_page().findChildren(QTabWidget):
            for k in range(tabs.count()):
                tabs.setCurrentIndex(k)
                problems += described(clashes(bindings(window)))
    # the Rounds screen with a table of each family open
    window.show_section("rounds")
    rounds = window.current_page()
    for i in range(rounds.event_box.count()):
        rounds.event_box.setCurrentIndex(i)
        if rounds.round is not None and rounds.round.tables:
            panel = rounds.open_table(rounds.round.tables[0].table)
            if panel is not None and panel.form is None:
                panel.initials.setText("SR")
                panel._initials_given()
            problems += described(clashes(bindings(window)))
    assert sorted(set(problems)) == []
    # the sidebar owns Ctrl+1 … Ctrl+9 and Ctrl+0 (ten sections): nothing else binds them
    owners = {b.what for b in bindings(window) if b.key in {f"Ctrl+{n}" for n in range(10)}}
    assert owners == {"shortcut on MainWindow 'mainWindow'"}


def test_every_section_with_the_keyboard_alone(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    for i, key in enumerate(window.pages):
        press(qtbot, Qt.Key(Qt.Key.Key_0 if i == 9 else Qt.Key.Key_1 + i), CTRL)
        assert window.current_section() == key
        # the focus is in the section (never left in the sidebar), so the section's own keys work
        assert window.current_page().isAncestorOf(focus()), (key, focus())
    # inside the Desk, Ctrl+2 is still the sidebar's: the Events section, whose Ctrl+N works at once
    press(qtbot, Qt.Key.Key_3, CTRL)
    desk = window.current_page()
    assert desk.tabs.currentIndex() == 0
    press(qtbot, Qt.Key.Key_PageDown, CTRL)  # the Desk's tabs: Ctrl+PgDown, Ctrl+PgUp, Alt+letter
    assert desk.tabs.currentIndex() == 1
    press(qtbot, Qt.Key.Key_PageUp, CTRL)
    assert desk.tabs.currentIndex() == 0
    press(qtbot, Qt.Key.Key_B, ALT)
    assert desk.tabs.currentIndex() == 2
    press(qtbot, Qt.Key.Key_2, CTRL)
    events = window.current_page()
    assert window.current_section() == "events"
    press(qtbot, Qt.Key.Key_N, CTRL)
    assert focus() is events.editor.name


def test_tab_leaves_a_table(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    window.show_section("events")
    table = window.current_page().table
    assert isinstance(table, QAbstractItemView)
    table.setFocus()
    table.selectRow(0)
    press(qtbot, Qt.Key.Key_Tab)
    assert focus() is not table
    # and in the Rounds screen's list of tables
    window.show_section("rounds")
    rounds = window.current_page()
    rounds.view.setFocus()
    press(qtbot, Qt.Key.Key_Tab)
    assert focus() is not rounds.view
