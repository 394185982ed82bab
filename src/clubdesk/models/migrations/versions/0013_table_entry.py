"""Results entered at the table on the players' phones.

Revision ID: 0013_table_entry
Revises: 0012_server

``table_tokens``: each published table's random token (>= 128 bits); ``table_posts``: the page-made id
of every post (a retry stores once); ``table_state``: awaiting the other side / confirmed at the table;
``referee_calls``: a table's call for the referee.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_table_entry"
down_revision = "0012_server"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_table_tokens_event_id_events"),
        sa.PrimaryKeyConstraint("id", name="pk_table_tokens"),
        sa.UniqueConstraint("event_id", "round_no", "table_no", name="uq_table_tokens_table"),
        sa.UniqueConstraint("token", name="uq_table_tokens_token"),
    )
    op.create_index("ix_table_tokens_event_id", "table_tokens", ["event_id"])
    op.create_table(
        "table_posts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("client_id", sa.String(length=64), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("outcome", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_table_posts"),
        sa.UniqueConstraint("client_id", name="uq_table_posts_client_id"),
    )
    op.create_index("ix_table_posts_token", "table_posts", ["token"])
    op.create_table(
        "table_state",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("finished_side", sa.Integer(), nullable=True),
        sa.Column("finished_by", sa.String(length=80), nullable=False),
        sa.Column("confirmed_by", sa.String(length=80), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_table_state_match_id_matches"),
        sa.PrimaryKeyConstraint("match_id", name="pk_table_state"),
    )
    op.create_table(
        "referee_calls",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("handled", sa.Boolean(), nullable=False),
        sa.Column("handled_by", sa.String(length=80), nullable=False),
        sa.Column("handled_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_referee_calls_event_id_events"),
        sa.PrimaryKeyConstraint("id", name="pk_referee_calls"),
    )
    op.create_index("ix_referee_calls_event_id", "referee_calls", ["event_id"])


def downgrade() -> None:
    op.drop_index("ix_referee_calls_event_id", table_name="referee_calls")
    op.drop_table("referee_calls")
    op.drop_table("table_state")
    op.drop_index("ix_table_posts_token", table_name="table_posts")
    op.drop_table("table_posts")
    op.drop_index("ix_table_tokens_event_id", table_name="table_tokens")
    op.drop_table("table_tokens")
