"""How long a test waits for something to be ready: generous bounds, never a claim about speed.

A test waits on readiness (a condition, a line, a file) and goes on the moment it holds; the bound is only how
long a broken condition takes to fail. A machine loaded by other work must not fail a test: how fast ClubDesk
is belongs to ``benchmarks/``, not to the suite.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Protocol

READY_S = 60.0
READY_MS = int(READY_S * 1000)


def wait_for(condition: Callable[[], object], what: str, seconds: float = READY_S) -> None:
    """Poll ``condition`` until it is true; fail with ``what`` after ``seconds``."""
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"{what}: not within {seconds:.0f} s")
        time.sleep(0.02)


def ready_files(go: Path) -> list[Path]:
    """The files racing children write when they are ready: ``<go>.<pid>.ready`` beside the go-file (a child
    runs ``Path(go).with_name(f"{Path(go).name}.{os.getpid()}.ready").touch()`` before it waits for it)."""
    return list(go.parent.glob(f"{go.name}.*.ready"))


class Started(Protocol):
    """A started process: a ``subprocess.Popen`` or a forked one (tests/forks.py)."""

    def poll(self) -> int | None: ...


def release_when_ready(procs: Sequence[Started], go: Path, seconds: float = READY_S) -> None:
    """Write the go-file once every process is waiting for it (or one has ended: its exit code and stderr
    then tell the test why), so that they race from the same instant however loaded the machine is."""
    wait_for(
        lambda: len(ready_files(go)) >= len(procs) or any(p.poll() is not None for p in procs),
        "the racing processes did not start",
        seconds,
    )
    go.write_text("go")


class Processes:
    """Child processes a test starts; whatever still runs when the test ends (passed or failed) is stopped:
    Ctrl+C to its process group (a server's workers too), then killed."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen[str]] = []

    def start(self, cmd: list[str], **kwargs: object) -> subprocess.Popen[str]:
        proc: subprocess.Popen[str] = subprocess.Popen(cmd, start_new_session=True, text=True, **kwargs)  # type: ignore[call-overload]
        self.started.append(proc)
        return proc

    def stop_all(self) -> None:
        for proc in self.started:
            for sig in (signal.SIGINT, signal.SIGKILL):
                with suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, sig)
                with suppress(subprocess.TimeoutExpired):
                    proc.wait(30)
