"""Child of benchmarks/run: start a window and exit at its first paint. ``project`` opens ClubDesk on the
demo club (``CLUBDESK_HOME`` says where), ``bare`` a bare QMainWindow. The parent times the process."""

from __future__ import annotations

import os
import sys
from typing import Any

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow


class _FirstPaint(QObject):
    def eventFilter(self, _obj: Any, event: Any) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Paint:
            sys.stdout.flush()
            os._exit(0)
        return False


_exec = QApplication.exec


def _exec_until_paint(self: QApplication) -> int:
    self._first_paint = _FirstPaint()  # type: ignore[attr-defined]
    self.installEventFilter(self._first_paint)  # type: ignore[attr-defined]
    QTimer.singleShot(20_000, lambda: os._exit(2))
    return int(_exec())


QApplication.exec = _exec_until_paint  # type: ignore[method-assign]

if __name__ == "__main__":
    if sys.argv[1] == "bare":
        app = QApplication(sys.argv[:1])
        w = QMainWindow()
        w.resize(1200, 780)
        w.show()
        app.exec()
    else:
        from clubdesk.app import main

        main(["--demo"])
