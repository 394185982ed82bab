"""Discipline: club incident kinds, incidents for the match act, penalties and decisions, appeals.

Revision ID: 0005_discipline
Revises: 0004_night
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_discipline"
down_revision = "0004_night"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "discipline_kinds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=60), nullable=False),
        sa.Column("family", sa.String(length=20), nullable=False),
        sa.Column("label", sa.String(length=200), nullable=False),
        sa.Column("decisions", sa.Text(), nullable=False),
        sa.Column("counter", sa.Boolean(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_discipline_kinds")),
        sa.UniqueConstraint("key", name=op.f("uq_discipline_kinds_key")),
    )
    op.create_table(
        "appeals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=True),
        sa.Column("table_no", sa.Integer(), nullable=True),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("entrant_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("filed_at", sa.DateTime(), nullable=False),
        sa.Column("filed_by", sa.String(length=80), nullable=False),
        sa.Column("deadline", sa.DateTime(), nullable=True),
        sa.Column("late_override", sa.Text(), nullable=False),
        sa.Column("fee", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("fee_payment_id", sa.Integer(), nullable=True),
        sa.Column("appellant_notes", sa.Text(), nullable=False),
        sa.Column("respondent_notes", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("reasons", sa.Text(), nullable=False),
        sa.Column("decided_by", sa.String(length=80), nullable=False),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.Column("refund", sa.Integer(), nullable=False),
        sa.Column("refund_payment_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["entrant_id"], ["entrants.id"], name=op.f("fk_appeals_entrant_id_entrants")),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_appeals_event_id_events")),
        sa.ForeignKeyConstraint(
            ["fee_payment_id"], ["payments.id"], name=op.f("fk_appeals_fee_payment_id_payments")
        ),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name=op.f("fk_appeals_match_id_matches")),
        sa.ForeignKeyConstraint(
            ["refund_payment_id"], ["payments.id"], name=op.f("fk_appeals_refund_payment_id_payments")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_appeals")),
    )
    op.create_index(op.f("ix_appeals_entrant_id"), "appeals", ["entrant_id"], unique=False)
    op.create_index(op.f("ix_appeals_event_id"), "appeals", ["event_id"], unique=False)
    op.create_index(op.f("ix_appeals_match_id"), "appeals", ["match_id"], unique=False)
    op.create_table(
        "incidents",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=True),
        sa.Column("table_no", sa.Integer(), nullable=True),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("hand_no", sa.Integer(), nullable=True),
        sa.Column("side", sa.Integer(), nullable=True),
        sa.Column("entrant_id", sa.Integer(), nullable=True),
        sa.Column("member_id", sa.Integer(), nullable=True),
        sa.Column("player_name", sa.String(length=120), nullable=False),
        sa.Column("member_number", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=60), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("occurrence", sa.Integer(), nullable=False),
        sa.Column("occurred_at", sa.DateTime(), nullable=False),
        sa.Column("recorded_by", sa.String(length=80), nullable=False),
        sa.Column("recorded_at", sa.DateTime(), nullable=False),
        sa.Column("decision", sa.String(length=30), nullable=False),
        sa.Column("decided_by", sa.String(length=80), nullable=False),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["entrant_id"], ["entrants.id"], name=op.f("fk_incidents_entrant_id_entrants")
        ),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_incidents_event_id_events")),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name=op.f("fk_incidents_match_id_matches")),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_incidents_member_id_members")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_incidents")),
    )
    op.create_index(op.f("ix_incidents_entrant_id"), "incidents", ["entrant_id"], unique=False)
    op.create_index(op.f("ix_incidents_event_id"), "incidents", ["event_id"], unique=False)
    op.create_index(op.f("ix_incidents_match_id"), "incidents", ["match_id"], unique=False)
    op.create_index(op.f("ix_incidents_member_id"), "incidents", ["member_id"], unique=False)
    op.create_table(
        "penalties",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=True),
        sa.Column("table_no", sa.Integer(), nullable=True),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("incident_id", sa.Integer(), nullable=True),
        sa.Column("entrant_id", sa.Integer(), nullable=True),
        sa.Column("side", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("entry", sa.Text(), nullable=False),
        sa.Column("result_entry_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("override_reason", sa.Text(), nullable=False),
        sa.Column("decided_by", sa.String(length=80), nullable=False),
        sa.Column("decided_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["entrant_id"], ["entrants.id"], name=op.f("fk_penalties_entrant_id_entrants")
        ),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_penalties_event_id_events")),
        sa.ForeignKeyConstraint(
            ["incident_id"], ["incidents.id"], name=op.f("fk_penalties_incident_id_incidents")
        ),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name=op.f("fk_penalties_match_id_matches")),
        sa.ForeignKeyConstraint(
            ["result_entry_id"],
            ["result_entries.id"],
            name=op.f("fk_penalties_result_entry_id_result_entries"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_penalties")),
    )
    op.create_index(op.f("ix_penalties_entrant_id"), "penalties", ["entrant_id"], unique=False)
    op.create_index(op.f("ix_penalties_event_id"), "penalties", ["event_id"], unique=False)
    op.create_index(op.f("ix_penalties_incident_id"), "penalties", ["incident_id"], unique=False)
    op.create_index(op.f("ix_penalties_match_id"), "penalties", ["match_id"], unique=False)
    op.create_index(op.f("ix_penalties_result_entry_id"), "penalties", ["result_entry_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_penalties_result_entry_id"), table_name="penalties")
    op.drop_index(op.f("ix_penalties_match_id"), table_name="penalties")
    op.drop_index(op.f("ix_penalties_incident_id"), table_name="penalties")
    op.drop_index(op.f("ix_penalties_event_id"), table_name="penalties")
    op.drop_index(op.f("ix_penalties_entrant_id"), table_name="penalties")
    op.drop_table("penalties")
    op.drop_index(op.f("ix_incidents_member_id"), table_name="incidents")
    op.drop_index(op.f("ix_incidents_match_id"), table_name="incidents")
    op.drop_index(op.f("ix_incidents_event_id"), table_name="incidents")
    op.drop_index(op.f("ix_incidents_entrant_id"), table_name="incidents")
    op.drop_table("incidents")
    op.drop_index(op.f("ix_appeals_match_id"), table_name="appeals")
    op.drop_index(op.f("ix_appeals_event_id"), table_name="appeals")
    op.drop_index(op.f("ix_appeals_entrant_id"), table_name="appeals")
    op.drop_table("appeals")
    op.drop_table("discipline_kinds")
