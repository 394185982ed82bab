"""Processes forked from one that has imported ClubDesk once, for the tests that start many processes.

A fresh ``python -c`` spends ~0.5 s of CPU importing ClubDesk (and ~0.3 s more building the CLI's parser)
before it does what the test is about; a test that starts thirty of them spends most of its time there, and a
kill -9 drawn at random mostly lands in those imports. The forker (``python -m tests.forks``, one per pytest
process, started by the ``forker`` fixture) imports once and, for each job, forks a fresh process that runs
the job's code as ``python -c code argv…`` would, and ends with ``os._exit``. It never opens a database nor
starts a thread, so a forked process starts with nothing open and nothing shared but the imported modules
(``random`` reseeds itself in a forked child). Each job is a real process of its own: its own SQLite
connections, its own locks, killed by its own pid.

The forker reaps a process only when the test waits for it, so a pid the test kills is never reused meanwhile.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import select
import signal
import subprocess
import sys
import textwrap
import time
import traceback
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]

# What a job would otherwise import first: the storage with Alembic (an upgrade imports it), the CLI with
# every command's module (building its parser imports them) and the services the tests' own code calls.
PRELOAD = (
    "alembic.command",
    "alembic.config",
    "sqlalchemy.dialects.sqlite",
    "clubdesk.storage",
    "clubdesk.storage.migrate",
    "clubdesk.cli.core",
    "clubdesk.services.desk",
    "clubdesk.services.desk.registration",
    "clubdesk.services.night",
    "clubdesk.services.members.edit",
    "clubdesk.services.members.search",
    "clubdesk.services.club.settings",
)


# ----------------------------------------------------------------------------- in the forker


def _exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    print(exc.code, file=sys.stderr)
    return 1


def _job(job: dict[str, Any]) -> None:
    """In the forked process: stdin from /dev/null, stdout and stderr to the job's files, then its code."""
    code = 1
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        for fd, name in ((1, "out"), (2, "err")):
            out = os.open(job[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(out, fd)
            os.close(out)
        os.environ.clear()
        os.environ.update(job["env"])
        sys.argv = ["-c", *job["argv"]]
        try:
            exec(compile(job["code"], "<forked>", "exec"), {"__name__": "__main__"})  # noqa: S102
            code = 0
        except SystemExit as exc:
            code = _exit_code(exc)
        except BaseException:  # noqa: BLE001 - as an uncaught exception ends ``python -c``: traceback, 1
            traceback.print_exc()
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def serve(requests: IO[str], replies: IO[str]) -> None:
    """The forker's loop: one JSON request a line (``run``, ``poll``, ``wait``), one JSON reply a line."""
    for line in requests:
        request = json.loads(line)
        if request["op"] == "run":
            pid = os.fork()
            if pid == 0:
                _job(request)  # never returns
            reply: dict[str, Any] = {"pid": pid}
        elif request["op"] == "poll":
            done, status = os.waitpid(request["pid"], os.WNOHANG)
            reply = {"code": os.waitstatus_to_exitcode(status) if done else None}
        else:
            _pid, status = os.waitpid(request["pid"], 0)
            reply = {"code": os.waitstatus_to_exitcode(status)}
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


def _preload() -> None:
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    from sqlalchemy.orm import configure_mappers

    from clubdesk.cli.core import build_parser

    build_parser()  # imports every command's module
    configure_mappers()  # what the first query of each process would do


# ----------------------------------------------------------------------------- in the test


class Forked:
    """One forked process, used like a ``subprocess.Popen``: ``pid``, ``poll``, ``wait``, ``kill``,
    ``communicate`` (its stdout and stderr, read from its files once it has ended)."""

    def __init__(self, forker: Forker, pid: int, out: Path, err: Path) -> None:
        self.forker = forker
        self.pid = pid
        self.out = out
        self.err = err
        self.returncode: int | None = None
        # Linux: a descriptor that becomes readable when the process ends, waited on here without asking the
        # forker (a test polling a running process in a loop would otherwise keep the forker busy)
        self._ended: int | None = os.pidfd_open(pid) if hasattr(os, "pidfd_open") else None

    def poll(self) -> int | None:
        return self._reaped(0.0)

    def wait(self, timeout: float | None = None) -> int:
        """Its exit code (``-9`` when killed); with ``timeout``, ``subprocess.TimeoutExpired`` after it."""
        code = self._reaped(timeout)
        if code is None:
            raise subprocess.TimeoutExpired(f"forked process {self.pid}", timeout or 0.0)
        return code

    def _reaped(self, timeout: float | None) -> int | None:
        """The exit code once the process has ended within ``timeout`` seconds (None: however long it takes);
        None while it runs."""
        if self.returncode is not None:
            return self.returncode
        if self._ended is not None:
            if not select.select([self._ended], [], [], timeout)[0]:
                return None
            os.close(self._ended)
            self._ended = None
            self.returncode = int(self.forker.ask({"op": "wait", "pid": self.pid})["code"])
            return self.returncode
        end = None if timeout is None else time.monotonic() + timeout
        while (code := self.forker.ask({"op": "poll", "pid": self.pid})["code"]) is None:
            if end is not None and time.monotonic() >= end:
                return None
            time.sleep(0.005)
        self.returncode = int(code)
        return self.returncode

    def kill(self) -> None:
        """SIGKILL, as ``kill -9``; the pid is still this process's (the forker has not reaped it)."""
        if self.returncode is None:
            os.kill(self.pid, signal.SIGKILL)

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        self.wait(timeout)
        return self.out.read_text(encoding="utf-8"), self.err.read_text(encoding="utf-8")


class Forker:
    """The test's side of one forker process (see the module's text)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._names = itertools.count(1)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)]))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.forks"],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the forker ended (exit code {self.proc.wait()})")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def run(self, code: str, *argv: str, env: dict[str, str] | None = None) -> Forked:
        """Fork a process that runs ``code`` (dedented) as ``python -c code argv…`` would, in the test's
        environment with ``env`` added."""
        name = self.folder / f"job{next(self._names)}"
        out, err = name.with_suffix(".out"), name.with_suffix(".err")
        reply = self.ask(
            {
                "op": "run",
                "code": textwrap.dedent(code),
                "argv": list(argv),
                "env": dict(os.environ, **(env or {})),  # the test's environment as it is now
                "out": str(out),
                "err": str(err),
            }
        )
        return Forked(self, int(reply["pid"]), out, err)

    def close(self) -> None:
        """End of the run: the forker's input closed ends it; killed if it does not end."""
        assert self.proc.stdin is not None
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


class Forks:
    """The processes one test forks: whatever still runs when the test ends (passed or failed) is killed and
    reaped, so no test leaves one behind."""

    def __init__(self, forker: Forker) -> None:
        self.forker = forker
        self.started: list[Forked] = []

    def run(self, code: str, *argv: str, env: dict[str, str] | None = None) -> Forked:
        forked = self.forker.run(code, *argv, env=env)
        self.started.append(forked)
        return forked

    def stop_all(self) -> None:
        for forked in self.started:
            if forked.poll() is None:
                forked.kill()
            forked.wait()


if __name__ == "__main__":
    _preload()
    serve(sys.stdin, sys.stdout)
