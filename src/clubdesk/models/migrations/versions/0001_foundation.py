"""Foundation: clubs, settings, the audit log.

Revision ID: 0001_foundation
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_foundation"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("city", sa.String(120), nullable=False, server_default=""),
        sa.PrimaryKeyConstraint("id", name="pk_clubs"),
        sa.UniqueConstraint("name", name="uq_clubs_name"),
    )
    op.create_table(
        "settings",
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("value", sa.Text, nullable=False, server_default="null"),
        sa.PrimaryKeyConstraint("key", name="pk_settings"),
    )
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime, nullable=False),
        sa.Column("actor_name", sa.String(80), nullable=False),
        sa.Column("actor_role", sa.String(20), nullable=False),
        sa.Column("action", sa.String(80), nullable=False),
        sa.Column("entity", sa.String(40), nullable=False),
        sa.Column("entity_id", sa.String(80)),
        sa.Column("event_id", sa.Integer),
        sa.Column("round_no", sa.Integer),
        sa.Column("table_no", sa.Integer),
        sa.Column("before", sa.Text),
        sa.Column("after", sa.Text),
        sa.Column("reason", sa.Text),
        sa.PrimaryKeyConstraint("id", name="pk_audit_log"),
    )
    op.create_index("ix_audit_log_at", "audit_log", ["at"])
    op.create_index("ix_audit_log_action", "audit_log", ["action"])
    op.create_index("ix_audit_log_entity", "audit_log", ["entity"])
    op.create_index("ix_audit_log_event_id", "audit_log", ["event_id"])


def downgrade() -> None:
    op.drop_table("audit_log")
    op.drop_table("settings")
    op.drop_table("clubs")
