"""One hand at one table, from the desk or from a phone: the one use case that writes it.

:func:`enter_hand` saves a hand (dominoes) or game (tavla) as entered, :func:`undo_hand` takes the last one
back, :func:`replace_sheet` replaces a table's whole sheet (a correction) and :func:`save_hand_change` is
the desk's sheet editor's change, whichever of the three it is. Each is one transaction and returns a
:class:`HandResult`: the table's new result and what changed
(:class:`~clubdesk.services.kernel.changes.Changes`).

The phones' page rules arrive as a :class:`PhoneGuard` value, checked inside the same transaction: the
post id (a retry stores nothing twice), the token, the page's read-only reasons, the version the page
showed, the encounter's game (E7b) and the kinds of entry a phone makes. A phone's hand that ends the match
is the entering side's approval (G13, E6, T8c), in the hand's own transaction. Undo takes back an approval
given with the undone hand on every route: a changed result needs approving again.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.games import load_ruleset
from clubdesk.i18n import _
from clubdesk.models.result import Match, ResultEntry
from clubdesk.models.round import Round
from clubdesk.models.table_entry import TableState
from clubdesk.services.kernel import Actor, ServiceError, hand_ref
from clubdesk.services.night.data import reads
from clubdesk.services.night.play.followups import after_change
from clubdesk.services.night.play.hand_guard import (
    PhoneGuard,
    approval_post,
    check_phone_entry,
    game_in_play,
    holds_side_code,
    phone_approval,
    remember_post,
    set_table_state,
    side_names,
)
from clubdesk.services.night.play.table_change import (
    HandResult,
    OpenTable,
    TableId,
    hand_result,
    open_for_change,
    repeated_result,
)
from clubdesk.services.night.play.table_result import (
    drop_entries,
    mark_in_play,
    match_entries,
    match_snapshot,
    recompute_from_entries,
    reset_confirmation,
    store_entry,
)
from clubdesk.storage import Database

# ------------------------------------------------------------------------------------------ use cases


def enter_hand(
    db: Database,
    actor: Actor,
    table: TableId,
    entry: dict[str, Any],
    *,
    seen_version: int | None,
    game_no: int = 1,
    override: str | None = None,
    guard: PhoneGuard | None = None,
) -> HandResult:
    """Save one hand or game as entered, in its own transaction (a crash loses nothing already saved).
    An impossible entry is refused and nothing is written. ``seen_version``: the table's version the face
    showed (None: the desk appends, and hands are append-only); changed since, the hand is refused.
    ``override``: the referee's written reason for a locked table (T10). ``guard``: a phone's post."""
    with db.session() as s:
        return enter_hand_in(
            s, actor, table, entry, seen_version=seen_version, game_no=game_no, override=override, guard=guard
        )


def enter_hand_in(
    s: Session,
    actor: Actor,
    t: TableId,
    entry: dict[str, Any],
    *,
    seen_version: int | None,
    game_no: int = 1,
    override: str | None = None,
    guard: PhoneGuard | None = None,
) -> HandResult:
    """:func:`enter_hand` in the caller's transaction."""
    o = open_for_change(s, actor, t, override=override, seen_version=seen_version, guard=guard)
    if isinstance(o, str):
        return repeated_result(s, t, o)
    ev, m = o.ev, o.m
    games = match_entries(s, m)
    family = load_ruleset(ev.ruleset).family
    if guard is not None:
        if game_no != 1 or family == "domino":
            now = game_in_play(s, ev, m, games)
            if game_no != now:  # rule E7b: an encounter's games one after another
                raise ServiceError(
                    "wrong-game", _("Hands go to game {g} of the encounter now.").format(g=now)
                )
        check_phone_entry(family, entry)
    if m.status == "confirmed" and override is None:
        raise ServiceError(
            "already-confirmed",
            _("Table {t} is confirmed; correct it with a reason instead.").format(t=t.table_no),
        )
    games.setdefault(game_no, []).append(dict(entry))
    recompute_from_entries(s, ev, m, games)
    reset_confirmation(m)
    seq = len(games[game_no])
    data = json.dumps(entry)
    entry_id = store_entry(s, m.id, game_no, seq, data, actor.name)  # its id, which its audit row names
    mark_in_play(o.rnd)
    reads.audit_match(
        s,
        actor,
        "override-entry" if m.locked else "add-entry",
        ev,
        m,
        before=o.before,
        after={**match_snapshot(m), "hand": hand_ref(entry_id, m.id, game_no, data)},
        reason=override,
    )
    answer = ""
    if guard is not None:
        answer = _phone_hand(s, actor, o, guard, len(games[game_no]))
    after_change(s, ev, m)
    return hand_result(s, o, sum(len(v) for v in games.values()), answer=answer)


def _phone_hand(s: Session, actor: Actor, o: OpenTable, guard: PhoneGuard, number: int) -> str:
    """A phone's hand: the table is started on the phones; a hand that ends the match is the entering
    side's approval (G13, E6, T8c: the other side confirms on its phone), in the hand's transaction. The
    answer is stored with the post."""
    m = o.m
    if not m.finished:
        set_table_state(s, m, "started", None, "")
        answer = guard.answer.format(n=number)
        remember_post(s, guard, answer)
        return answer
    sides = guard.sides if guard.sides is not None else side_names(s, m)
    name, other = sides[guard.side], sides[1 - guard.side]
    if m.status == "disputed":
        raise ServiceError("disputed", _("Table {t} is disputed: the referee decides.").format(t=m.table_no))
    if not holds_side_code(s, guard, guard.side):
        # the hand is stored; without its side's code it approves nothing (G13, E6, T8c): each side
        # confirms on the page with its own code
        set_table_state(s, m, "awaiting", None, "")
        answer = _("The match is finished. Each side confirms the result with its code from the score sheet.")
        remember_post(s, guard, answer)
        return answer
    how = phone_approval(s, guard, guard.side, name)
    before = match_snapshot(m)
    if guard.side == 0:
        m.scorer = name.strip()
    else:
        m.counter = name.strip()
    after = {**match_snapshot(m), "side": guard.side, "how": how}
    reads.audit_match(s, actor, "confirm", o.ev, m, before=before, after=after)
    set_table_state(s, m, "awaiting", guard.side, name)
    answer = guard.finished_answer.format(other=other)
    remember_post(s, guard, answer, approval_post(guard.side, how))
    return answer


def undo_hand(
    db: Database,
    actor: Actor,
    table: TableId,
    *,
    seen_version: int | None,
    game_no: int | None = None,
    guard: PhoneGuard | None = None,
) -> HandResult:
    """Take back the table's last hand (of game ``game_no``; None: of the last game with hands), until
    the result is confirmed. The approvals go with it on every route (G13, E6, T8c: a changed result
    needs approving again, and an approval given with the undone hand approved a result that is gone);
    the phones see the table in play again."""
    with db.session() as s:
        return undo_hand_in(s, actor, table, seen_version=seen_version, game_no=game_no, guard=guard)


def undo_hand_in(
    s: Session,
    actor: Actor,
    t: TableId,
    *,
    seen_version: int | None,
    game_no: int | None = None,
    guard: PhoneGuard | None = None,
) -> HandResult:
    """:func:`undo_hand` in the caller's transaction."""
    o = open_for_change(s, actor, t, override=None, seen_version=seen_version, guard=guard)
    if isinstance(o, str):
        return repeated_result(s, t, o)
    ev, m = o.ev, o.m
    if m.status == "confirmed":
        raise ServiceError("already-confirmed", _("Table {t} is confirmed.").format(t=t.table_no))
    last = select(ResultEntry).where(ResultEntry.match_id == m.id)
    if game_no is not None:
        last = last.where(ResultEntry.game_no == game_no)
    row = s.scalar(last.order_by(ResultEntry.game_no.desc(), ResultEntry.seq.desc()).limit(1))
    if row is None:
        raise ServiceError("no-entry", _("There is no entry to undo."))
    undone = json.loads(row.data)
    undone_ref = hand_ref(row.id, m.id, row.game_no, row.data)  # the add-entry row's hand, taken back
    drop_entries(s, [row.id])
    games = match_entries(s, m)
    recompute_from_entries(s, ev, m, games)
    reset_confirmation(m)
    reads.audit_match(
        s,
        actor,
        "undo-entry",
        ev,
        m,
        before={**o.before, "entry": undone, "game": row.game_no, "seq": row.seq, "hand": undone_ref},
        after=match_snapshot(m),
    )
    if guard is not None or s.get(TableState, m.id) is not None:
        set_table_state(s, m, "started", None, "")  # the side that finished with the hand no longer has
    answer = ""
    if guard is not None:
        answer = guard.answer
        remember_post(s, guard, answer)
    return hand_result(s, o, sum(len(v) for v in games.values()), answer=answer)


def replace_sheet(
    db: Database,
    actor: Actor,
    table: TableId,
    games: dict[int, list[dict[str, Any]]],
    *,
    seen_version: int | None,
    reason: str | None = None,
    override: str | None = None,
) -> HandResult:
    """Replace a table's whole sheet (a correction, or a sheet entered from a file). A correction to a
    confirmed result needs a reason and sends it back for confirmation. ``seen_version``: the table's
    version the desk showed; changed since by another desk, the correction is refused."""
    with db.session() as s:
        return replace_sheet_in(
            s, actor, table, games, seen_version=seen_version, reason=reason, override=override
        )


def replace_sheet_in(
    s: Session,
    actor: Actor,
    t: TableId,
    games: dict[int, list[dict[str, Any]]],
    *,
    seen_version: int | None,
    reason: str | None = None,
    override: str | None = None,
) -> HandResult:
    """:func:`replace_sheet` in the caller's transaction."""
    o = open_for_change(s, actor, t, override=override, seen_version=seen_version)
    assert not isinstance(o, str)  # no guard, no stored post
    ev, m = o.ev, o.m
    was_confirmed = m.status == "confirmed"
    if was_confirmed and not (reason or override):
        raise ServiceError("reason-required", _("Say why a confirmed result is corrected."))
    before = {**o.before, "entries": match_entries(s, m)}
    recompute_from_entries(s, ev, m, games)
    drop_entries(s, match_id=m.id)
    # the new hands, named as add-entry rows name theirs (G13): their ids may be the removed hands' own
    # (SQLite hands them out again), so the audit walk checks them against this row, not the older ones
    refs: list[list[Any]] = []
    for g, entries in sorted(games.items()):
        for i, e in enumerate(entries, start=1):
            data = json.dumps(e)
            refs.append(hand_ref(store_entry(s, m.id, g, i, data, actor.name), m.id, g, data))
    reset_confirmation(m)
    mark_in_play(o.rnd)
    reads.audit_match(
        s,
        actor,
        "override" if m.locked else ("correct" if was_confirmed else "sheet"),
        ev,
        m,
        before=before,
        after={**match_snapshot(m), "entries": games, "hands": refs},
        reason=override or reason,
    )
    after_change(s, ev, m)
    return hand_result(s, o, sum(len(v) for v in games.values()))


def save_hand_change(
    db: Database,
    actor: Actor,
    table: TableId,
    *,
    game_no: int,
    action: str,
    index: int,
    entry: dict[str, Any] | None,
    entries: list[dict[str, Any]],
    seen_version: int | None,
    reason: str | None = None,
    override: str | None = None,
) -> HandResult:
    """The desk's sheet editor's change to game ``game_no`` of a table, as one use case in one
    transaction: a hand added at the end of an open table is :func:`enter_hand`; the last hand deleted
    from an open table is :func:`undo_hand`; anything else (a hand corrected, inserted or deleted before
    the end, or any change to a confirmed or locked table) replaces the game's sheet with ``entries``,
    the whole game after the change (:func:`replace_sheet`, with ``reason``/``override``; the table's
    other games stay as stored). ``action`` and ``index`` as the editor's change names them."""
    with db.session() as s:
        row = s.execute(
            select(Match.status, Match.locked)
            .join(Round, Round.id == Match.round_id)
            .where(
                Round.event_id == table.event_id,
                Round.number == table.round_no,
                Match.table_no == table.table_no,
            )
        ).first()
        correcting = row is not None and (row[0] == "confirmed" or bool(row[1]))
        if action == "append" and not correcting and entry is not None:  # append-only: never a conflict
            return enter_hand_in(s, actor, table, dict(entry), seen_version=None, game_no=game_no)
        if action == "delete" and index == len(entries) and not correcting:
            return undo_hand_in(s, actor, table, seen_version=seen_version, game_no=game_no)
        stored = {}
        if row is not None:
            ev = reads.get_event(s, table.event_id)
            _rnd, m = reads.find_table(s, ev, table.round_no, table.table_no)
            stored = match_entries(s, m)
        games = {**{k: v for k, v in stored.items() if k != game_no}, game_no: [dict(e) for e in entries]}
        return replace_sheet_in(
            s, actor, table, games, seen_version=seen_version, reason=reason, override=override
        )
