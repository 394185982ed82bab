"""The ``processes`` fixture's promise: a child that ignores Ctrl+C fails its test with the place it hangs
(faulthandler's stack of each thread), and is gone afterwards."""

from __future__ import annotations

import os
import sys

import pytest

from tests.waits import Hung, Processes

IGNORES_CTRL_C = """
import signal, sys, threading
signal.signal(signal.SIGINT, signal.SIG_IGN)
def held_by_a_thread():
    threading.Event().wait()
t = threading.Thread(target=held_by_a_thread, name="holder")
t.start()
print("ready", flush=True)
t.join()
"""


@pytest.mark.parametrize("stderr", ["piped", "not taken"])
def test_a_child_that_ignores_ctrl_c_fails_with_its_stacks_and_is_killed(stderr: str) -> None:
    processes = Processes()
    kwargs = {"stderr": -1} if stderr == "piped" else {}
    proc = processes.start([sys.executable, "-c", IGNORES_CTRL_C], stdout=-1, **kwargs)
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    with pytest.raises(Hung) as hung:
        processes.interrupt(proc, seconds=0.5)
    message = str(hung.value)
    assert "did not end within" in message and "Ctrl+C" in message
    assert "held_by_a_thread" in message and "<module>" in message  # both threads' stacks
    assert proc.poll() is not None
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)  # nothing of its group is left
    processes.stop_all()


def test_stop_all_fails_for_a_child_that_ignores_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    import tests.waits as waits

    monkeypatch.setattr(waits, "READY_S", 0.5)
    processes = Processes()
    proc = processes.start([sys.executable, "-c", IGNORES_CTRL_C], stdout=-1)
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    with pytest.raises(Hung, match="held_by_a_thread"):
        processes.stop_all()
    assert proc.poll() is not None
