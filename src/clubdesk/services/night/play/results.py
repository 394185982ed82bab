"""Results per table: entries (hand by hand, game by game) saved one by one as the source of truth, or the
final score only; two-side confirmation (G13, E6, T8c) and referee approval or dispute; the round lock
(T10) with the referee's written override. Each change answers a
:class:`~clubdesk.services.night.play.table_change.HandResult` saying what changed. Captains, scorers,
substitutes and seats (E6, E7b) are :mod:`clubdesk.services.night.play.table_sides`; forfeits
:mod:`clubdesk.services.night.play.forfeits`; what follows each change
:mod:`clubdesk.services.night.play.followups`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import select

from clubdesk.competition import formats
from clubdesk.competition.errors import CompetitionError
from clubdesk.i18n import _
from clubdesk.models.result import ResultEntry
from clubdesk.services.kernel import Actor, ServiceError, refusal
from clubdesk.services.night.data import reads
from clubdesk.services.night.play.approvals import approve, side_member
from clubdesk.services.night.play.followups import after_change
from clubdesk.services.night.play.forfeits import forfeit
from clubdesk.services.night.play.hands import enter_hand, replace_sheet, undo_hand
from clubdesk.services.night.play.table_change import HandResult, TableId, hand_result, open_for_change
from clubdesk.services.night.play.table_result import (
    TableResult,
    confirm_both,
    mark_in_play,
    match_entries,
    match_snapshot,
    referee_confirms,
    reset_confirmation,
    sheet_of,
    store_outcome,
)
from clubdesk.services.night.play.table_sides import name_scorers
from clubdesk.storage import Database


def add_entry(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    entry: dict[str, Any],
    *,
    game_no: int = 1,
    override: str | None = None,
    expected_version: int | None = None,
) -> TableResult:
    """:func:`clubdesk.services.night.play.hands.enter_hand` by numbers, answering the table's result only."""
    table = TableId(event_id, round_no, table_no)
    return enter_hand(
        db, actor, table, entry, seen_version=expected_version, game_no=game_no, override=override
    ).table


def replace_entries(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    games: dict[int, list[dict[str, Any]]],
    *,
    reason: str | None = None,
    override: str | None = None,
    expected_version: int | None = None,
) -> TableResult:
    """:func:`clubdesk.services.night.play.hands.replace_sheet` by numbers, answering the table's result
    only."""
    table = TableId(event_id, round_no, table_no)
    return replace_sheet(
        db, actor, table, games, seen_version=expected_version, reason=reason, override=override
    ).table


def undo_last_entry(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    *,
    game_no: int = 1,
    expected_version: int | None = None,
) -> TableResult:
    """:func:`clubdesk.services.night.play.hands.undo_hand` by numbers (the last hand of ``game_no``),
    answering
    the table's result only; the approvals go with the undone hand."""
    table = TableId(event_id, round_no, table_no)
    return undo_hand(db, actor, table, seen_version=expected_version, game_no=game_no).table


_SHEET_SQL = (  # a table's stored entries in one statement (its round found by number)
    "SELECT e.game_no, e.data FROM rounds r JOIN matches m ON m.round_id = r.id"
    " JOIN result_entries e ON e.match_id = m.id"
    " WHERE r.event_id = ? AND r.number = ? AND m.table_no = ? ORDER BY e.game_no, e.seq"
)


def table_entries(
    db: Database, event_id: int, round_no: int, table_no: int
) -> dict[int, list[dict[str, Any]]]:
    """A table's sheet: the stored entries of each game, in order. On a club file one read statement
    (the sheet is shown again after every hand); a table without entries is looked up in full,
    so that a wrong event, round or table gets its own refusal."""
    if not db.is_server:
        out = sheet_of(db.read_now(_SHEET_SQL, (event_id, round_no, table_no)))
        if out:
            return out
    with db.read_session() as s:
        ev = reads.get_event(s, event_id)
        _rnd, m = reads.find_table(s, ev, round_no, table_no)
        return match_entries(s, m)


def set_score(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    score: tuple[int, int],
    points: tuple[int, int] | None = None,
    *,
    confirm: bool = False,
    reason: str | None = None,
    override: str | None = None,
    expected_version: int | None = None,
) -> HandResult:
    """The final score only (tavla points, dominoes games won; ``points``: dominoes game points).
    With ``confirm`` both sides approve at once (a signed paper sheet handed to the desk).
    ``expected_version`` as for :func:`replace_entries`."""
    with db.session() as s:
        o = open_for_change(
            s, actor, TableId(event_id, round_no, table_no), override=override, seen_version=expected_version
        )
        assert not isinstance(o, str)  # no guard, no stored post
        ev, m = o.ev, o.m
        if m.status == "confirmed" and not (reason or override):
            raise ServiceError("reason-required", _("Say why a confirmed result is corrected."))
        n = reads.night(s, ev)
        family, params = reads.params_of(ev)
        try:
            oc = formats.outcome_from_score(
                family,
                params,
                score,
                points,
                match_length=m.match_length,
                encounter_games=n.encounter_games,
                final=confirm,
            )
        except CompetitionError as exc:
            raise refusal(exc) from exc
        before = dict(o.before)
        has_entries = s.scalar(select(ResultEntry.id).where(ResultEntry.match_id == m.id))
        if has_entries is not None:
            before["entries"] = match_entries(s, m)  # the hands a final score replaces
            for row in s.scalars(select(ResultEntry).where(ResultEntry.match_id == m.id)):
                s.delete(row)
        store_outcome(m, oc)
        m.kind = "played"
        m.status = "pending" if oc.finished else "in_play"
        reset_confirmation(m)
        mark_in_play(o.rnd)
        if confirm:
            confirm_both(m, actor.name, actor.name)
        reads.audit_match(
            s,
            actor,
            "override" if m.locked else "score",
            ev,
            m,
            before=before,
            after=match_snapshot(m),
            reason=override or reason,
        )
        after_change(s, ev, m)
        return hand_result(s, o, None, entries=has_entries is not None, approvals=confirm)


def confirm(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    side: int,
    initials: str,
    *,
    override: str | None = None,
    member: str | None = None,
    expected_version: int | None = None,
) -> TableResult:
    """:func:`clubdesk.services.night.play.approvals.approve` by numbers, answering the table's result
    only."""
    table = TableId(event_id, round_no, table_no)
    return approve(
        db, actor, table, side, initials, override=override, member=member, seen_version=expected_version
    ).table


def referee_decision(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    *,
    approve: bool,
    note: str = "",
    override: str | None = None,
    expected_version: int | None = None,
) -> HandResult:
    """Rule T8c: the referee-approved result is the official one; or the referee marks it disputed.
    ``expected_version`` as for :func:`confirm`."""
    reads.require_referee(actor, _("approve or dispute a result"))
    with db.session() as s:
        o = open_for_change(
            s, actor, TableId(event_id, round_no, table_no), override=override, seen_version=expected_version
        )
        assert not isinstance(o, str)  # no guard, no stored post
        ev, m = o.ev, o.m
        before = o.before
        if approve:
            if not m.finished:
                raise ServiceError(
                    "sheet-incomplete",
                    _("Table {t}: the match is not finished, it cannot be confirmed.").format(t=table_no),
                )
            referee_confirms(m, actor)
        else:
            m.status = "disputed"
            m.referee = actor.name
            m.confirmed_at = None
        m.note = note
        reads.audit_match(
            s,
            actor,
            "referee-approve" if approve else "referee-dispute",
            ev,
            m,
            before=before,
            after=match_snapshot(m),
            reason=note or override,
        )
        after_change(s, ev, m)
        return hand_result(s, o, None, entries=False, approvals=True)


# ------------------------------------------------------------------------------------------ downstream


def sheet_games(entries: Any) -> dict[int, list[Any]]:
    """A sheet as typed (a list of entries, or ``{"1": [...], "2": [...]}`` per game), checked for its shape:
    game keys are game numbers 1-99, each game a list of entry objects (a bad one is refused)."""

    def entries_of(key: object, value: Any) -> list[Any]:
        if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
            raise ServiceError(
                "bad-sheet", _("Game {game}: a sheet is a list of entries (JSON objects).").format(game=key)
            )
        return value

    if isinstance(entries, list):
        return {1: entries_of(1, entries)}
    if not isinstance(entries, dict):
        raise ServiceError("bad-sheet", _("A sheet is a list of entries, or one list per game number."))
    games: dict[int, list[Any]] = {}
    for key, value in entries.items():
        text = str(key).strip()
        if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 99):
            raise ServiceError("bad-sheet", _("{key} is not a game number (1 to 99).").format(key=key))
        games[int(text)] = entries_of(key, value)
    return games


def record_result(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    *,
    score: tuple[int, int] | None = None,
    points: tuple[int, int] | None = None,
    entries: Any = None,
    forfeit_side: int | None = None,
    confirm_both: bool = False,
    reason: str | None = None,
    override: str | None = None,
    now: datetime | None = None,
    scorer: str | None = None,
    counter: str | None = None,
    referee_scores: bool = False,
    expected_version: int | None = None,
) -> HandResult:
    """The CLI's ``result`` command: a score, a sheet of entries (a list, or ``{"1": [...], "2": [...]}``
    per game of an encounter) or a forfeit; ``confirm_both`` approves for both sides: by the named
    ``scorer`` (a player of side 0) and ``counter`` (side 1) when given (rule E6), else by the operator.
    The answer is the table's last result and everything its steps changed.

    ``expected_version``: the table's version when the command started; a table changed since by anyone
    is refused naming who changed it and when, nothing written (no lost update between desks). The later
    steps (approvals, scorers) carry the version the first step wrote, so nobody's change slips between
    them either."""
    if scorer is not None or counter is not None:
        if not (scorer and counter):
            raise ServiceError("scorers-required", _("Name both the scorer and the counter (rule E6)."))
        with db.session() as s:  # refuse a wrong player before anything is written
            ev = reads.get_event(s, event_id)
            _rnd, m = reads.find_table(s, ev, round_no, table_no)
            side_member(s, m, 0, scorer, _("scorer"))
            side_member(s, m, 1, counter, _("counter"))
        if referee_scores:
            reads.require_referee(actor, _("score and count a table"))
        res = record_result(
            db,
            actor,
            event_id,
            round_no,
            table_no,
            score=score,
            points=points,
            entries=entries,
            forfeit_side=forfeit_side,
            reason=reason,
            override=override,
            now=now,
            expected_version=expected_version,
        )
        named = name_scorers(
            db,
            actor,
            event_id,
            round_no,
            table_no,
            scorer,
            counter,
            referee_scores=referee_scores,
            approve=confirm_both,
            override=override,
            expected_version=res.version,
        )
        return replace(named, changes=res.changes.merged(named.changes))
    if forfeit_side is not None:
        return forfeit(
            db,
            actor,
            event_id,
            round_no,
            table_no,
            forfeit_side,
            now=now,
            override=override,
            expected_version=expected_version,
        )
    if entries is not None:
        table = TableId(event_id, round_no, table_no)
        res = replace_sheet(
            db,
            actor,
            table,
            sheet_games(entries),
            seen_version=expected_version,
            reason=reason,
            override=override,
        )
        if not confirm_both:
            return res
        changes = res.changes
        for side in (0, 1):
            res = approve(db, actor, table, side, actor.name, override=override, seen_version=res.version)
            changes = changes.merged(res.changes)
        return replace(res, changes=changes)
    if score is None:
        raise ServiceError("no-result", _("Give a score, a sheet of entries or a forfeit."))
    return set_score(
        db,
        actor,
        event_id,
        round_no,
        table_no,
        score,
        points,
        confirm=confirm_both,
        reason=reason,
        override=override,
        expected_version=expected_version,
    )
