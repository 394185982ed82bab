"""Results entered at the table on the players' phones (issue 27).

Publishing a round gives each table a random token (>= 128 bits, :func:`ensure_tokens`); the token opens
that table only, through the web app (``clubdesk.web``). Every hand goes through the same services the
desk uses (:mod:`clubdesk.services.results`), so the rules engine validates it and a refused hand stores
nothing. Both sides approve (rules G13, E6, T8c): the side that enters the last hand approves with it, the
other side confirms on its phone ("confirmed at the table by …"); a dispute or the referee's decision at
the desk wins. Every post carries a page-made id, stored once: a retry on a flaky Wi-Fi stores the hand
once; a post made on a page older than the table (the desk or the other phone changed it) is refused.
Each change is audited with role "table", the table and the phone's network address.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import and_, bindparam, func, select
from sqlalchemy.orm import Session

from clubdesk import i18n
from clubdesk.db import Database, DatabaseError
from clubdesk.games import EntryError, load_ruleset, replay
from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.event import Entrant, Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match, ResultEntry
from clubdesk.models.round import Round
from clubdesk.models.table_entry import RefereeCall, TablePost, TableState, TableToken
from clubdesk.services import results as RS
from clubdesk.services import round_data as R
from clubdesk.services.base import Actor, Role, ServiceError, audit

TOKEN_BYTES = 24  # secrets.token_urlsafe(24): 192 random bits, 32 characters
STATES = ("not_started", "in_play", "awaiting_confirmation", "confirmed_at_table", "entered_at_desk")
CLIENT_ID_MAX = 64


@dataclass(frozen=True)
class TableRef:
    event_id: int
    round_no: int
    table_no: int
    token: str


@dataclass(frozen=True)
class TableStatus:
    """A table as the desk's Rounds screen shows it: ``state`` one of :data:`STATES`."""

    state: str
    hands: int
    referee_called: bool
    version: int = 0
    confirmed_by: str = ""
    match_status: str = ""


@dataclass(frozen=True)
class RefereeCallView:
    id: int
    event_id: int
    round_no: int
    table_no: int
    at: datetime
    handled: bool
    handled_by: str


@dataclass(frozen=True)
class HandRow:
    number: int
    text: str
    points: tuple[int, int]
    totals: tuple[int, int]  # after this hand, in its game (tavla: the match score)
    game: int = 1  # dominoes: the game of the match this hand belongs to


def _pair(value: Any) -> tuple[int, int]:
    return int(value[0]), int(value[1])


@dataclass(frozen=True)
class TablePage:
    """Everything a table page shows, read in one transaction (plain data, no ORM objects)."""

    ref: TableRef
    event_name: str
    ruleset: str
    family: str  # gaple, domino, tavla
    sides: tuple[str, str]
    seats: tuple[str, ...] | None  # the players at seats 1-4 (dominoes pairs), None otherwise
    match_status: str
    state: str
    version: int
    read_only: str  # "" when entries may be made; else why not (translated)
    rows: tuple[HandRow, ...]
    totals: tuple[int, int]
    games_won: tuple[int, int]
    score: tuple[int, int]
    finished: bool
    winner: int | None
    match_length: int | None
    crawford: bool
    finished_side: int | None
    confirmed_by: str
    referee: str
    referee_called: bool
    params: dict[str, Any] = field(default_factory=dict)
    encounter_games: int = 0  # a domino-es team encounter's games (rule E7b), 0 for one match sheet
    game_no: int = 1  # the game hands are entered in now (an encounter's first unfinished game)
    game_hands: int = 0  # the hands of that game so far
    hands: int = 0  # every stored hand or game of the table (all games of an encounter)

    @property
    def live_key(self) -> str:
        """Changes whenever anything the page shows changes (the live poll compares it)."""
        return f"{self.version}.{self.state}.{int(self.referee_called)}.{self.match_status}"


@dataclass(frozen=True)
class PostOutcome:
    message: str
    duplicate: bool = False


# ------------------------------------------------------------------------------------------ tokens


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def ensure_in(s: Session, event_id: int, round_no: int) -> dict[int, str]:
    """Every two-sided table of the round has its token (in the caller's transaction); idempotent."""
    rnd = s.scalar(select(Round).where(Round.event_id == event_id, Round.number == round_no))
    if rnd is None:
        return {}
    have = {
        t.table_no: t.token
        for t in s.scalars(
            select(TableToken).where(TableToken.event_id == event_id, TableToken.round_no == round_no)
        )
    }
    for m in s.scalars(select(Match).where(Match.round_id == rnd.id)):
        if m.side_b is not None and m.table_no not in have:
            tok = new_token()
            s.add(TableToken(event_id=event_id, round_no=round_no, table_no=m.table_no, token=tok))
            have[m.table_no] = tok
    s.flush()
    return dict(sorted(have.items()))


def ensure_tokens(db: Database, actor: Actor, event_id: int, round_no: int) -> dict[int, str]:
    """The tokens of a round's tables, made for the tables that have none (publishing calls this)."""
    with db.session() as s:
        R.find_round(s, R.get_event(s, event_id), round_no)
        return ensure_in(s, event_id, round_no)


def drop_tokens(s: Session, event_id: int, round_no: int) -> None:
    """An unpublished round's tokens open nothing any more (in the caller's transaction)."""
    for t in s.scalars(
        select(TableToken).where(TableToken.event_id == event_id, TableToken.round_no == round_no)
    ):
        s.delete(t)


def tokens(db: Database, event_id: int, round_no: int) -> dict[int, str]:
    with db.read_session() as s:
        rows = s.execute(
            select(TableToken.table_no, TableToken.token).where(
                TableToken.event_id == event_id, TableToken.round_no == round_no
            )
        ).all()
    return {int(t): str(tok) for t, tok in sorted(rows)}


def posted_table(db: Database, token: str) -> TableRef | None:
    """The table a post names: remembered once its page was served (the post's own transaction checks
    the token again under the write lock, so a token dropped meanwhile stores nothing); else read."""
    known = _refs.get((id(db), token))
    return known if known is not None else table_for_token(db, token)


_refs: dict[tuple[int, str], TableRef] = {}


def table_for_token(db: Database, token: str) -> TableRef | None:
    if not token or len(token) > 64:
        return None
    with db.read_session() as s:
        row = s.scalar(select(TableToken).where(TableToken.token == token))
        if row is None:
            return None
        return TableRef(row.event_id, row.round_no, row.table_no, row.token)


def family_of(db: Database, ref: TableRef) -> str:
    """The game family of the table's event (gaple, domino, tavla): what the phone's form describes."""
    known = _families.get((id(db), ref.event_id))
    if known is not None:  # only reads the form: the hand's transaction checks the family again
        return known
    with db.read_session() as s:
        ruleset = s.scalar(select(Event.ruleset).where(Event.id == ref.event_id))
    if ruleset is None:
        raise ServiceError("no-table", _("This table is not open."))
    family = load_ruleset(ruleset).family
    _families[(id(db), ref.event_id)] = family
    return family


# ------------------------------------------------------------------------------------------ status


def _state_of(m: Match, ts: TableState | None, hands: int) -> str:
    if m.status == "confirmed" or m.status == "bye" or m.kind != "played":
        if ts is not None and ts.state == "confirmed" and m.status == "confirmed" and not m.referee:
            return "confirmed_at_table"
        return "entered_at_desk"
    if m.status in ("pending", "disputed"):
        return "awaiting_confirmation"
    if m.status == "in_play" or hands:
        return "in_play"
    return "not_started"


def table_status(db: Database, event_id: int, round_no: int) -> dict[int, TableStatus]:
    """Per table of the round: not started, in play (hands so far), awaiting confirmation, confirmed at the
    table, entered at the desk; and whether the table has called the referee."""
    with db.read_session() as s:
        rnd = s.scalar(select(Round).where(Round.event_id == event_id, Round.number == round_no))
        if rnd is None:
            return {}
        matches = list(s.scalars(select(Match).where(Match.round_id == rnd.id)))
        ids = [m.id for m in matches]
        counts = dict(
            s.execute(
                select(ResultEntry.match_id, func.count())
                .where(ResultEntry.match_id.in_(ids))
                .group_by(ResultEntry.match_id)
            ).all()
        )
        states = {t.match_id: t for t in s.scalars(select(TableState).where(TableState.match_id.in_(ids)))}
        called = set(
            s.scalars(
                select(RefereeCall.table_no).where(
                    RefereeCall.event_id == event_id,
                    RefereeCall.round_no == round_no,
                    RefereeCall.handled.is_(False),
                )
            )
        )
        out: dict[int, TableStatus] = {}
        for m in matches:
            n = int(counts.get(m.id, 0))
            ts = states.get(m.id)
            out[m.table_no] = TableStatus(
                _state_of(m, ts, n),
                n,
                m.table_no in called,
                m.version or 0,
                ts.confirmed_by if ts is not None else "",
                m.status,
            )
        return out


def referee_calls(db: Database, event_id: int, *, open_only: bool = False) -> list[RefereeCallView]:
    with db.read_session() as s:
        q = select(RefereeCall).where(RefereeCall.event_id == event_id)
        if open_only:
            q = q.where(RefereeCall.handled.is_(False))
        return [
            RefereeCallView(c.id, c.event_id, c.round_no, c.table_no, c.at, c.handled, c.handled_by)
            for c in s.scalars(q.order_by(RefereeCall.at, RefereeCall.id))
        ]


def handle_referee_call(db: Database, actor: Actor, call_id: int) -> None:
    """The desk marks a table's call for the referee as answered."""
    with db.session() as s:
        c = s.get(RefereeCall, call_id)
        if c is None:
            raise ServiceError("no-call", _("There is no such call for the referee."))
        if not c.handled:
            c.handled, c.handled_by, c.handled_at = True, actor.name, utcnow()
            audit(
                s,
                actor,
                "referee-call-handled",
                "table",
                c.id,
                event_id=c.event_id,
                round_no=c.round_no,
                table_no=c.table_no,
            )


# ------------------------------------------------------------------------------------------ the page


def phone_actor(ref: TableRef, address: str) -> Actor:
    """Who a phone's change is audited as: role "table", the table and the phone's network address."""
    return Actor(f"T{ref.table_no}@{address or '?'}"[:80], Role.TABLE)


def _describe(
    family: str, entry: dict[str, Any], sides: tuple[str, str], seats: tuple[str, ...] | None
) -> str:
    def seat(x: object) -> str:
        if not isinstance(x, int) or not 0 <= x <= 3:
            return "?"
        who = seats[x] if seats else _("seat {n}").format(n=x + 1)
        return f"{who} ({sides[x % 2]})"

    kind = entry.get("type")
    if kind == "game":
        w = entry.get("winner")
        name = sides[w] if w in (0, 1) else "?"
        how = {"single": _("single"), "gammon": _("gammon"), "backgammon": _("backgammon")}.get(
            str(entry.get("kind")), str(entry.get("kind"))
        )
        text = _("{name} wins: {how}, cube {cube}").format(name=name, how=how, cube=entry.get("cube", 1))
        return text + (" · " + _("double refused") if entry.get("dropped") else "")
    if kind in ("out", "domino"):
        return _("{who} went out").format(who=seat(entry.get("seat")))
    if kind == "block":
        return (
            _("Blocked hand")
            if entry.get("seat") is None
            else _("{who} blocked").format(who=seat(entry["seat"]))
        )
    if kind == "redeal":
        return _("Dealt again")
    if kind == "annulled":
        return _("Hand annulled")
    return str(kind)


def _ruleset_params(ev: Event, m: Match) -> tuple[str, dict[str, Any]]:
    family = load_ruleset(ev.ruleset).family
    return family, RS.match_params(ev, m)


def _read_only(ev: Event, rnd: Round, m: Match) -> str:
    if m.side_b is None:
        return _("Table {t} is a bye: it has no result to enter.").format(t=m.table_no)
    if m.locked or rnd.number < (ev.current_round or rnd.number) or rnd.status == "closed":
        return _("Round {r} is over: this page only shows its result (rule T10).").format(r=rnd.number)
    if m.status == "disputed":
        return _("The referee decides this table's result.")
    if m.status == "confirmed":
        return _("The result is confirmed.")
    if m.status == "postponed":
        return _("This match is postponed.")
    if m.kind != "played":
        return _("The desk entered this table's result.")
    if rnd.status == "proposed":
        return _("Round {r} is not published yet.").format(r=rnd.number)
    return ""


def _seat_names(s: Session, ev: Event, m: Match, family: str, game: int = 1) -> tuple[str, ...] | None:
    """The players at seats 1-4 by name (as :func:`clubdesk.services.seating.seat_names`, read-only); in
    game 2 of an encounter the pair that lost game 1 has swapped seats (rule E7b)."""
    if family not in ("gaple", "domino") or m.side_b is None:
        return None
    a = [x.name for x in R.entrant_members(s, m.side_a)]
    b = [x.name for x in R.entrant_members(s, m.side_b)]
    if not m.seats:  # pairs in register order, as on the printed sheet
        return (a[0], b[0], a[1], b[1]) if len(a) == 2 and len(b) == 2 else None
    try:
        numbers = RS._seats_for(s, ev, m, game)  # the seat draw (rule E7, E7b)
    except ServiceError:
        return None
    if len(numbers) != 4:
        return None
    rows = s.execute(select(Member.number, Member.name).where(Member.number.in_(numbers))).all()
    names = {str(n): str(x) for n, x in rows}
    return tuple(names.get(n, n) for n in numbers)


def _side_names(s: Session, m: Match) -> tuple[str, str]:
    """The two sides' names (this table's entrants only, not the whole event's)."""
    a = s.get(Entrant, m.side_a)
    b = s.get(Entrant, m.side_b) if m.side_b is not None else None
    return (a.name if a is not None else "?", b.name if b is not None else ("?" if m.side_b else "—"))


def _open_call(s: Session, ref: TableRef) -> bool:
    return (
        s.scalar(
            select(RefereeCall.id).where(
                RefereeCall.event_id == ref.event_id,
                RefereeCall.round_no == ref.round_no,
                RefereeCall.table_no == ref.table_no,
                RefereeCall.handled.is_(False),
            )
        )
        is not None
    )


def _live_key(m: Match, state: str, called: bool) -> str:
    return f"{m.version or 0}.{state}.{int(called)}.{m.status}"


@lru_cache(maxsize=1)
def _key_statement() -> Any:
    """The one query of :func:`_key_row`, built once (the token is its only parameter)."""
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


def _key_row(s: Session, token: str) -> tuple[TableRef, str, str] | None:
    """One query: the table of ``token``, its live key and the key of everything else its page shows
    (the round's and the event's state, the lock, the hands, the table state). None: opens nothing."""
    if not token or len(token) > 64:
        return None
    row = s.execute(_key_statement(), {"token": token}).first()
    if row is None:
        return None
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
    """(live key, full key) of a table from its values: what the page polls, and everything it shows."""
    # the state as _state_of computes it, from the row's values
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
    with db.read_session() as s:
        found = _key_row(s, token)
    return None if found is None else found[1]


def page(db: Database, token: str) -> TablePage | None:
    """The table page's data, or None for a token that opens nothing (one read-only transaction)."""
    ref = table_for_token(db, token)
    if ref is None:
        return None
    with db.read_session() as s:
        return _page_in(s, ref)


def _page_in(
    s: Session,
    ref: TableRef,
    held: tuple[Event, Round, Match] | None = None,
    sides: tuple[str, str] | None = None,
) -> TablePage:
    """The page of this table only (issue 22's rule: no whole-event work per hand). ``held``: the event,
    round and match the caller's transaction holds already (a post priming its page); ``sides``: their
    names as the page of a moment ago showed them."""
    if held is None:
        ev = R.get_event(s, ref.event_id)
        rnd, m = R.find_table(s, ev, ref.round_no, ref.table_no)
    else:
        ev, rnd, m = held
    if sides is None:
        sides = _side_names(s, m)
    family, params = _ruleset_params(ev, m)
    games = RS.match_entries(s, m)
    entries = games.get(1, [])
    n_hands = sum(len(v) for v in games.values())
    ts = s.get(TableState, m.id)
    called = _open_call(s, ref)
    read_only = _read_only(ev, rnd, m)
    encounter = R.night(s, ev).encounter_games if family == "domino" else 0
    rows: list[HandRow] = []
    totals = (0, 0)
    games_won = (0, 0)
    crawford = False
    game_no, game_hands = 1, len(entries)
    if encounter > 0:  # rule E7b: the encounter's games one after another, each its own sheet
        rows, totals, games_won, game_no, game_hands = _encounter_rows(
            s, ev, m, params, games, sides, encounter
        )
        seats = _seat_names(s, ev, m, family, game_no)
        res = None
    else:
        seats = _seat_names(s, ev, m, family)
        try:
            res = replay(ev.ruleset, entries, params) if entries else None
        except EntryError:
            res = None
    if res is not None and family == "tavla":
        for i, (e, g) in enumerate(zip(entries, res["games"], strict=False), start=1):
            rows.append(HandRow(i, _describe(family, e, sides, seats), _pair(g["points"]), _pair(g["score"])))
        totals = _pair(res["score"])
        crawford = bool(res["games"][-1].get("crawford")) if res["games"] else False
    elif res is not None:
        k = 0
        for game_no, gm in enumerate(res["games"], start=1):
            for h in gm["hands"]:
                if k < len(entries):
                    text = _describe(family, entries[k], sides, seats)
                    rows.append(HandRow(k + 1, text, _pair(h["points"]), _pair(h["totals"]), game_no))
                k += 1
        totals = _pair(res["games"][-1]["totals"]) if res["games"] else (0, 0)
        games_won = _pair(res["games_won"])
    return TablePage(
        ref=ref,
        event_name=ev.name,
        ruleset=ev.ruleset,
        family=family,
        sides=sides,
        seats=seats,
        match_status=m.status,
        state=_state_of(m, ts, n_hands),
        version=m.version or 0,
        read_only=read_only,
        rows=tuple(rows),
        totals=totals,
        games_won=games_won,
        score=(m.score_a, m.score_b),
        finished=m.finished,
        winner=None if m.winner is None else (0 if m.winner == m.side_a else 1),
        match_length=params.get("match_length") if family == "tavla" else None,
        crawford=crawford,
        finished_side=(
            ts.finished_side if ts is not None and ts.state == "awaiting" and m.status == "pending" else None
        ),
        confirmed_by=ts.confirmed_by if ts is not None and ts.state == "confirmed" else "",
        referee=m.referee,
        referee_called=called,
        params=params,
        encounter_games=encounter,
        game_no=game_no,
        game_hands=game_hands,
        hands=n_hands,
    )


def _encounter_rows(
    s: Session,
    ev: Event,
    m: Match,
    params: dict[str, Any],
    games: dict[int, list[dict[str, Any]]],
    sides: tuple[str, str],
    encounter: int,
) -> tuple[list[HandRow], tuple[int, int], tuple[int, int], int, int]:
    """A team encounter's sheet (rule E7b): (rows of every game, the current game's totals, games won,
    the game being entered, its hands so far)."""
    from clubdesk.services import formats as F

    try:
        oc = F.outcome_from_entries(ev.ruleset, params, games, encounter_games=encounter)
    except (ServiceError, EntryError):
        return [], (0, 0), (0, 0), 1, len(games.get(1, []))
    rows: list[HandRow] = []
    k = 0
    current, totals = 1, (0, 0)
    for g, sheet in zip(sorted(games), oc.sheets, strict=False):
        seats = _seat_names(s, ev, m, "domino", g)
        entries = games[g]
        i = 0
        for gm in sheet["games"]:
            for h in gm["hands"]:
                if i < len(entries):
                    k += 1
                    text = _describe("domino", entries[i], sides, seats)
                    rows.append(HandRow(k, text, _pair(h["points"]), _pair(h["totals"]), g))
                i += 1
        if sheet["games"]:
            totals = _pair(sheet["games"][-1]["totals"])
        current = g if not sheet["finished"] else min(g + 1, encounter)
    if current not in games:
        totals = (0, 0)  # the next game starts at nought
    return rows, totals, _pair(oc.score), current, len(games.get(current, []))


def current_game(s: Session, ev: Event, m: Match) -> int:
    """The game of a team encounter that hands go to now (1 for one match sheet)."""
    if load_ruleset(ev.ruleset).family != "domino":
        return 1
    encounter = R.night(s, ev).encounter_games
    if encounter <= 0:
        return 1
    _family, params = _ruleset_params(ev, m)
    return _encounter_rows(s, ev, m, params, RS.match_entries(s, m), ("", ""), encounter)[3]


# ------------------------------------------------------------------------------------------ the cache
PAGE_SECONDS = 10.0  # a built page serves while its table's key stays (names changed at the desk: 10 s)


@dataclass
class CachedPage:
    """A built table page and the HTML made from it (by the web app, per side and flash kind)."""

    key: str
    at: float
    page: TablePage
    html: dict[Any, str] = field(default_factory=dict)


_pages_guard = threading.Lock()
_pages: dict[tuple[int, str, str], CachedPage] = {}


def cached_page(db: Database, token: str) -> CachedPage | None:
    """The table page in the current language, built once per change of its table (one small read
    checks the table's key; the page of an unchanged table is served from memory): the two phones and
    the page after each post share one build (issue 27's targets)."""
    cache_key = (id(db), token, i18n.current_language())
    now = time.monotonic()
    with db.read_session() as s:
        found = _key_row(s, token)
        if found is None:
            return None
        ref, _live, full = found
        _refs[(id(db), token)] = ref
        with _pages_guard:
            hit = _pages.get(cache_key)
        if hit is not None and hit.key == full and now - hit.at < PAGE_SECONDS:
            return hit
        built = CachedPage(full, now, _page_in(s, ref))  # the same snapshot as the key
    with _pages_guard:
        if len(_pages) > 4096:
            _pages.clear()
        _pages[cache_key] = built
    return built


def prime_in(
    s: Session,
    ref: TableRef,
    ev: Event,
    rnd: Round,
    m: Match,
    sides: tuple[str, str] | None = None,
    read_at: float | None = None,
) -> CachedPage:
    """The page as the caller's transaction leaves it (after its change, before its commit): a post
    builds the page it answers with from the rows it already holds; :func:`keep_page` caches it once the
    commit succeeded, so the page after a hand is not read a second time (issue 27). Its key is the one
    :func:`_key_row` reads (the next read of the page compares them)."""
    s.flush()  # the match's new version
    page = _page_in(s, ref, (ev, rnd, m), sides)
    ts = s.get(TableState, m.id)
    _live, full = _keys(
        m.version,
        m.status,
        m.kind,
        m.referee,
        m.locked,
        rnd.status,
        ev.current_round,
        None if ts is None else ts.state,
        None if ts is None else ts.updated_at,
        page.hands,  # every game's entries, as _key_row counts them
        page.referee_called,
    )
    # ``read_at``: when the reused names were read, so a name changed at the desk shows within 10 s
    return CachedPage(full, time.monotonic() if read_at is None else read_at, page)


def _shown(db: Database, token: str) -> CachedPage | None:
    """The page this process served last for ``token`` in the current language (no read of the file)."""
    with _pages_guard:
        return _pages.get((id(db), token, i18n.current_language()))


def keep_page(db: Database, token: str, built: CachedPage | None) -> None:
    """Cache a page primed by a committed post (the next read still checks its key against the file)."""
    if built is None:
        return
    with _pages_guard:
        if len(_pages) > 4096:
            _pages.clear()
        _pages[(id(db), token, i18n.current_language())] = built


def forget_pages() -> None:
    with _pages_guard:
        _pages.clear()
    _refs.clear()


_families: dict[tuple[int, int], str] = {}


# ------------------------------------------------------------------------------------------ posts

_locks_guard = threading.Lock()
_locks: dict[str, threading.Lock] = {}


def _lock_for(token: str) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(token, threading.Lock())


def _seen(db: Database, client_id: str) -> TablePost | None:
    with db.read_session() as s:
        row = s.scalar(select(TablePost).where(TablePost.client_id == client_id))
        if row is not None:
            s.expunge(row)
        return row


def _remember(db: Database, ref: TableRef, client_id: str, action: str, message: str) -> None:
    with db.session() as s:
        s.add(TablePost(client_id=client_id, token=ref.token, action=action, outcome=message))


def _check_client_id(client_id: str) -> str:
    client_id = (client_id or "").strip()
    if not client_id or len(client_id) > CLIENT_ID_MAX:
        raise ServiceError("bad-post", _("This form is out of date; the page has been reloaded."))
    return client_id


def _guard(db: Database, ref: TableRef, version: int | None) -> TablePage:
    cached = cached_page(db, ref.token)
    if cached is None:
        raise ServiceError("no-table", _("This table is not open."))
    p = cached.page
    if p.read_only:
        raise ServiceError("read-only", p.read_only)
    if version is not None and version != p.version:
        with db.read_session() as s:
            _rnd, m = R.find_table(s, R.get_event(s, ref.event_id), ref.round_no, ref.table_no)
            raise RS.changed_elsewhere(m)
    return p


Remember = Callable[..., None]  # remember(session, outcome="")


class _AlreadyDone(Exception):
    """A post id found stored inside the post's own transaction: roll back, answer as before."""

    def __init__(self, outcome: str) -> None:
        super().__init__(outcome)
        self.outcome = outcome


def _seen_in(s: Session, client_id: str) -> None:
    """Refuse, inside the write transaction, a post id stored already (a retry on a flaky Wi-Fi)."""
    outcome = s.scalar(select(TablePost.outcome).where(TablePost.client_id == client_id))
    if outcome is not None:
        raise _AlreadyDone(outcome or _("This was saved already."))


def _idempotent(
    db: Database, ref: TableRef, client_id: str, action: str, work: Any, *, checks_inside: bool = False
) -> PostOutcome:
    """Run ``work(remember)`` once per page-made post id. ``work`` calls ``remember(session, outcome)``
    inside the transaction of its change, so the post id (and the answer a repeated post gets) is stored
    with the hand itself: a post repeated after a lost answer, or after a failure once the hand was
    stored, finds it and stores nothing twice (issue 27 item 6; a benchmark at 64 tables once stored two
    hands twice when the id had its own transaction). One transaction per post (issue 27's targets)."""
    client_id = _check_client_id(client_id)
    with _lock_for(ref.token):
        if not checks_inside:  # post_entry checks the post id in the hand's own transaction
            done = _seen(db, client_id)
            if done is not None:
                return PostOutcome(done.outcome or _("This was saved already."), duplicate=True)
        kept: list[str] = []

        def remember(s: Session, outcome: str = "") -> None:
            row = s.scalar(select(TablePost).where(TablePost.client_id == client_id)) if kept else None
            if row is None:
                s.add(TablePost(client_id=client_id, token=ref.token, action=action, outcome=outcome))
            else:
                row.outcome = outcome
            kept.append(outcome)

        try:
            message: str = work(remember)
        except _AlreadyDone as done:
            return PostOutcome(done.outcome, duplicate=True)
        if not kept:
            _remember(db, ref, client_id, action, message)
            return PostOutcome(message)
        if kept[-1] != message:
            try:  # the answer a repeated post gets; without it, "saved already"
                with db.session() as s:
                    row = s.scalar(select(TablePost).where(TablePost.client_id == client_id))
                    if row is not None:
                        row.outcome = message
            except (ServiceError, DatabaseError):
                pass
        return PostOutcome(message)


def _state_in(s: Session, m: Match, state: str, side: int | None, name: str) -> None:
    ts = s.get(TableState, m.id)
    if ts is None:
        ts = TableState(match_id=m.id, state="started", finished_by="", confirmed_by="")
        s.add(ts)
    elif state == "started" and (ts.state, ts.finished_side, ts.finished_by, ts.confirmed_by) == (
        "started",
        None,
        "",
        "",
    ):
        return  # a hand in play: the table was started already (no row written per hand)
    ts.state = state
    ts.updated_at = utcnow()
    if state == "awaiting":
        ts.finished_side, ts.finished_by, ts.confirmed_by = side, name, ""
    elif state == "confirmed":
        ts.confirmed_by = name
    else:
        ts.finished_side, ts.finished_by, ts.confirmed_by = None, "", ""


def check_entry(family: str, entry: dict[str, Any]) -> dict[str, Any]:
    """The shape a phone's hand must have before the engine judges it (the engine judges the rest)."""
    allowed = {
        "gaple": {"out", "block", "redeal"},
        "domino": {"domino", "block", "annulled"},
        "tavla": {"game"},
    }[family]
    if entry.get("type") not in allowed:
        raise ServiceError("bad-entry", _("Choose what happened in the hand."))
    return entry


def post_entry(
    db: Database,
    ref: TableRef,
    entry: dict[str, Any],
    *,
    client_id: str,
    version: int | None,
    side: int,
    address: str,
    game_no: int = 1,
) -> PostOutcome:
    """One hand (dominoes) or game (tavla) from a phone. The engine refuses an impossible one (its reason,
    nothing stored). The hand that finishes the match is the entering side's approval (G13, E6, T8c).
    ``game_no``: the game of a team encounter the page entered it in (rule E7b)."""
    if side not in (0, 1):
        raise ServiceError("bad-side", _("Say which side you are first."))
    actor = phone_actor(ref, address)

    def saved(family: str, n: int) -> str:
        return _("Game {n} saved.").format(n=n) if family == "tavla" else _("Hand {n} saved.").format(n=n)

    def work(remember: Remember) -> str:
        seen: dict[str, Any] = {}

        def check(s: Session, ev: Event, rnd: Round, m: Match) -> None:
            # the table page's rules, under the hand's own write lock (no second read of the page)
            _seen_in(s, client_id)  # a retry of a stored hand: its answer again, before any refusal
            if s.scalar(select(TableToken.id).where(TableToken.token == ref.token)) is None:
                raise ServiceError("no-table", _("This table is not open."))
            family = load_ruleset(ev.ruleset).family
            read_only = _read_only(ev, rnd, m)
            if read_only:
                raise ServiceError("read-only", read_only)
            if version is not None and version != (m.version or 0):
                raise RS.changed_elsewhere(m)
            if game_no != 1 or family == "domino":
                now = current_game(s, ev, m)
                if game_no != now:  # rule E7b: an encounter's games one after another
                    raise ServiceError(
                        "wrong-game", _("Hands go to game {g} of the encounter now.").format(g=now)
                    )
            check_entry(family, entry)
            seen["family"] = family
            shown = _shown(db, ref.token)
            # the names the page showed a moment ago (a name changed at the desk shows within 10 s)
            ok = shown is not None and shown.page.version == (m.version or 0)
            ok = ok and shown is not None and time.monotonic() - shown.at < PAGE_SECONDS
            seen["sides"] = shown.page.sides if ok and shown is not None else _side_names(s, m)
            seen["read_at"] = shown.at if ok and shown is not None else None  # the names' age goes on
            seen["held"] = (ev, rnd)

        def also(s: Session, m: Match) -> None:
            _state_in(s, m, "started", None, "")
            if m.finished:
                remember(s)  # the approval's transaction stores the answer
                return
            page = seen["page"] = prime_in(s, ref, *seen["held"], m, seen["sides"], seen["read_at"])
            n = page.page.game_hands if page.page.encounter_games else page.page.hands
            remember(s, saved(seen["family"], n))

        res = RS.add_entry(
            db,
            actor,
            ref.event_id,
            ref.round_no,
            ref.table_no,
            entry,
            game_no=game_no,
            expected_version=version,
            also=also,
            check=check,
        )
        if res.finished:
            sides = seen["sides"]
            message = _("The match is finished. {other} now confirms the result.").format(
                other=sides[1 - side]
            )

            def approve(s: Session, m: Match) -> None:
                _state_in(s, m, "awaiting", side, sides[side])
                remember(s, message)
                ev = R.get_event(s, ref.event_id)  # this transaction's own (not the hand's)
                rnd = R.find_round(s, ev, ref.round_no)
                seen["page"] = prime_in(s, ref, ev, rnd, m, sides, seen["read_at"])

            seen["page"] = None
            RS.confirm(db, actor, ref.event_id, ref.round_no, ref.table_no, side, sides[side], also=approve)
            keep_page(db, ref.token, seen["page"])
            return message
        keep_page(db, ref.token, seen.get("page"))
        return saved(seen["family"], res.entries)

    return _idempotent(db, ref, client_id, "entry", work, checks_inside=True)


def undo(db: Database, ref: TableRef, *, client_id: str, version: int | None, address: str) -> PostOutcome:
    """Undo the last hand, until the result is confirmed."""
    actor = phone_actor(ref, address)

    def work(remember: Remember) -> str:
        p = _guard(db, ref, version)
        message = _("The last game was undone.") if p.family == "tavla" else _("The last hand was undone.")

        def also(s: Session, m: Match) -> None:  # one transaction: the hand, its approval, the state
            if m.scorer or m.counter:  # the approval given with the undone hand goes with it
                RS.reset_confirmation(m)
            _state_in(s, m, "started", None, "")
            remember(s, message)

        RS.undo_last_entry(
            db,
            actor,
            ref.event_id,
            ref.round_no,
            ref.table_no,
            game_no=p.rows[-1].game if p.rows else 1,  # the game of the last hand (an encounter's, E7b)
            expected_version=p.version,
            also=also,
        )
        return message

    return _idempotent(db, ref, client_id, "undo", work)


def confirm(
    db: Database, ref: TableRef, *, client_id: str, version: int | None, side: int, address: str
) -> PostOutcome:
    """The other side confirms the finished match: the result is confirmed at the table (G13, E6, T8c)."""
    if side not in (0, 1):
        raise ServiceError("bad-side", _("Say which side you are first."))
    actor = phone_actor(ref, address)

    def work(remember: Remember) -> str:
        p = _guard(db, ref, version)
        if not p.finished or p.match_status != "pending":
            raise ServiceError("sheet-incomplete", _("The match is not finished, it cannot be confirmed."))
        if p.finished_side == side:
            raise ServiceError(
                "same-side",
                _("{other} confirms the result, not the side that entered it.").format(
                    other=p.sides[1 - side]
                ),
            )
        # finished at the desk (no side recorded): the side on the phone approves first, the other confirms
        said: list[str] = []

        def also(s: Session, m: Match) -> None:  # the table's state in the approval's own transaction
            if m.status != "confirmed":
                _state_in(s, m, "awaiting", side, p.sides[side])
                said.append(_("Approved. {other} now confirms the result.").format(other=p.sides[1 - side]))
            else:
                _state_in(s, m, "confirmed", side, p.sides[side])
                said.append(_("Confirmed at the table by {name}.").format(name=p.sides[side]))
            remember(s, said[-1])

        RS.confirm(
            db,
            actor,
            ref.event_id,
            ref.round_no,
            ref.table_no,
            side,
            p.sides[side],
            expected_version=p.version,
            also=also,
        )
        return said[-1]

    return _idempotent(db, ref, client_id, "confirm", work)


def call_referee(db: Database, ref: TableRef, *, client_id: str, address: str) -> PostOutcome:
    """The table calls the referee; the desk shows the call with the table."""
    actor = phone_actor(ref, address)

    def work(remember: Remember) -> str:
        with db.session() as s:
            if s.scalar(select(TableToken.id).where(TableToken.token == ref.token)) is None:
                raise ServiceError("no-table", _("This table is not open."))
            open_call = s.scalar(
                select(RefereeCall.id).where(
                    RefereeCall.event_id == ref.event_id,
                    RefereeCall.round_no == ref.round_no,
                    RefereeCall.table_no == ref.table_no,
                    RefereeCall.handled.is_(False),
                )
            )
            if open_call is None:
                c = RefereeCall(event_id=ref.event_id, round_no=ref.round_no, table_no=ref.table_no)
                s.add(c)
                s.flush()
                audit(
                    s,
                    actor,
                    "referee-call",
                    "table",
                    c.id,
                    event_id=ref.event_id,
                    round_no=ref.round_no,
                    table_no=ref.table_no,
                )
            message = _("The referee has been called to table {t}.").format(t=ref.table_no)
            remember(s, message)
        return message

    return _idempotent(db, ref, client_id, "referee", work)


__all__ = [
    "PostOutcome",
    "RefereeCallView",
    "STATES",
    "TablePage",
    "TableRef",
    "TableStatus",
    "CachedPage",
    "cached_page",
    "call_referee",
    "confirm",
    "ensure_tokens",
    "page",
    "post_entry",
    "referee_calls",
    "table_for_token",
    "table_status",
    "tokens",
    "undo",
]
