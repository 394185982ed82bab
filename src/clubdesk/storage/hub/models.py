"""The hub's tables, all in the ``federation`` schema (migration ``h0001_hub`` of the hub's own chain).

An event is stored once by its uid (``<club uid>:<event id>``); each version a club sent is a
:class:`HubVersion` (its payload's digest is unique: the same file twice is one row), the event points at
its current one, and a correction records what it changed (``diff``: tables and places moved). Players
across clubs are matched by federation licence (:class:`HubIdentity` is a club's member, :class:`HubPlayer`
the person); what cannot be matched waits in :class:`HubQueueItem` for the federation secretary (T2a).
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Boolean, Date, DateTime, ForeignKey, Integer, MetaData, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from clubdesk.models.base import utcnow

SCHEMA = "federation"


class HubBase(DeclarativeBase):
    metadata = MetaData(schema=SCHEMA)


class HubClub(HubBase):
    __tablename__ = "clubs"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    public_key: Mapped[str] = mapped_column(String(64), unique=True)  # Ed25519, hex
    club_uid: Mapped[str | None] = mapped_column(
        String(64), unique=True, nullable=True
    )  # learnt at first import
    token_hash: Mapped[str] = mapped_column(String(64), default="")  # SHA-256 of the push token
    added_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class HubEvent(HubBase):
    __tablename__ = "events"

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = mapped_column(String(100), unique=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    name: Mapped[str] = mapped_column(String(160))
    season: Mapped[str] = mapped_column(String(40), index=True)
    tier: Mapped[str] = mapped_column(String(40), default="")  # rule T12d: the event's level
    starts_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    ruleset: Mapped[str] = mapped_column(String(60))
    format: Mapped[str] = mapped_column(String(30))
    current_digest: Mapped[str] = mapped_column(String(64))
    versions: Mapped[int] = mapped_column(Integer, default=1)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class HubVersion(HubBase):
    __tablename__ = "event_versions"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    supersedes: Mapped[str | None] = mapped_column(String(64), nullable=True)
    number: Mapped[int] = mapped_column(Integer, default=1)
    via: Mapped[str] = mapped_column(String(10), default="file")  # file / push
    received_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    payload: Mapped[str] = mapped_column(Text)  # the signed payload, canonical JSON
    signature: Mapped[str] = mapped_column(Text, default="")  # the file as received (canonical JSON)
    diff: Mapped[str] = mapped_column(Text, default="")  # JSON: tables and places moved, "" for the first


class HubPlayer(HubBase):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    licence: Mapped[str | None] = mapped_column(String(40), unique=True, nullable=True)
    name: Mapped[str] = mapped_column(String(120))
    city: Mapped[str] = mapped_column(String(120), default="")
    merged_into_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True, index=True)


class HubIdentity(HubBase):
    """A club's member as its files name him (club, member number), and the player he is."""

    __tablename__ = "identities"
    __table_args__ = (UniqueConstraint("club_id", "number", name="uq_identities_club_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    number: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(120))
    licence: Mapped[str] = mapped_column(String(40), default="")
    city: Mapped[str] = mapped_column(String(120), default="")
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)


class HubQueueItem(HubBase):
    """An identity the hub could not match for sure: no licence, or a licence that names someone else."""

    __tablename__ = "queue"

    id: Mapped[int] = mapped_column(primary_key=True)
    identity_id: Mapped[int] = mapped_column(ForeignKey("identities.id"), index=True)
    reason: Mapped[str] = mapped_column(String(30))  # no-licence, licence-name, licence-changed
    detail: Mapped[str] = mapped_column(Text, default="")
    candidate_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    opened_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    resolved: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    resolution: Mapped[str] = mapped_column(Text, default="")


class HubPlacing(HubBase):
    """One person's place in the current version of an event (a pair's two players: two rows)."""

    __tablename__ = "placings"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    entrant: Mapped[str] = mapped_column(String(20))
    identity_id: Mapped[int] = mapped_column(ForeignKey("identities.id"), index=True)
    place_from: Mapped[int] = mapped_column(Integer)
    place_to: Mapped[int] = mapped_column(Integer)
    season_points: Mapped[int] = mapped_column(Integer, default=0)  # hundredths (T12d)
    disqualified: Mapped[bool] = mapped_column(Boolean, default=False)


class HubMatch(HubBase):
    """A played singles tavla match of the current version of an event, for the ratings (T12c)."""

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    round_no: Mapped[int] = mapped_column(Integer)
    table_no: Mapped[int] = mapped_column(Integer)
    identity_a: Mapped[int] = mapped_column(ForeignKey("identities.id"))
    identity_b: Mapped[int] = mapped_column(ForeignKey("identities.id"))
    a_won: Mapped[bool] = mapped_column(Boolean)
    match_length: Mapped[int] = mapped_column(Integer)
    played_on: Mapped[date | None] = mapped_column(Date, nullable=True)
