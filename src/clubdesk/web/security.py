"""Safety of the web face: CSRF tokens (double submit: a random cookie and a form field
signed with the server's secret, stdlib hmac), a request body size limit, only this server's own host
names, and the language of a request."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import anyio.to_thread

from clubdesk.i18n import LANGUAGES

MAX_BODY = 16 * 1024  # bytes: a hand is a few hundred; anything bigger is refused with 413
HOSTS_SECONDS = 2.0  # an unknown Host asks for this server's names again at most this often
CSRF_COOKIE = "cd_csrf"
LANG_COOKIE = "cd_lang"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Csrf:
    """Per-server secret; the form field is HMAC(secret, cookie nonce + the page's path key)."""

    def __init__(self, secret: bytes | None = None) -> None:
        self.secret = secret or secrets.token_bytes(32)

    @staticmethod
    def new_nonce() -> str:
        return secrets.token_urlsafe(18)

    def field_for(self, nonce: str, key: str) -> str:
        return hmac.new(self.secret, f"{nonce}|{key}".encode(), hashlib.sha256).hexdigest()

    def valid(self, nonce: str | None, key: str, field: str | None) -> bool:
        if not nonce or not field or len(nonce) > 64 or len(field) > 128:
            return False
        return hmac.compare_digest(self.field_for(nonce, key), field)


class BodyLimit:
    """ASGI middleware: a request whose body is larger than ``limit`` gets 413 and never reaches the app
    (by its Content-Length, or by counting the chunks of a body sent without one)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await _plain(send, 413, b"Request too large")
                    return
        seen = 0
        started = False

        async def limited() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge()
            return msg

        async def tracking_send(msg: Message) -> None:
            nonlocal started
            if msg["type"] == "http.response.start":
                started = True
            await send(msg)

        try:
            await self.app(scope, limited, tracking_send)
        except _TooLarge:
            if not started:
                await _plain(send, 413, b"Request too large")


def host_of(header: str) -> str | None:
    """The host a Host header names (``name``, ``name:port``, ``[v6]:port``), lower case, without a final
    dot; None for a header that is not one."""
    text = header.strip().lower()
    if text.startswith("["):
        end = text.find("]")
        host, rest = text[1:end], text[end + 1 :]
        if end < 0 or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
    else:
        host, colon, port = text.partition(":")
        if colon and not port.isdigit():
            return None
    host = host.rstrip(".")
    return host if host and len(host) <= 253 else None


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class OwnHosts:
    """ASGI middleware: a request whose Host header is missing or names a host this server is not gets 400
    and never reaches the app. A page of another site whose name its owner points at the hall's server
    (DNS rebinding) must not read or post the tables through a phone's browser. ``hosts()`` gives the
    names (:func:`clubdesk.services.phones.own_hosts`); a name not among them asks for them again, in a
    thread and at most every :data:`HOSTS_SECONDS`, so an address set after the server started (the desk
    stores it once the server listens) or a network joined meanwhile is answered too."""

    def __init__(self, app: ASGIApp, hosts: Callable[[], frozenset[str]]) -> None:
        self.app = app
        self.hosts = hosts
        self._known: frozenset[str] = frozenset()
        self._asked = float("-inf")

    def _allows(self, host: str | None) -> bool:
        return host is not None and (host in self._known or _loopback(host))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        raw = next((v for k, v in scope.get("headers", []) if k == b"host"), b"")
        host = host_of(raw.decode("latin-1"))
        if host is not None and not self._allows(host) and time.monotonic() - self._asked >= HOSTS_SECONDS:
            self._asked = time.monotonic()
            self._known = await anyio.to_thread.run_sync(self.hosts)
        if not self._allows(host):
            await _plain(send, 400, b"Invalid host header")
            return
        await self.app(scope, receive, send)


class _TooLarge(Exception):
    pass


async def _plain(send: Send, status: int, body: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def pick_language(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The page's language: the switch on the page (query), then the cookie it set, then the browser's
    Accept-Language, else English."""
    for value in (query, cookie):
        if value in LANGUAGES:
            return value
    weighted: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")[:20]):
        bits = part.strip().split(";")
        tag = bits[0].strip().lower()
        q = 1.0
        for b in bits[1:]:
            b = b.strip()
            if b.startswith("q="):
                try:
                    q = float(b[2:])
                except ValueError:
                    q = 0.0
        base = tag.split("-")[0]
        if base == "in":  # the old code of Bahasa Indonesia
            base = "id"
        if base in LANGUAGES and q > 0:
            weighted.append((-q, i, base))
    return sorted(weighted)[0][2] if weighted else "en"
