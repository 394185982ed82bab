"""Child of benchmarks/run: start a window and exit at its first paint. ``project`` opens ClubDesk on the
demo club (``CLUBDESK_HOME`` says where), ``bare`` a bare QMainWindow. The parent times the process.

``with-data``: ClubDesk again, exiting when its first section's screen is shown (the second target of
issue 22: the first section's data shown ≤ 5× the bare window).

A second argument names a database to open instead of the demo club (issue 22's 1 M-entry database);
with ``CLUBDESK_BENCH_RSS=1`` the child prints its peak resident memory (MB) when it exits."""

from __future__ import annotations

import os
import sys
from typing import Any

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow


class _FirstPaint(QObject):
    def __init__(self, prefix: str = "") -> None:
        super().__init__()
        self.prefix = prefix  # only a widget whose object name starts so ("section_": a section's screen)

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Paint and obj.objectName().startswith(self.prefix):
            if os.environ.get("CLUBDESK_BENCH_RSS"):  # this process's own peak (VmHWM, MB): ru_maxrss
                with open("/proc/self/status") as fh:  # would carry the parent's over the exec (Linux)
                    print(next(int(x.split()[1]) for x in fh if x.startswith("VmHWM:")) / 1024)
            sys.stdout.flush()
            os._exit(0)
        return False


def _watch(app: QApplication, prefix: str = "") -> None:
    """Exit at the first paint of any widget, from the application's start on (the window may paint its
    shell before the event loop runs: issue 22)."""
    app._first_paint = _FirstPaint(prefix)  # type: ignore[attr-defined]
    app.installEventFilter(app._first_paint)  # type: ignore[attr-defined]
    QTimer.singleShot(20_000, lambda: os._exit(2))


if __name__ == "__main__":
    app = QApplication(sys.argv[:1])
    _watch(app, "section_" if sys.argv[1] == "with-data" else "")
    if sys.argv[1] == "bare":
        w = QMainWindow()
        w.resize(1200, 780)
        w.show()
        app.exec()
    else:
        from clubdesk.app import main

        main(["--db", sys.argv[2]] if len(sys.argv) > 2 else ["--demo"])  # "project" or "with-data"
        os._exit(3)  # main returned without a paint
