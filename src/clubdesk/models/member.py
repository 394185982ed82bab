"""Members of the club's register (migration 0002_members).

``number`` is the club's own member ID; it is unique. ``licence`` (migration 0006_rule_readings) is the
player's federation licence number, which the match act records (rule E15); "" when he has none.
A member merged into another (rule T2a) keeps its row, is inactive and points at the kept member
through ``merged_into_id``; every other table refers to members by ``members.id``.
"""

# no `from __future__ import annotations` here: SQLAlchemy takes the Mapped[...] annotations as
# they are instead of evaluating each column's string (about 20 ms of every start-up)

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Index, Integer, LargeBinary, String, Text, event
from sqlalchemy.orm import Mapped, mapped_column

from clubdesk.models.base import Base, utcnow
from clubdesk.text import fold


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
    # migration 0019_member_consent: "full" or "initials", what public outputs show of him
    # (clubdesk.competition.privacy.public_name)
    public_name: Mapped[str] = mapped_column(String(10), default="full", server_default="full")
    # migration 0011_speed: number, name and city folded (case and accents ignored) for the search in SQL;
    # kept by the listener below on every write through the ORM
    search_text: Mapped[str] = mapped_column(Text, default="", server_default="")
    # migration 0015_member_search: the name's collation key (clubdesk.collation.sort_bytes) in the DUCET
    # (English, Indonesian) and in the Spanish and Turkish alphabets, so the register pages in SQL in the
    # order the Members screen shows; kept by the listener below
    sort_key: Mapped[bytes] = mapped_column(LargeBinary, default=b"", server_default="")
    sort_key_es: Mapped[bytes] = mapped_column(LargeBinary, default=b"", server_default="")
    sort_key_tr: Mapped[bytes] = mapped_column(LargeBinary, default=b"", server_default="")

    __table_args__ = (
        Index("ix_members_sort_key", "sort_key", "number"),
        Index("ix_members_sort_key_es", "sort_key_es", "number"),
        Index("ix_members_sort_key_tr", "sort_key_tr", "number"),
    )


def member_search_text(number: str, name: str, city: str) -> str:
    """What the register search looks in, folded (never phone or e-mail, rule T14)."""
    return " ".join(fold(x or "") for x in (number, name, city))


def member_sort_keys(name: str) -> dict[str, bytes]:
    """The stored sort keys of a member's name, by column."""
    from clubdesk.collation import sort_bytes

    return {
        "sort_key": sort_bytes(name or "", "en"),
        "sort_key_es": sort_bytes(name or "", "es"),
        "sort_key_tr": sort_bytes(name or "", "tr"),
    }


@event.listens_for(Member, "before_insert")
@event.listens_for(Member, "before_update")
def _fold_for_search(_mapper: Any, _conn: Any, m: Member) -> None:
    m.search_text = member_search_text(m.number, m.name, m.city)
    for column, key in member_sort_keys(m.name).items():
        if getattr(m, column, None) != key:
            setattr(m, column, key)
