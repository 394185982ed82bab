"""The audit log: who changed what, when, before and after (foundation migration 0001); of an update,
only the fields that changed (issue 22, 0016_audit_diff: older rows hold whole snapshots).

Each row carries a SHA-256 hash chained to the previous row's (migration 0008_safety), so an edit or a
deletion made outside ClubDesk breaks the chain at that row (:mod:`clubdesk.services.audit_chain`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from clubdesk.models.base import Base, utcnow


class AuditEntry(Base):
    __tablename__ = "audit_log"
    # issue 22 (0011_speed): the audit view pages newest first, for the club or one event; the single-
    # column indexes of 0001 went in 0016_audit_diff (prefixes of these, or never searched alone)
    __table_args__ = (
        Index("ix_audit_log_at_id", "at", "id"),
        Index("ix_audit_log_event_at", "event_id", "at", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    actor_name: Mapped[str] = mapped_column(String(80))
    actor_role: Mapped[str] = mapped_column(String(20))
    action: Mapped[str] = mapped_column(String(80))
    entity: Mapped[str] = mapped_column(String(40))
    entity_id: Mapped[str | None] = mapped_column(String(80), nullable=True)
    event_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    round_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    table_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    before: Mapped[str | None] = mapped_column(Text, nullable=True)
    after: Mapped[str | None] = mapped_column(Text, nullable=True)
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    prev_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    row_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
