"""The hall's server answers only its own names, a bad id is a plain 404, and a request left half-open is
closed: a real server on 127.0.0.1 (a free port), requests through http.client with the Host header a
phone's browser would send (a page of another site resolving its own name to the desk: DNS rebinding), and
raw sockets that send part of a request and wait."""

from __future__ import annotations

import http.client
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from clubdesk.services import phones
from clubdesk.services.night.data.tokens import round_tokens
from clubdesk.storage import Database
from clubdesk.web import request_deadline, security
from clubdesk.web import server as web_server
from clubdesk.web.server import TableServer
from tests.integration.test_night_helpers import DESK
from tests.integration.test_table_entry_web import gaple_night
from tests.waits import READY_S


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    d = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "backups")
    try:
        yield d
    finally:
        d.close()


def _get(srv: TableServer, path: str, host: str | None) -> tuple[int, bytes, dict[str, str]]:
    """GET ``path`` with the Host header ``host`` (None: no Host header at all)."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        if host is not None:
            conn.putheader("Host", host)
        conn.endheaders()
        resp = conn.getresponse()
        return resp.status, resp.read(), {k.lower(): v for k, v in resp.getheaders()}
    finally:
        conn.close()


def test_only_the_servers_own_host_names_are_answered(
    db: Database, server: TableServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    port = server.port
    paths = ("/", f"/hall/{ev}", "/static", f"/t/{token}", f"/t/{token}/live")
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1.evil.example:{port}", "", None):
        for path in paths:
            status, body, headers = _get(server, path, host)
            assert status == 400, (host, path, status)
            assert b"evil" not in body and "location" not in headers  # no redirect to the other host
    mine = [f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "127.0.0.1", f"LOCALHOST.:{port}"]
    mine += [f"{a}:{port}" for a in phones.local_addresses()]  # the machine's own (the hall's Wi-Fi)
    mine.append(f"{socket.gethostname()}:{port}")
    for host in mine:
        status, _b, _h = _get(server, f"/t/{token}", host)
        assert status == 200, host
    # the host of the address the desk serves the hall at (the QR codes'), also when set after a first request
    monkeypatch.setattr(security, "HOSTS_SECONDS", 0.0)
    assert _get(server, f"/t/{token}", f"clubdesk-hall.example:{port}")[0] == 400
    phones.set_base_url(db, DESK, f"http://clubdesk-hall.example:{port}")
    assert _get(server, f"/t/{token}", f"clubdesk-hall.example:{port}")[0] == 200
    status, _b, headers = _get(server, "/static", f"clubdesk-hall.example:{port}")
    assert status == 307 and headers["location"].startswith("http://clubdesk-hall.example")


def test_a_bad_or_huge_hall_id_is_a_plain_404(db: Database, server: TableServer) -> None:
    gaple_night(db)
    host = f"127.0.0.1:{server.port}"
    for path in (
        "/hall/99999999999999999999999",
        "/hall/99999999999999999999999/standings",
        "/hall/99999999999999999999999/bracket",
        "/hall/2147483648",
        "/hall/0",
        "/hall/12345",
        "/hall/-1",
        "/hall/abc",
        "/hall/1?round=%C2%B2",  # a superscript two: a digit to str.isdigit, not to int()
    ):
        status, body, _h = _get(server, path, host)
        if path.startswith("/hall/1?"):
            assert status == 200, path
            continue
        assert status == 404, (path, status)
        assert b"Traceback" not in body and b"Internal Server Error" not in body


def _closed_after(sock: socket.socket, start: float, bound: float) -> float:
    """Seconds from ``start`` until the server closed ``sock`` (reading what it sent meanwhile); fails once
    ``bound`` seconds have passed with the connection still open."""
    while True:
        left = start + bound - time.monotonic()
        if left <= 0:
            raise AssertionError(f"the connection is still open after {bound:.0f} s")
        sock.settimeout(left)
        try:
            data = sock.recv(65536)
        except TimeoutError:
            raise AssertionError(f"the connection is still open after {bound:.0f} s") from None
        except ConnectionResetError:
            return time.monotonic() - start
        if not data:
            return time.monotonic() - start


# the deadlines ClubDesk ships, read before a test shortens them
SHIPPED_DEADLINES = (request_deadline.REQUEST_SECONDS, web_server.KEEP_ALIVE_SECONDS)


@pytest.fixture
def quick_server(db: Database, monkeypatch: pytest.MonkeyPatch) -> Iterator[TableServer]:
    """The phones' server with its request and keep-alive deadlines at one second: the same closing as
    with the shipped ones, waited for a tenth as long."""
    monkeypatch.setattr(request_deadline, "REQUEST_SECONDS", 1.0)
    monkeypatch.setattr(web_server, "KEEP_ALIVE_SECONDS", 1)
    srv = TableServer(db, "127.0.0.1", 0)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_a_half_open_request_is_closed_within_ten_seconds(db: Database, quick_server: TableServer) -> None:
    """Headers or a body sent in part, nothing sent at all, an idle kept-alive connection: each is closed
    by the server once its deadline has passed (all waited for at once), and the shipped deadlines are at
    most ten seconds."""
    server = quick_server
    assert all(seconds <= 10 for seconds in SHIPPED_DEADLINES)
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    host = f"127.0.0.1:{server.port}"
    sends = {
        "nothing": b"",
        "part of the headers": f"GET /t/{token} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: slow".encode(),
        "part of the body": (
            f"POST /t/{token}/entry HTTP/1.1\r\nHost: {host}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 400\r\n\r\ncsrf=1&type="
        ).encode(),
        "kept alive, idle": f"GET /t/{token}/live HTTP/1.1\r\nHost: {host}\r\n\r\n".encode(),
    }
    socks = {}
    start = time.monotonic()
    try:
        for what, data in sends.items():
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            if data:
                sock.sendall(data)
            socks[what] = sock
        bound = max(request_deadline.REQUEST_SECONDS, web_server.KEEP_ALIVE_SECONDS) + 5
        took = {what: _closed_after(sock, start, bound) for what, sock in socks.items()}
    finally:
        for sock in socks.values():
            sock.close()
    assert all(t <= bound for t in took.values()), took
    assert all(t >= 0.9 for t in took.values()), took  # by the deadline, not refused at once
    # a request that arrives whole is answered, on a fresh connection as before
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", f"/t/{token}/live")
        assert conn.getresponse().status == 200
    finally:
        conn.close()


def test_a_stop_ends_the_server_while_a_request_never_finishes(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone's request whose database work never returns (a stuck read): the Desk's switch (``stop``)
    still ends the server, its thread and its port, once the stop's grace is over; the stuck thread is
    left to run its course."""
    monkeypatch.setattr(web_server, "STOP_SECONDS", 1)  # the shipped grace, shortened for the test
    entered, release = threading.Event(), threading.Event()

    def stuck(*_args: object) -> None:
        entered.set()
        release.wait(READY_S)

    monkeypatch.setattr(phones, "posted_table", stuck)
    srv = TableServer(db, "127.0.0.1", 0)
    srv.start()
    sock = socket.create_connection(("127.0.0.1", srv.port), timeout=READY_S)
    try:
        host = f"127.0.0.1:{srv.port}"
        sock.sendall(f"POST /t/abc/side HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\n\r\n".encode())
        assert entered.wait(READY_S)
        thread = srv._thread
        assert thread is not None
        srv.stop()
        assert not thread.is_alive()  # stop() waits for it (bounded): ended, not left behind
        web_server._listen("127.0.0.1", srv.port).close()  # the switch can turn it on again there
    finally:
        release.set()
        sock.close()
