"""Every letter whole (issue: "İtirazlar" read "Itirazlar" in a tab that was not selected): every tab bar and
table header of every section, in Turkish, Spanish and Indonesian, at 100 % and 150 %, has as many rows of ink
as its text drawn freely: no dot of İ, Ö or Ñ and no descender clipped."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from clubdesk import i18n
from clubdesk.storage import Database
from clubdesk.ui.shell.main_window import MainWindow
from clubdesk.ui.shell.sections import SECTIONS
from clubdesk.ui.shell.state import DeskState
from tests.ui.conftest import show_active
from tests.ui.whole_letters import clipped, labels

LANGS = ("tr", "es", "id")


def walk(window: MainWindow) -> tuple[list[str], int]:
    """Visit every section; the clipped labels found and how many labels were looked at."""
    found: list[str] = []
    seen = 0
    for section in SECTIONS:
        window.show_section(section.key)
        QApplication.processEvents()
        page = window.pages.get(section.key)
        if page is None:
            continue
        seen += sum(1 for _ in labels(page))
        found += [f"{section.key}: {line}" for line in clipped(page)]
    return found, seen


@pytest.mark.parametrize("lang", LANGS)
def test_no_tab_or_header_letter_is_clipped(qtbot, demo_file: Path, tmp_path: Path, lang: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "demo.sqlite3"
    shutil.copy(demo_file, path)
    db = Database(path)
    i18n.set_language(lang)
    try:
        window = MainWindow(DeskState(db))
        window.resize(1366, 768)
        show_active(qtbot, window)
        found, seen = walk(window)
        window.close()
    finally:
        i18n.set_language("en")
        db.close()
    assert seen > 20  # the walk really looked at the tab bars and headers
    assert found == []


SCALED = """
import json, shutil, sys
from pathlib import Path
from PySide6.QtWidgets import QApplication
from clubdesk import i18n
from clubdesk.storage import Database
from clubdesk.ui.shell.main_window import MainWindow
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import load_fonts
from tests.ui.test_whole_letters import walk
app = QApplication([])
load_fonts()
out = {}
for lang in sys.argv[2:]:
    i18n.set_language(lang)
    db = Database(Path(sys.argv[1]))
    window = MainWindow(DeskState(db))
    window.resize(1280, 720)
    window.show()
    app.processEvents()
    out[lang] = walk(window)
    window.close()
    db.close()
print(json.dumps(out))
"""


def test_no_letter_is_clipped_at_150_percent(demo_file: Path, tmp_path: Path) -> None:
    path = tmp_path / "demo.sqlite3"
    shutil.copy(demo_file, path)
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, QT_SCALE_FACTOR="1.5", QT_QPA_PLATFORM="offscreen")
    env["PYTHONPATH"] = os.pathsep.join([str(root), str(root / "src"), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", SCALED, str(path), *LANGS],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    for lang in LANGS:
        found, seen = result[lang]
        assert seen > 20, lang
        assert found == [], (lang, found)
