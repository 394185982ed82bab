"""Competition night: rounds and each event's night settings (migration 0004_night).

A round goes ``proposed`` (from the event's format and the pairing engines; the seed is recorded) →
``published`` (tables numbered top tables first; the call time recorded) → ``in_play`` (a first result is
entered) → ``closed`` (every match confirmed or forfeited). A proposed round can be thrown away and paired
again; publishing round r+1 locks the confirmed results of round r (rule T10).
"""

# no `from __future__ import annotations` here: SQLAlchemy takes the Mapped[...] annotations as
# they are instead of evaluating each column's string (about 20 ms of every start-up)

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from clubdesk.models.base import Base, utcnow

ROUND_STATUSES: tuple[str, ...] = ("proposed", "published", "in_play", "closed")


class Round(Base):
    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("event_id", "number", name="uq_rounds_event_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(12), default="proposed")
    kind: Mapped[str] = mapped_column(String(20), default="regular")  # regular, playoff (rule BC2)
    seed: Mapped[int] = mapped_column(Integer, default=0)  # rule T4a: the draw can be reproduced
    match_length: Mapped[int | None] = mapped_column(Integer, nullable=True)  # tavla, rule T8a
    explanations: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of lines
    proposed_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    published_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    call_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)  # rule T3b: tables called
    # rule G15: the match start (migration 0007); the forfeit deadline counts from it where the ruleset says
    start_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class EventNight(Base):
    """Per-event settings and plain-data state of the night's format (bracket, schedule, league)."""

    __tablename__ = "event_night"

    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), primary_key=True)
    result_mode: Mapped[str] = mapped_column(String(10), default="entries")  # entries / score
    tiebreaks: Mapped[str] = mapped_column(String(200), default="")  # "PTS,IAV,GAV,BH"; "" = preset's
    lives: Mapped[int] = mapped_column(Integer, default=2)  # rule T4g
    call_minutes: Mapped[int] = mapped_column(Integer, default=10)  # rules T3b, G15
    encounter_games: Mapped[int] = mapped_column(Integer, default=0)  # domino-es team encounter (E7b)
    deadline: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)  # open league, rule BC3
    state: Mapped[str] = mapped_column(Text, default="{}")  # JSON: bracket / schedule / league
    prize_plan: Mapped[str] = mapped_column(Text, default="{}")  # JSON: {"pool_rate":..,"places":[..]}
    season_scale: Mapped[str] = mapped_column(Text, default="{}")  # JSON: base points, coefficients
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
