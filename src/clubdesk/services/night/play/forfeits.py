"""Forfeits: an absent side at the table call (G15, T3b, T9a), a notice of lateness and the referee's
decision on it (G15), a withdrawn player's remaining matches (T9b) and the open league's deadline (BC3).
Each writes its tables and then hands over to :func:`clubdesk.services.night.play.followups.after_change`.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.event import Entrant, Event
from clubdesk.models.result import Match
from clubdesk.models.round import Round
from clubdesk.services.kernel import Actor, Changes, Role, ServiceError, audit, require
from clubdesk.services.night.data import reads
from clubdesk.services.night.data.reads import (
    FINAL_STATUSES,
    get_event,
    local_now,
    match_length_for,
    matches_of,
    night,
    params_of,
    rounds_of,
    state_of,
    withdrawn_ids,
)
from clubdesk.services.night.data.rows import played_matches
from clubdesk.services.night.play.answers import WithdrawalResult
from clubdesk.services.night.play.followups import after_change
from clubdesk.services.night.play.table_change import (
    HandResult,
    OpenTable,
    TableId,
    hand_result,
    open_for_change,
)
from clubdesk.services.night.play.table_result import match_snapshot, referee_confirms, store_outcome
from clubdesk.storage import Database


def apply_forfeit(
    s: Session, actor: Actor, ev: Event, m: Match, absent_side: int, *, reason: str, kind: str = "absent"
) -> None:
    n = reads.night(s, ev)
    family, params = reads.params_of(ev)
    oc = formats.forfeit_outcome(
        family, params, 1 - absent_side, match_length=m.match_length, encounter_games=n.encounter_games
    )
    before = match_snapshot(m)
    store_outcome(m, oc)
    m.kind = "forfeit"
    referee_confirms(m, actor)
    m.note = reason
    reads.audit_match(
        s,
        actor,
        "forfeit",
        ev,
        m,
        before=before,
        after={**match_snapshot(m), "absent_side": absent_side, "why": kind},
        reason=reason,
    )


def forfeit(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    absent_side: int,
    *,
    excuse: str | None = None,
    now: datetime | None = None,
    override: str | None = None,
    expected_version: int | None = None,
) -> HandResult:
    """Rules G15, T3b, T9a: after the table-call time plus the waiting time (10 minutes, a parameter) the
    absent side loses by forfeit (tavla: match length–0; dominoes: the match awarded). An accepted excuse
    is recorded instead and the match postponed (G15, G20). ``expected_version`` as for :func:`confirm`
    (no forfeit for a table where another desk has just entered a result)."""
    if absent_side not in (0, 1):
        raise ServiceError("bad-side", _("A side is 0 (home) or 1."))
    with db.session() as s:
        o = _open(s, actor, TableId(event_id, round_no, table_no), override, expected_version)
        ev, rnd, m = o.ev, o.rnd, o.m
        if m.status == "confirmed" and override is None:
            raise ServiceError(
                "already-confirmed", _("Table {t} already has a confirmed result.").format(t=table_no)
            )
        now = now or reads.local_now()
        if excuse:
            before = match_snapshot(m)
            m.excuse = excuse
            m.status = "postponed"
            reads.audit_match(
                s,
                actor,
                "excuse",
                ev,
                m,
                before=before,
                after={**match_snapshot(m), "side": absent_side},
                reason=excuse,
            )
            return hand_result(s, o, None, entries=False)
        if m.late_notice_by and m.late_notice_side == absent_side and m.status != "postponed":
            # rule G15: a notice of lateness suspends the automatic walkover; the referee decides
            at = m.late_notice_at.strftime("%H:%M") if m.late_notice_at else ""
            raise ServiceError(
                "late-notice",
                _(
                    "{who} gave notice at {at} that side {side} is late: no automatic walkover, "
                    "the referee decides (rule G15)."
                ).format(who=m.late_notice_by, at=at, side=absent_side),
            )
        due, rule = reads.forfeit_deadline(s, ev, rnd)
        due = due or now
        if now < due and m.status != "postponed":
            if rule == "G15":
                start = rnd.start_at or rnd.call_at or due
                msg = _(
                    "Table {t}: the match starts at {s}; sides must be present by {d}, a walkover is "
                    "possible from then (rule G15)."
                ).format(t=table_no, s=start.strftime("%H:%M"), d=due.strftime("%H:%M"))
            else:
                call = rnd.call_at or rnd.published_at or now
                msg = _("Table {t} was called at {c}; a forfeit is possible from {d} (rule T3b).").format(
                    t=table_no, c=call.strftime("%H:%M"), d=due.strftime("%H:%M")
                )
            raise ServiceError("too-early", msg)
        apply_forfeit(s, actor, ev, m, absent_side, reason=override or _("absent at the table call"))
        after_change(s, ev, m)
        return hand_result(s, o, None, entries=False, approvals=True)


def late_notice(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    side: int,
    given_by: str,
    *,
    now: datetime | None = None,
) -> HandResult:
    """Rule G15: a notice (keterangan) that side ``side`` will be late, given at the desk by ``given_by``;
    recorded with the time and audited. It suspends the automatic walkover: the referee decides
    (:func:`decide_late_notice`)."""
    if side not in (0, 1):
        raise ServiceError("bad-side", _("A side is 0 (home) or 1."))
    if not given_by.strip():
        raise ServiceError("notice-by-required", _("Write who gave the notice of lateness."))
    with db.session() as s:
        o = _open(s, actor, TableId(event_id, round_no, table_no), None, None)
        ev, m = o.ev, o.m
        if m.status in reads.FINAL_STATUSES:
            raise ServiceError(
                "already-confirmed", _("Table {t} already has a confirmed result.").format(t=table_no)
            )
        before = match_snapshot(m)
        m.late_notice_by = given_by.strip()[:80]
        m.late_notice_side = side
        m.late_notice_at = now or reads.local_now()
        reads.audit_match(
            s,
            actor,
            "late-notice",
            ev,
            m,
            before=before,
            after={
                **match_snapshot(m),
                "side": side,
                "given_by": m.late_notice_by,
                "at": m.late_notice_at.isoformat(timespec="minutes"),
            },
            reason=given_by,
        )
        return hand_result(s, o, None, entries=False)


def decide_late_notice(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    *,
    walkover: bool,
    reason: str,
    now: datetime | None = None,
    expected_version: int | None = None,
) -> HandResult:
    """Rule G15: the referee's decision on a side that gave notice of lateness: the walkover after all
    (``walkover``), or the match waits for it. Referee only, with a written reason; recorded and audited.
    ``expected_version`` as for :func:`forfeit`."""
    if actor.role is not Role.REFEREE:
        raise ServiceError("referee-only", _("Only the referee decides on a notice of lateness (rule G15)."))
    if not reason.strip():
        raise ServiceError("reason-required", _("Write the reason for the decision."))
    with db.session() as s:
        o = _open(s, actor, TableId(event_id, round_no, table_no), None, expected_version)
        ev, m = o.ev, o.m
        if not m.late_notice_by or m.late_notice_side is None:
            raise ServiceError("no-late-notice", _("Table {t} has no notice of lateness.").format(t=table_no))
        if m.status in reads.FINAL_STATUSES:
            raise ServiceError(
                "already-confirmed", _("Table {t} already has a confirmed result.").format(t=table_no)
            )
        side = m.late_notice_side
        reads.audit_match(
            s,
            actor,
            "late-decision",
            ev,
            m,
            before=match_snapshot(m),
            after={**match_snapshot(m), "side": side, "walkover": walkover},
            reason=reason,
        )
        if walkover:
            apply_forfeit(s, actor, ev, m, side, reason=reason, kind="late")
            after_change(s, ev, m)
        return hand_result(s, o, None, entries=False, approvals=walkover)


def _open(s: Session, actor: Actor, t: TableId, override: str | None, seen_version: int | None) -> OpenTable:
    """The table opened for a forfeit or a notice (no phone's post: never a stored answer)."""
    o = open_for_change(s, actor, t, override=override, seen_version=seen_version)
    assert not isinstance(o, str)  # no guard, no stored post
    return o


def league_deadline(
    db: Database,
    actor: Actor,
    event_id: int,
    at_fault: dict[str, int] | None = None,
    now: datetime | None = None,
) -> list[dict[str, Any]]:
    """Rule BC3: at the deadline every unplayed league match is lost by WO by the side at fault, or by
    both sides when nobody is named. Writes one final table per match in a closing round."""
    require(actor, "rounds.edit", db)  # permission table
    with db.session() as s:
        ev = get_event(s, event_id)
        if ev.format != "open-round-robin":
            raise ServiceError("not-a-league", _("Only an open league has a deadline."))
        n = night(s, ev)
        now = now or local_now()  # the deadline is a local wall-clock time (BC3)
        if n.deadline is not None and now < n.deadline:
            raise ServiceError(
                "before-deadline",
                _("The deadline is {d}; it has not passed yet.").format(
                    d=n.deadline.isoformat(" ", "minutes")
                ),
            )
        st = state_of(n)
        if "league" not in st:
            raise ServiceError("no-round", _("The league has not been drawn yet."))
        rounds = rounds_of(s, ev.id)
        if rounds and rounds[-1].status == "proposed":
            raise ServiceError("round-proposed", _("Publish or throw away the proposed round first."))
        # open tables of the league that were never played are forfeited too
        open_refs = {m.ref: m for m in matches_of(s, ev.id) if m.status not in FINAL_STATUSES}
        played = played_matches(s, ev)
        lg = formats.league_with_results(st["league"], played)
        faults = {k: str(v) for k, v in (at_fault or {}).items()}
        gone = {str(x) for x in withdrawn_ids(s, ev)}
        for lm in lg.pending():
            # rule T9b: a withdrawn entrant's remaining league matches are his forfeits
            at_fault_side = [x for x in (lm.home, lm.away) if x in gone]
            if lm.id not in faults and len(at_fault_side) == 1:
                faults[lm.id] = at_fault_side[0]
        try:
            closed = lg.close(faults)
        except ValueError as exc:
            raise ServiceError("bad-fault", str(exc)) from exc
        new = closed.results[len(lg.results) :]
        number = rounds[-1].number + 1 if rounds else 1
        rnd = Round(
            event_id=ev.id,
            number=number,
            status="closed",
            kind="deadline",
            seed=0,
            explanations="[]",
            published_at=now,
            call_at=now,
            closed_at=now,
        )
        s.add(rnd)
        s.flush()
        out: list[dict[str, Any]] = []
        family, params = params_of(ev)
        for t, res in enumerate(new, start=1):
            lm = closed.match(res.match_id)
            old = open_refs.get(res.match_id)
            if old is not None:
                s.delete(old)
                s.flush()
            kind = "forfeit" if res.winner is not None else "both-lost"
            score = (0, 0)
            if res.winner is not None:
                oc = formats.forfeit_outcome(
                    family,
                    params,
                    0 if res.winner == lm.home else 1,
                    match_length=match_length_for(ev, number),
                    encounter_games=n.encounter_games,
                )
                score = oc.score
            m = Match(
                event_id=ev.id,
                round_id=rnd.id,
                round_no=number,
                table_no=t,
                side_a=int(lm.home),
                side_b=int(lm.away),
                ref=lm.id,
                status="confirmed",
                kind=kind,
                score_a=score[0],
                score_b=score[1],
                winner=None if res.winner is None else int(res.winner),
                finished=True,
                scorer="",
                counter="",
                referee=actor.name,
                confirmed_at=now,
                locked=False,
                excuse="",
                seats="",
                note=closed.explain(lm.id),
            )
            s.add(m)
            out.append(
                {
                    "match": lm.id,
                    "sides": [int(lm.home), int(lm.away)],
                    "winner": m.winner,
                    "outcome": res.outcome.value,
                }
            )
        n.state = json.dumps({**st, "league": closed.to_data()})
        audit(s, actor, "league-deadline", "event", ev.id, after=out, event_id=ev.id, round_no=number)
        s.flush()
        after_change(s, ev)
        return out


def withdraw_from_play(
    db: Database, actor: Actor, event_id: int, entrant_id: int, reason: str
) -> WithdrawalResult:
    """Rule T9b: a player who withdraws forfeits his remaining (open) matches. Answers the tables, and
    what changed: those tables, the standings (his forfeits, his withdrawal) and the rounds the
    forfeits may close or the event they may end."""
    require(actor, "desk.withdraw", db)  # permission table
    with db.session() as s:
        ev = get_event(s, event_id)
        ent = s.get(Entrant, entrant_id)
        if ent is None or ent.event_id != ev.id:
            raise ServiceError(
                "no-such-entrant", _("Entrant {id} is not in this event.").format(id=entrant_id)
            )
        tables: list[int] = []
        played_in: set[int] = set()  # the rounds of his forfeited tables
        event_status, round_statuses = ev.status, [r.status for r in rounds_of(s, ev.id)]
        for m in matches_of(s, ev.id):
            if m.status in FINAL_STATUSES or entrant_id not in (m.side_a, m.side_b) or m.side_b is None:
                continue
            rnd = s.get(Round, m.round_id)
            if rnd is None or rnd.status == "proposed":
                continue
            apply_forfeit(
                s, actor, ev, m, 0 if m.side_a == entrant_id else 1, reason=reason, kind="withdrawal"
            )
            tables.append(m.table_no)
            played_in.add(m.round_no)
        if ent.status == "registered":
            ent.status = "withdrawn"
            ent.withdrawn_at = utcnow()
        audit(
            s,
            actor,
            "withdraw-from-play",
            "entrant",
            ent.id,
            after={"forfeited_tables": tables},
            event_id=ev.id,
            reason=reason,
        )
        after_change(s, ev)
        one_round = played_in.pop() if len(played_in) == 1 else None
        event_moved = ev.status != event_status
        changes = Changes(
            ev.id,
            one_round,
            frozenset(tables) if one_round is not None else frozenset(),
            approvals=bool(tables),
            rounds=round_statuses != [r.status for r in rounds_of(s, ev.id)] or len(played_in) > 1,
            standings=True,  # his forfeits count; a withdrawn player shows as such
            money=event_moved,
            event=event_moved,
        )
        return WithdrawalResult(tables, changes)
