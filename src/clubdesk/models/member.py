"""Members of the club's register (migration 0002_members).

``number`` is the club's own member ID; it is unique. ``licence`` (migration 0006_rule_readings) is the
player's federation licence number, which the match act records (rule E15); "" when he has none.
A member merged into another (rule T2a) keeps its row, is inactive and points at the kept member
through ``merged_into_id``; every other table refers to members by ``members.id``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from clubdesk.models.base import Base, utcnow


class Member(Base):
    __tablename__ = "members"

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[str] = mapped_column(String(40), unique=True)
    licence: Mapped[str] = mapped_column(String(40), default="", server_default="")  # rule E15
    name: Mapped[str] = mapped_column(String(120), index=True)
    club_id: Mapped[int | None] = mapped_column(ForeignKey("clubs.id"), nullable=True, index=True)
    city: Mapped[str] = mapped_column(String(120), default="")
    gender: Mapped[str | None] = mapped_column(String(1), nullable=True)  # "m", "f" or unknown
    birth_year: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rating: Mapped[float] = mapped_column(Float, default=1500.0)
    rating_experience: Mapped[int] = mapped_column(Integer, default=0)
    phone: Mapped[str] = mapped_column(String(40), default="")
    email: Mapped[str] = mapped_column(String(200), default="")
    notes: Mapped[str] = mapped_column(Text, default="")
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    merged_into_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"), nullable=True, index=True)
