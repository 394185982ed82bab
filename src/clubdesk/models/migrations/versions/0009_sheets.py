"""Score sheets and match act: who scores and counts at each table (rule E6), a referee who
scores with both pairs' approval, the captains of the encounter, and the hand a substitution takes
effect from (rules E7.2, E20).

Revision ID: 0009_sheets
Revises: 0008_safety
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_sheets"
down_revision = "0008_safety"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        # rule E6: the home pair's scorer (anotador) and the rival pair's counter, as member numbers
        batch.add_column(sa.Column("scorer_member", sa.String(20), nullable=False, server_default=""))
        batch.add_column(sa.Column("counter_member", sa.String(20), nullable=False, server_default=""))
        # rule E6: the referee scored and counted himself; scorer/counter_member then approved for each pair
        batch.add_column(sa.Column("scored_by_referee", sa.String(80), nullable=False, server_default=""))
        # seed 002 art. 15, 20: the captains of both sides at this encounter, member numbers, named in the act
        batch.add_column(sa.Column("captain_a", sa.String(20), nullable=False, server_default=""))
        batch.add_column(sa.Column("captain_b", sa.String(20), nullable=False, server_default=""))
    with op.batch_alter_table("substitutions") as batch:
        # rules E7.2, E20: the substitute plays from this hand of the game on (1 = from the start)
        batch.add_column(sa.Column("from_hand", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("substitutions") as batch:
        batch.drop_column("from_hand")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("captain_b")
        batch.drop_column("captain_a")
        batch.drop_column("scored_by_referee")
        batch.drop_column("counter_member")
        batch.drop_column("scorer_member")
