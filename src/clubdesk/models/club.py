"""Clubs and the key/value settings of this ClubDesk database (foundation migration 0001)."""

# no `from __future__ import annotations` here: SQLAlchemy takes the Mapped[...] annotations as
# they are instead of evaluating each column's string (about 20 ms of every start-up)

from sqlalchemy import String, Text
from sqlalchemy.orm import Mapped, mapped_column

from clubdesk.models.base import Base


class Club(Base):
    __tablename__ = "clubs"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    city: Mapped[str] = mapped_column(String(120), default="")


class Setting(Base):
    """One setting: ``value`` is JSON text."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    value: Mapped[str] = mapped_column(Text, default="null")
