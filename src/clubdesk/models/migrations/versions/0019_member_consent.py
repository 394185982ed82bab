"""A member's consent for public outputs: his full name, or his initials and club only.

Revision ID: 0019_member_consent
Revises: 0018_audit_compact

``members.public_name`` is ``"full"`` (the name as the register holds it: what every public output showed
before, so existing members keep it) or ``"initials"`` (share images, the static site, the hall pages and
the projector show his initials and his club; the printed sheets for the table, the organiser's and the
referee's screens keep the full name). The rule is ``clubdesk.competition.privacy.public_name``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_member_consent"
down_revision = "0018_audit_compact"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN (no copy of the table): every existing member keeps today's behaviour, "full"
    op.add_column("members", sa.Column("public_name", sa.String(10), nullable=False, server_default="full"))


def downgrade() -> None:
    with op.batch_alter_table("members") as batch:
        batch.drop_column("public_name")
