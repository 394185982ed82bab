"""The main window: sections by shortcut, the acting person, settings, remembered geometry, pseudo-locale."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QTableView,
    QTabWidget,
)

from clubdesk import i18n
from clubdesk.i18n_tools import template_ids
from clubdesk.services.club import settings
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.storage import Database
from clubdesk.ui.shell.actor_dialog import ActorDialog
from clubdesk.ui.shell.main_window import MainWindow
from clubdesk.ui.shell.sections import SECTIONS
from clubdesk.ui.shell.state import DeskState
from tests.ui.conftest import show_active


def _window(qtbot, db: Database) -> MainWindow:  # type: ignore[no-untyped-def]
    window = MainWindow(DeskState(db))
    show_active(qtbot, window)
    return window


def test_window_opens_with_sections_and_status_bar(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    window = _window(qtbot, db)
    nav = window.findChild(QListWidget, "navigation")
    titles = [nav.item(i).text() for i in range(nav.count())]
    assert titles == [
        "Members",
        "Events",
        "Desk",
        "Rounds",
        "Standings",
        "Season",
        "Ratings",
        "Discipline",
        "Reports",
        "Settings",
    ]  # issue 21: Season, Ratings
    assert str(db.path) in window.db_label.text()
    assert "Secretary" in window.actor_label.text()


def test_each_section_is_reachable_by_its_shortcut(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    window = _window(qtbot, db)
    for i, section in reversed(list(enumerate(SECTIONS))):
        key = Qt.Key.Key_0 if i == 9 else Qt.Key(Qt.Key.Key_1 + i)  # the tenth section: Ctrl+0
        qtbot.keyClick(window, key, Qt.KeyboardModifier.ControlModifier)
        assert window.current_section() == section.key
        assert window.current_page() is window.pages[section.key]


def test_acting_person_switches_and_f2_enter_goes_back(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    window = _window(qtbot, db)
    window.state.set_actor(Actor("AY", Role.SCORER))
    window.state.set_actor(Actor("MH", Role.REFEREE))
    assert "MH" in window.actor_label.text() and "Referee" in window.actor_label.text()

    seen: list[object] = []

    def accept_dialog() -> None:
        # never assert inside the timer: a failure there would leave the modal dialog open and hang the run
        dialog = QApplication.activeModalWidget()
        seen.append(dialog)
        if isinstance(dialog, ActorDialog):
            qtbot.keyClick(dialog, Qt.Key.Key_Return)
        elif isinstance(dialog, QDialog):
            dialog.reject()

    QTimer.singleShot(50, accept_dialog)
    qtbot.keyClick(window, Qt.Key.Key_F2)  # F2, then Enter: back to the previous person
    assert len(seen) == 1 and isinstance(seen[0], ActorDialog)
    assert window.state.actor == Actor("AY", Role.SCORER)
    assert "AY" in window.actor_label.text() and "Scorer" in window.actor_label.text()


def test_actor_dialog_refuses_an_empty_name(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    state = DeskState(db)
    dialog = ActorDialog(state)
    qtbot.addWidget(dialog)
    dialog.name.setEditText("   ")
    dialog.accept()
    assert dialog.result() != QDialog.DialogCode.Accepted
    assert dialog.error.text() == "Type a name or initials."


def test_settings_saved_and_bad_logo_shown_next_to_field(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    window = _window(qtbot, db)
    page = window.pages["settings"]
    page.club_name.setText("Kulüp İstanbul Tavla")
    page.logo.setText("/no/such/logo.png")
    assert page.save() is False
    assert "does not exist" in page.logo_field.error.text() and page.logo_field.error.isVisibleTo(page)
    assert settings.club_settings(db).club_name != "Kulüp İstanbul Tavla"
    page.logo.setText("")
    assert page.save() is True
    assert settings.club_settings(db).club_name == "Kulüp İstanbul Tavla"
    assert "Kulüp İstanbul Tavla" in window.windowTitle()


def test_window_geometry_is_remembered(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = Database(tmp_path / "geo.sqlite3")
    first = _window(qtbot, db)
    first.setGeometry(QRect(30, 40, 700, 500))
    first.close()
    second = _window(qtbot, db)
    assert (second.width(), second.height()) == (700, 500)
    db.close()


def test_pseudo_locale_every_visible_string_is_marked(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    """With the pseudo-locale on, a visible text without ⟦…⟧ was never marked for translation."""
    i18n.set_language("xx")
    i18n.pseudo_seen(clear=True)
    window = _window(qtbot, db)
    unmarked: list[str] = []
    texts = [window.windowTitle()]
    nav = window.findChild(QListWidget, "navigation")
    texts += [nav.item(i).text() for i in range(nav.count())]
    for key, page in window.pages.items():
        window.show_section(key)
        for widget in page.findChildren(QLabel) + page.findChildren(QPushButton):
            if widget.isVisibleTo(page) and widget.text().strip():
                texts.append(widget.text())
        for combo in page.findChildren(QComboBox):
            if combo.property("translatable") is True:
                texts += [combo.itemText(i) for i in range(combo.count())]
        # issue 17: tabs, group titles, placeholders, tooltips and table headers too
        for tabs in page.findChildren(QTabWidget):
            texts += [tabs.tabText(i) for i in range(tabs.count())]
        texts += [g.title() for g in page.findChildren(QGroupBox) if g.title().strip()]
        texts += [e.placeholderText() for e in page.findChildren(QLineEdit) if e.placeholderText().strip()]
        for view in page.findChildren(QTableView):
            model = view.model()
            if model is not None:
                for c in range(model.columnCount()):
                    title = model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
                    if isinstance(title, str) and title.strip():
                        texts.append(title)
    texts += [window.db_label.text(), window.actor_label.text()]
    unmarked = [t for t in texts if "⟦" not in t]
    assert unmarked == []
    # every string translated on the screens is in the template (no _(key) of a string never extracted)
    assert sorted(i18n.pseudo_seen() - template_ids()) == []


def test_standings_open_on_the_event_chosen_in_rounds_and_back(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    """The event the desk works on is chosen once: Rounds and Standings show the same one."""
    window.show_section("rounds")
    rounds = window.current_page()
    box = rounds.event_box
    assert box.count() >= 3
    other = next(i for i in range(box.count()) if i != box.currentIndex())
    box.setCurrentIndex(other)
    chosen = box.itemData(other)
    window.show_section("standings")
    standings = window.current_page()
    assert standings.event_box.currentData() == chosen
    third = next(i for i in range(standings.event_box.count()) if standings.event_box.itemData(i) != chosen)
    standings.event_box.setCurrentIndex(third)
    window.show_section("rounds")
    assert window.current_page().event_box.currentData() == standings.event_box.itemData(third)
