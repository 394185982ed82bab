"""Payments (migration 0003_events): integer minor units in the event's currency, never deleted.

A refund is a negative payment linked to the payment it gives back (``refund_of_id``). The net paid by an
entrant is the sum of its payments. ``method`` is one of :data:`METHODS` (rule T2b).
"""

# no `from __future__ import annotations` here: SQLAlchemy takes the Mapped[...] annotations as
# they are instead of evaluating each column's string (about 20 ms of every start-up)

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from clubdesk.models.base import Base, utcnow

METHODS: tuple[str, ...] = ("cash", "card", "transfer", "pos")


class Payment(Base):
    __tablename__ = "payments"

    id: Mapped[int] = mapped_column(primary_key=True)  # also the receipt number
    entrant_id: Mapped[int] = mapped_column(ForeignKey("entrants.id"), index=True)
    amount: Mapped[int] = mapped_column(Integer)  # minor units; negative for a refund
    currency: Mapped[str] = mapped_column(String(3))
    method: Mapped[str] = mapped_column(String(10))
    reference: Mapped[str] = mapped_column(String(200), default="")
    paid_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    recorded_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    recorded_by: Mapped[str] = mapped_column(String(80))
    refund_of_id: Mapped[int | None] = mapped_column(ForeignKey("payments.id"), nullable=True, index=True)
    kind: Mapped[str] = mapped_column(String(20), default="fee")  # fee, refund (later: appeal fees, prizes)
    note: Mapped[str] = mapped_column(Text, default="")
