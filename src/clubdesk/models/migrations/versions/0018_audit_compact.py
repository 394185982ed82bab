"""A compact audit log: at a million hands, no larger than the hands themselves.

Revision ID: 0018_audit_compact
Revises: 0017_standings_stamp

From this revision on a new audit row stores as its ``row_hash`` the first 16 bytes of its SHA-256 (raw bytes;
``services.kernel.audit_chain.LINK_HEX``) and no ``prev_hash`` (it is the previous row's hash: the chain is
recomputed in id order, see ``services.kernel.audit_chain``), its before/after as compact JSON, and an
add-entry row names its hand (``"hand": [entry id, digest]``) instead of copying it. None of that needs a
schema change: the hash column keeps its declared type (SQLite stores the bytes as they are) and rows written
earlier keep their hex text, their prev_hash and their snapshots, so they verify exactly as before and the
chain heads that backups recorded stay valid. A new row's time is stored as integer milliseconds
(``models.audit.AuditTime``), hashed in the same text form as before.

The indexes change: the audit view pages newest first by id (ids grow with time), for the club by the
rowid itself and for one event by ``(event_id, id)``; 0011's ``(at, id)`` and ``(event_id, at, id)`` go.
"""

from __future__ import annotations

from alembic import op

revision = "0018_audit_compact"
down_revision = "0017_standings_stamp"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_audit_log_at_id", table_name="audit_log")
    op.drop_index("ix_audit_log_event_at", table_name="audit_log")
    op.create_index("ix_audit_log_event_id_id", "audit_log", ["event_id", "id"])


def downgrade() -> None:
    # rows written from 0017 keep their byte hashes and compact payloads: the code of 0016 reads hashes
    # as text, so going back is for an empty or a test database only
    op.drop_index("ix_audit_log_event_id_id", table_name="audit_log")
    op.create_index("ix_audit_log_event_at", "audit_log", ["event_id", "at", "id"])
    op.create_index("ix_audit_log_at_id", "audit_log", ["at", "id"])
