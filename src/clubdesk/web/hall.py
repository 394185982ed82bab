"""The hall pages: read-only pages for anyone on the hall's network — the round's pairings
by table and by name ("where do I play?"), the countdown to the table call, the live standings and the
bracket. Plain HTML that works without JavaScript; a few lines of script count the call down and refresh
the page's content every few seconds. Phone-first (360 px wide), no phone number or e-mail (rule T14).

Routes: ``/`` (the events of the night; the only one's pairings when there is one), ``/hall/<event>``
(pairings, ``?round=R`` for another round), ``/hall/<event>/standings``, ``/hall/<event>/bracket``.
Every page is in the request's language (``?lang=``, then the language cookie, then the browser's
``Accept-Language``), translated through the same catalogs as the desk, without touching the desk window's
language (``clubdesk.i18n.language_context``).

The data comes from :mod:`clubdesk.services.publishing.hall` as plain values; a built page is kept until the
database changes (SQLite's data version; on the club server, one second) and at least one second while
the tables keep posting, so a hundred phones reading the hall cost one page a second, not one each. A page
that shows results (pairings, standings, bracket) is never served again once a table of its event was
confirmed since it was built (:func:`clubdesk.services.publishing.results_key`), and no page older than
:data:`STALE_SECONDS` is served while its new one is built: a first open after a quiet while waits for it.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from clubdesk import i18n
from clubdesk.i18n import LANGUAGE_NAMES, LANGUAGES
from clubdesk.reports.words import TIEBREAK_LEGEND, bracket_rounds, side_text
from clubdesk.services import publishing
from clubdesk.services.kernel import ServiceError
from clubdesk.storage import Database, DataVersion
from clubdesk.web.render import in_thread, render, request_language
from clubdesk.web.security import LANG_COOKIE

MAX_ID = 2**31 - 1  # the largest id a club's tables hold (PostgreSQL's integer; SQLite's is wider)
REFRESH_SECONDS = 5  # the script fetches the page's content again this often
FRESH_SECONDS = 1.0  # a page is built at most once a second while the tables keep posting (live within 1 s)
STALE_SECONDS = 3.0  # a page of a moment ago is served while its new one builds; an older one never is


# ------------------------------------------------------------------------------------------ the cache
@dataclass(frozen=True)
class _Built:
    version: int  # the database's data version it was built at (-1: the club server, no version)
    at: float
    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...]
    timed: bool  # it shows a countdown: built again every second even when nothing changed
    results: str | None = None  # the event's results key it was built under (None: the page shows no result)


ResultsKey = tuple[Any, Callable[[], str]]  # (the event, the read of its results key)


class _Cache:
    """Built pages, kept while the database has not changed (SQLite's data version) and at least one second
    while it keeps changing; a page of a moment ago (under :data:`STALE_SECONDS`) is served once more while
    one background thread builds the new one, so no reader waits for a build but the first of a page. A
    page that shows results is never served once its event's results key moved (a table was confirmed)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pages: dict[tuple[Any, ...], _Built] = {}
        self._building: dict[tuple[Any, ...], threading.Lock] = {}
        self._watchers: dict[int, DataVersion | None] = {}
        self._keys: dict[tuple[int, Any], tuple[int, str]] = {}  # an event's results key at a data version

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

    def _results(self, db: Database, version: int, results: ResultsKey, *, read: bool) -> str | None:
        """The event's results key now: read once per data version (on the club server, every time);
        None when it would take a read and ``read`` is false."""
        event, read_key = results
        memo_key = (id(db), event)
        with self._lock:
            memo = self._keys.get(memo_key)
        if memo is not None and version >= 0 and memo[0] == version:
            return memo[1]
        if not read:
            return None
        value = read_key()  # after the version was read: never older than it
        with self._lock:
            if len(self._keys) > 512:
                self._keys.clear()
            self._keys[memo_key] = (version, value)
        return value

    @staticmethod
    def _fresh(hit: _Built, version: int, now: float) -> bool:
        if now - hit.at < FRESH_SECONDS:
            return True
        return version >= 0 and hit.version == version and not hit.timed

    def get(
        self,
        db: Database,
        key: tuple[Any, ...],
        build: Callable[[], Response],
        *,
        wait: bool = True,
        results: ResultsKey | None = None,
    ) -> _Built | None:
        """The page (built now for its first reader; ``wait=False``: None instead of building it, or of
        reading the club server, here). ``results``: the page shows the event's results; a page built under
        another results key is built again before it is served."""
        version = self._version(db)
        full = (id(db), *key)
        now = time.monotonic()
        with self._lock:
            first = hit = self._pages.get(full)
            building = self._building.setdefault(full, threading.Lock())
        current: str | None = None
        if hit is not None and results is not None and not (version >= 0 and hit.version == version):
            # on a club file one small statement, asked on the event loop; the club server's in a thread
            current = self._results(db, version, results, read=wait or not db.is_server)
            if current is None:
                return None
            if current != hit.results:
                hit = None  # a table was confirmed since it was built: it is never shown again
        if hit is not None and self._fresh(hit, version, now):
            return hit
        if hit is not None and now - hit.at < STALE_SECONDS:
            if building.acquire(blocking=False):
                # the page of a moment ago at once; one thread builds the new one meanwhile (no reader waits)
                threading.Thread(
                    target=self._build,
                    args=(db, full, version, build, building, results),
                    name="clubdesk-hall",
                    daemon=True,
                ).start()
            return hit
        if not wait:
            return None
        with building:  # the first reader of a page waits for it (the others wait for the same build)
            with self._lock:
                again = self._pages.get(full)
            if again is not None and again is not first and (current is None or again.results == current):
                return again  # built meanwhile, under the results key of now
            return self._store(db, full, version, build, results)

    def _build(
        self,
        db: Database,
        full: tuple[Any, ...],
        version: int,
        build: Callable[[], Response],
        lock: threading.Lock,
        results: ResultsKey | None,
    ) -> None:
        try:
            self._store(db, full, version, build, results)
        except Exception:  # noqa: BLE001 - the page before stays; the next reader tries again
            pass
        finally:
            lock.release()

    def _store(
        self,
        db: Database,
        full: tuple[Any, ...],
        version: int,
        build: Callable[[], Response],
        results: ResultsKey | None,
    ) -> _Built:
        at = time.monotonic()
        # the results key before the page is built: a table confirmed during the build moves it again
        key = self._results(db, version, results, read=True) if results is not None else None
        response = build()
        headers = tuple((k, v) for k, v in response.headers.items() if k.lower() != "content-length")
        made = _Built(
            version,
            at,
            response.status_code,
            bytes(response.body),
            headers,
            bool(getattr(response, "timed", False)),
            key,
        )
        with self._lock:
            if len(self._pages) > 512:
                self._pages.clear()
            self._pages[full] = made
        return made


CACHE = _Cache()


def _db(request: Request) -> Database:
    return request.app.state.db  # type: ignore[no-any-return]


def _render(lang: str, path: str, template: str, status: int = 200, **values: Any) -> Response:
    return render(
        template,
        lang,
        status_code=status,
        languages=[(code, LANGUAGE_NAMES[code]) for code in LANGUAGES],
        refresh=REFRESH_SECONDS,
        path=path,
        **values,
    )


async def _serve(
    request: Request,
    kind: str,
    make: Callable[[Database, str, str], Response],
    *key: Any,
    results_of: int | None | bool = False,
) -> Response:
    """The page ``make(db, lang, path)`` builds, from the cache (names sort in the page language's
    alphabet, so each language has its own); the language cookie when the page's switch was used.
    ``results_of``: the event whose results the page shows (never served older than its last confirmed
    table); None: the results of every event not finished; False: the page shows no result."""
    db = _db(request)
    lang = request_language(request)
    path = request.url.path

    def build() -> Response:
        with i18n.language_context(lang):
            return make(db, lang, path)

    full = (kind, lang, path, *key)
    results: ResultsKey | None = None
    if results_of is not False:
        event = None if results_of is None else int(results_of)
        results = (event, lambda: publishing.results_key(db, event))
    # a built page is served from the event loop (no thread for the hundred readers); a build in a thread
    built = CACHE.get(db, full, build, wait=False, results=results) or await in_thread(
        functools.partial(CACHE.get, db, full, build, results=results)
    )
    assert built is not None
    response = Response(built.body, status_code=built.status, headers=dict(built.headers))
    if request.query_params.get("lang", "") in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, path="/", max_age=365 * 86400, samesite="lax")
    return response


def _missing(lang: str, path: str) -> Response:
    return _render(lang, path, "hall_missing.html", status=404)


def _event_id(request: Request) -> int | None:
    """The event a hall path names, None for an id no event can have (a page that does not exist, 404:
    not a database error)."""
    ev = int(request.path_params["event_id"])
    return ev if 0 < ev <= MAX_ID else None


def _no_event(request: Request) -> Response:
    return _missing(request_language(request), request.url.path)


# ------------------------------------------------------------------------------------------ pages
def _pairings_page(db: Database, lang: str, path: str, ev: int, round_no: int | None) -> Response:
    try:
        rv = publishing.round_view(db, ev, round_no)
    except ServiceError:
        try:
            event = publishing.event(db, ev)
        except ServiceError:
            return _missing(lang, path)
        return _render(lang, path, "hall_pairings.html", event=event, rv=None, call_in=None)
    left = rv.call_in()
    response = _render(lang, path, "hall_pairings.html", event=rv.event, rv=rv, call_in=left)
    response.timed = left is not None  # type: ignore[attr-defined]
    return response


def _events_page(db: Database, lang: str, path: str, *, past: bool, shortcut: bool = False) -> Response:
    """Tonight's events (their pairings when there is one only and ``shortcut``), and one link to the
    events of earlier nights; ``past``: those earlier events."""
    every = publishing.events(db)
    tonight = [e for e in every if e.tonight]
    earlier = [e for e in every if not e.tonight]
    if past:
        return _render(lang, path, "hall_index.html", events=earlier, past=True, earlier=0)
    if shortcut and len(tonight) == 1 and tonight[0].round is not None:  # tonight's only event
        return _pairings_page(db, lang, path, tonight[0].id, None)
    return _render(lang, path, "hall_index.html", events=tonight, past=False, earlier=len(earlier))


async def index(request: Request) -> Response:
    """``/``: where do I play (tonight's only event), else tonight's events; ``/hall``: always the list."""
    shortcut = request.url.path == "/"
    return await _serve(
        request,
        "index",
        lambda db, lang, path: _events_page(db, lang, path, past=False, shortcut=shortcut),
        results_of=None if shortcut else False,  # "/" may be tonight's only pairings, with their results
    )


async def earlier(request: Request) -> Response:
    return await _serve(request, "past", lambda db, lang, path: _events_page(db, lang, path, past=True))


async def pairings(request: Request) -> Response:
    ev = _event_id(request)
    if ev is None:
        return _no_event(request)
    raw = request.query_params.get("round", "")
    round_no = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else None
    return await _serve(
        request,
        "round",
        lambda db, lang, path: _pairings_page(db, lang, path, ev, round_no),
        ev,
        round_no,
        results_of=ev,
    )


async def standings(request: Request) -> Response:
    ev = _event_id(request)
    if ev is None:
        return _no_event(request)

    def make(db: Database, lang: str, path: str) -> Response:
        try:
            st = publishing.standings(db, ev)
        except ServiceError:
            return _missing(lang, path)
        # each tie-break column's long name: the legend under the table and the column's tooltip
        legend = [(code, i18n._(TIEBREAK_LEGEND.get(code, code))) for code in st.codes]
        return _render(lang, path, "hall_standings.html", event=st.event, st=st, legend=legend)

    return await _serve(request, "standings", make, ev, results_of=ev)


async def bracket(request: Request) -> Response:
    # ReportLab comes with it (reports.frame): loaded by the first bracket, not at the server's start
    from clubdesk.reports.site import bracket_svg

    ev = _event_id(request)
    if ev is None:
        return _no_event(request)

    def make(db: Database, lang: str, path: str) -> Response:
        try:
            event, bd = publishing.bracket(db, ev)
        except ServiceError:
            return _missing(lang, path)
        rounds = [
            (title, [(side_text(m, 0), m.score, side_text(m, 1), m.winner) for m in ms])
            for title, ms in bracket_rounds(bd)
        ]
        return _render(
            lang,
            path,
            "hall_bracket.html",
            event=event,
            svg=bracket_svg(bd),
            rounds=rounds,
            champion=bd.champion,
        )

    return await _serve(request, "bracket", make, ev, results_of=ev)


def routes() -> list[BaseRoute]:
    """The hall's routes, mounted by :func:`clubdesk.web.app.create_app`."""
    return [
        Route("/", index, methods=["GET"], name="hall"),
        Route("/hall", index, methods=["GET"], name="hall_events"),
        Route("/hall/past", earlier, methods=["GET"], name="hall_past"),
        Route("/hall/{event_id:int}", pairings, methods=["GET"], name="hall_pairings"),
        Route("/hall/{event_id:int}/standings", standings, methods=["GET"], name="hall_standings"),
        Route("/hall/{event_id:int}/bracket", bracket, methods=["GET"], name="hall_bracket"),
    ]
