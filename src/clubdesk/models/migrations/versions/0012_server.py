"""Several desks on one club server: a version on each match, and who changed it when.

Revision ID: 0012_server
Revises: 0011_speed

``matches.version`` is SQLAlchemy's ``version_id_col``: an UPDATE carries ``WHERE version = <read>``, so a
desk that changes a table another desk changed since it read it is refused instead of overwriting it;
``changed_by`` / ``changed_at`` name that other desk's person and time in the refusal.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_server"
down_revision = "0011_speed"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as b:
        b.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="1"))
        b.add_column(sa.Column("changed_by", sa.String(length=80), nullable=False, server_default=""))
        b.add_column(sa.Column("changed_at", sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as b:
        b.drop_column("changed_at")
        b.drop_column("changed_by")
        b.drop_column("version")
