"""Issue 22: the window's shell (sidebar and status bar) paints before SQLAlchemy and the database load;
the desk state is attached after, in the club's language, and the first section's screen follows."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget

from clubdesk import i18n
from clubdesk.services.club import settings  # noqa: F401 - an import works meanwhile
from clubdesk.services.kernel.base import DEFAULT_ACTOR  # noqa: F401 - an import works meanwhile
from clubdesk.storage import Database
from clubdesk.ui.shell.main_window import MainWindow
from clubdesk.ui.shell.state import DeskState
from tests.ui.conftest import show_active
from tests.waits import READY_MS

SHELL = """
import sys
from PySide6.QtWidgets import QApplication
app = QApplication([])
from clubdesk.ui.shell.main_window import MainWindow
w = MainWindow()
w.show()
app.processEvents()
print(w.nav.count(), "sqlalchemy" in sys.modules, "clubdesk.storage" in sys.modules)
"""


def test_shell_paints_without_the_database_layer() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run([sys.executable, "-c", SHELL], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    from clubdesk.ui.shell.sections import SECTIONS

    # every section in the sidebar, nothing of the database yet
    assert out.stdout.split() == [str(len(SECTIONS)), "False", "False"]


def test_shell_builds_no_screen_until_attached_then_opens_in_the_clubs_language(
    qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    db = Database(tmp_path / "club.sqlite3", backups_dir=None)
    settings.put(db, DEFAULT_ACTOR, settings.LANGUAGE, "tr")
    i18n.set_language("en")
    window = MainWindow()
    show_active(qtbot, window)
    try:
        qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)  # Rounds: not built yet
        qtbot.keyClick(window, Qt.Key.Key_F2)
        assert window.current_page() is None and not window.attached()
        nav = window.findChild(QListWidget, "navigation")
        assert nav.item(0).text() == "Members"
        i18n.set_language(settings.club_settings(db).language)  # as the start does, the db open
        window.attach(DeskState(db))
        assert nav.item(0).text() == i18n._("Members") != "Members"  # Turkish now
        qtbot.waitUntil(lambda: window.current_page() is not None, timeout=READY_MS)
        assert window.current_section() == "rounds"  # the section chosen while it was opening
        assert window.current_page() is window.pages["rounds"]
        assert str(db.path) in window.db_label.text()
    finally:
        window.close()
        i18n.set_language("en")
        db.close()


FIRST_DATA = """
import builtins, os, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
hooked = builtins.__import__

class Shown(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and obj.objectName().startswith("section_"):
            heavy = (
                "clubdesk.services.night.ranking.ratings",
                "clubdesk.standings", "clubdesk.pairing", "reportlab",
            )
            heavy += ("alembic",)
            print(obj.objectName(), *sorted(m for m in heavy if m in sys.modules), flush=True)
            os._exit(0)
        return False

shown = Shown()
app.installEventFilter(shown)
QTimer.singleShot(60_000, lambda: os._exit(2))
from clubdesk.app import main
main(["--db", sys.argv[1]])
"""


def test_the_first_section_shows_its_data_without_the_engines_it_does_not_use(tmp_path: Path) -> None:
    """Issue 22 (start to the first section's data ≤ 5× a bare window): the register is on the screen
    before the rating engine, the standings and pairing engines, reports or Alembic are imported; the
    ratings catch-up only notes that it re-rates in the background and looks whether a re-rating waits."""
    club = tmp_path / "club.sqlite3"
    Database(club, backups_dir=None).close()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "CLUBDESK_HOME": str(tmp_path / "home")}
    out = subprocess.run(
        [sys.executable, "-c", FIRST_DATA, str(club)], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["section_members"]


def test_no_module_opts_into_pysides_feature_names() -> None:
    """The window starts with Python's own import (``app.plain_imports``, issue 22), which is right only
    while no ClubDesk module selects PySide's snake_case / true_property names."""
    src = Path(__file__).resolve().parents[2] / "src" / "clubdesk"
    selects = re.compile(r"^\s*(from\s+__feature__\s+import|import\s+__feature__)", re.MULTILINE)
    opted = [p for p in src.rglob("*.py") if selects.search(p.read_text(encoding="utf-8"))]
    assert opted == []


def test_plain_imports_sets_pysides_hook_aside_and_puts_it_back() -> None:
    import builtins

    from clubdesk.app import plain_imports

    before = builtins.__import__
    original = getattr(builtins, "__orig_import__", before)
    with plain_imports():
        assert builtins.__import__ is original
        from clubdesk.services.club import settings  # noqa: F401 - an import works meanwhile
        from clubdesk.services.kernel.base import DEFAULT_ACTOR  # noqa: F401 - an import works meanwhile
    assert builtins.__import__ is before
