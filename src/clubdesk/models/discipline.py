"""Discipline: incidents for the match act, penalties and decisions, appeals, club incident kinds
(migration 0005_discipline).

Nothing here is deleted. An :class:`Incident` is one line of the match act (Acta del Encuentro, rules
E8–E20, G2, T1, T11); a :class:`Penalty` is one decision of the referee or committee (rules G3, B7, E15, E16,
E20, G15, T3b, T9c, T9d) and keeps the engine entry it added to the table's sheet; an :class:`Appeal` is one
protest (rules T10, G16) with its fee, both sides' notes, the decision, its reasons and the refund.
"""

# no `from __future__ import annotations` here: SQLAlchemy takes the Mapped[...] annotations as
# they are instead of evaluating each column's string (about 20 ms of every start-up)

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from clubdesk.models.base import Base, utcnow

APPEAL_STATUSES: tuple[str, ...] = ("open", "upheld", "rejected")


class ClubIncidentKind(Base):
    """An incident kind the club added to the ruleset's catalog (``family`` empty = every game)."""

    __tablename__ = "discipline_kinds"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(60), unique=True)
    family: Mapped[str] = mapped_column(String(20), default="")
    label: Mapped[str] = mapped_column(String(200))
    decisions: Mapped[str] = mapped_column(Text, default='["none", "warning"]')  # JSON list
    counter: Mapped[bool] = mapped_column(Boolean, default=False)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Incident(Base):
    """One line of the match act: where, who, what, when, who wrote it, and the decision taken."""

    __tablename__ = "incidents"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    round_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    table_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id"), nullable=True, index=True)
    game_no: Mapped[int] = mapped_column(Integer, default=1)
    hand_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    side: Mapped[int | None] = mapped_column(Integer, nullable=True)  # 0 / 1 of the table, None = neither
    entrant_id: Mapped[int | None] = mapped_column(ForeignKey("entrants.id"), nullable=True, index=True)
    member_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"), nullable=True, index=True)
    player_name: Mapped[str] = mapped_column(String(120), default="")
    member_number: Mapped[str] = mapped_column(String(40), default="")  # licence number (rule E15)
    kind: Mapped[str] = mapped_column(String(60))
    text: Mapped[str] = mapped_column(Text, default="")
    occurrence: Mapped[int] = mapped_column(Integer, default=0)  # rule E19: nth time by this pair, this game
    occurred_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    recorded_by: Mapped[str] = mapped_column(String(80))
    recorded_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    decision: Mapped[str] = mapped_column(String(30), default="")
    decided_by: Mapped[str] = mapped_column(String(80), default="")
    decided_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class Penalty(Base):
    """A decision or penalty; ``entry`` is the engine entry it added to the sheet (JSON, "" if none)."""

    __tablename__ = "penalties"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    round_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    table_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id"), nullable=True, index=True)
    game_no: Mapped[int] = mapped_column(Integer, default=1)
    incident_id: Mapped[int | None] = mapped_column(ForeignKey("incidents.id"), nullable=True, index=True)
    entrant_id: Mapped[int | None] = mapped_column(ForeignKey("entrants.id"), nullable=True, index=True)
    side: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(30))
    points: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(Text, default="")
    entry: Mapped[str] = mapped_column(Text, default="")  # JSON engine entry (CONTRACTS.md §1)
    result_entry_id: Mapped[int | None] = mapped_column(
        ForeignKey("result_entries.id"), nullable=True, index=True
    )
    action: Mapped[str] = mapped_column(String(20), default="")  # forfeit / disqualify / validate
    override_reason: Mapped[str] = mapped_column(Text, default="")  # rule T10: change to a locked result
    decided_by: Mapped[str] = mapped_column(String(80))
    decided_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Appeal(Base):
    """A protest (rules T10, G16): in time or let in late by the referee, fee, both sides, decision."""

    __tablename__ = "appeals"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    round_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    table_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id"), nullable=True, index=True)
    entrant_id: Mapped[int] = mapped_column(ForeignKey("entrants.id"), index=True)
    # rules G16, T10: what the appeal is about; a decided appeal on the same table and subject is final
    subject: Mapped[str] = mapped_column(String(60), default="result", server_default="result")
    text: Mapped[str] = mapped_column(Text)
    filed_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    filed_by: Mapped[str] = mapped_column(String(80))
    deadline: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    late_override: Mapped[str] = mapped_column(Text, default="")  # referee's reason to hear a late appeal
    fee: Mapped[int] = mapped_column(Integer, default=0)  # minor units (rule G16)
    currency: Mapped[str] = mapped_column(String(3), default="EUR")
    fee_payment_id: Mapped[int | None] = mapped_column(ForeignKey("payments.id"), nullable=True)
    appellant_notes: Mapped[str] = mapped_column(Text, default="")
    respondent_notes: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(10), default="open")
    reasons: Mapped[str] = mapped_column(Text, default="")
    decided_by: Mapped[str] = mapped_column(String(80), default="")
    decided_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    refund: Mapped[int] = mapped_column(Integer, default=0)
    refund_payment_id: Mapped[int | None] = mapped_column(ForeignKey("payments.id"), nullable=True)
