"""Events, entrants and their members, payments, the outbox.

Revision ID: 0003_events
Revises: 0002_members
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_events"
down_revision = "0002_members"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(160), nullable=False),
        sa.Column("ruleset", sa.String(60), nullable=False),
        sa.Column("ruleset_overrides", sa.Text, nullable=False, server_default="{}"),
        sa.Column("format", sa.String(30), nullable=False),
        sa.Column("entry_type", sa.String(10), nullable=False, server_default="single"),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("match_lengths", sa.Text, nullable=False, server_default="[]"),
        sa.Column("target", sa.Integer, nullable=True),
        sa.Column("starts_on", sa.Date, nullable=True),
        sa.Column("ends_on", sa.Date, nullable=True),
        sa.Column("venue", sa.String(200), nullable=False, server_default=""),
        sa.Column("season", sa.String(40), nullable=False, server_default=""),
        sa.Column("coefficient_class", sa.String(40), nullable=False, server_default=""),
        sa.Column("capacity", sa.Integer, nullable=True),
        sa.Column("currency", sa.String(3), nullable=False, server_default="EUR"),
        sa.Column("fee", sa.Integer, nullable=False, server_default="0"),
        sa.Column("early_fee", sa.Integer, nullable=True),
        sa.Column("early_until", sa.Date, nullable=True),
        sa.Column("fee_per", sa.String(10), nullable=False, server_default="entrant"),
        sa.Column("parent_event_id", sa.Integer, nullable=True),
        sa.Column("side_fee_rule", sa.String(10), nullable=False, server_default="full"),
        sa.Column("side_discount_percent", sa.Integer, nullable=False, server_default="0"),
        sa.Column("refund_percent_before_close", sa.Integer, nullable=False, server_default="100"),
        sa.Column("refund_percent_after_close", sa.Integer, nullable=False, server_default="0"),
        sa.Column("registration_closes_at", sa.DateTime, nullable=True),
        sa.Column("start_at", sa.DateTime, nullable=True),
        sa.Column("arrival_deadline_minutes", sa.Integer, nullable=False, server_default="10"),
        sa.Column("status", sa.String(12), nullable=False, server_default="open"),
        sa.Column("drawn_at", sa.DateTime, nullable=True),
        sa.Column("current_round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("notes", sa.Text, nullable=False, server_default=""),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
        sa.ForeignKeyConstraint(["parent_event_id"], ["events.id"], name="fk_events_parent_event_id_events"),
    )
    op.create_index("ix_events_parent_event_id", "events", ["parent_event_id"])
    op.create_index("ix_events_status", "events", ["status"])

    op.create_table(
        "entrants",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("event_id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("status", sa.String(12), nullable=False, server_default="registered"),
        sa.Column("waitlist_position", sa.Integer, nullable=True),
        sa.Column("code", sa.String(12), nullable=False),
        sa.Column("fee", sa.Integer, nullable=False, server_default="0"),
        sa.Column("early_fee", sa.Integer, nullable=True),
        sa.Column("registered_at", sa.DateTime, nullable=False),
        sa.Column("promoted_at", sa.DateTime, nullable=True),
        sa.Column("withdrawn_at", sa.DateTime, nullable=True),
        sa.Column("checked_in_at", sa.DateTime, nullable=True),
        sa.Column("joins_from_round", sa.Integer, nullable=True),
        sa.Column("seed", sa.Integer, nullable=True),
        sa.Column("rating", sa.Float, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_entrants"),
        sa.UniqueConstraint("code", name="uq_entrants_code"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_entrants_event_id_events"),
    )
    op.create_index("ix_entrants_event_id", "entrants", ["event_id"])
    op.create_index("ix_entrants_status", "entrants", ["status"])

    op.create_table(
        "entrant_members",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("entrant_id", sa.Integer, nullable=False),
        sa.Column("member_id", sa.Integer, nullable=False),
        sa.Column("role", sa.String(12), nullable=False, server_default="player"),
        sa.Column("joined_at", sa.DateTime, nullable=False),
        sa.Column("left_at", sa.DateTime, nullable=True),
        sa.Column("replaced_by_id", sa.Integer, nullable=True),
        sa.Column("active", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.PrimaryKeyConstraint("id", name="pk_entrant_members"),
        sa.ForeignKeyConstraint(
            ["entrant_id"], ["entrants.id"], name="fk_entrant_members_entrant_id_entrants"
        ),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name="fk_entrant_members_member_id_members"),
        sa.ForeignKeyConstraint(
            ["replaced_by_id"],
            ["entrant_members.id"],
            name="fk_entrant_members_replaced_by_id_entrant_members",
        ),
    )
    op.create_index("ix_entrant_members_entrant_id", "entrant_members", ["entrant_id"])
    op.create_index("ix_entrant_members_member_id", "entrant_members", ["member_id"])

    op.create_table(
        "payments",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("entrant_id", sa.Integer, nullable=False),
        sa.Column("amount", sa.Integer, nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("method", sa.String(10), nullable=False),
        sa.Column("reference", sa.String(200), nullable=False, server_default=""),
        sa.Column("paid_at", sa.DateTime, nullable=False),
        sa.Column("recorded_at", sa.DateTime, nullable=False),
        sa.Column("recorded_by", sa.String(80), nullable=False),
        sa.Column("refund_of_id", sa.Integer, nullable=True),
        sa.Column("kind", sa.String(20), nullable=False, server_default="fee"),
        sa.Column("note", sa.Text, nullable=False, server_default=""),
        sa.PrimaryKeyConstraint("id", name="pk_payments"),
        sa.ForeignKeyConstraint(["entrant_id"], ["entrants.id"], name="fk_payments_entrant_id_entrants"),
        sa.ForeignKeyConstraint(["refund_of_id"], ["payments.id"], name="fk_payments_refund_of_id_payments"),
    )
    op.create_index("ix_payments_entrant_id", "payments", ["entrant_id"])
    op.create_index("ix_payments_paid_at", "payments", ["paid_at"])
    op.create_index("ix_payments_refund_of_id", "payments", ["refund_of_id"])

    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("event_id", sa.Integer, nullable=True),
        sa.Column("entrant_id", sa.Integer, nullable=True),
        sa.Column("member_id", sa.Integer, nullable=True),
        sa.Column("kind", sa.String(30), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("sent_at", sa.DateTime, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_outbox"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_outbox_event_id_events"),
        sa.ForeignKeyConstraint(["entrant_id"], ["entrants.id"], name="fk_outbox_entrant_id_entrants"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name="fk_outbox_member_id_members"),
    )
    op.create_index("ix_outbox_event_id", "outbox", ["event_id"])
    op.create_index("ix_outbox_entrant_id", "outbox", ["entrant_id"])
    op.create_index("ix_outbox_member_id", "outbox", ["member_id"])


def downgrade() -> None:
    op.drop_table("outbox")
    op.drop_table("payments")
    op.drop_table("entrant_members")
    op.drop_table("entrants")
    op.drop_table("events")
