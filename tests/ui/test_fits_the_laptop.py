"""1366×768 in every language, and 1920×1080 at 150 %: no section scrolls sideways, and while a table is open
for entry its selectors, both approvals, the referee's buttons and the forfeit buttons are in view without
scrolling (gaple, Spanish team dominoes and tavla tables of the demo club)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget

from clubdesk import i18n
from clubdesk.games import load_ruleset
from clubdesk.services import events as events_service
from clubdesk.storage import Database
from clubdesk.ui.shell.main_window import MainWindow
from clubdesk.ui.shell.sections import SECTIONS
from clubdesk.ui.shell.state import DeskState
from tests.ui.conftest import show_active
from tests.ui.scaled import at_150_percent

LANGS = ("en", "id", "es", "tr")
NEEDED = ("approveA", "approveB", "refereeApprove", "refereeDispute", "forfeitA", "forfeitB")


def in_view(holder: QScrollArea, widget: QWidget) -> bool:
    """``widget`` is shown whole inside the section's visible area."""
    top_left = widget.mapTo(holder.viewport(), QPoint(0, 0))
    return holder.viewport().rect().contains(QRect(top_left, widget.size()))


def check(window: MainWindow) -> list[str]:
    """What does not fit: sideways scrolling, a table screen that scrolls, a control out of view."""
    app = QApplication.instance()
    problems: list[str] = []
    holders = window.findChildren(QScrollArea)
    for section in SECTIONS:
        window.show_section(section.key)
        app.processEvents()
        holder = next(h for h in holders if h.widget() is window.current_page())
        if holder.horizontalScrollBar().maximum() > 0:
            problems.append(f"{section.key} scrolls sideways")
    window.show_section("rounds")
    rounds = window.pages["rounds"]
    holder = next(h for h in holders if h.widget() is rounds)
    families: set[str] = set()
    for ev in events_service.list_events(window.state.db, include_finished=True):
        family = load_ruleset(ev.ruleset).family
        if family in families:
            continue
        rounds.select_event(ev.id)
        if rounds.round is None or not rounds.round.tables or rounds.open_for_entry("SR") is None:
            continue
        for _ in range(3):
            app.processEvents()
        families.add(family)
        bars = holder.horizontalScrollBar().maximum(), holder.verticalScrollBar().maximum()
        if bars != (0, 0):
            problems.append(f"{family} table scrolls {bars}")
        shown = {"event": rounds.event_box, "round": rounds.round_box, "table": rounds.table_field}
        shown |= {name: rounds.panel.findChild(QWidget, name) for name in NEEDED}
        for name, widget in shown.items():
            if widget is None or not widget.isVisible():
                problems.append(f"{family}: {name} missing")
            elif not in_view(holder, widget):
                problems.append(f"{family}: {name} out of view")
    if families != {"gaple", "domino", "tavla"}:
        problems.append(f"tables opened: {sorted(families)}")
    return problems


@pytest.mark.parametrize("lang", LANGS)
def test_every_section_fits_a_1366_laptop(qtbot, demo_file: Path, tmp_path: Path, lang: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "demo.sqlite3"
    shutil.copy(demo_file, path)
    db = Database(path)
    i18n.set_language(lang)
    try:
        window = MainWindow(DeskState(db))
        window.resize(1366, 740)  # a 1366×768 screen less the title bar
        show_active(qtbot, window)
        problems = check(window)
        window.close()
    finally:
        i18n.set_language("en")
        db.close()
    assert problems == []


def test_every_section_fits_full_hd_at_150_percent(demo_file: Path, tmp_path: Path) -> None:
    # 1920×1080 at 150 %, less the title bar
    result = at_150_percent(demo_file, tmp_path, "tests.ui.test_fits_the_laptop:check", (1280, 690), LANGS)
    assert result == {lang: [] for lang in LANGS}
