"""The table entry server (issue 27): the web app on uvicorn in a background thread, bound only where the
secretary said (the loopback by default, the hall network's address when chosen).

``start()`` binds the socket itself first, so a port in use, an address this machine does not have (no
network) and a port the system does not allow are each one clear translated refusal before anything runs;
it returns once the server is listening. ``stop()`` ends it cleanly (open requests finish, the thread ends).
"""

from __future__ import annotations

import asyncio
import errno
import socket
import threading
import time

from clubdesk.db import Database
from clubdesk.i18n import _
from clubdesk.services.base import ServiceError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
START_TIMEOUT = 10.0


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses (loopback last): the networks the secretary can pick from."""
    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = str(info[4][0])
            if addr not in found:
                found.append(addr)
    except OSError:
        pass
    try:  # the address of the default route (no packet is sent by a UDP connect)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            addr = str(probe.getsockname()[0])
            if addr not in found:
                found.insert(0, addr)
    except OSError:
        pass
    outside = [a for a in found if not a.startswith("127.")]
    return [*outside, "127.0.0.1"]


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


class TableServer:
    """The web app of ``db`` served on ``host``:``port`` (port 0: any free port) in a background thread."""

    def __init__(self, db: Database, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> None:
        self.db = db
        self.host = host
        self.port = port
        self._server: object | None = None
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _bind(self) -> socket.socket:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family in (
                socket.AF_INET,
                socket.AF_INET6,
            ):  # issue 27 (27b): the accepted sockets inherit it;
                # without it a response's header and body writes wait on the phone's delayed ACK (~40 ms each)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.bind((self.host, self.port))
            sock.listen(128)
        except OSError as exc:
            sock.close()
            raise bind_error(exc, self.host, self.port) from exc
        sock.set_inheritable(True)
        return sock

    def start(self) -> None:
        """Listen, or raise the translated refusal (port in use, no such network, port not allowed)."""
        if self.running:
            return
        import uvicorn

        from clubdesk.web.app import create_app

        sock = self._bind()
        self.port = int(sock.getsockname()[1])
        config = uvicorn.Config(
            create_app(self.db),
            log_level="warning",
            access_log=False,
            lifespan="off",
            http="h11",
            ws="none",
            timeout_keep_alive=30,
            server_header=False,
            date_header=False,
        )
        server = uvicorn.Server(config)
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
        if server is not None:
            server.should_exit = True  # type: ignore[attr-defined]
        if thread is not None:
            thread.join(timeout=10)
        self._server = None
        self._thread = None

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
