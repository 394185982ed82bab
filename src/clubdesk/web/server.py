"""The table entry server: the web app on uvicorn in a background thread, bound only where the
secretary said (the loopback by default, the hall network's address when chosen).

``start()`` binds the socket itself first, so a port in use, an address this machine does not have (no
network) and a port the system does not allow are each one clear translated refusal before anything runs;
it returns once the server is listening. ``stop()`` ends it cleanly (open requests finish, the thread ends).
"""

from __future__ import annotations

import asyncio
import errno
import multiprocessing
import os
import secrets
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from clubdesk.i18n import _
from clubdesk.services.kernel import ServiceError
from clubdesk.services.phones import local_addresses as found
from clubdesk.storage import Database

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
START_TIMEOUT = 10.0
MAX_WORKERS = 8
KEEP_ALIVE_SECONDS = 10
STOP_SECONDS = 5  # a stop waits this long for the requests in progress, then cancels them
REUSE_PORT = sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses (loopback last): the networks the secretary can pick from (one list
    for the window's Desk and ``clubdesk-cli serve``: :func:`clubdesk.services.phones.local_addresses`)."""

    return found()


def bind_error(exc: OSError, host: str, port: int) -> ServiceError:
    if exc.errno == errno.EADDRINUSE:
        return ServiceError(
            "port-in-use",
            _("Port {port} is already in use on this computer; choose another port.").format(port=port),
            port=port,
        )
    if exc.errno in (errno.EACCES, errno.EPERM):
        return ServiceError(
            "port-blocked",
            _("This computer does not allow a server on port {port}; choose a port above 1024.").format(
                port=port
            ),
            port=port,
        )
    if exc.errno == errno.EADDRNOTAVAIL or isinstance(exc, socket.gaierror):
        return ServiceError(
            "no-network",
            _("This computer has no network with the address {host}; choose one of: {addresses}.").format(
                host=host, addresses=", ".join(local_addresses())
            ),
            host=host,
        )
    return ServiceError(
        "cannot-bind",
        _("The server cannot start on {host}:{port} ({reason}).").format(
            host=host, port=port, reason=exc.strerror
        ),
    )


def _config(app: Any) -> Any:
    """uvicorn's settings: h11 with a deadline on each request's headers and body
    (:mod:`clubdesk.web.request_deadline`) and a cap on their size, and an idle kept-alive connection
    closed after :data:`KEEP_ALIVE_SECONDS` (a table page polls twice a second, the hall pages every five
    seconds: both keep theirs), so a connection left half-open is closed within ~10 s. A stop waits
    :data:`STOP_SECONDS` for the requests in progress (uvicorn's own default is to wait for ever)."""
    import uvicorn

    from clubdesk.web.request_deadline import MAX_HEADERS, DeadlineH11Protocol

    return uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="off",
        http=DeadlineH11Protocol,
        ws="none",
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        timeout_graceful_shutdown=STOP_SECONDS,
        h11_max_incomplete_event_size=MAX_HEADERS,
        server_header=False,
        date_header=False,
    )


def _worker(
    path: str,
    secret: bytes,
    where: socket.socket | tuple[str, int],
    parent: int,
    ready: Any,
    writer: Any = None,
) -> None:
    """One more server process on the same port (``TableServer(workers=N)``): the same app on the same
    database file with the same CSRF secret, so any process answers any phone. ``ready`` is set once it
    listens. It ends with SIGTERM (as uvicorn does in a main thread) or when the process that started it
    is gone."""
    # Ctrl+C is the first process's, which ends this one with SIGTERM; this one was started with it blocked
    # (:func:`_ctrl_c_held`), so a Ctrl+C pressed while it was still starting is dropped, not a traceback
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    import uvicorn

    from clubdesk.web.app import create_app

    # its own socket on the same port (Linux: the system shares the connections), else the first one's
    sock = _listen(*where, reuse_port=True) if isinstance(where, tuple) else where
    db = Database(path, create=False)
    db.share_writer(writer)  # one writer at a time across the server's processes
    server = uvicorn.Server(_config(create_app(db, csrf_secret=secret)))

    def orphaned() -> None:
        while not server.should_exit:
            if server.started and not ready.is_set():
                ready.set()  # listening: the first process may say where the server is
            if os.getppid() != parent:
                server.should_exit = True
            time.sleep(1.0 if ready.is_set() else 0.05)

    threading.Thread(target=orphaned, name="clubdesk-web-parent", daemon=True).start()
    try:
        asyncio.run(server.serve(sockets=[sock]))
    finally:
        sock.close()
        db.engine.dispose()  # not db.close(): the window's or the first process's file marker stays


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Ctrl+C blocked in this thread while it starts a worker process: the worker is born with it blocked
    (its imports cannot be cut short by a KeyboardInterrupt), and a Ctrl+C pressed meanwhile reaches this
    process as soon as the worker has started."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _listen(host: str, port: int, *, reuse_port: bool = False) -> socket.socket:
    """A listening socket on ``host``:``port``, or the translated refusal. ``reuse_port`` (Linux): more
    processes of one server each listen on the same port, and the system shares the phones' connections
    among them (one socket shared by all went mostly to the first process: 90 % of a core against 15 %)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        # TCP_NODELAY: the accepted sockets inherit it; without it a response's header and body writes
        # wait on the phone's delayed ACK (~40 ms each)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise bind_error(exc, host, port) from exc
    sock.set_inheritable(True)
    return sock


class TableServer:
    """The web app of ``db`` served on ``host``:``port`` (port 0: any free port) in a background thread.

    ``workers`` > 1 (a club file, ``clubdesk-cli serve --workers N``): that many processes serve the one
    port (on Linux each its own socket, the system sharing the connections among them; elsewhere one
    shared socket), so a hall of 64 tables uses more than one core of the interpreter (a hand p95
    <= 100 ms); the writes still queue on the file's write lock, and each process checks its cached pages
    against the file on every read. The window serves with one (its own thread)."""

    def __init__(
        self, db: Database, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, workers: int = 1
    ) -> None:
        self.db = db
        self.host = host
        self.port = port
        self.workers = 1 if db.is_server else max(1, min(int(workers), MAX_WORKERS))
        self._server: object | None = None
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._children: list[Any] = []

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _bind(self) -> socket.socket:
        shared = self.workers > 1 and REUSE_PORT
        if shared and self.port:  # a port another program listens on, even one sharing it, is refused
            _listen(self.host, self.port).close()
        return _listen(self.host, self.port, reuse_port=shared)

    def start(self) -> None:
        """Listen, or raise the translated refusal (port in use, no such network, port not allowed)."""
        if self.running:
            return
        import uvicorn

        from clubdesk.web.app import create_app

        sock = self._bind()
        self.port = int(sock.getsockname()[1])
        secret = secrets.token_bytes(32)  # one CSRF secret for every process of this server
        server = uvicorn.Server(_config(create_app(self.db, csrf_secret=secret)))
        self._server = server
        self._error = None

        def run() -> None:
            try:
                asyncio.run(server.serve(sockets=[sock]))
            except BaseException as exc:  # noqa: BLE001 - reported by start()
                self._error = exc
            finally:
                sock.close()

        self._thread = threading.Thread(target=run, name="clubdesk-web", daemon=True)
        self._thread.start()
        if self.workers > 1:
            spawn = multiprocessing.get_context("spawn")  # no fork of a threaded process (Qt, SQLAlchemy)
            where: socket.socket | tuple[str, int] = (self.host, self.port) if REUSE_PORT else sock
            readies = []
            writer = spawn.RLock()  # the file's writers take turns, woken at each commit
            self.db.share_writer(writer)
            for _k in range(self.workers - 1):
                ready = spawn.Event()
                child = spawn.Process(
                    target=_worker,
                    args=(str(self.db.path), secret, where, os.getpid(), ready, writer),
                    name="clubdesk-web-worker",
                    daemon=True,
                )
                with _ctrl_c_held():
                    child.start()
                self._children.append(child)
                readies.append((child, ready))
            # every process listens before the address is given out: phones that connect at once are
            # shared among all of them (a keep-alive connection stays with the process that took it)
            until = time.monotonic() + 3 * START_TIMEOUT
            for child, ready in readies:
                while not ready.wait(0.05):
                    if not child.is_alive() or time.monotonic() > until:
                        break  # the others serve; the first process is enough
        deadline = time.monotonic() + START_TIMEOUT
        while not server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise ServiceError(
                    "cannot-start",
                    _("The server cannot start on {host}:{port} ({reason}).").format(
                        host=self.host, port=self.port, reason=str(self._error or "timeout")
                    ),
                )
            time.sleep(0.02)

    def stop(self) -> None:
        server, thread = self._server, self._thread
        children, self._children = self._children, []
        for child in children:
            child.terminate()  # SIGTERM: uvicorn finishes the open requests
        if server is not None:
            server.should_exit = True  # type: ignore[attr-defined]
        if thread is not None:
            thread.join(timeout=2 * STOP_SECONDS)  # bounded even if a request's thread never returns
        for child in children:
            child.join(timeout=2 * STOP_SECONDS)
            if child.is_alive():
                child.kill()
                child.join(timeout=5)
        self._server = None
        self._thread = None
        if children:
            self.db.share_writer(None)

    @property
    def urls(self) -> list[str]:
        """The addresses a phone opens: the bound address, or every address of this machine when bound to
        all of them (0.0.0.0)."""
        hosts = local_addresses() if self.host in ("0.0.0.0", "") else [self.host]
        out = []
        for h in hosts:
            shown = f"[{h}]" if ":" in h else h
            out.append(f"http://{shown}:{self.port}/")
        return out

    def __enter__(self) -> TableServer:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()
