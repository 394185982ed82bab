"""What the discipline services share: the plain
views of incidents, penalties and appeals, their audit snapshots and the look-ups of an event's tables,
sides and incident kinds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from clubdesk.competition.discipline import (
    PENALTY_LABELS,
    DisciplineRuleError,
    IncidentKind,
    counter_text,
    family_of,
    incident_kinds,
)
from clubdesk.i18n import _
from clubdesk.models.discipline import Appeal, ClubIncidentKind, Incident, Penalty
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.result import Match
from clubdesk.services.kernel import Actor, ServiceError, audit

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
class DisciplineList:
    incidents: tuple[IncidentView, ...]
    penalties: tuple[PenaltyView, ...]
    appeals: tuple[AppealView, ...]


# ---------------------------------------------------------------------------------------------- helpers
def refuse(exc: DisciplineRuleError) -> ServiceError:
    return ServiceError(exc.code, exc.message)


def event_family(ev: Event) -> str:
    try:
        return family_of(ev.ruleset)
    except Exception as exc:  # noqa: BLE001 - an unknown ruleset is a refusal, not a crash
        raise ServiceError(
            "unknown-ruleset", _("Event {e} has an unknown ruleset {r}.").format(e=ev.id, r=ev.ruleset)
        ) from exc


def entrant_of(s: Session, ev: Event, entrant_id: int | None) -> Entrant:
    en = None if entrant_id is None else s.get(Entrant, entrant_id)
    if en is None or en.event_id != ev.id:
        raise ServiceError("no-such-entrant", _("Entrant {id} is not in this event.").format(id=entrant_id))
    return en


def table_of(s: Session, ev: Event, round_no: int, table_no: int) -> Match:
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


def kinds_of(s: Session, family: str) -> tuple[IncidentKind, ...]:
    """The incident kinds of a family of games: its own, the common ones and the club's."""
    return incident_kinds(family, club_kinds(s, family))


def club_kinds(s: Session, family: str) -> list[IncidentKind]:
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


def member_entrant(s: Session, ev: Event, member_id: int) -> int | None:
    row = s.scalar(
        select(EntrantMember.entrant_id)
        .join(Entrant, Entrant.id == EntrantMember.entrant_id)
        .where(Entrant.event_id == ev.id, EntrantMember.member_id == member_id)
        .order_by(EntrantMember.id.desc())
    )
    return None if row is None else int(row)


def side_of(m: Match, entrant_id: int | None) -> int | None:
    if entrant_id is None:
        return None
    if entrant_id == m.side_a:
        return 0
    if entrant_id == m.side_b:
        return 1
    return None


def incident_view(row: Incident, kinds: Sequence[IncidentKind]) -> IncidentView:
    kind = next((k for k in kinds if k.key == row.kind), None)
    label = kind.title() if kind is not None else row.kind
    counter = counter_text(kind, row.occurrence) if kind is not None else ""
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
        _(PENALTY_LABELS[row.decision]) if row.decision in PENALTY_LABELS else row.decision,
        row.occurrence,
        counter,
    )


def incident_snapshot(row: Incident) -> dict[str, Any]:
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


def penalty_view(row: Penalty, names: dict[int, str]) -> PenaltyView:
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
        _(PENALTY_LABELS.get(row.kind, row.kind)),
        row.points,
        row.reason,
        json.loads(row.entry) if row.entry else None,
        row.action,
        row.override_reason,
        row.decided_by,
        row.decided_at,
        row.incident_id,
    )


def penalty_snapshot(row: Penalty) -> dict[str, Any]:
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


def appeal_view(row: Appeal, names: dict[int, str]) -> AppealView:
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


def appeal_snapshot(row: Appeal) -> dict[str, Any]:
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


def audit_incident(s: Session, actor: Actor, action: str, row: Incident, before: Any = None) -> None:
    audit(
        s,
        actor,
        action,
        "incident",
        row.id,
        before=before,
        after=incident_snapshot(row),
        event_id=row.event_id,
        round_no=row.round_no,
        table_no=row.table_no,
    )


def audit_appeal(
    s: Session, actor: Actor, action: str, row: Appeal, before: Any = None, reason: str | None = None
) -> None:
    audit(
        s,
        actor,
        action,
        "appeal",
        row.id,
        before=before,
        after=appeal_snapshot(row),
        event_id=row.event_id,
        round_no=row.round_no,
        table_no=row.table_no,
        reason=reason,
    )


def require_text(text: str, code: str, message: str) -> str:
    if not text or not text.strip():
        raise ServiceError(code, message)
    return text.strip()
