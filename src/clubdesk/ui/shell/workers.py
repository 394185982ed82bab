"""Long work off the GUI thread: a QRunnable that runs a function in the QThreadPool and reports back through
signals (delivered on the GUI thread, so only the GUI thread touches widgets).

The function gets a ``progress(done, total)`` callable when it accepts one; the result or the exception comes
back through ``finished`` / ``failed``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal


class WorkerSignals(QObject):
    progress = Signal(int, int)
    finished = Signal(object)
    failed = Signal(object)


class Worker(QRunnable):
    def __init__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self.signals = WorkerSignals()
        try:
            self._wants_progress = "progress" in inspect.signature(fn).parameters
        except (TypeError, ValueError):
            self._wants_progress = False

    def run(self) -> None:
        try:
            if self._wants_progress:
                self.kwargs["progress"] = self.signals.progress.emit
            result = self.fn(*self.args, **self.kwargs)
        except Exception as exc:  # noqa: BLE001 - handed to the GUI thread, shown there
            self.signals.failed.emit(exc)
            return
        self.signals.finished.emit(result)


def run_in_pool(
    fn: Callable[..., Any],
    *args: Any,
    on_done: Callable[[Any], None] | None = None,
    on_error: Callable[[BaseException], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    **kwargs: Any,
) -> Worker:
    worker = Worker(fn, *args, **kwargs)
    if on_done is not None:
        worker.signals.finished.connect(on_done)
    if on_error is not None:
        worker.signals.failed.connect(on_error)
    if on_progress is not None:
        worker.signals.progress.connect(on_progress)
    QThreadPool.globalInstance().start(worker)
    return worker
