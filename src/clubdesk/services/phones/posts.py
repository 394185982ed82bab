"""Results entered at the table on the players' phones.

Publishing a round gives each table a random token (>= 128 bits, :func:`ensure_tokens`); the token opens that
table only, through the web app (``clubdesk.web``). Every hand goes through the use case the desk uses
(:mod:`clubdesk.services.night.play.hands`, approvals :mod:`clubdesk.services.night.play.approvals`), the
page's rules passed as a :class:`~clubdesk.services.night.play.hand_guard.PhoneGuard` and checked in the
change's one transaction, so the rules engine validates it and a refused hand stores nothing. Both sides
approve (rules G13, E6, T8c): the side that enters the last hand approves with it, the other side confirms on
its phone ("confirmed at the table by …"); a dispute or the referee's decision at the desk wins. Every post
carries a page-made id, stored once: a retry on a flaky Wi-Fi stores the hand once; a post made on a page
older than the table (the desk or the other phone changed it), or one that does not say which version of the
table its page showed, is refused. Each change is audited with role
"table", the table and the phone's network address.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from clubdesk.games import load_ruleset
from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.event import Event
from clubdesk.models.result import Match, ResultEntry
from clubdesk.models.round import Round
from clubdesk.models.table_entry import RefereeCall, TableState
from clubdesk.services import night
from clubdesk.services.kernel import Actor, Role, ServiceError, audit
from clubdesk.services.night import (
    HandResult,
    PhoneGuard,
    TableId,
    check_referee_call,
    remember_post,
    stored_answer,
)
from clubdesk.services.phones import page_cache
from clubdesk.services.phones.page_cache import cached_page
from clubdesk.services.phones.table_page import (
    RefereeCallView,
    TableRef,
    TableStatus,
    state_of,
    table_for_token,
)
from clubdesk.storage import Database

STATES = ("not_started", "in_play", "awaiting_confirmation", "confirmed_at_table", "entered_at_desk")
CLIENT_ID_MAX = 64


@dataclass(frozen=True)
class PostOutcome:
    message: str
    duplicate: bool = False


def posted_table(db: Database, token: str) -> TableRef | None:
    """The table a post names: remembered once its page was served (the post's own transaction checks
    the token again under the write lock, so a token dropped meanwhile stores nothing); else read."""
    known = page_cache.refs.get((id(db), token))
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
                night.approval_ways(s, m),
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


def _check_client_id(client_id: str) -> str:
    client_id = (client_id or "").strip()
    if not client_id or len(client_id) > CLIENT_ID_MAX:
        raise ServiceError("bad-post", _("This form is out of date; the page has been reloaded."))
    return client_id


def _shown_sides(db: Database, ref: TableRef, version: int | None) -> tuple[str, str] | None:
    """The sides' names the page showed a moment ago, when that page is the table's current one (a name
    changed at the desk shows within ``PAGE_SECONDS``); None: the post's transaction reads them."""
    shown = page_cache.shown(db, ref.token)
    if shown is None or version is None or shown.page.version != version:
        return None
    return shown.page.sides if time.monotonic() - shown.at < page_cache.PAGE_SECONDS else None


def _after_post(db: Database, ref: TableRef, res: HandResult) -> PostOutcome:
    """After the post's commit: the table's page is built once for the next request (both phones and the
    page after the post share it), and the post's answer."""
    if not res.repeated:
        cached_page(db, ref.token)
    return PostOutcome(res.answer, duplicate=res.repeated)


CODE_TRIES = 8  # wrong approval codes a table's side may be sent before its phones are refused codes
_wrong_codes: dict[tuple[str, int], int] = {}


def _counting_codes(ref: TableRef, side: int, work: Any) -> HandResult:
    """``work()`` with the wrong approval codes of this table's side counted: a six-digit code is not
    guessed by trying (after :data:`CODE_TRIES` wrong ones the side approves at the desk)."""
    key = (ref.token, side)
    if _wrong_codes.get(key, 0) >= CODE_TRIES:
        raise ServiceError(
            "side-code-locked", _("Too many wrong codes: this side approves at the desk or with the referee.")
        )
    try:
        res: HandResult = work()
    except ServiceError as exc:
        if exc.code == "side-code-wrong":
            _wrong_codes[key] = _wrong_codes.get(key, 0) + 1
        raise
    return res


def side_code_ok(db: Database, ref: TableRef, side: int, code: str) -> bool:
    """A phone shows ``side``'s approval code (its box's QR scanned, or typed at the hand-over): True when
    it is that side's code of this table; wrong ones count against the side's tries."""
    key = (ref.token, side)
    if _wrong_codes.get(key, 0) >= CODE_TRIES:
        return False
    ok = night.side_code_matches(db, ref.token, side, code)
    if not ok:
        _wrong_codes[key] = _wrong_codes.get(key, 0) + 1
    return ok


def _table(ref: TableRef) -> TableId:
    return TableId(ref.event_id, ref.round_no, ref.table_no)


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
    code: str = "",
    handed_over: bool = False,
) -> PostOutcome:
    """One hand (dominoes) or game (tavla) from a phone, in one transaction with its page's rules, its
    post id and, when it ends the match, the entering side's approval (G13, E6, T8c). The engine refuses
    an impossible one (its reason, nothing stored). ``game_no``: the game of a team encounter the page
    entered it in (rule E7b). ``code``: the side's approval code the phone holds (a hand that ends the
    match approves for its side only with it); ``handed_over``: the phone acted for the other side."""
    if side not in (0, 1):
        raise ServiceError("bad-side", _("Say which side you are first."))
    guard = PhoneGuard(
        post_id=_check_client_id(client_id),
        token=ref.token,
        action="entry",
        side=side,
        sides=_shown_sides(db, ref, version),
        answer=_("Game {n} saved.") if family_of(db, ref) == "tavla" else _("Hand {n} saved."),
        finished_answer=_("The match is finished. {other} now confirms the result."),
        code=code,
        handed_over=handed_over,
    )
    with _lock_for(ref.token):
        res = _counting_codes(
            ref,
            side,
            lambda: night.enter_hand(
                db,
                phone_actor(ref, address),
                _table(ref),
                entry,
                seen_version=version,
                game_no=game_no,
                guard=guard,
            ),
        )
    return _after_post(db, ref, res)


def undo(db: Database, ref: TableRef, *, client_id: str, version: int | None, address: str) -> PostOutcome:
    """Undo the last hand, until the result is confirmed; the approval given with it goes with it."""
    tavla = family_of(db, ref) == "tavla"
    guard = PhoneGuard(
        post_id=_check_client_id(client_id),
        token=ref.token,
        action="undo",
        answer=_("The last game was undone.") if tavla else _("The last hand was undone."),
    )
    with _lock_for(ref.token):
        res = night.undo_hand(db, phone_actor(ref, address), _table(ref), seen_version=version, guard=guard)
    return _after_post(db, ref, res)


def confirm(
    db: Database,
    ref: TableRef,
    *,
    client_id: str,
    version: int | None,
    side: int,
    address: str,
    code: str = "",
    handed_over: bool = False,
) -> PostOutcome:
    """A side approves the finished match with its own approval code (G13, E6, T8c: each side for
    itself); once both have, the result is confirmed at the table. ``code``: the side's code from its
    box on the score sheet (held since its QR was scanned, or typed now); ``handed_over``: this phone
    entered or approved for the other side, and was handed over (recorded as "same phone with code")."""
    if side not in (0, 1):
        raise ServiceError("bad-side", _("Say which side you are first."))
    sides = _shown_sides(db, ref, version)
    guard = PhoneGuard(
        post_id=_check_client_id(client_id),
        token=ref.token,
        action="confirm",
        side=side,
        sides=sides,
        answer=_("Approved. {other} now confirms the result."),
        finished_answer=_("Confirmed at the table by {name}."),
        code=code,
        handed_over=handed_over,
    )
    with _lock_for(ref.token):
        res = _counting_codes(
            ref,
            side,
            lambda: night.approve(
                db,
                phone_actor(ref, address),
                _table(ref),
                side,
                "",  # the side's name, as its page shows it, is the approval
                seen_version=version,
                guard=guard,
            ),
        )
    return _after_post(db, ref, res)


def call_referee(
    db: Database, ref: TableRef, *, client_id: str, version: int | None, address: str
) -> PostOutcome:
    """The table calls the referee; the desk shows the call with the table (one transaction, the post id
    stored with it: a retry calls once). Refused on a confirmed result, and from a page older than the
    table or one that sent no version (:func:`clubdesk.services.night.check_referee_call`)."""
    actor = phone_actor(ref, address)
    guard = PhoneGuard(post_id=_check_client_id(client_id), token=ref.token, action="referee")
    with _lock_for(ref.token), db.session() as s:
        repeated = stored_answer(s, guard.post_id)
        if repeated is not None:
            return PostOutcome(repeated, duplicate=True)
        _rnd, m = night.find_table(s, night.get_event(s, ref.event_id), ref.round_no, ref.table_no)
        check_referee_call(s, guard, m, version)
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
        remember_post(s, guard, message)
    return PostOutcome(message)
