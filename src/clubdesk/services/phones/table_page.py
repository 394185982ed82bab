"""The table page of the players' phones: what a table's page shows, read in one transaction for that table
only (no whole-event work per hand). The key that changes whenever the page
would, and the built pages kept until their table changes, are :mod:`clubdesk.services.phones.page_cache`.
:mod:`clubdesk.services.phones.posts` (the tokens, the tables' states and the posts) builds on both."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.competition.errors import CompetitionError
from clubdesk.games import EntryError, load_ruleset, replay
from clubdesk.i18n import _
from clubdesk.models.event import Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match
from clubdesk.models.table_entry import RefereeCall, TableState, TableToken
from clubdesk.services import night
from clubdesk.services.kernel import ServiceError
from clubdesk.services.night import read_only_reason, side_names
from clubdesk.storage import Database


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
    approved_how: tuple[str, str] = ("", "")  # each side: "phone", "phone-code", "desk", "" (not yet)


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
    crawford: bool  # tavla (T7b): the next game is the Crawford game
    finished_side: int | None
    confirmed_by: str
    referee: str
    referee_called: bool
    params: dict[str, Any] = field(default_factory=dict)
    encounter_games: int = 0  # a domino-es team encounter's games (rule E7b), 0 for one match sheet
    game_no: int = 1  # the game hands are entered in now (an encounter's first unfinished game)
    game_hands: int = 0  # the hands of that game so far
    hands: int = 0  # every stored hand or game of the table (all games of an encounter)
    entered_at_desk: bool = False  # the result stands without hands: a final score or a forfeit (desk)
    approved: tuple[bool, bool] = (False, False)  # each side has approved the result (G13, E6, T8c)
    post_crawford: bool = False  # tavla (T7b): the Crawford game is played, the next game is after it

    @property
    def live_key(self) -> str:
        """Changes whenever anything the page shows changes (the live poll compares it)."""
        return f"{self.version}.{self.state}.{int(self.referee_called)}.{self.match_status}"


def state_of(m: Match, ts: TableState | None, hands: int) -> str:
    if m.status == "confirmed" or m.status == "bye" or m.kind != "played":
        if ts is not None and ts.state == "confirmed" and m.status == "confirmed" and not m.referee:
            return "confirmed_at_table"
        return "entered_at_desk"
    if m.status in ("pending", "disputed"):
        return "awaiting_confirmation"
    if m.status == "in_play" or hands:
        return "in_play"
    return "not_started"


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
        cube = entry.get("cube", 1)
        cube = cube if isinstance(cube, int) else 1
        if entry.get("dropped"):  # T7a: the cube is its value before the refused double
            return _("{name} wins: {other} refused a double to {n}").format(
                name=name, other=sides[1 - w] if w in (0, 1) else "?", n=cube * 2
            )
        if cube > 1:
            return _("{name} wins: {how}, doubled to {n}").format(name=name, how=how, n=cube)
        return _("{name} wins: {how}").format(name=name, how=how)
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
    return family, night.match_params(ev, m)


def _seat_names(s: Session, ev: Event, m: Match, family: str, game: int = 1) -> tuple[str, ...] | None:
    """The players at seats 1-4 by name (as :func:`clubdesk.services.night.play.seating.seat_names`,
    read-only); in
    game 2 of an encounter the pair that lost game 1 has swapped seats (rule E7b)."""
    if family not in ("gaple", "domino") or m.side_b is None:
        return None
    a = [x.name for x in night.entrant_members(s, m.side_a)]
    b = [x.name for x in night.entrant_members(s, m.side_b)]
    if not m.seats:  # pairs in register order, as on the printed sheet
        return (a[0], b[0], a[1], b[1]) if len(a) == 2 and len(b) == 2 else None
    try:
        numbers = night.seats_for(s, ev, m, game)  # the seat draw (rule E7, E7b)
    except ServiceError:
        return None
    if len(numbers) != 4:
        return None
    rows = s.execute(select(Member.number, Member.name).where(Member.number.in_(numbers))).all()
    names = {str(n): str(x) for n, x in rows}
    return tuple(names.get(n, n) for n in numbers)


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


def table_for_token(db: Database, token: str) -> TableRef | None:
    if not token or len(token) > 64:
        return None
    with db.read_session() as s:
        row = s.scalar(select(TableToken).where(TableToken.token == token))
        if row is None:
            return None
        return TableRef(row.event_id, row.round_no, row.table_no, row.token)


def page(db: Database, token: str) -> TablePage | None:
    """The table page's data, or None for a token that opens nothing (one read-only transaction)."""
    ref = table_for_token(db, token)
    if ref is None:
        return None
    with db.read_session() as s:
        return page_in(s, ref)


def page_in(
    s: Session,
    ref: TableRef,
) -> TablePage:
    """The page of this table only (no whole-event work per hand)."""
    ev = night.get_event(s, ref.event_id)
    rnd, m = night.find_table(s, ev, ref.round_no, ref.table_no)
    sides = side_names(s, m)
    family, params = _ruleset_params(ev, m)
    games = night.match_entries(s, m)
    entries = games.get(1, [])
    n_hands = sum(len(v) for v in games.values())
    ts = s.get(TableState, m.id)
    called = _open_call(s, ref)
    read_only = read_only_reason(ev, rnd, m)
    encounter = night.night(s, ev).encounter_games if family == "domino" else 0
    rows: list[HandRow] = []
    totals = (0, 0)
    games_won = (0, 0)
    crawford = post_crawford = False
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
        after = False  # rule T7b: the Crawford game and the post-Crawford games are named on their rows
        for i, (e, g) in enumerate(zip(entries, res["games"], strict=False), start=1):
            text = _describe(family, e, sides, seats)
            if g.get("crawford"):
                text, after = text + " · " + _("Crawford game"), True
            elif after:
                text += " · " + _("post-Crawford game")
            rows.append(HandRow(i, text, _pair(g["points"]), _pair(g["score"])))
        totals = _pair(res["score"])
        # rule T7b: the game to be played next is the Crawford game (marked before it is played, its cube
        # refused); after it, the games to the end are post-Crawford
        crawford = bool(res.get("crawford_next"))
        post_crawford = not res.get("finished") and any(g.get("crawford") for g in res["games"])
    elif res is not None:
        k = 0
        for g, gm in enumerate(res["games"], start=1):  # the match's games (not an encounter's)
            for h in gm["hands"]:
                if k < len(entries):
                    text = _describe(family, entries[k], sides, seats)
                    rows.append(HandRow(k + 1, text, _pair(h["points"]), _pair(h["totals"]), g))
                k += 1
        totals = _pair(res["games"][-1]["totals"]) if res["games"] else (0, 0)
        games_won = _pair(res["games_won"])
    # a result with no hands behind it (the desk's final score, a forfeit) is shown as it stands, not 0 - 0
    at_desk = n_hands == 0 and m.side_b is not None and _has_result(m)
    if at_desk and family == "tavla":
        totals = (m.score_a, m.score_b)
    elif at_desk:
        games_won, totals = (m.score_a, m.score_b), (m.points_a or 0, m.points_b or 0)
    return TablePage(
        ref=ref,
        event_name=ev.name,
        ruleset=ev.ruleset,
        family=family,
        sides=sides,
        seats=seats,
        match_status=m.status,
        state=state_of(m, ts, n_hands),
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
        entered_at_desk=at_desk,
        approved=(bool(m.scorer), bool(m.counter)),
        post_crawford=post_crawford,
    )


def _has_result(m: Match) -> bool:
    """The match has a result of its own: finished, not played (a forfeit), or a score entered."""
    return m.finished or m.kind != "played" or (m.score_a, m.score_b) != (0, 0)


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
    try:
        oc = formats.outcome_from_entries(ev.ruleset, params, games, encounter_games=encounter)
    except (CompetitionError, EntryError):
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
