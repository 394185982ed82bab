"""Issue 22: the window's shell (sidebar and status bar) paints before SQLAlchemy and the database load;
the desk state is attached after, in the club's language, and the first section's screen follows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget

from clubdesk import i18n
from clubdesk.db import Database
from clubdesk.services import settings as settings_service
from clubdesk.services.base import DEFAULT_ACTOR
from clubdesk.ui.main_window import MainWindow
from clubdesk.ui.state import DeskState
from tests.ui.conftest import show_active

SHELL = """
import sys
from PySide6.QtWidgets import QApplication
app = QApplication([])
from clubdesk.ui.main_window import MainWindow
w = MainWindow()
w.show()
app.processEvents()
print(w.nav.count(), "sqlalchemy" in sys.modules, "clubdesk.db" in sys.modules)
"""


def test_shell_paints_without_the_database_layer() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run([sys.executable, "-c", SHELL], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    from clubdesk.ui.sections import SECTIONS

    # every section in the sidebar, nothing of the database yet
    assert out.stdout.split() == [str(len(SECTIONS)), "False", "False"]


def test_shell_builds_no_screen_until_attached_then_opens_in_the_clubs_language(
    qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    db = Database(tmp_path / "club.sqlite3", backups_dir=None)
    settings_service.put(db, DEFAULT_ACTOR, settings_service.LANGUAGE, "tr")
    i18n.set_language("en")
    window = MainWindow()
    show_active(qtbot, window)
    try:
        qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)  # Rounds: not built yet
        qtbot.keyClick(window, Qt.Key.Key_F2)
        assert window.current_page() is None and not window.attached()
        nav = window.findChild(QListWidget, "navigation")
        assert nav.item(0).text() == "Members"
        i18n.set_language(settings_service.club_settings(db).language)  # as the start does, the db open
        window.attach(DeskState(db))
        assert nav.item(0).text() == i18n._("Members") != "Members"  # Turkish now
        qtbot.waitUntil(lambda: window.current_page() is not None)
        assert window.current_section() == "rounds"  # the section chosen while it was opening
        assert window.current_page() is window.pages["rounds"]
        assert str(db.path) in window.db_label.text()
    finally:
        window.close()
        i18n.set_language("en")
        db.close()
