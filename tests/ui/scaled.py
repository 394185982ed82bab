"""A check of the main window at 150 % (QT_SCALE_FACTOR is read once, when Qt starts): run in a child process
on a copy of the demo club, one window a language; the check returns what it found, as JSON."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SCRIPT = """
import json, sys
from importlib import import_module
from pathlib import Path
from PySide6.QtWidgets import QApplication
from clubdesk import i18n
from clubdesk.storage import Database
from clubdesk.ui.shell.main_window import MainWindow
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import load_fonts
path, module, name, width, height = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
check = getattr(import_module(module), name)
app = QApplication([])
load_fonts()
out = {}
for lang in sys.argv[6:]:
    i18n.set_language(lang)
    db = Database(Path(path))
    window = MainWindow(DeskState(db))
    window.resize(width, height)
    window.show()
    app.processEvents()
    out[lang] = check(window)
    window.close()
    db.close()
print(json.dumps(out))
"""


def at_150_percent(
    demo_file: Path, tmp_path: Path, check: str, size: tuple[int, int], langs: Sequence[str]
) -> dict[str, Any]:
    """``check`` ("tests.ui.module:function") of a window of ``size`` logical pixels in each language."""
    path = tmp_path / "demo.sqlite3"
    shutil.copy(demo_file, path)
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, QT_SCALE_FACTOR="1.5", QT_QPA_PLATFORM="offscreen")
    env["PYTHONPATH"] = os.pathsep.join([str(root), str(root / "src"), env.get("PYTHONPATH", "")])
    module, name = check.split(":")
    command = [sys.executable, "-c", SCRIPT, str(path), module, name, str(size[0]), str(size[1]), *langs]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result
