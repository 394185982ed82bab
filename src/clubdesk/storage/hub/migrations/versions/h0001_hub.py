"""The federation hub: clubs and their keys, events and their signed versions, players across clubs and
the secretary's queue, and each current version's placings and rated matches (schema ``federation``).

Revision ID: h0001_hub
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "h0001_hub"
down_revision = None
branch_labels = None
depends_on = None

S = "federation"


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(120), nullable=False, unique=True),
        sa.Column("public_key", sa.String(64), nullable=False, unique=True),
        sa.Column("club_uid", sa.String(64), nullable=True, unique=True),
        sa.Column("token_hash", sa.String(64), nullable=False, server_default=""),
        sa.Column("added_at", sa.DateTime, nullable=False),
        schema=S,
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("uid", sa.String(100), nullable=False, unique=True),
        sa.Column("club_id", sa.Integer, sa.ForeignKey(f"{S}.clubs.id"), nullable=False, index=True),
        sa.Column("name", sa.String(160), nullable=False),
        sa.Column("season", sa.String(40), nullable=False, index=True),
        sa.Column("tier", sa.String(40), nullable=False, server_default=""),
        sa.Column("starts_on", sa.Date, nullable=True),
        sa.Column("ruleset", sa.String(60), nullable=False),
        sa.Column("format", sa.String(30), nullable=False),
        sa.Column("current_digest", sa.String(64), nullable=False),
        sa.Column("versions", sa.Integer, nullable=False, server_default="1"),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        schema=S,
    )
    op.create_table(
        "event_versions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey(f"{S}.events.id"), nullable=False, index=True),
        sa.Column("digest", sa.String(64), nullable=False, unique=True),
        sa.Column("supersedes", sa.String(64), nullable=True),
        sa.Column("number", sa.Integer, nullable=False, server_default="1"),
        sa.Column("via", sa.String(10), nullable=False, server_default="file"),
        sa.Column("received_at", sa.DateTime, nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("signature", sa.Text, nullable=False, server_default=""),
        sa.Column("diff", sa.Text, nullable=False, server_default=""),
        schema=S,
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("licence", sa.String(40), nullable=True, unique=True),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("city", sa.String(120), nullable=False, server_default=""),
        sa.Column("merged_into_id", sa.Integer, sa.ForeignKey(f"{S}.players.id"), nullable=True, index=True),
        schema=S,
    )
    op.create_table(
        "identities",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("club_id", sa.Integer, sa.ForeignKey(f"{S}.clubs.id"), nullable=False, index=True),
        sa.Column("number", sa.String(40), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("licence", sa.String(40), nullable=False, server_default=""),
        sa.Column("city", sa.String(120), nullable=False, server_default=""),
        sa.Column("player_id", sa.Integer, sa.ForeignKey(f"{S}.players.id"), nullable=False, index=True),
        sa.UniqueConstraint("club_id", "number", name="uq_identities_club_number"),
        schema=S,
    )
    op.create_table(
        "queue",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("identity_id", sa.Integer, sa.ForeignKey(f"{S}.identities.id"), nullable=False, index=True),
        sa.Column("reason", sa.String(30), nullable=False),
        sa.Column("detail", sa.Text, nullable=False, server_default=""),
        sa.Column("candidate_id", sa.Integer, sa.ForeignKey(f"{S}.players.id"), nullable=True),
        sa.Column("opened_at", sa.DateTime, nullable=False),
        sa.Column("resolved", sa.Boolean, nullable=False, server_default=sa.false(), index=True),
        sa.Column("resolution", sa.Text, nullable=False, server_default=""),
        schema=S,
    )
    op.create_table(
        "placings",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey(f"{S}.events.id"), nullable=False, index=True),
        sa.Column("entrant", sa.String(20), nullable=False),
        sa.Column("identity_id", sa.Integer, sa.ForeignKey(f"{S}.identities.id"), nullable=False, index=True),
        sa.Column("place_from", sa.Integer, nullable=False),
        sa.Column("place_to", sa.Integer, nullable=False),
        sa.Column("season_points", sa.Integer, nullable=False, server_default="0"),
        sa.Column("disqualified", sa.Boolean, nullable=False, server_default=sa.false()),
        schema=S,
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey(f"{S}.events.id"), nullable=False, index=True),
        sa.Column("round_no", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("identity_a", sa.Integer, sa.ForeignKey(f"{S}.identities.id"), nullable=False),
        sa.Column("identity_b", sa.Integer, sa.ForeignKey(f"{S}.identities.id"), nullable=False),
        sa.Column("a_won", sa.Boolean, nullable=False),
        sa.Column("match_length", sa.Integer, nullable=False),
        sa.Column("played_on", sa.Date, nullable=True),
        schema=S,
    )


def downgrade() -> None:
    for table in (
        "matches",
        "placings",
        "queue",
        "identities",
        "players",
        "event_versions",
        "events",
        "clubs",
    ):
        op.drop_table(table, schema=S)
