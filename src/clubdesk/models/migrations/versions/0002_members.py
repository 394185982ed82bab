"""Members: the club's register.

Revision ID: 0002_members
Revises: 0001_foundation
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_members"
down_revision = "0001_foundation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "members",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("number", sa.String(40), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("club_id", sa.Integer, nullable=True),
        sa.Column("city", sa.String(120), nullable=False, server_default=""),
        sa.Column("gender", sa.String(1), nullable=True),
        sa.Column("birth_year", sa.Integer, nullable=True),
        sa.Column("rating", sa.Float, nullable=False, server_default="1500"),
        sa.Column("rating_experience", sa.Integer, nullable=False, server_default="0"),
        sa.Column("phone", sa.String(40), nullable=False, server_default=""),
        sa.Column("email", sa.String(200), nullable=False, server_default=""),
        sa.Column("notes", sa.Text, nullable=False, server_default=""),
        sa.Column("active", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("merged_into_id", sa.Integer, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_members"),
        sa.UniqueConstraint("number", name="uq_members_number"),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name="fk_members_club_id_clubs"),
        sa.ForeignKeyConstraint(["merged_into_id"], ["members.id"], name="fk_members_merged_into_id_members"),
    )
    op.create_index("ix_members_name", "members", ["name"])
    op.create_index("ix_members_club_id", "members", ["club_id"])
    op.create_index("ix_members_merged_into_id", "members", ["merged_into_id"])


def downgrade() -> None:
    op.drop_index("ix_members_merged_into_id", table_name="members")
    op.drop_index("ix_members_club_id", table_name="members")
    op.drop_index("ix_members_name", table_name="members")
    op.drop_table("members")
