"""Jinja2 pages in the request's own language (the same gettext catalogs as the window; the window's
language is never changed by a request: :func:`clubdesk.i18n.language_context`)."""

from __future__ import annotations

import asyncio
import functools
import weakref
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import anyio.to_thread
from anyio import CapacityLimiter
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse

from clubdesk import i18n
from clubdesk.i18n import _
from clubdesk.web.security import LANG_COOKIE, pick_language

T = TypeVar("T")
THREADS = 2  # the database work of requests runs in at most this many threads at once (per process)
HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(["html", "xml"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # _() reads the request's language (a context variable), so one environment serves every language
    env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda s: _(s), lambda s, p, n: i18n.ngettext(s, p, n), newstyle=True
    )
    env.filters["signed"] = lambda n: f"+{n}" if n > 0 else str(n)
    env.globals["LANGUAGE_NAMES"] = i18n.LANGUAGE_NAMES
    env.globals["LANGUAGES"] = i18n.LANGUAGES
    return env


def request_language(request: Request) -> str:
    return pick_language(
        request.query_params.get("lang"),
        request.cookies.get(LANG_COOKIE),
        request.headers.get("accept-language"),
    )


def render(name: str, lang: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """The template ``name`` rendered in ``lang`` (call inside :func:`clubdesk.i18n.language_context`
    or not: this sets it for the rendering)."""
    return html_response(render_html(name, lang, **context), status_code)


def render_html(name: str, lang: str, **context: Any) -> str:
    """The template ``name`` rendered in ``lang``, as text."""
    with i18n.language_context(lang):
        return environment().get_template(name).render(lang=lang, **context)


def html_response(html: str, status_code: int = 200) -> HTMLResponse:
    """A page with the headers every page of the web app has."""
    resp = HTMLResponse(html, status_code=status_code)
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Referrer-Policy"] = "no-referrer"  # the table's token never leaves in a Referer
    resp.headers["Content-Security-Policy"] = (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'; form-action 'self'"
    )
    return resp


_limiters: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, CapacityLimiter] = weakref.WeakKeyDictionary()


async def in_thread(func: Callable[..., T], *args: Any) -> T:
    """``func(*args)`` in a worker thread, at most :data:`THREADS` at once (a hand p95 <= 100 ms): the
    writes queue on SQLite's write lock anyway, and fewer threads contending for the interpreter leave
    the event loop free to serve the cached hall pages and table pages at once (starlette's own pool
    runs up to 40)."""
    loop = asyncio.get_running_loop()
    limiter = _limiters.get(loop)
    if limiter is None:
        limiter = _limiters[loop] = CapacityLimiter(THREADS)
    return await anyio.to_thread.run_sync(functools.partial(func, *args), limiter=limiter)
