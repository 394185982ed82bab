"""Data safety: the audit log's hash chain, staff accounts with PINs.

Revision ID: 0008_safety
Revises: 0006_rule_readings

Existing audit rows are chained in id order, so a database upgraded from an older ClubDesk verifies from
its first row on; the chain only proves that nothing was changed after this upgrade.
"""

from __future__ import annotations

import hashlib
import json

import sqlalchemy as sa
from alembic import op

revision = "0008_safety"
down_revision = "0006_rule_readings"
branch_labels = None
depends_on = None

# Frozen copy of clubdesk.services.kernel.audit_chain's canonical form at this revision.
_COLUMNS = (
    "at",
    "actor_name",
    "actor_role",
    "action",
    "entity",
    "entity_id",
    "event_id",
    "round_no",
    "table_no",
    "before",
    "after",
    "reason",
)


def upgrade() -> None:
    with op.batch_alter_table("audit_log") as batch:
        batch.add_column(sa.Column("prev_hash", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("row_hash", sa.String(length=64), nullable=True))
    bind = op.get_bind()
    cols = ", ".join(_COLUMNS)
    rows = bind.execute(sa.text(f"SELECT id, {cols} FROM audit_log ORDER BY id")).mappings().all()
    prev = "0" * 64
    updates = []
    for row in rows:
        content = [prev] + [row[c] for c in _COLUMNS]
        digest = hashlib.sha256(
            json.dumps(content, ensure_ascii=False, separators=(",", ":"), default=str).encode("utf-8")
        ).hexdigest()
        updates.append({"i": row["id"], "p": prev, "h": digest})
        prev = digest
    if updates:
        bind.execute(sa.text("UPDATE audit_log SET prev_hash = :p, row_hash = :h WHERE id = :i"), updates)
    op.create_table(
        "staff",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("pin_hash", sa.String(length=200), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("failed", sa.Integer(), nullable=False),
        sa.Column("locked_until", sa.DateTime(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_staff")),
        sa.UniqueConstraint("name", name=op.f("uq_staff_name")),
    )


def downgrade() -> None:
    op.drop_table("staff")
    with op.batch_alter_table("audit_log") as batch:
        batch.drop_column("row_hash")
        batch.drop_column("prev_hash")
