"""Discipline: incidents for the match act, penalties and referee decisions, appeals, the audit view.

The appeals live in :mod:`clubdesk.services.discipline.appeals`, the audit view in
:mod:`clubdesk.services.club.audit_log` and what they share in :mod:`clubdesk.services.discipline.records`.

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

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.competition.discipline import (
    FAMILIES,
    INCIDENT_ONLY_DECISIONS,
    PENALTY_KINDS,
    CountedIncident,
    DisciplineRuleError,
    IncidentKind,
    check_claim_moment,
    check_incident_decision,
    check_penalty,
    club_kind_key,
    find_kind,
    incident_kinds,
    occurrence,
    offender_led,
    penalty_effect,
)
from clubdesk.games import replay
from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.discipline import Appeal, ClubIncidentKind, Incident, Penalty
from clubdesk.models.event import Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match
from clubdesk.models.round import Round
from clubdesk.services import night
from clubdesk.services.discipline.records import (
    DisciplineList,
    IncidentView,
    PenaltyView,
    appeal_view,
    audit_incident,
    club_kinds,
    entrant_of,
    event_family,
    incident_snapshot,
    incident_view,
    kinds_of,
    member_entrant,
    penalty_snapshot,
    penalty_view,
    refuse,
    require_text,
    side_of,
    table_of,
)
from clubdesk.services.kernel import Actor, ServiceError, audit
from clubdesk.services.night import insert_entry_at
from clubdesk.storage import Database


# ----------------------------------------------------------------------------------------- incident kinds
def kinds_for_event(db: Database, event_id: int) -> tuple[IncidentKind, ...]:
    """The incident kinds a referee can pick at this event (ruleset family, common, the club's own)."""
    with db.session() as s:
        return kinds_of(s, event_family(night.get_event(s, event_id)))


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
    label = require_text(label, "label-required", _("Give the new incident kind a name."))
    if family and family not in FAMILIES:
        raise ServiceError("unknown-family", _("Unknown game family {f}.").format(f=family))
    for d in decisions:
        if d not in PENALTY_KINDS and d not in INCIDENT_ONLY_DECISIONS:
            raise ServiceError("unknown-decision", _("Unknown decision {d}.").format(d=d))
    key = club_kind_key(label)
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
        ev = night.get_event(s, event_id)
        family = event_family(ev)
        club = club_kinds(s, family)
        try:
            k = find_kind(family, kind, club)
            check_incident_decision(k, decision)
        except DisciplineRuleError as exc:
            raise refuse(exc) from exc
        if (round_no is None) != (table_no is None):
            raise ServiceError("round-and-table", _("Give both the round and the table, or neither."))
        m = table_of(s, ev, round_no, table_no) if round_no is not None and table_no is not None else None
        if hand is not None and hand < 1:
            raise ServiceError("bad-hand", _("Hands are numbered from 1."))
        if game_no < 1:
            raise ServiceError("bad-game", _("Games are numbered from 1."))
        if m is not None:
            # rule E16: a false pass is claimed at that moment; E15's false think may come later
            on_sheet = len(night.match_entries(s, m).get(game_no, []))
            try:
                check_claim_moment(k.key, hand, on_sheet)
            except DisciplineRuleError as exc:
                raise refuse(exc) from exc
        if side is not None and side not in (0, 1):
            raise ServiceError("unknown-side", _("A side is 0 (the first named) or 1."))
        member: Member | None = None
        entrant_id: int | None = None
        if player:
            member = s.scalar(select(Member).where(Member.number == player.strip()))
            if member is None:
                raise ServiceError("no-such-member", _("There is no member {n}.").format(n=player))
            entrant_id = member_entrant(s, ev, member.id)
            if m is not None:
                player_side = side_of(m, entrant_id)
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
        nth = 0
        if k.counter and m is not None and side is not None:
            # rule E19: count this pair's incidents of this kind in this game
            earlier = s.scalars(select(Incident).where(Incident.match_id == m.id, Incident.kind == k.key))
            previous = [CountedIncident(i.kind, i.side, i.game_no) for i in earlier]
            nth = occurrence(previous, k.key, side, game_no)
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
            occurrence=nth,
            occurred_at=occurred_at or now,
            recorded_by=actor.name,
            recorded_at=now,
            decision=decision,
            decided_by=actor.name if decision else "",
            decided_at=now if decision else None,
        )
        s.add(row)
        s.flush()
        audit_incident(s, actor, "incident.add", row)
        return incident_view(row, incident_kinds(family, club))


def decide_incident(db: Database, actor: Actor, incident_id: int, decision: str) -> IncidentView:
    """The decision on an incident (rule E19: reshuffle, continue or annul; E15/E16: annul or replay)."""
    with db.session() as s:
        row = s.get(Incident, incident_id)
        if row is None:
            raise ServiceError("no-such-incident", _("There is no incident {id}.").format(id=incident_id))
        ev = night.get_event(s, row.event_id)
        family = event_family(ev)
        club = club_kinds(s, family)
        try:
            check_incident_decision(find_kind(family, row.kind, club), decision)
        except DisciplineRuleError as exc:
            raise refuse(exc) from exc
        before = incident_snapshot(row)
        row.decision = decision
        row.decided_by = actor.name
        row.decided_at = utcnow()
        audit_incident(s, actor, "incident.decide", row, before)
        return incident_view(row, incident_kinds(family, club))


# ---------------------------------------------------------------------------------------------- penalties
def _replay(ev: Event, m: Match, entries: list[dict[str, Any]]) -> dict[str, Any]:

    return replay(ev.ruleset, entries, night.match_params(ev, m))


def _context(ev: Event, m: Match, family: str, entries: list[dict[str, Any]], side: int) -> dict[str, Any]:
    """What the mapping needs from the sheet so far: did the offender's side lead the hand in play (E15,
    E16), the running totals (E20), the cube (T9d; 1 unless known)."""
    if family == "tavla":
        return {"offender_led": False, "totals": None}
    result = _replay(ev, m, entries)
    game = result["games"][-1] if result.get("games") else None
    totals = tuple(game["totals"]) if game else None
    leader = result.get("next_leader")
    return {"offender_led": offender_led(leader, side), "totals": totals}


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
    expected_version: int | None = None,
) -> PenaltyView:
    """A referee's decision on a table. Score-changing penalties become entries of the sheet, so the sheet
    and the standings follow; a penalty on a locked result needs an override reason (T10). ``after_hand``
    places the entry after that hand of the game's sheet (at the breach; needed once the match has ended),
    else it goes at the end. ``expected_version``: the table's version the face saw (a table changed
    since is refused, naming who and when)."""
    night.require_referee(actor, _("impose a penalty"))
    reason = require_text(reason, "reason-required", _("Write the reason for the penalty."))
    if side not in (0, 1):
        raise ServiceError("unknown-side", _("A side is 0 (the first named) or 1."))

    with db.session() as s:
        ev = night.get_event(s, event_id)
        family = event_family(ev)
        m = table_of(s, ev, round_no, table_no)
        if expected_version is not None and expected_version != m.version:
            raise night.changed_elsewhere(m)
        if m.side_b is None:
            raise ServiceError("bye-table", _("Table {t} is a bye: nobody to penalise.").format(t=table_no))
        try:
            check_penalty(family, kind, points)
        except DisciplineRuleError as exc:
            raise refuse(exc) from exc
        _family_name, params = night.params_of(ev)
        most = int(params.get("target") or params.get("match_length") or 1000)
        if points is not None and points > most:  # a typo must not store 9×10^18 points
            raise ServiceError(
                "points-too-high",
                _("A penalty of {points} points is more than the game's target ({most}).").format(
                    points=points, most=most
                ),
            )
        games = night.match_entries(s, m)  # the table's sheet, game by game
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
            effect = penalty_effect(family, kind, side, points=points, cube=cube, **context)
        except DisciplineRuleError as exc:
            raise refuse(exc) from exc
        if effect.changes_score:
            night.check_lock(actor, m, override)  # rule T10
        if incident_id is not None:
            inc = s.get(Incident, incident_id)
            if inc is None or inc.event_id != ev.id:
                raise ServiceError("no-such-incident", _("There is no incident {id}.").format(id=incident_id))
        entrant_id = m.side_a if side == 0 else m.side_b
        before_match = night.match_snapshot(m)
        result_entry_id: int | None = None
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
            m.changed_by, m.changed_at = actor.name, utcnow()  # named if another desk's change is refused
            games.setdefault(g, []).insert(pos, dict(effect.entry))
            night.recompute_from_entries(s, ev, m, games)  # refuses an entry the engine cannot take
            if m.finished and (was_confirmed or kind in ("game-loss", "match-loss", "award-leader")):
                # the referee's decision ends the match: his result is the official one (rule T8c)
                night.referee_confirms(m, actor)
            else:
                night.reset_confirmation(m)
            # the sheet keeps its order: the penalty sits at the breach, the later entries after it
            result_entry_id = insert_entry_at(s, m.id, g, pos + 1, json.dumps(effect.entry), actor.name)
        elif effect.action == "forfeit":
            night.apply_forfeit(s, actor, ev, m, side, reason=reason, kind="penalty")
        elif effect.action == "disqualify":
            _disqualify_entrant(s, actor, ev, entrant_id, reason)
        elif effect.action == "validate":
            # rule E20: the score at suspension stands as the result
            if not games and not (m.score_a or m.score_b):
                raise ServiceError("nothing-to-validate", _("Table {t} has no score yet.").format(t=table_no))
            m.finished = True
            if m.points_a is not None and m.points_b is not None and m.points_a != m.points_b:
                m.winner = m.side_a if m.points_a > m.points_b else m.side_b
            night.referee_confirms(m, actor)
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
            result_entry_id=result_entry_id,
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
            after={**penalty_snapshot(row), "match": night.match_snapshot(m)},
            event_id=ev.id,
            round_no=round_no,
            table_no=table_no,
            reason=override if m.locked and override else reason,
        )
        night.after_change(s, ev)
        return penalty_view(row, night.entrant_names(s, ev.id))


def _disqualify_entrant(s: Session, actor: Actor, ev: Event, entrant_id: int | None, reason: str) -> None:
    """Rule T9c: out of ranking, prizes and season points (the standings service reads the status); the
    entrant's open tables are forfeited, as for a withdrawal (T9b), and he is not paired again."""

    en = entrant_of(s, ev, entrant_id)
    if en.status == "disqualified":
        raise ServiceError("already-disqualified", _("{name} is already disqualified.").format(name=en.name))
    before = {"status": en.status}
    for m in night.matches_of(s, ev.id):
        if m.status in night.FINAL_STATUSES or m.side_b is None or en.id not in (m.side_a, m.side_b):
            continue
        if m.round_id is not None:
            rnd = s.get(Round, m.round_id)
            if rnd is None or rnd.status == "proposed":
                continue
        night.apply_forfeit(
            s, actor, ev, m, 0 if m.side_a == en.id else 1, reason=reason, kind="disqualified"
        )
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
    night.require_referee(actor, _("disqualify an entrant"))
    reason = require_text(reason, "reason-required", _("Write the reason for the disqualification."))

    with db.session() as s:
        ev = night.get_event(s, event_id)
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
        audit(s, actor, "penalty.add", "penalty", row.id, after=penalty_snapshot(row), event_id=ev.id)
        night.after_change(s, ev)
        return penalty_view(row, night.entrant_names(s, ev.id))


# -------------------------------------------------------------------------------------------------- lists
def appeal_entrants(db: Database, event_id: int) -> dict[int, str]:
    """The event's entrants by id with their names: who may file an appeal (rules T10, G16)."""
    with db.session() as s:
        return night.entrant_names(s, event_id)


def discipline_list(
    db: Database, event_id: int, *, round_no: int | None = None, table_no: int | None = None
) -> DisciplineList:
    """Everything written for the match act of an event (a round, a table): incidents, penalties, appeals."""
    with db.session() as s:
        ev = night.get_event(s, event_id)
        family = event_family(ev)
        kinds = kinds_of(s, family)
        names = night.entrant_names(s, ev.id)

        def where(model: Any) -> list[Any]:
            q = select(model).where(model.event_id == ev.id)
            if round_no is not None:
                q = q.where(model.round_no == round_no)
            if table_no is not None:
                q = q.where(model.table_no == table_no)
            return list(s.scalars(q.order_by(model.id)))

        return DisciplineList(
            tuple(incident_view(r, kinds) for r in where(Incident)),
            tuple(penalty_view(r, names) for r in where(Penalty)),
            tuple(appeal_view(r, names) for r in where(Appeal)),
        )
