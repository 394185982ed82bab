"""Discipline: incidents for the match act, penalties and referee decisions, appeals, the audit view.

Every function is one transaction; every change writes an audit row with the event, round and table set.

* Incidents (rules G2, E8–E17, E19, E20, T1, T3b, T11): on a table that exists; the kind from the event's
  ruleset family (``resources/incidents.toml``) or the club's own; the player by member (licence) number
  (E15); the E19 counter per pair and game.
* Penalties (rules G3, B7, E15, E16, E20, G15, T3b, T9c, T9d): a referee decision. Those that change a score
  become entries of the table's sheet (CONTRACTS.md §1), so sheets and standings follow; a walkover goes
  through the results service's forfeit; a disqualification (T9c) sets the entrant ``disqualified``, which
  the standings service reads (out of ranking, prizes and season points) and forfeits its open tables.
  A penalty on a locked result (T10) needs the referee's written override reason.
* Appeals (rules T10, G16): within the window after the match's end (15 minutes, a setting), later only
  with the referee's override; the fee (minor units) is kept on the appeal and refunded when upheld; both
  sides' notes; the decision and its reasons.
* The audit view: every change to results, pairings, penalties, money and members, filtered by event,
  round, table and person, exported as CSV.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from clubdesk import labels as L
from clubdesk.db import Database
from clubdesk.i18n import N_, _, current_language
from clubdesk.models.audit import AuditEntry
from clubdesk.models.base import utcnow
from clubdesk.models.club import Setting
from clubdesk.models.discipline import Appeal, ClubIncidentKind, Incident, Penalty
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match, ResultEntry
from clubdesk.services import discipline_rules as DR
from clubdesk.services import rounds as R
from clubdesk.services.base import Actor, ServiceError, audit
from clubdesk.services.discipline_rules import IncidentKind
from clubdesk.timefmt import local_text

APPEAL_MINUTES_KEY = "discipline.appeal_minutes"  # rule T10: the appeal window, a setting


# ----------------------------------------------------------------------------------------- plain views
@dataclass(frozen=True)
class IncidentView:
    id: int
    event: int
    round: int | None
    table: int | None
    game: int
    hand: int | None
    side: int | None
    entrant: int | None
    player: str
    player_number: str
    kind: str
    kind_label: str
    text: str
    occurred_at: datetime
    recorded_by: str
    decision: str
    decision_label: str
    occurrence: int  # rule E19: 2nd, 3rd… time by this pair in this game (0 when not counted)
    counter_text: str


@dataclass(frozen=True)
class PenaltyView:
    id: int
    event: int
    round: int | None
    table: int | None
    game: int
    side: int | None
    entrant: int | None
    entrant_name: str
    kind: str
    kind_label: str
    points: int | None
    reason: str
    entry: dict[str, Any] | None
    action: str
    override_reason: str
    decided_by: str
    decided_at: datetime
    incident: int | None


@dataclass(frozen=True)
class AppealView:
    id: int
    event: int
    round: int | None
    table: int | None
    entrant: int
    entrant_name: str
    text: str
    filed_at: datetime
    filed_by: str
    deadline: datetime | None
    late_override: str
    fee: int
    currency: str
    appellant_notes: str
    respondent_notes: str
    status: str  # open / upheld / rejected
    reasons: str
    decided_by: str
    decided_at: datetime | None
    refund: int
    subject: str = "result"  # rules G16, T10: what the appeal is about


@dataclass(frozen=True)
class AuditRow:
    id: int
    at: datetime
    actor: str
    role: str
    action: str
    entity: str
    entity_id: str | None
    event: int | None
    round: int | None
    table: int | None
    before: str | None
    after: str | None
    reason: str | None


@dataclass(frozen=True)
class DisciplineList:
    incidents: tuple[IncidentView, ...]
    penalties: tuple[PenaltyView, ...]
    appeals: tuple[AppealView, ...]


# ---------------------------------------------------------------------------------------------- helpers
def _refuse(exc: DR.DisciplineRuleError) -> ServiceError:
    return ServiceError(exc.code, exc.message)


def _family(ev: Event) -> str:
    try:
        return DR.family_of(ev.ruleset)
    except Exception as exc:  # noqa: BLE001 - an unknown ruleset is a refusal, not a crash
        raise ServiceError(
            "unknown-ruleset", _("Event {e} has an unknown ruleset {r}.").format(e=ev.id, r=ev.ruleset)
        ) from exc


def _entrant(s: Session, ev: Event, entrant_id: int | None) -> Entrant:
    en = None if entrant_id is None else s.get(Entrant, entrant_id)
    if en is None or en.event_id != ev.id:
        raise ServiceError("no-such-entrant", _("Entrant {id} is not in this event.").format(id=entrant_id))
    return en


def _table(s: Session, ev: Event, round_no: int, table_no: int) -> Match:
    """Bad input: an incident, penalty or appeal on a table that does not exist is refused."""
    m = s.scalar(
        select(Match).where(Match.event_id == ev.id, Match.round_no == round_no, Match.table_no == table_no)
    )
    if m is None:
        raise ServiceError(
            "no-such-table",
            _("Round {r} of event {e} has no table {t}.").format(r=round_no, e=ev.id, t=table_no),
            round=round_no,
            table=table_no,
        )
    return m


def _kinds(s: Session, family: str) -> tuple[IncidentKind, ...]:
    """The incident kinds of a family of games: its own, the common ones and the club's."""
    return DR.incident_kinds(family, _club_kinds(s, family))


def _club_kinds(s: Session, family: str) -> list[IncidentKind]:
    rows = s.scalars(
        select(ClubIncidentKind)
        .where(
            ClubIncidentKind.active.is_(True),
            or_(ClubIncidentKind.family == "", ClubIncidentKind.family == family),
        )
        .order_by(ClubIncidentKind.id)
    )
    return [
        IncidentKind(
            key=r.key,
            label=r.label,
            decisions=tuple(json.loads(r.decisions or "[]")) or ("none", "warning"),
            counter=r.counter,
            club=True,
        )
        for r in rows
    ]


def _member_entrant(s: Session, ev: Event, member_id: int) -> int | None:
    row = s.scalar(
        select(EntrantMember.entrant_id)
        .join(Entrant, Entrant.id == EntrantMember.entrant_id)
        .where(Entrant.event_id == ev.id, EntrantMember.member_id == member_id)
        .order_by(EntrantMember.id.desc())
    )
    return None if row is None else int(row)


def _side_of(m: Match, entrant_id: int | None) -> int | None:
    if entrant_id is None:
        return None
    if entrant_id == m.side_a:
        return 0
    if entrant_id == m.side_b:
        return 1
    return None


def _incident_view(row: Incident, kinds: Sequence[IncidentKind]) -> IncidentView:
    kind = next((k for k in kinds if k.key == row.kind), None)
    label = kind.title() if kind is not None else row.kind
    counter = DR.counter_text(kind, row.occurrence) if kind is not None else ""
    return IncidentView(
        row.id,
        row.event_id,
        row.round_no,
        row.table_no,
        row.game_no,
        row.hand_no,
        row.side,
        row.entrant_id,
        row.player_name,
        row.member_number,
        row.kind,
        label,
        row.text,
        row.occurred_at,
        row.recorded_by,
        row.decision,
        _(DR.PENALTY_LABELS[row.decision]) if row.decision in DR.PENALTY_LABELS else row.decision,
        row.occurrence,
        counter,
    )


def _incident_snapshot(row: Incident) -> dict[str, Any]:
    return {
        "round": row.round_no,
        "table": row.table_no,
        "game": row.game_no,
        "hand": row.hand_no,
        "side": row.side,
        "player": row.player_name,
        "number": row.member_number,
        "kind": row.kind,
        "text": row.text,
        "decision": row.decision,
        "occurrence": row.occurrence,
    }


def _penalty_view(row: Penalty, names: dict[int, str]) -> PenaltyView:
    return PenaltyView(
        row.id,
        row.event_id,
        row.round_no,
        row.table_no,
        row.game_no,
        row.side,
        row.entrant_id,
        names.get(row.entrant_id, "") if row.entrant_id is not None else "",
        row.kind,
        _(DR.PENALTY_LABELS.get(row.kind, row.kind)),
        row.points,
        row.reason,
        json.loads(row.entry) if row.entry else None,
        row.action,
        row.override_reason,
        row.decided_by,
        row.decided_at,
        row.incident_id,
    )


def _penalty_snapshot(row: Penalty) -> dict[str, Any]:
    return {
        "round": row.round_no,
        "table": row.table_no,
        "game": row.game_no,
        "side": row.side,
        "entrant": row.entrant_id,
        "kind": row.kind,
        "points": row.points,
        "reason": row.reason,
        "entry": json.loads(row.entry) if row.entry else None,
        "action": row.action,
    }


def _appeal_view(row: Appeal, names: dict[int, str]) -> AppealView:
    return AppealView(
        row.id,
        row.event_id,
        row.round_no,
        row.table_no,
        row.entrant_id,
        names.get(row.entrant_id, ""),
        row.text,
        row.filed_at,
        row.filed_by,
        row.deadline,
        row.late_override,
        row.fee,
        row.currency,
        row.appellant_notes,
        row.respondent_notes,
        row.status,
        row.reasons,
        row.decided_by,
        row.decided_at,
        row.refund,
        row.subject,
    )


def _appeal_snapshot(row: Appeal) -> dict[str, Any]:
    return {
        "round": row.round_no,
        "table": row.table_no,
        "entrant": row.entrant_id,
        "subject": row.subject,
        "text": row.text,
        "fee": row.fee,
        "currency": row.currency,
        "late_override": row.late_override,
        "appellant_notes": row.appellant_notes,
        "respondent_notes": row.respondent_notes,
        "status": row.status,
        "reasons": row.reasons,
        "refund": row.refund,
    }


def _audit_incident(s: Session, actor: Actor, action: str, row: Incident, before: Any = None) -> None:
    audit(
        s,
        actor,
        action,
        "incident",
        row.id,
        before=before,
        after=_incident_snapshot(row),
        event_id=row.event_id,
        round_no=row.round_no,
        table_no=row.table_no,
    )


def _audit_appeal(
    s: Session, actor: Actor, action: str, row: Appeal, before: Any = None, reason: str | None = None
) -> None:
    audit(
        s,
        actor,
        action,
        "appeal",
        row.id,
        before=before,
        after=_appeal_snapshot(row),
        event_id=row.event_id,
        round_no=row.round_no,
        table_no=row.table_no,
        reason=reason,
    )


def _results() -> Any:
    from clubdesk.services import results

    return results


def _require_text(text: str, code: str, message: str) -> str:
    if not text or not text.strip():
        raise ServiceError(code, message)
    return text.strip()


# ----------------------------------------------------------------------------------------- incident kinds
def kinds_for_event(db: Database, event_id: int) -> tuple[IncidentKind, ...]:
    """The incident kinds a referee can pick at this event (ruleset family, common, the club's own)."""
    with db.session() as s:
        return _kinds(s, _family(R.get_event(s, event_id)))


def add_club_kind(
    db: Database,
    actor: Actor,
    label: str,
    *,
    family: str = "",
    decisions: Sequence[str] = ("none", "warning"),
    counter: bool = False,
) -> IncidentKind:
    """The club adds its own incident kind (for one family of games, or ``""`` for all)."""
    label = _require_text(label, "label-required", _("Give the new incident kind a name."))
    if family and family not in DR.FAMILIES:
        raise ServiceError("unknown-family", _("Unknown game family {f}.").format(f=family))
    for d in decisions:
        if d not in DR.PENALTY_KINDS and d not in DR.INCIDENT_ONLY_DECISIONS:
            raise ServiceError("unknown-decision", _("Unknown decision {d}.").format(d=d))
    key = DR.club_kind_key(label)
    with db.session() as s:
        if s.scalar(select(ClubIncidentKind).where(ClubIncidentKind.key == key)) is not None:
            raise ServiceError(
                "kind-exists", _("There is already an incident kind {label}.").format(label=label)
            )
        row = ClubIncidentKind(
            key=key, family=family, label=label, decisions=json.dumps(list(decisions)), counter=counter
        )
        s.add(row)
        s.flush()
        audit(s, actor, "incident-kind.add", "incident_kind", key, after={"label": label, "family": family})
        return IncidentKind(key=key, label=label, decisions=tuple(decisions), counter=counter, club=True)


# ---------------------------------------------------------------------------------------------- incidents
def record_incident(
    db: Database,
    actor: Actor,
    event_id: int,
    *,
    round_no: int | None,
    table_no: int | None,
    kind: str,
    text: str,
    player: str | None = None,
    hand: int | None = None,
    game_no: int = 1,
    side: int | None = None,
    decision: str = "",
    occurred_at: datetime | None = None,
) -> IncidentView:
    """One line of the match act. ``player`` is a member (licence) number (rule E15). The side is the
    player's side at the table, or ``side`` when no player is named. Counted kinds carry their E19 count."""
    with db.session() as s:
        ev = R.get_event(s, event_id)
        family = _family(ev)
        club = _club_kinds(s, family)
        try:
            k = DR.find_kind(family, kind, club)
            DR.check_incident_decision(k, decision)
        except DR.DisciplineRuleError as exc:
            raise _refuse(exc) from exc
        if (round_no is None) != (table_no is None):
            raise ServiceError("round-and-table", _("Give both the round and the table, or neither."))
        m = _table(s, ev, round_no, table_no) if round_no is not None and table_no is not None else None
        if hand is not None and hand < 1:
            raise ServiceError("bad-hand", _("Hands are numbered from 1."))
        if game_no < 1:
            raise ServiceError("bad-game", _("Games are numbered from 1."))
        if m is not None:
            # rule E16: a false pass is claimed at that moment; E15's false think may come later
            on_sheet = len(_results().match_entries(s, m).get(game_no, []))
            try:
                DR.check_claim_moment(k.key, hand, on_sheet)
            except DR.DisciplineRuleError as exc:
                raise _refuse(exc) from exc
        if side is not None and side not in (0, 1):
            raise ServiceError("unknown-side", _("A side is 0 (the first named) or 1."))
        member: Member | None = None
        entrant_id: int | None = None
        if player:
            member = s.scalar(select(Member).where(Member.number == player.strip()))
            if member is None:
                raise ServiceError("no-such-member", _("There is no member {n}.").format(n=player))
            entrant_id = _member_entrant(s, ev, member.id)
            if m is not None:
                player_side = _side_of(m, entrant_id)
                if player_side is None:
                    raise ServiceError(
                        "not-at-table",
                        _("{name} does not play at table {t} of round {r}.").format(
                            name=member.name, t=table_no, r=round_no
                        ),
                    )
                if side is not None and side != player_side:
                    raise ServiceError(
                        "wrong-side", _("{name} plays on the other side.").format(name=member.name)
                    )
                side = player_side
        if m is not None and side is not None and entrant_id is None:
            entrant_id = m.side_a if side == 0 else m.side_b
        occurrence = 0
        if k.counter and m is not None and side is not None:
            # rule E19: count this pair's incidents of this kind in this game
            earlier = s.scalars(select(Incident).where(Incident.match_id == m.id, Incident.kind == k.key))
            previous = [DR.CountedIncident(i.kind, i.side, i.game_no) for i in earlier]
            occurrence = DR.occurrence(previous, k.key, side, game_no)
        now = utcnow()
        row = Incident(
            event_id=ev.id,
            round_no=round_no,
            table_no=table_no,
            match_id=None if m is None else m.id,
            game_no=game_no,
            hand_no=hand,
            side=side,
            entrant_id=entrant_id,
            member_id=None if member is None else member.id,
            player_name="" if member is None else member.name,
            member_number="" if member is None else member.number,
            kind=k.key,
            text=text.strip(),
            occurrence=occurrence,
            occurred_at=occurred_at or now,
            recorded_by=actor.name,
            recorded_at=now,
            decision=decision,
            decided_by=actor.name if decision else "",
            decided_at=now if decision else None,
        )
        s.add(row)
        s.flush()
        _audit_incident(s, actor, "incident.add", row)
        return _incident_view(row, DR.incident_kinds(family, club))


def decide_incident(db: Database, actor: Actor, incident_id: int, decision: str) -> IncidentView:
    """The decision on an incident (rule E19: reshuffle, continue or annul; E15/E16: annul or replay)."""
    with db.session() as s:
        row = s.get(Incident, incident_id)
        if row is None:
            raise ServiceError("no-such-incident", _("There is no incident {id}.").format(id=incident_id))
        ev = R.get_event(s, row.event_id)
        family = _family(ev)
        club = _club_kinds(s, family)
        try:
            DR.check_incident_decision(DR.find_kind(family, row.kind, club), decision)
        except DR.DisciplineRuleError as exc:
            raise _refuse(exc) from exc
        before = _incident_snapshot(row)
        row.decision = decision
        row.decided_by = actor.name
        row.decided_at = utcnow()
        _audit_incident(s, actor, "incident.decide", row, before)
        return _incident_view(row, DR.incident_kinds(family, club))


# ---------------------------------------------------------------------------------------------- penalties
def _replay(ev: Event, m: Match, entries: list[dict[str, Any]]) -> dict[str, Any]:
    from clubdesk.games import replay
    from clubdesk.services import results as RS

    return replay(ev.ruleset, entries, RS.match_params(ev, m))


def _context(ev: Event, m: Match, family: str, entries: list[dict[str, Any]], side: int) -> dict[str, Any]:
    """What the mapping needs from the sheet so far: did the offender's side lead the hand in play (E15,
    E16), the running totals (E20), the cube (T9d; 1 unless known)."""
    if family == "tavla":
        return {"offender_led": False, "totals": None}
    result = _replay(ev, m, entries)
    game = result["games"][-1] if result.get("games") else None
    totals = tuple(game["totals"]) if game else None
    leader = result.get("next_leader")
    return {"offender_led": DR.offender_led(leader, side), "totals": totals}


def impose_penalty(
    db: Database,
    actor: Actor,
    event_id: int,
    *,
    round_no: int,
    table_no: int,
    side: int,
    kind: str,
    reason: str,
    points: int | None = None,
    override: str | None = None,
    incident_id: int | None = None,
    game_no: int | None = None,
    cube: int = 1,
    after_hand: int | None = None,
) -> PenaltyView:
    """A referee's decision on a table. Score-changing penalties become entries of the sheet, so the sheet
    and the standings follow; a penalty on a locked result needs an override reason (T10). ``after_hand``
    places the entry after that hand of the game's sheet (at the breach; needed once the match has ended),
    else it goes at the end."""
    R.require_referee(actor, _("impose a penalty"))
    reason = _require_text(reason, "reason-required", _("Write the reason for the penalty."))
    if side not in (0, 1):
        raise ServiceError("unknown-side", _("A side is 0 (the first named) or 1."))
    from clubdesk.services import results as RS

    with db.session() as s:
        ev = R.get_event(s, event_id)
        family = _family(ev)
        m = _table(s, ev, round_no, table_no)
        if m.side_b is None:
            raise ServiceError("bye-table", _("Table {t} is a bye: nobody to penalise.").format(t=table_no))
        try:
            DR.check_penalty(family, kind, points)
        except DR.DisciplineRuleError as exc:
            raise _refuse(exc) from exc
        _family_name, params = R.params_of(ev)
        most = int(params.get("target") or params.get("match_length") or 1000)
        if points is not None and points > most:  # issue 23: a typo must not store 9×10^18 points
            raise ServiceError(
                "points-too-high",
                _("A penalty of {points} points is more than the game's target ({most}).").format(
                    points=points, most=most
                ),
            )
        games = RS.match_entries(s, m)  # the table's sheet, game by game
        g = game_no if game_no is not None else (max(games) if games else 1)
        sheet = games.get(g, [])
        pos = len(sheet) if after_hand is None else after_hand
        if not 0 <= pos <= len(sheet):
            raise ServiceError(
                "no-such-hand",
                _("Game {g} of table {t} has {n} entries; a penalty goes after hand 0 to {n}.").format(
                    g=g, t=table_no, n=len(sheet)
                ),
            )
        context = _context(ev, m, family, sheet[:pos], side)
        try:
            effect = DR.penalty_effect(family, kind, side, points=points, cube=cube, **context)
        except DR.DisciplineRuleError as exc:
            raise _refuse(exc) from exc
        if effect.changes_score:
            RS.check_lock(actor, m, override)  # rule T10
        if incident_id is not None:
            inc = s.get(Incident, incident_id)
            if inc is None or inc.event_id != ev.id:
                raise ServiceError("no-such-incident", _("There is no incident {id}.").format(id=incident_id))
        entrant_id = m.side_a if side == 0 else m.side_b
        before_match = RS.match_snapshot(m)
        result_entry: ResultEntry | None = None
        if effect.entry is not None:
            if not games and (m.status in ("pending", "confirmed") or m.score_a or m.score_b):
                raise ServiceError(
                    "no-sheet",
                    _(
                        "Table {t} has a final score only, no sheet: correct the score instead, or enter the "
                        "sheet first."
                    ).format(t=table_no),
                )
            was_confirmed = m.status == "confirmed"
            if after_hand is None and m.finished:
                raise ServiceError(
                    "match-ended",
                    _("The match at table {t} has ended: say after which hand the penalty applies.").format(
                        t=table_no
                    ),
                )
            games.setdefault(g, []).insert(pos, dict(effect.entry))
            RS.recompute_from_entries(s, ev, m, games)  # refuses an entry the engine cannot take
            if m.finished and (was_confirmed or kind in ("game-loss", "match-loss", "award-leader")):
                # the referee's decision ends the match: his result is the official one (rule T8c)
                RS.referee_confirms(m, actor)
            else:
                RS.reset_confirmation(m)
            for later in s.scalars(
                select(ResultEntry).where(
                    ResultEntry.match_id == m.id, ResultEntry.game_no == g, ResultEntry.seq > pos
                )
            ):
                later.seq += 1  # the sheet keeps its order: the penalty sits at the breach
            result_entry = ResultEntry(
                match_id=m.id,
                game_no=g,
                seq=pos + 1,
                data=json.dumps(effect.entry),
                entered_by=actor.name,
            )
            s.add(result_entry)
            s.flush()
        elif effect.action == "forfeit":
            RS.apply_forfeit(s, actor, ev, m, side, reason=reason, kind="penalty")
        elif effect.action == "disqualify":
            _disqualify_entrant(s, actor, ev, entrant_id, reason)
        elif effect.action == "validate":
            # rule E20: the score at suspension stands as the result
            if not games and not (m.score_a or m.score_b):
                raise ServiceError("nothing-to-validate", _("Table {t} has no score yet.").format(t=table_no))
            m.finished = True
            if m.points_a is not None and m.points_b is not None and m.points_a != m.points_b:
                m.winner = m.side_a if m.points_a > m.points_b else m.side_b
            RS.referee_confirms(m, actor)
        row = Penalty(
            event_id=ev.id,
            round_no=round_no,
            table_no=table_no,
            match_id=m.id,
            game_no=g,
            incident_id=incident_id,
            entrant_id=entrant_id,
            side=side,
            kind=kind,
            points=points,
            reason=reason,
            entry="" if effect.entry is None else json.dumps(effect.entry),
            result_entry_id=None if result_entry is None else result_entry.id,
            action=effect.action or "",
            override_reason=(override or "").strip() if m.locked else "",
            decided_by=actor.name,
            decided_at=utcnow(),
        )
        s.add(row)
        s.flush()
        audit(
            s,
            actor,
            "penalty.add",
            "penalty",
            row.id,
            before={"match": before_match},
            after={**_penalty_snapshot(row), "match": RS.match_snapshot(m)},
            event_id=ev.id,
            round_no=round_no,
            table_no=table_no,
            reason=override if m.locked and override else reason,
        )
        RS.after_change(s, ev)
        return _penalty_view(row, R.entrant_names(s, ev.id))


def _disqualify_entrant(s: Session, actor: Actor, ev: Event, entrant_id: int | None, reason: str) -> None:
    """Rule T9c: out of ranking, prizes and season points (the standings service reads the status); the
    entrant's open tables are forfeited, as for a withdrawal (T9b), and he is not paired again."""
    from clubdesk.services import results as RS

    en = _entrant(s, ev, entrant_id)
    if en.status == "disqualified":
        raise ServiceError("already-disqualified", _("{name} is already disqualified.").format(name=en.name))
    before = {"status": en.status}
    for m in R.matches_of(s, ev.id):
        if m.status in R.FINAL_STATUSES or m.side_b is None or en.id not in (m.side_a, m.side_b):
            continue
        if m.round_id is not None:
            from clubdesk.models.round import Round

            rnd = s.get(Round, m.round_id)
            if rnd is None or rnd.status == "proposed":
                continue
        RS.apply_forfeit(s, actor, ev, m, 0 if m.side_a == en.id else 1, reason=reason, kind="disqualified")
    en.status = "disqualified"
    audit(
        s,
        actor,
        "disqualify",
        "entrant",
        en.id,
        before=before,
        after={"status": en.status},
        event_id=ev.id,
        reason=reason,
    )


def disqualify(db: Database, actor: Actor, event_id: int, entrant_id: int, reason: str) -> PenaltyView:
    """Rule T9c: the entrant leaves the ranking, the prizes and the season points (T1: betting → removal)."""
    R.require_referee(actor, _("disqualify an entrant"))
    reason = _require_text(reason, "reason-required", _("Write the reason for the disqualification."))
    from clubdesk.services import results as RS

    with db.session() as s:
        ev = R.get_event(s, event_id)
        _disqualify_entrant(s, actor, ev, entrant_id, reason)
        row = Penalty(
            event_id=ev.id,
            entrant_id=entrant_id,
            kind="disqualification",
            reason=reason,
            action="disqualify",
            decided_by=actor.name,
            decided_at=utcnow(),
        )
        s.add(row)
        s.flush()
        audit(s, actor, "penalty.add", "penalty", row.id, after=_penalty_snapshot(row), event_id=ev.id)
        RS.after_change(s, ev)
        return _penalty_view(row, R.entrant_names(s, ev.id))


# ------------------------------------------------------------------------------------------------ appeals
def appeal_window(db: Database) -> int:
    """Rule T10: minutes after the match's end in which an appeal is accepted (default 15)."""
    with db.session() as s:
        row = s.get(Setting, APPEAL_MINUTES_KEY)
        value = None if row is None else json.loads(row.value)
    return int(value) if isinstance(value, int) and value >= 0 else DR.DEFAULT_APPEAL_MINUTES


def set_appeal_window(db: Database, actor: Actor, minutes: int) -> None:
    if minutes < 0 or minutes > 24 * 60:
        raise ServiceError("bad-window", _("The appeal window is between 0 and 1440 minutes."))
    from clubdesk.services import settings

    settings.put(db, actor, APPEAL_MINUTES_KEY, minutes)


def match_end(s: Session, m: Match) -> datetime | None:
    """When the match ended: its confirmation, else the last entry of a finished sheet; None while open."""
    if m.confirmed_at is not None:
        return m.confirmed_at
    if not m.finished:
        return None
    last = s.scalar(
        select(ResultEntry.entered_at)
        .where(ResultEntry.match_id == m.id)
        .order_by(ResultEntry.entered_at.desc())
    )
    return last


def file_appeal(
    db: Database,
    actor: Actor,
    event_id: int,
    *,
    round_no: int,
    table_no: int,
    entrant_id: int,
    text: str,
    fee: int = 0,
    override: str | None = None,
    now: datetime | None = None,
    subject: str = "result",
) -> AppealView:
    """Rules T10, G16: an appeal within the window after the match's end; later only when a referee lets
    it in with a written reason. ``fee`` in minor units, kept unless the appeal is upheld.

    ``subject`` says what it is about ("result" unless said otherwise). The decision is final (rule G16:
    *mutlak tidak dapat diganggu gugat*; rule T10: *hakem kararı kesindir*): a second appeal on a table and
    subject that already has a decided appeal is refused, naming that decision; a referee may reopen the
    decided appeal instead (:func:`reopen_appeal`)."""
    text = _require_text(text, "text-required", _("Write what the appeal is about."))
    subject = " ".join(subject.split()).lower() or "result"
    if len(subject) > 60:
        raise ServiceError("bad-subject", _("The appeal's subject is too long (60 characters at most)."))
    if fee < 0:
        raise ServiceError("bad-fee", _("An appeal fee cannot be negative."))
    minutes = appeal_window(db)
    with db.session() as s:
        ev = R.get_event(s, event_id)
        m = _table(s, ev, round_no, table_no)
        en = _entrant(s, ev, entrant_id)
        if _side_of(m, en.id) is None:
            raise ServiceError(
                "not-at-table",
                _("{name} did not play at table {t} of round {r}.").format(
                    name=en.name, t=table_no, r=round_no
                ),
            )
        decided = s.scalars(
            select(Appeal)
            .where(
                Appeal.event_id == ev.id,
                Appeal.round_no == round_no,
                Appeal.table_no == table_no,
                Appeal.subject == subject,
                Appeal.status.in_(("upheld", "rejected")),
            )
            .order_by(Appeal.id)
        ).first()
        if decided is not None:
            # rules G16, T10: the committee's / referee's decision is final
            raise ServiceError(
                "appeal-final",
                _(
                    "Appeal {id} on table {t} of round {r} ({subject}) was decided: {decision} by {who} "
                    "({reasons}). The decision is final (G16, T10); a referee may reopen it with a reason."
                ).format(
                    id=decided.id,
                    t=table_no,
                    r=round_no,
                    subject=subject,
                    decision=_("upheld") if decided.status == "upheld" else _("rejected"),
                    who=decided.decided_by,
                    reasons=" ".join(decided.reasons.split()),
                ),
                appeal=decided.id,
            )
        filed = now or utcnow()
        timing = DR.appeal_timing(filed, match_end(s, m), minutes)
        late_reason = ""
        if not timing.in_time:
            if override is None or not override.strip():
                assert timing.deadline is not None
                raise ServiceError(
                    "appeal-late",
                    _(
                        "Too late: appeals close {minutes} minutes after the match's end, at {deadline} "
                        "(rule T10); this one is {late} minutes late. A referee can let it in with a reason."
                    ).format(
                        # the deadline is naive UTC like the match's end: said on the club's wall clock
                        minutes=minutes,
                        deadline=local_text(timing.deadline, "%H:%M"),
                        late=timing.late_minutes,
                    ),
                )
            R.require_referee(actor, _("accept a late appeal"))
            late_reason = override.strip()
        row = Appeal(
            event_id=ev.id,
            round_no=round_no,
            table_no=table_no,
            match_id=m.id,
            entrant_id=en.id,
            text=text,
            filed_at=filed,
            filed_by=actor.name,
            deadline=timing.deadline,
            late_override=late_reason,
            fee=fee,
            currency=ev.currency,
            status="open",
            subject=subject,
        )
        s.add(row)
        s.flush()
        _audit_appeal(s, actor, "appeal.file", row, reason=late_reason or None)
        return _appeal_view(row, R.entrant_names(s, ev.id))


def _open_appeal(s: Session, appeal_id: int) -> Appeal:
    row = _appeal(s, appeal_id)
    if row.status != "open":
        raise ServiceError("appeal-decided", _("Appeal {id} is already decided.").format(id=appeal_id))
    return row


def _note_hearing(row: Appeal, appellant_notes: str | None, respondent_notes: str | None) -> None:
    """Rule T10: what each side said at the hearing (None: unchanged)."""
    if appellant_notes is not None:
        row.appellant_notes = appellant_notes.strip()
    if respondent_notes is not None:
        row.respondent_notes = respondent_notes.strip()


def hear_appeal(
    db: Database,
    actor: Actor,
    appeal_id: int,
    *,
    appellant_notes: str | None = None,
    respondent_notes: str | None = None,
) -> AppealView:
    """Rule T10: the referee hears both sides; their statements are noted on the appeal."""
    with db.session() as s:
        row = _open_appeal(s, appeal_id)
        before = _appeal_snapshot(row)
        _note_hearing(row, appellant_notes, respondent_notes)
        _audit_appeal(s, actor, "appeal.hear", row, before)
        return _appeal_view(row, R.entrant_names(s, row.event_id))


def _appeal(s: Session, appeal_id: int) -> Appeal:
    row = s.get(Appeal, appeal_id)
    if row is None:
        raise ServiceError("no-such-appeal", _("There is no appeal {id}.").format(id=appeal_id))
    return row


def decide_appeal(
    db: Database,
    actor: Actor,
    appeal_id: int,
    *,
    upheld: bool,
    reasons: str,
    appellant_notes: str | None = None,
    respondent_notes: str | None = None,
) -> AppealView:
    """Rules T10, G16: the referee's decision with its reasons; the fee is refunded when upheld."""
    R.require_referee(actor, _("decide an appeal"))
    reasons = _require_text(reasons, "reasons-required", _("Write the reasons for the decision."))
    with db.session() as s:
        row = _open_appeal(s, appeal_id)
        before = _appeal_snapshot(row)
        _note_hearing(row, appellant_notes, respondent_notes)
        row.status = "upheld" if upheld else "rejected"
        row.reasons = reasons
        row.decided_by = actor.name
        row.decided_at = utcnow()
        row.refund = DR.appeal_refund(row.fee, upheld)  # rule G16
        _audit_appeal(s, actor, "appeal.decide", row, before, reason=reasons)
        return _appeal_view(row, R.entrant_names(s, row.event_id))


def reopen_appeal(db: Database, actor: Actor, appeal_id: int, reason: str) -> AppealView:
    """Rules G16, T10: a decided appeal is final; only a referee reopens it, explicitly and with a written
    reason (audited with the decision as it was). It is then open again: heard and decided anew."""
    R.require_referee(actor, _("reopen a decided appeal"))
    reason = _require_text(reason, "reason-required", _("Write why the decided appeal is reopened."))
    with db.session() as s:
        row = _appeal(s, appeal_id)
        if row.status == "open":
            raise ServiceError("appeal-open", _("Appeal {id} is not decided yet.").format(id=appeal_id))
        before = _appeal_snapshot(row)
        row.status = "open"
        row.reasons = ""
        row.decided_by = ""
        row.decided_at = None
        row.refund = 0
        _audit_appeal(s, actor, "appeal.reopen", row, before, reason=reason)
        return _appeal_view(row, R.entrant_names(s, row.event_id))


def get_appeal(db: Database, appeal_id: int) -> AppealView:
    with db.session() as s:
        row = _appeal(s, appeal_id)
        return _appeal_view(row, R.entrant_names(s, row.event_id))


# -------------------------------------------------------------------------------------------------- lists
def discipline_list(
    db: Database, event_id: int, *, round_no: int | None = None, table_no: int | None = None
) -> DisciplineList:
    """Everything written for the match act of an event (a round, a table): incidents, penalties, appeals."""
    with db.session() as s:
        ev = R.get_event(s, event_id)
        family = _family(ev)
        kinds = _kinds(s, family)
        names = R.entrant_names(s, ev.id)

        def where(model: Any) -> list[Any]:
            q = select(model).where(model.event_id == ev.id)
            if round_no is not None:
                q = q.where(model.round_no == round_no)
            if table_no is not None:
                q = q.where(model.table_no == table_no)
            return list(s.scalars(q.order_by(model.id)))

        return DisciplineList(
            tuple(_incident_view(r, kinds) for r in where(Incident)),
            tuple(_penalty_view(r, names) for r in where(Penalty)),
            tuple(_appeal_view(r, names) for r in where(Appeal)),
        )


# ---------------------------------------------------------------------------------------------- audit view
AUDIT_COLUMNS: tuple[str, ...] = (
    "at",
    "actor",
    "role",
    "action",
    "entity",
    "entity_id",
    "event",
    "round",
    "table",
    "before",
    "after",
    "reason",
)
AUDIT_TITLES: dict[str, str] = {  # the CSV header in the language in force, as the audit view's columns
    "at": N_("When"),
    "actor": N_("Who"),
    "role": N_("Role"),
    "action": N_("Action"),
    "entity": N_("What"),
    "entity_id": N_("No."),
    "event": N_("Event"),
    "round": N_("Round"),
    "table": N_("Table"),
    "before": N_("Before"),
    "after": N_("After"),
    "reason": N_("Reason"),
}


def audit_rows(
    db: Database,
    *,
    event_id: int | None = None,
    round_no: int | None = None,
    table_no: int | None = None,
    person: str | None = None,
    limit: int | None = None,
    viewer: Actor | None = None,
    after: tuple[datetime, int] | None = None,
) -> list[AuditRow]:
    """Every change (results, pairings, penalties, money, members): who, when, before and after, newest
    first; ``after`` (the at and id of the last row shown) gives the next page. ``person`` matches who
    acted, or a name or member number in what changed (accents ignored)."""
    return list(
        iter_audit_rows(
            db,
            event_id=event_id,
            round_no=round_no,
            table_no=table_no,
            person=person,
            limit=limit,
            viewer=viewer,
            after=after,
        )
    )


def iter_audit_rows(
    db: Database,
    *,
    event_id: int | None = None,
    round_no: int | None = None,
    table_no: int | None = None,
    person: str | None = None,
    limit: int | None = None,
    viewer: Actor | None = None,
    after: tuple[datetime, int] | None = None,
) -> Iterator[AuditRow]:
    """:func:`audit_rows` one row at a time, read in batches in one read transaction (issue 22: a page is
    an SQL ``LIMIT``; the export of a million rows keeps memory flat and takes no write lock)."""
    from clubdesk.services.permissions import allowed, mask_contacts
    from clubdesk.services.text import fold

    # phones and e-mails in what changed: the secretary's alone; others see them masked (T14, issue 23)
    see_contacts = viewer is None or allowed(viewer, "contacts.view")
    needle = fold(person) if person and person.strip() else ""
    with db.read_session() as s:
        q = select(AuditEntry)
        if event_id is not None:
            q = q.where(AuditEntry.event_id == event_id)
        if round_no is not None:
            q = q.where(AuditEntry.round_no == round_no)
        if table_no is not None:
            q = q.where(AuditEntry.table_no == table_no)
        if after is not None:  # keyset paging: the rows older than the last one shown
            at, last_id = after
            q = q.where(or_(AuditEntry.at < at, and_(AuditEntry.at == at, AuditEntry.id < last_id)))
        q = q.order_by(AuditEntry.at.desc(), AuditEntry.id.desc())
        if limit is not None and not needle:
            q = q.limit(limit)  # the page in SQL, not the whole log in memory
        n = 0
        for r in s.scalars(q.execution_options(yield_per=2000)):
            if needle and not any(
                needle in fold(t) for t in (r.actor_name, r.before or "", r.after or "", r.entity_id or "")
            ):
                continue
            yield AuditRow(
                r.id,
                r.at,
                r.actor_name,
                r.actor_role,
                r.action,
                r.entity,
                r.entity_id,
                r.event_id,
                r.round_no,
                r.table_no,
                r.before if see_contacts else mask_contacts(r.before),
                r.after if see_contacts else mask_contacts(r.after),
                r.reason,
            )
            n += 1
            if limit is not None and n >= limit:
                return  # (the session holds read rows weakly: memory stays flat over a long export)


def export_audit_csv(
    db: Database,
    path: Path,
    rows: Iterable[AuditRow] | None = None,
    *,
    progress: Callable[[int], object] | None = None,
    **filters: Any,
) -> int:
    """The audit view as CSV (UTF-8 with BOM, so spreadsheet programs read accents); returns the rows.
    The "at" column is the club's local time, as on the screen (rows are stored in UTC). Without ``rows``
    the log is streamed (issue 22); ``progress`` gets the rows written so far every 1,000 rows."""
    from clubdesk.services.text import excel_safe

    data = rows if rows is not None else iter_audit_rows(db, **filters)
    count = 0
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8-sig", newline="") as fh:
        w = csv.writer(fh)
        # English keeps the column keys and stored actions (scripts read them); other languages get the
        # audit view's words
        words = current_language() != "en"
        w.writerow([_(AUDIT_TITLES[c]) for c in AUDIT_COLUMNS] if words else list(AUDIT_COLUMNS))
        for r in data:
            cells = [
                local_text(r.at, "%Y-%m-%d %H:%M:%S"),
                r.actor,
                L.role_label(r.role) if words else r.role,
                L.audit_action_label(r.action) if words else r.action,
                L.entity_label(r.entity) if words else r.entity,
                r.entity_id or "",
                "" if r.event is None else r.event,
                "" if r.round is None else r.round,
                "" if r.table is None else r.table,
                r.before or "",
                r.after or "",
                r.reason or "",
            ]
            w.writerow([excel_safe(c) if isinstance(c, str) else c for c in cells])  # formula-safe (issue 23)
            count += 1
            if progress is not None and count % 1000 == 0:
                progress(count)
    return count
