"""How long a test waits for something to be ready: generous bounds, never a claim about speed.

A test waits on readiness (a condition, a line, a file) and goes on the moment it holds; the bound is only how
long a broken condition takes to fail. A machine loaded by other work must not fail a test: how fast ClubDesk
is belongs to ``benchmarks/``, not to the suite.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import IO, Any, Protocol

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


STACK_CHARS = 6000  # the end of a hung child's stderr put in the failure: faulthandler's dump of its threads


def with_faulthandler(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``env`` (else this process's environment) with ``PYTHONFAULTHANDLER=1``: a Python child then dumps
    every thread's stack to its stderr on SIGABRT, so a child that hangs says where."""
    return {**(os.environ if env is None else env), "PYTHONFAULTHANDLER": "1"}


def _default_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Hung(AssertionError):
    """A child that did not end within its bound after Ctrl+C; the message carries its threads' stacks."""


class Processes:
    """Child processes a test starts (in a session of their own, with faulthandler on); whatever still runs
    when the test ends (passed or failed) is stopped: Ctrl+C to its process group (a server's workers too).
    A child that does not end within :data:`READY_S` of Ctrl+C is a failure that says where it hangs:
    SIGABRT (faulthandler prints each thread's stack), then it is killed."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen[str]] = []
        self._stderr: dict[int, IO[bytes]] = {}

    def start(self, cmd: list[str], **kwargs: Any) -> subprocess.Popen[str]:
        """``subprocess.Popen`` in a new session; a child whose stderr the test does not take writes it to a
        file, read back if the child hangs."""
        kwargs["env"] = with_faulthandler(kwargs.get("env"))
        spool = None
        if kwargs.get("stderr") is None:
            spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed in stop_all
            kwargs["stderr"] = spool
        # Ctrl+C as a terminal gives it: a child inherits an ignored SIGINT from the process that starts it
        # (the shells' background jobs rely on that), and a serve started so keeps ignoring Ctrl+C
        kwargs.setdefault("preexec_fn", _default_ctrl_c)
        proc: subprocess.Popen[str] = subprocess.Popen(cmd, start_new_session=True, text=True, **kwargs)
        self.started.append(proc)
        if spool is not None:
            self._stderr[proc.pid] = spool
        return proc

    def interrupt(
        self, proc: subprocess.Popen[str], seconds: float = READY_S, *, group: bool = False
    ) -> tuple[str, str]:
        """Ctrl+C to ``proc`` (``group``: to its whole process group, as a terminal sends it), then its
        stdout and stderr once it has ended; :class:`Hung`, with its stacks, if it has not ended within
        ``seconds``."""
        with suppress(ProcessLookupError, PermissionError):
            if group:
                os.killpg(proc.pid, signal.SIGINT)
            else:
                proc.send_signal(signal.SIGINT)
        return self.wait_ended(proc, seconds, "Ctrl+C")

    def wait_ended(self, proc: subprocess.Popen[str], seconds: float, after: str) -> tuple[str, str]:
        """``proc``'s stdout and stderr once it has ended within ``seconds``, else :class:`Hung` with its
        stacks (it is then aborted and killed, its process group with it)."""
        return ended(proc, seconds, after, self._stderr.get(proc.pid))

    def _abort(self, proc: subprocess.Popen[str], what: str) -> str:
        return _abort(proc, what, self._stderr.get(proc.pid))

    def stop_all(self) -> None:
        """Ctrl+C to the process group of each child still running, then SIGKILL to what is left of it (a
        worker whose parent died); :class:`Hung`, once all are stopped, for any that did not end within
        :data:`READY_S` of Ctrl+C."""
        hung = []
        for proc in self.started:
            if proc.poll() is None:
                with suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGINT)
                if _ended(proc, READY_S) is None:
                    hung.append(self._abort(proc, f"did not end within {READY_S:g} s of Ctrl+C"))
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        for spool in self._stderr.values():
            spool.seek(0)
            sys.stderr.write(spool.read().decode(errors="replace"))  # into the test's captured stderr
            spool.close()
        self._stderr.clear()
        if hung:
            raise Hung("\n\n".join(hung))


def ended(
    proc: subprocess.Popen[str], seconds: float, after: str, spool: IO[bytes] | None = None
) -> tuple[str, str]:
    """``proc``'s stdout and stderr once it has ended within ``seconds`` (of ``after``: what should have
    ended it), else :class:`Hung` with each of its threads' stacks (a child started with
    :func:`with_faulthandler`); it is then killed. ``spool``: the file its stderr goes to, if not a pipe."""
    done = _ended(proc, seconds)
    if done is None:
        raise Hung(_abort(proc, f"did not end within {seconds:g} s of {after}", spool))
    return done


def _abort(proc: subprocess.Popen[str], what: str, spool: IO[bytes] | None) -> str:
    """SIGABRT to ``proc`` (its group when it leads one: a server's workers too), so faulthandler dumps
    each thread's stack, then SIGKILL; the message: the command, ``what``, whether Ctrl+C reached it,
    and the end of its stderr."""
    signals = _signal_state(proc.pid)
    try:
        leads = os.getpgid(proc.pid) == proc.pid
    except OSError:
        leads = False
    err = ""
    for sig in (signal.SIGABRT, signal.SIGKILL):
        with suppress(ProcessLookupError, PermissionError):
            if leads:
                os.killpg(proc.pid, sig)
            else:
                os.kill(proc.pid, sig)
        done = _ended(proc, 10)
        if done is not None:
            err = done[1]
            break
    if spool is not None:
        spool.seek(0)
        err = spool.read().decode(errors="replace")
    return f"{proc.args!r} {what}; {signals}; the end of its stderr:\n{err[-STACK_CHARS:]}"


def _signal_state(pid: int) -> str:
    """Whether Ctrl+C reached a hung child, from Linux's ``/proc``: SIGINT ignored by the process, blocked
    by some of its threads, or still pending (a handler that never ran)."""
    sigint = 1 << (signal.SIGINT - 1)
    try:
        tasks = sorted(Path(f"/proc/{pid}/task").iterdir())
        fields = [
            dict(line.split(":\t", 1) for line in (t / "status").read_text().splitlines() if ":\t" in line)
            for t in tasks
        ]
    except OSError:
        return "its signal state unknown"
    if not fields:
        return "its signal state unknown"

    def has(field: dict[str, str], key: str) -> bool:
        return bool(int(field.get(key, "0").strip() or "0", 16) & sigint)

    blocked = [
        f"{f.get('Name', '?').strip()}:{t.name}"
        for f, t in zip(fields, tasks, strict=True)
        if has(f, "SigBlk")
    ]
    return (
        f"SIGINT ignored: {has(fields[0], 'SigIgn')}, caught: {has(fields[0], 'SigCgt')}, "
        f"pending: {has(fields[0], 'ShdPnd') or any(has(f, 'SigPnd') for f in fields)}, "
        f"blocked by threads: {blocked or 'none'} (of {len(fields)}; states "
        f"{sorted({f.get('State', '?').strip()[:1] for f in fields})})"
    )


def _ended(proc: subprocess.Popen[str], seconds: float) -> tuple[str, str] | None:
    """``proc``'s remaining stdout and stderr once it has ended (its pipes drained meanwhile, so a full
    pipe cannot stop it), None if it still runs after ``seconds``."""
    try:
        out, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        return None
    except ValueError:  # its pipes were closed by the test: wait without them
        try:
            proc.wait(seconds)
        except subprocess.TimeoutExpired:
            return None
        return "", ""
    return out or "", err or ""
