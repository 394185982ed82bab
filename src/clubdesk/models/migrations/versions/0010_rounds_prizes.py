"""Rounds' start time (G15), notices of lateness (G15), prize payments (T13e).

Revision ID: 0010_rounds_prizes
Revises: 0009_sheets

Also keeps past domino-es results as they were (E20): the preset's ``abandon_ends_match`` default becomes
false (an abandonment loses the game, seed 002), so every existing domino-es event without its own setting
gets the old value ``true`` written as an override.
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0010_rounds_prizes"
down_revision = "0009_sheets"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rounds") as b:
        b.add_column(sa.Column("start_at", sa.DateTime(), nullable=True))
    with op.batch_alter_table("matches") as b:
        b.add_column(sa.Column("late_notice_by", sa.String(length=80), nullable=False, server_default=""))
        b.add_column(sa.Column("late_notice_side", sa.Integer(), nullable=True))
        b.add_column(sa.Column("late_notice_at", sa.DateTime(), nullable=True))
    with op.batch_alter_table("prize_awards") as b:
        b.add_column(sa.Column("paid_by", sa.String(length=80), nullable=False, server_default=""))
        b.add_column(sa.Column("paid_to", sa.String(length=120), nullable=False, server_default=""))
        b.add_column(sa.Column("paid_method", sa.String(length=20), nullable=False, server_default=""))
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, ruleset_overrides FROM events WHERE ruleset = 'domino-es'")).all()
    for ev_id, raw in rows:
        overrides = json.loads(raw or "{}")
        if "abandon_ends_match" not in overrides:
            overrides["abandon_ends_match"] = True
            conn.execute(
                sa.text("UPDATE events SET ruleset_overrides = :o WHERE id = :i"),
                {"o": json.dumps(overrides), "i": ev_id},
            )


def downgrade() -> None:
    with op.batch_alter_table("prize_awards") as b:
        b.drop_column("paid_method")
        b.drop_column("paid_to")
        b.drop_column("paid_by")
    with op.batch_alter_table("matches") as b:
        b.drop_column("late_notice_at")
        b.drop_column("late_notice_side")
        b.drop_column("late_notice_by")
    with op.batch_alter_table("rounds") as b:
        b.drop_column("start_at")
