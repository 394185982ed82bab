"""Results entered at the table on the players' phones (issue 27).

Publishing a round gives each table a random token (>= 128 bits, :func:`ensure_tokens`); the token opens
that table only, through the web app (``clubdesk.web``). Every hand goes through the same services the
desk uses (:mod:`clubdesk.services.night.play.results`), so the rules engine validates it and a refused hand
stores
nothing. Both sides approve (rules G13, E6, T8c): the side that enters the last hand approves with it, the
other side confirms on its phone ("confirmed at the table by …"); a dispute or the referee's decision at
the desk wins. Every post carries a page-made id, stored once: a retry on a flaky Wi-Fi stores the hand
once; a post made on a page older than the table (the desk or the other phone changed it) is refused.
Each change is audited with role "table", the table and the phone's network address.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from clubdesk.games import load_ruleset
from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.event import Event
from clubdesk.models.result import Match, ResultEntry
from clubdesk.models.round import Round
from clubdesk.models.table_entry import RefereeCall, TablePost, TableState, TableToken
from clubdesk.services import night
from clubdesk.services.kernel import Actor, Role, ServiceError, audit
from clubdesk.services.phones import table_page
from clubdesk.services.phones.table_page import (
    RefereeCallView,
    TablePage,
    TableRef,
    TableStatus,
    cached_page,
    current_game,
    keep_page,
    prime_in,
    read_only_of,
    side_names,
    state_of,
    table_for_token,
)
from clubdesk.storage import Database, DatabaseError

STATES = ("not_started", "in_play", "awaiting_confirmation", "confirmed_at_table", "entered_at_desk")
CLIENT_ID_MAX = 64


@dataclass(frozen=True)
class PostOutcome:
    message: str
    duplicate: bool = False


def posted_table(db: Database, token: str) -> TableRef | None:
    """The table a post names: remembered once its page was served (the post's own transaction checks
    the token again under the write lock, so a token dropped meanwhile stores nothing); else read."""
    known = table_page.refs.get((id(db), token))
    return known if known is not None else table_for_token(db, token)


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


def table_status(
    db: Database, event_id: int, round_no: int, table_no: int | None = None
) -> dict[int, TableStatus]:
    """Per table of the round: not started, in play (hands so far), awaiting confirmation, confirmed at the
    table, entered at the desk; and whether the table has called the referee. ``table_no``: that table
    only (a screen following one changed table)."""
    with db.read_session() as s:
        rnd = s.scalar(select(Round).where(Round.event_id == event_id, Round.number == round_no))
        if rnd is None:
            return {}
        q = select(Match).where(Match.round_id == rnd.id)
        if table_no is not None:
            q = q.where(Match.table_no == table_no)
        matches = list(s.scalars(q))
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
                state_of(m, ts, n),
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


_families: dict[tuple[int, int], str] = {}


# ------------------------------------------------------------------------------------------ posts

_locks_guard = threading.Lock()
_locks: dict[str, threading.Lock] = {}


def _lock_for(token: str) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(token, threading.Lock())


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
            _rnd, m = night.find_table(s, night.get_event(s, ref.event_id), ref.round_no, ref.table_no)
            raise night.changed_elsewhere(m)
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
        kept: list[str] = []

        def remember(s: Session, outcome: str = "") -> None:
            row = s.scalar(select(TablePost).where(TablePost.client_id == client_id)) if kept else None
            if row is None:
                s.add(TablePost(client_id=client_id, token=ref.token, action=action, outcome=outcome))
            else:
                row.outcome = outcome
            kept.append(outcome)

        try:
            if not checks_inside:  # post_entry checks the post id in the hand's own transaction
                with db.read_session() as s:
                    _seen_in(s, client_id)
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


def _state_in(s: Session, m: Match, state: str, side: int | None, name: str) -> TableState:
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
        return ts  # a hand in play: the table was started already (no row written per hand)
    ts.state = state
    ts.updated_at = utcnow()
    if state == "awaiting":
        ts.finished_side, ts.finished_by, ts.confirmed_by = side, name, ""
    elif state == "confirmed":
        ts.confirmed_by = name
    else:
        ts.finished_side, ts.finished_by, ts.confirmed_by = None, "", ""
    return ts  # held by the caller: the session keeps only weak references to unchanged rows


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
            read_only = read_only_of(ev, rnd, m)
            if read_only:
                raise ServiceError("read-only", read_only)
            if version is not None and version != (m.version or 0):
                raise night.changed_elsewhere(m)
            if game_no != 1 or family == "domino":
                now = current_game(s, ev, m)
                if game_no != now:  # rule E7b: an encounter's games one after another
                    raise ServiceError(
                        "wrong-game", _("Hands go to game {g} of the encounter now.").format(g=now)
                    )
            check_entry(family, entry)
            seen["family"] = family
            shown = table_page.shown(db, ref.token)
            # the names the page showed a moment ago (a name changed at the desk shows within 10 s)
            ok = shown is not None and shown.page.version == (m.version or 0)
            ok = ok and shown is not None and time.monotonic() - shown.at < table_page.PAGE_SECONDS
            seen["sides"] = shown.page.sides if ok and shown is not None else side_names(s, m)
            seen["read_at"] = shown.at if ok and shown is not None else None  # the names' age goes on
            seen["held"] = (ev, rnd)

        def also(s: Session, m: Match) -> None:
            seen["state"] = _state_in(s, m, "started", None, "")  # held: the page reads it again
            if m.finished:
                remember(s)  # the approval's transaction stores the answer
                return
            page = seen["page"] = prime_in(s, ref, *seen["held"], m, seen["sides"], seen["read_at"])
            n = page.page.game_hands if page.page.encounter_games else page.page.hands
            remember(s, saved(seen["family"], n))

        res = night.add_entry(
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
                ev = night.get_event(s, ref.event_id)  # this transaction's own (not the hand's)
                rnd = night.find_round(s, ev, ref.round_no)
                seen["page"] = prime_in(s, ref, ev, rnd, m, sides, seen["read_at"])

            seen["page"] = None
            night.confirm(
                db, actor, ref.event_id, ref.round_no, ref.table_no, side, sides[side], also=approve
            )
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
                night.reset_confirmation(m)
            _state_in(s, m, "started", None, "")
            remember(s, message)

        night.undo_last_entry(
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

        night.confirm(
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
