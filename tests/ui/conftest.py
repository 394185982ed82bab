"""Helpers for screen tests: offscreen windows must be made active for their shortcuts to fire."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QWidget

from tests.waits import READY_MS


def show_active(qtbot, widget: QWidget) -> QWidget:  # type: ignore[no-untyped-def]
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    widget.windowHandle().requestActivate()
    qtbot.waitUntil(widget.isActiveWindow, timeout=READY_MS)
    return widget


@pytest.fixture
def active(qtbot):  # type: ignore[no-untyped-def]
    """``active(widget)`` shows the widget as the active window (shortcuts and focus work)."""
    return lambda widget: show_active(qtbot, widget)


@pytest.fixture
def window(qtbot, demo_file: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    """The main window on a fresh copy of the demo club, shown and active."""
    from clubdesk.storage import Database
    from clubdesk.ui.shell.main_window import MainWindow
    from clubdesk.ui.shell.state import DeskState

    path = tmp_path / "demo.sqlite3"
    shutil.copy(demo_file, path)
    db = Database(path)
    win = MainWindow(DeskState(db))
    show_active(qtbot, win)
    yield win
    win.close()
    db.close()


@pytest.fixture
def backend() -> str:
    """Screen tests run on the SQLite file only; the services under them run on both (issue 25)."""
    return "sqlite"
