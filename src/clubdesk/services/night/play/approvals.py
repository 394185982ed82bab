"""One side approves a table's finished result (rules G13, E6, T8c), from the desk or from a phone: the
result is final when both sides have approved it. A phone's confirmation arrives with its page's rules
as a :class:`~clubdesk.services.night.play.hand_guard.PhoneGuard`, checked in the approval's own
transaction."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.member import Member
from clubdesk.models.result import Match, ResultEntry
from clubdesk.models.table_entry import TablePost, TableState, TableToken
from clubdesk.services.kernel import Actor, ServiceError
from clubdesk.services.night.data import reads
from clubdesk.services.night.play.followups import after_change
from clubdesk.services.night.play.hand_guard import (
    APPROVED_AT_DESK,
    APPROVED_OWN_PHONE,
    APPROVED_WITH_CODE,
    PhoneGuard,
    approval_post,
    phone_approval,
    remember_post,
    set_table_state,
    side_names,
)
from clubdesk.services.night.play.table_change import (
    HandResult,
    TableId,
    changes_of,
    open_for_change,
    repeated_result,
)
from clubdesk.services.night.play.table_result import match_snapshot, table_result
from clubdesk.storage import Database


def side_member(s: Session, m: Match, side: int, number: str, role: str) -> Member:
    """Rule E6: the scorer is a player of the home pair (side 0), the counter one of the rival pair."""
    entrant = m.side_a if side == 0 else m.side_b
    members = reads.entrant_members(s, entrant) if entrant is not None else []
    found = next((x for x in members if x.number == number.strip()), None)
    if found is None:
        raise ServiceError(
            "not-of-this-side",
            _("The {role} must be a player of side {side}: member {n} is not.").format(
                role=role, side=side + 1, n=number
            ),
            member=number,
        )
    return found


def approve(
    db: Database,
    actor: Actor,
    table: TableId,
    side: int,
    initials: str,
    *,
    override: str | None = None,
    member: str | None = None,
    seen_version: int | None = None,
    guard: PhoneGuard | None = None,
) -> HandResult:
    """One side approves the result (rules G13, E6, T8c): side 0's scorer, side 1's counter. The result
    is final when both have approved. Refused while the sheet is incomplete. ``member``: the player of
    that side who approves (rule E6: the scorer of the home pair, the counter of the rival pair); he is
    recorded as such and his name is the approval. ``seen_version``: the table's version the face
    showed; a table changed meanwhile is refused, so nobody approves a result he has not
    seen. ``guard``: a phone's confirmation (the side that finished the match on its phone approved with
    its hand; the other side confirms), approving in the side's name (``initials`` is not read)."""
    if side not in (0, 1):
        raise ServiceError("bad-side", _("A side is 0 (home) or 1."))
    if not initials.strip() and not member and guard is None:
        raise ServiceError("initials-required", _("Write the name or initials of who approves."))
    with db.session() as s:
        return approve_in(
            s,
            actor,
            table,
            side,
            initials,
            override=override,
            member=member,
            seen_version=seen_version,
            guard=guard,
        )


def approve_in(
    s: Session,
    actor: Actor,
    t: TableId,
    side: int,
    initials: str,
    *,
    override: str | None = None,
    member: str | None = None,
    seen_version: int | None = None,
    guard: PhoneGuard | None = None,
) -> HandResult:
    """:func:`approve` in the caller's transaction."""
    o = open_for_change(s, actor, t, override=override, seen_version=seen_version, guard=guard)
    if isinstance(o, str):
        return repeated_result(s, t, o)
    m = o.m
    sides = ("", "")
    how = APPROVED_AT_DESK
    if guard is not None:
        sides = guard.sides if guard.sides is not None else side_names(s, m)
        _phone_may_confirm(s, m, side, sides)
        how = phone_approval(s, guard, side, sides[side])  # only with the side's own code (G13, E6, T8c)
        initials = sides[side]  # the side's name as its page shows it is the approval
    if member:
        player = side_member(s, m, side, member, _("scorer") if side == 0 else _("counter"))
        initials = player.name
        if side == 0:
            m.scorer_member = player.number
        else:
            m.counter_member = player.number
    if not m.finished:
        raise ServiceError(
            "sheet-incomplete",
            _("Table {t}: the match is not finished, it cannot be confirmed.").format(t=t.table_no),
        )
    if m.status == "disputed":
        raise ServiceError("disputed", _("Table {t} is disputed: the referee decides.").format(t=t.table_no))
    before = match_snapshot(m)
    if side == 0:
        m.scorer = initials.strip()
    else:
        m.counter = initials.strip()
    if m.scorer and m.counter:
        m.status = "confirmed"
        m.confirmed_at = utcnow()
    after = {**match_snapshot(m), "side": side, "how": how}
    reads.audit_match(s, actor, "confirm", o.ev, m, before=before, after=after)
    answer = ""
    if guard is not None:  # the table's state and the post id in the approval's own transaction
        if m.status != "confirmed":
            set_table_state(s, m, "awaiting", side, sides[side])
            answer = guard.answer.format(other=sides[1 - side])
        else:
            set_table_state(s, m, "confirmed", side, sides[side])
            answer = guard.finished_answer.format(name=sides[side])
        remember_post(s, guard, answer, approval_post(side, how))
    after_change(s, o.ev, m)
    s.flush()
    return HandResult(table_result(s, m), changes_of(o, entries=False, approvals=True), m.version, answer)


def _phone_may_confirm(s: Session, m: Match, side: int, sides: tuple[str, str]) -> None:
    """A phone confirms a finished match awaiting approval, and not as the side that finished it on its
    phone (that side approved with its hand; the other side confirms)."""
    if not m.finished or m.status != "pending":
        raise ServiceError("sheet-incomplete", _("The match is not finished, it cannot be confirmed."))
    ts = s.get(TableState, m.id)
    approved = (m.scorer, m.counter)[side]
    if approved or (ts is not None and ts.state == "awaiting" and ts.finished_side == side):
        raise ServiceError(
            "same-side",
            _("{other} confirms the result, not the side that entered it.").format(other=sides[1 - side]),
        )


def approval_ways(s: Session, m: Match) -> tuple[str, str]:
    """How each side approved the match's result as it stands (``phone``: its own phone, ``phone-code``:
    the other side's phone with its code, ``desk``; "" not approved). A phone's approval is stored with
    its post (``approve<side>-<how>``, read by the table's token: two indexed reads, no audit scan); one
    older than the table's last hand was taken back with that hand, and a side approved without a phone
    approved at the desk. The audit row of each approval says the same."""
    if not (m.scorer or m.counter):
        return ("", "")
    ways = [APPROVED_AT_DESK if m.scorer else "", APPROVED_AT_DESK if m.counter else ""]
    token = s.scalar(
        select(TableToken.token).where(
            TableToken.event_id == m.event_id,
            TableToken.round_no == m.round_no,
            TableToken.table_no == m.table_no,
        )
    )
    if token is None:
        return ways[0], ways[1]
    last_hand = s.scalar(select(func.max(ResultEntry.entered_at)).where(ResultEntry.match_id == m.id))
    seen: set[int] = set()
    posts = s.execute(
        select(TablePost.action, TablePost.at)
        .where(TablePost.token == token, TablePost.action.like("approve%"))
        .order_by(TablePost.id.desc())
    ).all()
    for action, at in posts:
        side = int(action[7]) if action[7:8] in ("0", "1") else -1
        if side not in (0, 1) or side in seen:
            continue
        seen.add(side)
        if ways[side] and (last_hand is None or at >= last_hand):
            ways[side] = action[9:]
    return ways[0], ways[1]


def approval_way_label(how: str) -> str:
    """How a side approved, as the desk, the act and the sheet say it ("" for none)."""
    return {
        APPROVED_OWN_PHONE: _("own phone"),
        APPROVED_WITH_CODE: _("same phone with code"),
        APPROVED_AT_DESK: _("at the desk"),
    }.get(how, "")


def approval_with_way(name: str, how: str) -> str:
    """A side's approval as shown: its name, and how it was given (G13, E6, T8c)."""
    label = approval_way_label(how)
    return f"{name} ({label})" if name and label else name
