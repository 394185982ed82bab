"""The audit log: who changed what, when, before and after (foundation migration 0001); of an update,
only the fields that changed (0016_audit_diff: older rows hold whole snapshots).

Each row carries a SHA-256 hash chained to the previous row's (migration 0008_safety), so an edit or a
deletion made outside ClubDesk breaks the chain at that row (:mod:`clubdesk.services.kernel.audit_chain`).
From 0018_audit_compact a new row stores its link (16 bytes of the hash) as raw bytes and
leaves ``prev_hash``
empty (it is the previous row's hash), and its time as integer milliseconds; older rows keep both hashes
as 64-digit hex text and their time as text."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import DateTime, Dialect, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

from clubdesk.models.base import Base, utcnow

EPOCH = datetime(1970, 1, 1)
_MS = timedelta(milliseconds=1)


def stored_at(at: datetime) -> int:
    """An audit row's time as SQLite stores it from 0018_audit_compact: whole milliseconds since 1970
    (UTC), 6 bytes instead of the 26 characters of SQLAlchemy's text; rows written earlier keep their
    text and are read back the same."""
    return (at - EPOCH) // _MS


def at_of(stored: int) -> datetime:
    return EPOCH + stored * _MS


def to_the_ms(at: datetime) -> datetime:
    """The time a new audit row stores (and hashes): to the millisecond."""
    return at.replace(microsecond=at.microsecond // 1000 * 1000)


class AuditTime(TypeDecorator[datetime]):
    """A DateTime column that SQLite stores as integer milliseconds (new rows) or text (rows before
    0017); PostgreSQL keeps its timestamp. Ids, not times, order the audit log."""

    impl = DateTime
    cache_ok = True

    def bind_processor(self, dialect: Dialect) -> Any:
        if dialect.name != "sqlite":
            return super().bind_processor(dialect)

        def process(value: Any) -> Any:
            return stored_at(value) if isinstance(value, datetime) else value

        return process

    def result_processor(self, dialect: Dialect, coltype: Any) -> Any:
        if dialect.name != "sqlite":
            return super().result_processor(dialect, coltype)
        text = self.impl_instance.dialect_impl(dialect).result_processor(dialect, coltype)

        def process(value: Any) -> Any:
            if isinstance(value, int):
                return at_of(value)
            return text(value) if text is not None and value is not None else value

        return process


class HashBytes(TypeDecorator[str]):
    """A row hash: hex text in Python; in SQLite stored as raw bytes (0018_audit_compact: the 16
    bytes of a new row's link), read back from bytes or from the 64-digit hex text of rows written
    before. The column stays declared VARCHAR(64): SQLite keeps a BLOB as it is in a text column, and the
    rows before 0017 are not rewritten."""

    impl = String(64)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        # PostgreSQL (the server) keeps the hex text its VARCHAR column is declared for
        if dialect.name == "sqlite" and isinstance(value, str) and len(value) in (32, 64):
            return bytes.fromhex(value)
        return value

    def process_result_value(self, value: Any, dialect: Dialect) -> str | None:
        if isinstance(value, (bytes, bytearray, memoryview)):
            return bytes(value).hex()
        return None if value is None else str(value)


class AuditEntry(Base):
    __tablename__ = "audit_log"
    # the audit view pages newest first, for the club (the rowid) or one event (this index);
    # ids grow with time, so id order is time order (0018_audit_compact replaced 0011's (at, id) and
    # (event_id, at, id), a third of the log's size at a million hands)
    __table_args__ = (Index("ix_audit_log_event_id_id", "event_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(AuditTime, default=utcnow)
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
    row_hash: Mapped[str | None] = mapped_column(HashBytes(), nullable=True)
