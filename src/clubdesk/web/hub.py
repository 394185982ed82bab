"""The federation hub's HTTPS face (the phones' server stack: Starlette on uvicorn): a club desk pushes a
signed event file with its own token and it lands in the same import as a file carried on a stick
(``services.federation.import_file``); ``GET /`` is the hub's status page. TLS comes from the hub's
configuration (``--cert``/``--key`` or ``CLUBDESK_HUB_CERT``/``CLUBDESK_HUB_KEY``); plain HTTP is only for
the loopback (tests, a hub behind a TLS proxy on the same machine)."""

from __future__ import annotations

import html
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from clubdesk.i18n import _
from clubdesk.services import federation
from clubdesk.services.kernel import ServiceError

PUSH_PATH = "/federation/v1/events"
MAX_FILE = 64 * 1024 * 1024  # one event's file: far above a night of a thousand tables


def hub_app(hub: Any) -> Starlette:
    """The hub's web app over an open :class:`clubdesk.storage.hub.Hub`."""

    async def push(request: Request) -> Response:
        auth = request.headers.get("authorization", "")
        token = auth[len("Bearer ") :].strip() if auth.startswith("Bearer ") else ""
        if not token:
            return JSONResponse({"code": "no-token", "message": _("A push needs the club's token.")}, 401)
        body = await request.body()
        if len(body) > MAX_FILE:
            return JSONResponse({"code": "too-large", "message": _("The file is too large.")}, 413)
        try:
            got = await run_in_threadpool(federation.import_file, hub, body, via="push", club_token=token)
        except ServiceError as exc:
            status = 403 if exc.code in ("bad-token", "unknown-club", "foreign-file") else 422
            return JSONResponse({"code": exc.code, "message": exc.message}, status)
        return JSONResponse(
            {
                "status": got.status,
                "event": got.event_uid,
                "name": got.event_name,
                "club": got.club,
                "digest": got.digest,
                "version": got.version,
                "diff": got.diff,
            }
        )

    async def status(request: Request) -> Response:
        info = await run_in_threadpool(federation.hub_status, hub)
        rows = "".join(
            f"<tr><td>{html.escape(c.name)}</td><td>{c.events}</td><td>{html.escape(c.last or '-')}</td></tr>"
            for c in info.clubs
        )
        summary = _("{e} events, {p} players, {q} waiting for the secretary.").format(
            e=info.events, p=info.players, q=info.queue
        )
        title = html.escape(_("Federation hub"))
        page = (
            f"<!doctype html><meta charset=utf-8><title>{title}</title><h1>{title}</h1>"
            f"<p>{html.escape(summary)}</p>"
            f"<table><tr><th>{html.escape(_('Club'))}</th><th>{html.escape(_('Events'))}</th>"
            f"<th>{html.escape(_('Last received'))}</th></tr>{rows}</table>"
        )
        return HTMLResponse(page)

    return Starlette(routes=[Route(PUSH_PATH, push, methods=["POST"]), Route("/", status, methods=["GET"])])
