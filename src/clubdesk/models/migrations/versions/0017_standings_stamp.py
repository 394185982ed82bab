"""A stamp per event that moves on every change its standings read.

Revision ID: 0017_standings_stamp
Revises: 0016_audit_diff

``standings_stamps`` holds one stamp per event. On a club file (SQLite) triggers set it to a new random
number (so that a restored backup or another file never shows an old stamp again) on every
insert, update or delete of the event's row, its night settings, rounds, entrants and tables, written by
any program: the desk, the phones' server, another desk on the same file, or an edit from outside.
Two changes are left out on purpose, as they cannot change the standings: a table's hand in play (an
update of a table that is neither final before nor after, whose sides, round and table number stay; the
standings read final tables only, and the sides of the others), and a published round set in play by its
first hand (the standings read a round's status only as proposed or not). The standings kept in memory
are shown again while the stamp has not moved (``services.night.ranking.standings.event_standings``).

The club server (PostgreSQL) gets the table but no triggers: there the standings are always built.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_standings_stamp"
down_revision = "0016_audit_diff"
branch_labels = None
depends_on = None

FINAL = "('confirmed', 'bye')"  # services.night.data.reads.FINAL_STATUSES: what the standings read of a table

# (table, the column holding its event id, the WHEN of its update trigger or None for every update)
_WATCHED: tuple[tuple[str, str, str | None], ...] = (
    ("events", "id", None),
    ("event_night", "event_id", None),
    (  # a round's status read as proposed or not (a published round set in play by its first hand)
        "rounds",
        "event_id",
        "(OLD.status = 'proposed') IS NOT (NEW.status = 'proposed') OR OLD.number IS NOT NEW.number"
        " OR OLD.event_id IS NOT NEW.event_id OR OLD.kind IS NOT NEW.kind OR OLD.id IS NOT NEW.id",
    ),
    ("entrants", "event_id", None),
    (
        "matches",
        "event_id",
        f"OLD.status IN {FINAL} OR NEW.status IN {FINAL}"
        " OR OLD.side_a IS NOT NEW.side_a OR OLD.side_b IS NOT NEW.side_b"
        " OR OLD.event_id IS NOT NEW.event_id OR OLD.round_id IS NOT NEW.round_id"
        " OR OLD.round_no IS NOT NEW.round_no OR OLD.table_no IS NOT NEW.table_no",
    ),
)


def _bump(ref: str) -> str:
    return (
        f"INSERT OR IGNORE INTO standings_stamps (event_id, n) VALUES ({ref}, 0); "
        f"UPDATE standings_stamps SET n = random() WHERE event_id = {ref};"
    )


def trigger_sql() -> list[str]:
    """The CREATE TRIGGER statements (SQLite)."""
    out = []
    for table, col, when in _WATCHED:
        out.append(
            f"CREATE TRIGGER standings_{table}_ins AFTER INSERT ON {table} BEGIN {_bump('NEW.' + col)} END"
        )
        out.append(
            f"CREATE TRIGGER standings_{table}_del AFTER DELETE ON {table} BEGIN {_bump('OLD.' + col)} END"
        )
        cond = f" WHEN {when}" if when else ""
        both = _bump("OLD." + col) + " " + _bump("NEW." + col)
        out.append(f"CREATE TRIGGER standings_{table}_upd AFTER UPDATE ON {table}{cond} BEGIN {both} END")
    return out


def upgrade() -> None:
    op.create_table(
        "standings_stamps",
        sa.Column("event_id", sa.Integer(), primary_key=True),
        sa.Column("n", sa.BigInteger(), nullable=False, server_default="0"),  # random(): 64 bits
    )
    if op.get_bind().dialect.name == "sqlite":
        for sql in trigger_sql():
            op.execute(sql)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for table, _col, _when in _WATCHED:
            for kind in ("ins", "del", "upd"):
                op.execute(f"DROP TRIGGER IF EXISTS standings_{table}_{kind}")
    op.drop_table("standings_stamps")
