"""Results entered at the table on the players' phones (migration 0013_table_entry).

A :class:`TableToken` opens one table of one round (a random token of at least 128 bits, made when the
round is published); :class:`TablePost` remembers every page-made post id so a retry stores once;
:class:`TableState` says how far the table got on the phones (awaiting the other side, confirmed at the
table and by whom); :class:`RefereeCall` is a table's call for the referee, shown at the desk.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from clubdesk.models.base import Base, utcnow


class TableToken(Base):
    __tablename__ = "table_tokens"
    __table_args__ = (UniqueConstraint("event_id", "round_no", "table_no", name="uq_table_tokens_table"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    round_no: Mapped[int] = mapped_column(Integer)
    table_no: Mapped[int] = mapped_column(Integer)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class TablePost(Base):
    """One post from a table page, by the id the page made (idempotency: stored once on a retry)."""

    __tablename__ = "table_posts"

    id: Mapped[int] = mapped_column(primary_key=True)
    client_id: Mapped[str] = mapped_column(String(64), unique=True)
    token: Mapped[str] = mapped_column(String(64), index=True)
    action: Mapped[str] = mapped_column(String(20))
    outcome: Mapped[str] = mapped_column(Text, default="")  # the message shown after it, "" for none
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class TableState(Base):
    """How far a table got on the phones: ``started``, ``awaiting`` (one side finished the match, the
    other side confirms) or ``confirmed`` (confirmed at the table by ``confirmed_by``)."""

    __tablename__ = "table_state"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    state: Mapped[str] = mapped_column(String(12), default="started")
    finished_side: Mapped[int | None] = mapped_column(Integer, nullable=True)
    finished_by: Mapped[str] = mapped_column(String(80), default="")
    confirmed_by: Mapped[str] = mapped_column(String(80), default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class RefereeCall(Base):
    __tablename__ = "referee_calls"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    round_no: Mapped[int] = mapped_column(Integer)
    table_no: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    handled: Mapped[bool] = mapped_column(Boolean, default=False)
    handled_by: Mapped[str] = mapped_column(String(80), default="")
    handled_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
