"""Issue 20: every section, and the Rounds screen with an open table of each game family, fits a 1366×768
laptop and 150 % scaling on a 1920×1080 screen (1280×720 logical pixels) without a sideways scroll bar."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QTabWidget

from clubdesk.games import load_ruleset
from clubdesk.services.events import events as events_events
from clubdesk.storage import Database
from clubdesk.ui.shell.main_window import MainWindow
from clubdesk.ui.shell.state import DeskState
from tests.waits import READY_MS

SIZES = [(1366, 768), (1280, 720)]  # a laptop; 1920×1080 at QT_SCALE_FACTOR=1.5


def sideways(win: MainWindow) -> list[str]:
    """The visible scroll areas showing a horizontal scroll bar."""
    QApplication.processEvents()
    return [
        f"{type(a).__name__} {a.objectName()!r} in {win.current_section()}"
        for a in win.findChildren(QAbstractScrollArea)
        if a.isVisible() and a.horizontalScrollBar().isVisible()
    ]


@pytest.mark.parametrize("size", SIZES)
def test_every_section_and_tab_fits_without_a_sideways_scroll_bar(qtbot, window, size) -> None:  # type: ignore[no-untyped-def]
    window.resize(*size)
    qtbot.waitUntil(lambda: window.width() == size[0], timeout=READY_MS)
    problems: list[str] = []
    for key in window.pages:
        window.show_section(key)
        problems += sideways(window)
        for tabs in window.current_page().findChildren(QTabWidget):
            for k in range(tabs.count()):
                tabs.setCurrentIndex(k)
                problems += [f"{p} / {tabs.tabText(k)}" for p in sideways(window)]
    assert problems == []


@pytest.mark.parametrize("size", SIZES)
def test_rounds_with_an_open_table_of_each_family_fits(qtbot, window, size) -> None:  # type: ignore[no-untyped-def]
    window.resize(*size)
    window.show_section("rounds")
    rounds = window.current_page()
    seen: set[str] = set()
    problems: list[str] = []
    for ev in events_events.list_events(window.state.db, include_finished=True):
        rounds.select_event(ev.id)
        if rounds.round is None or not rounds.round.tables:
            continue
        family = load_ruleset(ev.ruleset).family
        table = next((t for t in rounds.round.tables if t.sides[1] is not None), None)
        if table is None:
            continue
        panel = rounds.open_table(table.table)
        assert panel is not None
        if panel.form is None:
            panel.initials.setText("SR")
            panel._initials_given()
        form = panel.form
        # the outcome with the most inputs shown (out / domino / game played)
        outcome = form.outcome
        outcome.setCurrentIndex(1)
        seen.add(family)
        problems += [f"{p} ({ev.name}, {family})" for p in sideways(window)]
    assert seen == {"gaple", "domino", "tavla"}
    assert problems == []


def test_the_window_opens_inside_the_available_screen(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = Database(tmp_path / "w.sqlite3")
    win = MainWindow(DeskState(db))
    qtbot.addWidget(win)
    avail = win.available()
    assert avail.contains(win.geometry())
    assert win.height() <= avail.height() - 40  # room for the title bar
    db.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_widgets_merged_from_main_fit_too(qtbot, window, size) -> None:  # type: ignore[no-untyped-def]
    """The rule readings of each event in the editor (issue 29), a domino-es table's scorer and counter
    lists (issue 18, rule E6), tavla's "Import match file…" (issue 19) and the Settings' data safety panel
    (issue 23) fit the laptop screen too."""
    from PySide6.QtWidgets import QPushButton

    window.resize(*size)
    qtbot.waitUntil(lambda: window.width() == size[0], timeout=READY_MS)
    problems: list[str] = []
    window.show_section("events")
    events = window.current_page()
    for ev in events_events.list_events(window.state.db, include_finished=True):
        events.refresh(select=ev.id)
        assert events.editor.event_id == ev.id and events.editor.readings.text()
        problems += [f"{p} ({ev.name})" for p in sideways(window)]
    window.show_section("rounds")
    rounds = window.current_page()
    shown: set[str] = set()
    for ev in events_events.list_events(window.state.db, include_finished=True):
        rounds.select_event(ev.id)
        panel = rounds.open_for_entry("SR")
        if panel is None:
            continue
        if panel.decisions.scorer_box is not None and panel.decisions.scorer_box.isVisible():
            shown.add("scorer")
        button = panel.findChild(QPushButton, "importMatchFile")
        if button is not None and button.isVisible():
            shown.add("import")
        problems += [f"{p} ({ev.name})" for p in sideways(window)]
    window.show_section("settings")
    problems += sideways(window)
    assert problems == []
    assert shown == {"import", "scorer"}  # the demo has a tavla table and a domino-es pairs table to open


@pytest.mark.parametrize("lang", ["es", "tr", "id"])
def test_the_events_screen_fits_in_each_language(qtbot, window, lang: str) -> None:  # type: ignore[no-untyped-def]
    """Issue 30's pictures showed it: in Spanish the list's buttons and filter on one line made the Events
    screen wider than a 1366-pixel laptop, and a sideways scroll bar hid the form's right edge."""
    window.resize(1366, 768)
    qtbot.waitUntil(lambda: window.width() == 1366, timeout=READY_MS)
    try:
        window.set_language(lang)
        window.show_section("events")
        page = window.current_page()
        page.table.selectRow(0)
        problems = []
        for k in range(page.tabs.count()):
            page.tabs.setCurrentIndex(k)
            problems += [f"{p} / {page.tabs.tabText(k)}" for p in sideways(window)]
        assert problems == []
    finally:
        window.set_language("en")
