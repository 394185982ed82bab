"""Results per table: entries (hand by hand, game by game) saved one by one as the source of truth, or the
final score only; two-side confirmation (G13, E6, T8c) and referee approval or dispute; captains, scorers,
substitutes and seats (E6, E7b); the round lock (T10) with the referee's written override. Forfeits are
:mod:`clubdesk.services.night.play.forfeits`; what follows each change is
:mod:`clubdesk.services.night.play.followups`.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.competition import formats, seating
from clubdesk.competition.errors import CompetitionError
from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.event import Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match, ResultEntry, Substitution
from clubdesk.services.kernel import Actor, ServiceError, refusal
from clubdesk.services.night.data import reads
from clubdesk.services.night.play.approvals import approve, side_member
from clubdesk.services.night.play.followups import after_change
from clubdesk.services.night.play.forfeits import forfeit
from clubdesk.services.night.play.hands import enter_hand, replace_sheet, undo_hand
from clubdesk.services.night.play.table_change import TableId
from clubdesk.services.night.play.table_result import (
    TableResult,
    mark_in_play,
    match_entries,
    match_snapshot,
    open_table,
    referee_confirms,
    reset_confirmation,
    sheet_of,
    store_outcome,
    table_result,
)
from clubdesk.storage import Database

apply_outcome = store_outcome  # the score, points, finished and winner of an outcome, onto the match


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
    (the sheet shown again after every hand); a table without entries is looked up in full,
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
) -> TableResult:
    """The final score only (tavla points, dominoes games won; ``points``: dominoes game points).
    With ``confirm`` both sides approve at once (a signed paper sheet handed to the desk).
    ``expected_version`` as for :func:`replace_entries`."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        rnd, m = open_table(s, actor, ev, round_no, table_no, override, expected_version)
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
        before = match_snapshot(m)
        has_entries = s.scalar(select(ResultEntry.id).where(ResultEntry.match_id == m.id))
        if has_entries is not None:
            before["entries"] = match_entries(s, m)  # the hands a final score replaces
            for row in s.scalars(select(ResultEntry).where(ResultEntry.match_id == m.id)):
                s.delete(row)
        store_outcome(m, oc)
        m.kind = "played"
        m.status = "pending" if oc.finished else "in_play"
        reset_confirmation(m)
        mark_in_play(rnd)
        if confirm:
            _confirm_both(m, actor.name, actor.name)
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
        return table_result(s, m)


def _confirm_both(m: Match, scorer: str, counter: str) -> None:
    m.scorer = scorer
    m.counter = counter
    m.status = "confirmed"
    m.confirmed_at = utcnow()


def name_captains(
    db: Database, actor: Actor, event_id: int, round_no: int, table_no: int, home: str, away: str
) -> dict[str, str]:
    """Seed 002 art. 15, 20: the captains of both sides at this table (member numbers of each side's
    players; "" leaves a side without one), printed by name in the match act."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        _rnd, m = reads.find_table(s, ev, round_no, table_no)
        if m.side_b is None:
            raise ServiceError(
                "bye-table", _("Table {t} is a bye: it has no result to enter.").format(t=table_no)
            )
        numbers = []
        for side, number in ((0, home), (1, away)):
            numbers.append(side_member(s, m, side, number, _("captain")).number if number.strip() else "")
        before = {"captains": [m.captain_a, m.captain_b]}
        m.captain_a, m.captain_b = numbers
        reads.audit_match(s, actor, "captains", ev, m, before=before, after={"captains": numbers})
        return {"home": numbers[0], "away": numbers[1]}


def side_players(
    db: Database, event_id: int, round_no: int, table_no: int
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The players (member number, name) of each side of a table, substitutes included: who can be
    named scorer (home side) and counter (rival side), rule E6."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        _rnd, m = reads.find_table(s, ev, round_no, table_no)
        out = []
        for entrant in (m.side_a, m.side_b):
            members = reads.entrant_members(s, entrant) if entrant is not None else []
            out.append(tuple((x.number, x.name) for x in members))
        return out[0], out[1]


def names_scorers(db: Database, event_id: int) -> bool:
    """Rule E6: a Spanish federation table names its scorer and counter (players of each pair)."""
    with db.session() as s:
        family, _params = reads.params_of(reads.get_event(s, event_id))
    return family == "domino"


def name_scorers(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    scorer: str,
    counter: str,
    *,
    referee_scores: bool = False,
    approve: bool = False,
    override: str | None = None,
) -> TableResult:
    """Rule E6: the home pair names its scorer (anotador), the rival pair its counter (recuento), each a
    player of that side (member numbers). ``referee_scores``: the referee scores and counts himself, and
    ``scorer``/``counter`` are the players of each pair who approve in their place. ``approve``: both
    approve the finished result now (their names are the approvals, the result is confirmed)."""
    if referee_scores:
        reads.require_referee(actor, _("score and count a table"))
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        _rnd, m = open_table(s, actor, ev, round_no, table_no, override)
        a = side_member(s, m, 0, scorer, _("scorer"))
        b = side_member(s, m, 1, counter, _("counter"))
        if approve:
            if not m.finished:
                raise ServiceError(
                    "sheet-incomplete",
                    _("Table {t}: the match is not finished, it cannot be confirmed.").format(t=table_no),
                )
            if m.status == "disputed":
                raise ServiceError(
                    "disputed", _("Table {t} is disputed: the referee decides.").format(t=table_no)
                )
        before = {
            **match_snapshot(m),
            "scorer_member": m.scorer_member,
            "counter_member": m.counter_member,
            "scored_by_referee": m.scored_by_referee,
        }
        m.scorer_member, m.counter_member = a.number, b.number
        m.scored_by_referee = actor.name if referee_scores else ""
        if approve:
            _confirm_both(m, a.name, b.name)
        reads.audit_match(
            s,
            actor,
            "scorers",
            ev,
            m,
            before=before,
            after={
                **match_snapshot(m),
                "scorer_member": m.scorer_member,
                "counter_member": m.counter_member,
                "scored_by_referee": m.scored_by_referee,
            },
        )
        after_change(s, ev, m)
        return table_result(s, m)


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
) -> TableResult:
    """Rule T8c: the referee-approved result is the official one; or the referee marks it disputed.
    ``expected_version`` as for :func:`confirm`."""
    reads.require_referee(actor, _("approve or dispute a result"))
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        _rnd, m = open_table(s, actor, ev, round_no, table_no, override, expected_version)
        before = match_snapshot(m)
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
        return table_result(s, m)


def substitute(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    game_no: int,
    side: int,
    member_out: str,
    member_in: str,
    reason: str = "",
) -> dict[str, Any]:
    """Rules E7b, E20: a substitute takes the seat of the player he replaces (not after an abandonment)."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        _rnd, m = open_table(s, actor, ev, round_no, table_no, None)
        out_m = s.scalar(select(Member).where(Member.number == member_out))
        in_m = s.scalar(select(Member).where(Member.number == member_in))
        if out_m is None or in_m is None:
            raise ServiceError("no-such-member", _("Unknown member number."))
        games = match_entries(s, m)
        if any(e.get("type") == "abandon" for e in games.get(game_no, [])):
            raise ServiceError("abandoned", _("No substitution after an abandonment (rule E20)."))
        seats = json.loads(m.seats) if m.seats else {"seats": []}
        key = f"game{game_no}"
        current = seats_for(s, ev, m, game_no)
        try:
            seats[key] = seating.substitute(current, member_out, member_in)
        except CompetitionError as exc:
            raise refusal(exc) from exc
        m.seats = json.dumps(seats)
        s.add(
            Substitution(
                match_id=m.id,
                game_no=game_no,
                side=side,
                member_out=out_m.id,
                member_in=in_m.id,
                reason=reason,
                # rules E7.2, E20: the substitute plays from the next hand to be entered in this game
                from_hand=len(games.get(game_no, [])) + 1,
            )
        )
        reads.audit_match(
            s,
            actor,
            "substitute",
            ev,
            m,
            before={"seats": current},
            after={"seats": seats[key]},
            reason=reason,
        )
        return seats


def encounter_seats(db: Database, event_id: int, round_no: int, table_no: int, game_no: int) -> list[str]:
    """The seats of a game of a team encounter: the draw (E7) for game 1; for game 2 the pair that lost
    game 1 swaps seats (E7b); substitutes keep the seat of the player they replace."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        _rnd, m = reads.find_table(s, ev, round_no, table_no)
        return seats_for(s, ev, m, game_no)


def seats_for(s: Session, ev: Event, m: Match, game_no: int) -> list[str]:
    seats = json.loads(m.seats) if m.seats else {}
    if f"game{game_no}" in seats:
        return list(seats[f"game{game_no}"])
    base = list(seats.get("game1") or seats.get("seats") or [])
    if game_no == 1 or not base:
        return base
    n = reads.night(s, ev)
    _family, params = reads.params_of(ev)
    games = match_entries(s, m)
    try:
        oc = formats.outcome_from_entries(
            ev.ruleset, params, {1: games.get(1, [])}, encounter_games=n.encounter_games
        )
    except CompetitionError as exc:
        raise refusal(exc) from exc
    sheet = oc.sheets[0] if oc.sheets else {}
    if not sheet.get("finished"):
        raise ServiceError("game-open", _("Game 1 is not finished yet."))
    return seating.swap_seats(base, 1 - int(sheet["winner"]))  # rule E7b


# ------------------------------------------------------------------------------------------ downstream


def sheet_games(entries: Any) -> dict[int, list[Any]]:
    """A sheet as typed (a list of entries, or ``{"1": [...], "2": [...]}`` per game), checked for its shape:
    game keys are game numbers 1-99, each game a list of entry objects (no traceback)."""

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
) -> TableResult:
    """The CLI's ``result`` command: a score, a sheet of entries (a list, or ``{"1": [...], "2": [...]}``
    per game of an encounter) or a forfeit; ``confirm_both`` approves for both sides: by the named
    ``scorer`` (a player of side 0) and ``counter`` (side 1) when given (rule E6), else by the operator."""
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
        )
        return name_scorers(
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
        )
    if forfeit_side is not None:
        return forfeit(db, actor, event_id, round_no, table_no, forfeit_side, now=now, override=override)
    if entries is not None:
        games = sheet_games(entries)
        res = replace_entries(
            db, actor, event_id, round_no, table_no, games, reason=reason, override=override
        )
        if confirm_both:
            confirm(db, actor, event_id, round_no, table_no, 0, actor.name, override=override)
            res = confirm(db, actor, event_id, round_no, table_no, 1, actor.name, override=override)
        return res
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
    )
