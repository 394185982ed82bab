"""The hall pages (issue 27, item 7): read-only pages for anyone on the hall's network — the round's pairings
by table and by name ("where do I play?"), the countdown to the table call, the live standings and the
bracket. Plain HTML that works without JavaScript; a few lines of script count the call down and refresh
the page's content every few seconds. Phone-first (360 px wide), no phone number or e-mail (rule T14).

Routes: ``/`` (the events of the night; the only one's pairings when there is one), ``/hall/<event>``
(pairings, ``?round=R`` for another round), ``/hall/<event>/standings``, ``/hall/<event>/bracket``.
Every page is in the request's language (``?lang=``, then the language cookie, then the browser's
``Accept-Language``), translated through the same catalogs as the desk, without touching the desk window's
language (``clubdesk.i18n.language_context``).

The data comes from :mod:`clubdesk.services.hall` as plain values; what a page shows is kept until the
database changes (SQLite's data version; on the club server, one second), so a hundred phones reading
the hall cost one computation per change.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from clubdesk import i18n
from clubdesk.db import Database, DataVersion
from clubdesk.i18n import LANGUAGE_NAMES, LANGUAGES
from clubdesk.services import hall as H
from clubdesk.services.base import ServiceError
from clubdesk.web.render import render, request_language
from clubdesk.web.security import LANG_COOKIE

REFRESH_SECONDS = 5  # the script fetches the page's content again this often
CACHE_SECONDS = 1.0  # on the club server (no data version): what a page shows is at most this old


# ------------------------------------------------------------------------------------------ the cache
class _Cache:
    """Page values kept until the database changes: SQLite's data version, else at most one second."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._values: dict[tuple[Any, ...], tuple[int, float, Any]] = {}
        self._watchers: dict[int, DataVersion | None] = {}

    def _version(self, db: Database) -> int:
        with self._lock:
            if id(db) not in self._watchers:
                watcher = None
                if not db.is_server:
                    try:
                        watcher = DataVersion(db.path)
                    except Exception:  # noqa: BLE001 - no watcher: the one-second rule applies
                        watcher = None
                self._watchers[id(db)] = watcher
            watcher = self._watchers[id(db)]
        return watcher.value() if watcher is not None else -1

    def get(self, db: Database, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        version = self._version(db)
        now = time.monotonic()
        full = (id(db), *key)
        with self._lock:
            hit = self._values.get(full)
        if hit is not None and hit[0] == version and (version >= 0 or now - hit[1] < CACHE_SECONDS):
            return hit[2]
        value = make()
        with self._lock:
            if len(self._values) > 512:
                self._values.clear()
            self._values[full] = (version, now, value)
        return value


CACHE = _Cache()


def _db(request: Request) -> Database:
    return request.app.state.db  # type: ignore[no-any-return]


def _page(request: Request, template: str, status: int = 200, **values: Any) -> Response:
    lang = request_language(request)
    response = render(
        template,
        lang,
        status_code=status,
        languages=[(code, LANGUAGE_NAMES[code]) for code in LANGUAGES],
        refresh=REFRESH_SECONDS,
        path=request.url.path,
        **values,
    )
    if request.query_params.get("lang", "") in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, path="/", max_age=365 * 86400, samesite="lax")
    return response


def _not_found(request: Request) -> Response:
    return _page(request, "hall_missing.html", status=404)


def _event_id(request: Request) -> int:
    return int(request.path_params["event_id"])


def _values(request: Request, kind: str, make: Callable[[Database], Any], *key: Any) -> Any:
    """What a page shows, computed once per database change and language (names sort in its alphabet)."""
    db = _db(request)
    lang = request_language(request)

    def build() -> Any:
        with i18n.language_context(lang):
            return make(db)

    return CACHE.get(db, (kind, lang, *key), build)


# ------------------------------------------------------------------------------------------ pages
def index(request: Request) -> Response:
    events = _values(request, "events", H.events)
    if len(events) == 1 and events[0].round is not None:
        return pairings(request, events[0].id)
    return _page(request, "hall_index.html", events=events)


def pairings(request: Request, event_id: int | None = None) -> Response:
    ev = _event_id(request) if event_id is None else event_id
    raw = request.query_params.get("round", "")
    round_no = int(raw) if raw.isdigit() else None
    try:
        rv = _values(request, "round", lambda db: H.round_view(db, ev, round_no), ev, round_no)
    except ServiceError:
        try:
            event = _values(request, "event", lambda db: H.event(db, ev), ev)
        except ServiceError:
            return _not_found(request)
        return _page(request, "hall_pairings.html", event=event, rv=None, call_in=None)
    return _page(request, "hall_pairings.html", event=rv.event, rv=rv, call_in=rv.call_in())


def standings(request: Request) -> Response:
    ev = _event_id(request)
    try:
        st = _values(request, "standings", lambda db: H.standings(db, ev), ev)
    except ServiceError:
        return _not_found(request)
    return _page(request, "hall_standings.html", event=st.event, st=st)


def bracket(request: Request) -> Response:
    from clubdesk.reports.site import bracket_svg
    from clubdesk.services.share import bracket_rounds, side_text

    ev = _event_id(request)

    def make(db: Database) -> Any:
        event, bd = H.bracket(db, ev)
        rounds = [
            (title, [(side_text(m, 0), m.score, side_text(m, 1), m.winner) for m in ms])
            for title, ms in bracket_rounds(bd)
        ]
        return event, bracket_svg(bd), rounds, bd.champion

    try:
        event, svg, rounds, champion = _values(request, "bracket", make, ev)
    except ServiceError:
        return _not_found(request)
    return _page(request, "hall_bracket.html", event=event, svg=svg, rounds=rounds, champion=champion)


def routes() -> list[BaseRoute]:
    """The hall's routes, mounted by :func:`clubdesk.web.app.create_app`."""
    return [
        Route("/", index, methods=["GET"], name="hall"),
        Route("/hall", index, methods=["GET"], name="hall_events"),
        Route("/hall/{event_id:int}", pairings, methods=["GET"], name="hall_pairings"),
        Route("/hall/{event_id:int}/standings", standings, methods=["GET"], name="hall_standings"),
        Route("/hall/{event_id:int}/bracket", bracket, methods=["GET"], name="hall_bracket"),
    ]
