"""uvicorn's h11 connection with a deadline on each request: its headers and its body arrive within
:data:`REQUEST_SECONDS` of the connection (or of the request's first byte on a kept-alive connection), else
the connection is closed. uvicorn times only the idle wait between requests (``timeout_keep_alive``), so a
request sent in part (a half-open connection, or one byte at a time) would hold its connection for as long
as the other end likes; a hall's server has a few hundred connections to give."""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_SECONDS = 8.0  # a phone on the hall's Wi-Fi sends a request (a few hundred bytes) well within this
MAX_HEADERS = 16 * 1024  # bytes of a request's line and headers; more is refused by h11 (400)

_RECEIVED = (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR)  # their side sent the whole request (or ended)


class DeadlineH11Protocol(H11Protocol):
    """:class:`H11Protocol` that closes a connection whose request is not wholly received in time."""

    deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.start_deadline()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state in _RECEIVED:
            self.stop_deadline()  # the request is in: the app's time to answer is not limited here
        elif self.deadline is None:
            self.start_deadline()  # the first bytes of the next request on a kept-alive connection

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_deadline()
        super().connection_lost(exc)

    def start_deadline(self) -> None:
        self.stop_deadline()
        self.deadline = self.loop.call_later(REQUEST_SECONDS, self.too_slow)

    def stop_deadline(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def too_slow(self) -> None:
        """The request did not arrive in time: the connection is closed (the app, if it had the request's
        headers, hears a disconnect)."""
        self.deadline = None
        if self.conn.their_state not in _RECEIVED and not self.transport.is_closing():
            self.transport.close()
