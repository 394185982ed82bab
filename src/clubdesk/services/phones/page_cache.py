"""The key that changes whenever a table's page would, read in one small statement, and the built pages
kept until their table's key changes (two phones and the page after each post share one build).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import and_, bindparam, func, select
from sqlalchemy.orm import Session

from clubdesk import i18n
from clubdesk.models.event import Event
from clubdesk.models.result import Match, ResultEntry
from clubdesk.models.round import Round
from clubdesk.models.table_entry import RefereeCall, TableState, TableToken
from clubdesk.services.phones.table_page import TablePage, TableRef, page_in
from clubdesk.storage import Database


@lru_cache(maxsize=1)
def _key_statement() -> Any:
    """The one query of :func:`key_row`, built once (the token is its only parameter)."""
    hands = (
        select(func.count()).select_from(ResultEntry).where(ResultEntry.match_id == Match.id)
    ).scalar_subquery()
    called = (
        select(func.count())
        .select_from(RefereeCall)
        .where(
            RefereeCall.event_id == TableToken.event_id,
            RefereeCall.round_no == TableToken.round_no,
            RefereeCall.table_no == TableToken.table_no,
            RefereeCall.handled.is_(False),
        )
    ).scalar_subquery()
    return (
        select(
            TableToken.event_id,
            TableToken.round_no,
            TableToken.table_no,
            Match.version,
            Match.status,
            Match.kind,
            Match.referee,
            Match.locked,
            Round.status,
            Event.current_round,
            TableState.state,
            TableState.updated_at,
            hands,
            called,
        )
        .join(Event, Event.id == TableToken.event_id)
        .join(Round, and_(Round.event_id == TableToken.event_id, Round.number == TableToken.round_no))
        .join(Match, and_(Match.round_id == Round.id, Match.table_no == TableToken.table_no))
        .outerjoin(TableState, TableState.match_id == Match.id)
        .where(TableToken.token == bindparam("token"))
    )


def key_row(s: Session, token: str) -> tuple[TableRef, str, str] | None:
    """One query: the table of ``token``, its live key and the key of everything else its page shows
    (the round's and the event's state, the lock, the hands, the table state). None: opens nothing."""
    if not token or len(token) > 64:
        return None
    row = s.execute(_key_statement(), {"token": token}).first()
    return None if row is None else _row_keys(tuple(row), token)


_KEY_SQL: dict[int, str] = {}  # the key statement compiled for SQLite, once per dialect


def key_of(db: Database, token: str) -> tuple[TableRef, str, str] | None:
    """:func:`key_row` without a transaction of its own on a club file: the one statement on a pooled
    driver connection (one statement reads one state of the file; the phones ask this on every page
    and every live poll, a hand p95 <= 100 ms). On the club server, in a read transaction."""
    if not token or len(token) > 64:
        return None
    if db.is_server:
        with db.read_session() as s:
            return key_row(s, token)
    sql = _KEY_SQL.get(id(db.engine.dialect))
    if sql is None:
        sql = _KEY_SQL[id(db.engine.dialect)] = str(_key_statement().compile(dialect=db.engine.dialect))
    rows = db.read_now(sql, (token,))  # a token is unique: one row or none
    return _row_keys(rows[0], token) if rows else None


def _row_keys(row: tuple[Any, ...], token: str) -> tuple[TableRef, str, str]:
    ev_id, round_no, table_no, version, status, kind, referee, locked = row[:8]
    rnd_status, current, ts_state, ts_at, n_hands, n_called = row[8:]
    ref = TableRef(int(ev_id), int(round_no), int(table_no), token)
    live, full = _keys(
        version, status, kind, referee, locked, rnd_status, current, ts_state, ts_at, n_hands, bool(n_called)
    )
    return ref, live, full


def _keys(
    version: int | None,
    status: str,
    kind: str,
    referee: str | None,
    locked: bool,
    rnd_status: str,
    current: int | None,
    ts_state: str | None,
    ts_at: Any,
    n_hands: int,
    called: bool,
) -> tuple[str, str]:
    """(live key, full key) of a table from its values: what the page polls, and everything it shows.
    ``ts_at`` as the file stores it or as the ORM reads it: both written the same way."""
    if isinstance(ts_at, datetime):
        ts_at = ts_at.isoformat(sep=" ", timespec="microseconds")  # SQLite's text of a DateTime
    # the state as state_of computes it, from the row's values
    if status in ("confirmed", "bye") or kind != "played":
        state = (
            "confirmed_at_table"
            if ts_state == "confirmed" and status == "confirmed" and not referee
            else "entered_at_desk"
        )
    elif status in ("pending", "disputed"):
        state = "awaiting_confirmation"
    elif status == "in_play" or n_hands:
        state = "in_play"
    else:
        state = "not_started"
    live = f"{version or 0}.{state}.{int(called)}.{status}"
    full = f"{live}|{int(bool(locked))}.{rnd_status}.{current}.{ts_state}.{ts_at}.{n_hands}"
    return live, full


def live_key(db: Database, token: str) -> str | None:
    """What the page's live poll compares (one small read): it changes whenever the page would."""
    found = key_of(db, token)
    return None if found is None else found[1]


PAGE_SECONDS = 10.0  # a built page serves while its table's key stays (names changed at the desk: 10 s)


@dataclass
class CachedPage:
    """A built table page and the HTML made from it (by the web app, per side and flash kind)."""

    key: str
    at: float
    page: TablePage
    html: dict[Any, str] = field(default_factory=dict)


refs: dict[tuple[int, str], TableRef] = {}  # a served token -> its table (the posts find it here)


_pages_guard = threading.Lock()


_pages: dict[tuple[int, str, str], CachedPage] = {}


def peek(db: Database, token: str) -> tuple[bool, CachedPage | None]:
    """(does ``token`` open a table, its page from memory if still current): one statement, no build,
    so the web app asks it on its event loop and builds (:func:`cached_page`) in a thread only on a miss."""
    found = key_of(db, token)
    if found is None:
        return False, None
    ref, _live, full = found
    refs[(id(db), token)] = ref
    with _pages_guard:
        hit = _pages.get((id(db), token, i18n.current_language()))
    fresh = hit is not None and hit.key == full and time.monotonic() - hit.at < PAGE_SECONDS
    return True, hit if fresh else None


def cached_page(db: Database, token: str) -> CachedPage | None:
    """The table page in the current language, built once per change of its table (one small read
    checks the table's key; the page of an unchanged table is served from memory): the two phones and
    the page after each post share one build (a hand p95 <= 100 ms)."""
    cache_key = (id(db), token, i18n.current_language())
    now = time.monotonic()
    found = key_of(db, token)
    if found is None:
        return None
    ref, _live, full = found
    refs[(id(db), token)] = ref
    with _pages_guard:
        hit = _pages.get(cache_key)
    if hit is not None and hit.key == full and now - hit.at < PAGE_SECONDS:
        return hit
    with db.read_session() as s:
        again = key_row(s, token)  # the key of the snapshot the page is built from
        if again is None:
            return None
        built = CachedPage(again[2], now, page_in(s, again[0]))
    with _pages_guard:
        if len(_pages) > 4096:
            _pages.clear()
        _pages[cache_key] = built
    return built


def shown(db: Database, token: str) -> CachedPage | None:
    """The page this process served last for ``token`` in the current language (no read of the file)."""
    with _pages_guard:
        return _pages.get((id(db), token, i18n.current_language()))


def forget_pages() -> None:
    with _pages_guard:
        _pages.clear()
    refs.clear()
