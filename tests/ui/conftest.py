"""Helpers for screen tests: offscreen windows must be made active for their shortcuts to fire."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QWidget


def show_active(qtbot, widget: QWidget) -> QWidget:  # type: ignore[no-untyped-def]
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    widget.windowHandle().requestActivate()
    qtbot.waitUntil(widget.isActiveWindow, timeout=2000)
    return widget


@pytest.fixture
def active(qtbot):  # type: ignore[no-untyped-def]
    """``active(widget)`` shows the widget as the active window (shortcuts and focus work)."""
    return lambda widget: show_active(qtbot, widget)


@pytest.fixture
def backend() -> str:
    """Screen tests run on the SQLite file only; the services under them run on both (issue 25)."""
    return "sqlite"
