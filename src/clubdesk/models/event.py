"""Events, their entrants and the outbox of notifications (migration 0003_events).

Nothing here is ever deleted: a withdrawn entrant keeps its row with ``status = "withdrawn"``, a partner who
leaves a pair keeps its :class:`EntrantMember` row with ``left_at`` set, a sent notification keeps its row
with ``sent_at`` set. Money lives in :mod:`clubdesk.models.money` (integer minor units).

Shapes the rounds engineer relies on:

* ``Event.format``: one of :data:`FORMATS` (CONTRACTS.md §4); ``Event.status``: one of :data:`EVENT_STATUSES`;
  ``Event.current_round`` is the last published round (0 before the draw).
* ``Entrant.status``: one of :data:`ENTRANT_STATUSES`. Only ``registered`` entrants with ``checked_in_at`` set
  take part in the draw (rule T3a: no check-in, no draw). ``joins_from_round`` is set when a latecomer
  checked in after the draw in a Swiss, lives or open league event: paired from that round on, the rounds
  before count as zero-point byes.
"""

# no `from __future__ import annotations` here: SQLAlchemy takes the Mapped[...] annotations as
# they are instead of evaluating each column's string (about 20 ms of every start-up)

from datetime import date, datetime

from sqlalchemy import Boolean, Date, DateTime, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from clubdesk.models.base import Base, utcnow

FORMATS: tuple[str, ...] = (
    "round-robin",
    "double-round-robin",
    "open-round-robin",
    "swiss",
    "lives",
    "single-elimination",
    "double-elimination",
)
ELIMINATION_FORMATS: tuple[str, ...] = ("single-elimination", "double-elimination")
# Formats where a latecomer may join after the draw, paired from the next round (T3a).
LATE_JOIN_FORMATS: tuple[str, ...] = ("swiss", "lives", "open-round-robin")
ENTRY_TYPES: tuple[str, ...] = ("single", "pair", "team")
EVENT_STATUSES: tuple[str, ...] = ("draft", "open", "closed", "drawn", "running", "finished")
DRAWN_STATUSES: tuple[str, ...] = ("drawn", "running", "finished")
# registered: holds a place; waitlisted: waiting (rule T2c); withdrawn: left; no_show: not checked in and the
# place given to a waiting entrant present (rule T3a); disqualified: set by the discipline area.
ENTRANT_STATUSES: tuple[str, ...] = ("registered", "waitlisted", "withdrawn", "no_show", "disqualified")
MEMBER_ROLES: tuple[str, ...] = ("player", "partner", "substitute")
FEE_PER: tuple[str, ...] = ("entrant", "person")  # rule BC4: per person
SIDE_FEE_RULES: tuple[str, ...] = ("full", "free", "discount")  # rule T2e


class Event(Base):
    __tablename__ = "events"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(160))
    ruleset: Mapped[str] = mapped_column(String(60))  # a preset id of clubdesk.games.RULESETS
    ruleset_overrides: Mapped[str] = mapped_column(Text, default="{}")  # JSON object, e.g. {"target": 201}
    format: Mapped[str] = mapped_column(String(30))
    entry_type: Mapped[str] = mapped_column(String(10), default="single")
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    match_lengths: Mapped[str] = mapped_column(Text, default="[]")  # JSON list, one per round (T8a)
    target: Mapped[int | None] = mapped_column(Integer, nullable=True)
    starts_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    ends_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    venue: Mapped[str] = mapped_column(String(200), default="")
    season: Mapped[str] = mapped_column(String(40), default="")
    coefficient_class: Mapped[str] = mapped_column(String(40), default="")
    capacity: Mapped[int | None] = mapped_column(Integer, nullable=True)
    currency: Mapped[str] = mapped_column(String(3), default="EUR")
    fee: Mapped[int] = mapped_column(Integer, default=0)  # minor units
    early_fee: Mapped[int | None] = mapped_column(Integer, nullable=True)  # rule T2b
    early_until: Mapped[date | None] = mapped_column(Date, nullable=True)  # payments made by this day
    fee_per: Mapped[str] = mapped_column(String(10), default="entrant")  # rule BC4
    parent_event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"), nullable=True, index=True)
    side_fee_rule: Mapped[str] = mapped_column(String(10), default="full")  # rule T2e
    side_discount_percent: Mapped[int] = mapped_column(Integer, default=0)
    refund_percent_before_close: Mapped[int] = mapped_column(Integer, default=100)  # rule T2d
    refund_percent_after_close: Mapped[int] = mapped_column(Integer, default=0)
    registration_closes_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    start_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    arrival_deadline_minutes: Mapped[int] = mapped_column(Integer, default=10)  # rule G15
    status: Mapped[str] = mapped_column(String(12), default="open", index=True)
    drawn_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    notes: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Entrant(Base):
    __tablename__ = "entrants"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))  # the player, "A / B" for a pair, the team's name
    status: Mapped[str] = mapped_column(String(12), default="registered", index=True)
    waitlist_position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    code: Mapped[str] = mapped_column(String(12), unique=True)  # check-in code, also in transfer texts
    fee: Mapped[int] = mapped_column(Integer, default=0)  # price at registration, minor units
    early_fee: Mapped[int | None] = mapped_column(Integer, nullable=True)  # price if paid by early_until
    registered_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    promoted_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    withdrawn_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    checked_in_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    joins_from_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)


class EntrantMember(Base):
    __tablename__ = "entrant_members"

    id: Mapped[int] = mapped_column(primary_key=True)
    entrant_id: Mapped[int] = mapped_column(ForeignKey("entrants.id"), index=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    role: Mapped[str] = mapped_column(String(12), default="player")
    joined_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    left_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    replaced_by_id: Mapped[int | None] = mapped_column(ForeignKey("entrant_members.id"), nullable=True)
    active: Mapped[bool] = mapped_column(Boolean, default=True)


class OutboxMessage(Base):
    """A notification to send (rule T2c: a promoted entrant is notified). Printed or exported for now."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"), nullable=True, index=True)
    entrant_id: Mapped[int | None] = mapped_column(ForeignKey("entrants.id"), nullable=True, index=True)
    member_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"), nullable=True, index=True)
    kind: Mapped[str] = mapped_column(String(30))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
