"""Staff accounts: who may act at the desk, with which role, proved by a PIN (migration 0008_safety)."""

# no `from __future__ import annotations` here: SQLAlchemy takes the Mapped[...] annotations as
# they are instead of evaluating each column's string (about 20 ms of every start-up)

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from clubdesk.models.base import Base, utcnow


class StaffAccount(Base):
    __tablename__ = "staff"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    role: Mapped[str] = mapped_column(String(20))
    pin_hash: Mapped[str] = mapped_column(String(200))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    failed: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
