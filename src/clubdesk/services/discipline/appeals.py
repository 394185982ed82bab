"""Appeals (rules T10, G16): within the window
after the match's end (15 minutes, a setting), later only with the referee's override; the fee (minor
units) is kept on the appeal and refunded when upheld; both sides' notes; the decision and its reasons.
"""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.competition.discipline import DEFAULT_APPEAL_MINUTES, appeal_refund, appeal_timing
from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.club import Setting
from clubdesk.models.discipline import Appeal
from clubdesk.models.result import Match, ResultEntry
from clubdesk.services import club, night
from clubdesk.services.discipline.records import (
    APPEAL_MINUTES_KEY,
    AppealView,
    appeal_snapshot,
    appeal_view,
    audit_appeal,
    entrant_of,
    require_text,
    side_of,
    table_of,
)
from clubdesk.services.kernel import Actor, ServiceError, require
from clubdesk.storage import Database
from clubdesk.timefmt import local_text


# ------------------------------------------------------------------------------------------------ appeals
def appeal_window(db: Database) -> int:
    """Rule T10: minutes after the match's end in which an appeal is accepted (default 15)."""
    with db.session() as s:
        row = s.get(Setting, APPEAL_MINUTES_KEY)
        value = None if row is None else json.loads(row.value)
    return int(value) if isinstance(value, int) and value >= 0 else DEFAULT_APPEAL_MINUTES


def set_appeal_window(db: Database, actor: Actor, minutes: int) -> None:
    require(actor, "settings.edit", db)  # permission table
    if minutes < 0 or minutes > 24 * 60:
        raise ServiceError("bad-window", _("The appeal window is between 0 and 1440 minutes."))

    club.put(db, actor, APPEAL_MINUTES_KEY, minutes)


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
    text = require_text(text, "text-required", _("Write what the appeal is about."))
    subject = " ".join(subject.split()).lower() or "result"
    if len(subject) > 60:
        raise ServiceError("bad-subject", _("The appeal's subject is too long (60 characters at most)."))
    if fee < 0:
        raise ServiceError("bad-fee", _("An appeal fee cannot be negative."))
    minutes = appeal_window(db)
    with db.session() as s:
        ev = night.get_event(s, event_id)
        m = table_of(s, ev, round_no, table_no)
        en = entrant_of(s, ev, entrant_id)
        if side_of(m, en.id) is None:
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
        timing = appeal_timing(filed, match_end(s, m), minutes)
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
            night.require_referee(actor, _("accept a late appeal"))
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
        audit_appeal(s, actor, "appeal.file", row, reason=late_reason or None)
        return appeal_view(row, night.entrant_names(s, ev.id))


def open_appeal(s: Session, appeal_id: int) -> Appeal:
    row = appeal(s, appeal_id)
    if row.status != "open":
        raise ServiceError("appeal-decided", _("Appeal {id} is already decided.").format(id=appeal_id))
    return row


def note_hearing(row: Appeal, appellant_notes: str | None, respondent_notes: str | None) -> None:
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
        row = open_appeal(s, appeal_id)
        before = appeal_snapshot(row)
        note_hearing(row, appellant_notes, respondent_notes)
        audit_appeal(s, actor, "appeal.hear", row, before)
        return appeal_view(row, night.entrant_names(s, row.event_id))


def appeal(s: Session, appeal_id: int) -> Appeal:
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
    night.require_referee(actor, _("decide an appeal"))
    reasons = require_text(reasons, "reasons-required", _("Write the reasons for the decision."))
    with db.session() as s:
        row = open_appeal(s, appeal_id)
        before = appeal_snapshot(row)
        note_hearing(row, appellant_notes, respondent_notes)
        row.status = "upheld" if upheld else "rejected"
        row.reasons = reasons
        row.decided_by = actor.name
        row.decided_at = utcnow()
        row.refund = appeal_refund(row.fee, upheld)  # rule G16
        audit_appeal(s, actor, "appeal.decide", row, before, reason=reasons)
        return appeal_view(row, night.entrant_names(s, row.event_id))


def reopen_appeal(db: Database, actor: Actor, appeal_id: int, reason: str) -> AppealView:
    """Rules G16, T10: a decided appeal is final; only a referee reopens it, explicitly and with a written
    reason (audited with the decision as it was). It is then open again: heard and decided anew."""
    night.require_referee(actor, _("reopen a decided appeal"))
    reason = require_text(reason, "reason-required", _("Write why the decided appeal is reopened."))
    with db.session() as s:
        row = appeal(s, appeal_id)
        if row.status == "open":
            raise ServiceError("appeal-open", _("Appeal {id} is not decided yet.").format(id=appeal_id))
        before = appeal_snapshot(row)
        row.status = "open"
        row.reasons = ""
        row.decided_by = ""
        row.decided_at = None
        row.refund = 0
        audit_appeal(s, actor, "appeal.reopen", row, before, reason=reason)
        return appeal_view(row, night.entrant_names(s, row.event_id))


def get_appeal(db: Database, appeal_id: int) -> AppealView:
    with db.session() as s:
        row = appeal(s, appeal_id)
        return appeal_view(row, night.entrant_names(s, row.event_id))
