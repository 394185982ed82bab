"""Speed at a club's real size: the rating history keyed by match order, and indexes for the
hot lookups (rated matches by confirmation time, the audit view's newest-first pages).

Revision ID: 0011_speed
Revises: 0010_rounds_prizes

``rating_history.played_on`` is the rated match's day (rule T12c orders matches by day, then by match id),
so a new result re-rates only the matches that follow it. Existing rows get the day of their match.
``members.search_text`` holds number, name and city folded, so the register search runs in SQL.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_speed"
down_revision = "0010_rounds_prizes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rating_history") as b:
        b.add_column(sa.Column("played_on", sa.Date(), nullable=True))
    op.execute(
        "UPDATE rating_history SET played_on = (SELECT date(COALESCE(m.confirmed_at, rating_history.at)) "
        "FROM matches m WHERE m.id = rating_history.match_id)"
    )
    op.create_index("ix_rating_history_order", "rating_history", ["played_on", "match_id"])
    op.create_index("ix_matches_status_confirmed", "matches", ["status", "confirmed_at"])
    op.create_index("ix_audit_log_at_id", "audit_log", ["at", "id"])
    op.create_index("ix_audit_log_event_at", "audit_log", ["event_id", "at", "id"])
    with op.batch_alter_table("members") as b:
        b.add_column(sa.Column("search_text", sa.Text(), nullable=False, server_default=""))
    from clubdesk.models.member import member_search_text

    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, number, name, city FROM members")).all()
    for mid, number, name, city in rows:
        conn.execute(
            sa.text("UPDATE members SET search_text = :t WHERE id = :i"),
            {"t": member_search_text(number, name, city or ""), "i": mid},
        )


def downgrade() -> None:
    with op.batch_alter_table("members") as b:
        b.drop_column("search_text")
    op.drop_index("ix_audit_log_event_at", table_name="audit_log")
    op.drop_index("ix_audit_log_at_id", table_name="audit_log")
    op.drop_index("ix_matches_status_confirmed", table_name="matches")
    op.drop_index("ix_rating_history_order", table_name="rating_history")
    with op.batch_alter_table("rating_history") as b:
        b.drop_column("played_on")
