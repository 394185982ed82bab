"""The register's search and order in SQL at a club's real size (100,000 members).

Revision ID: 0015_member_search
Revises: 0013_table_entry

``members.sort_key`` / ``sort_key_es`` / ``sort_key_tr``: the name's collation key (the DUCET for English and
Indonesian, the Spanish and Turkish alphabets; ``clubdesk.collation.sort_bytes``), each indexed with the
member number, so a page of the register is read in the Members screen's order with ``LIMIT`` and a keyset.
On SQLite, ``member_search`` is an FTS5 trigram index over ``members.search_text`` (kept by triggers), which
finds the few members holding a typed word of three letters or more without reading the register.
Existing rows get their keys here.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_member_search"
down_revision = "0013_table_entry"
branch_labels = None
depends_on = None

KEYS = ("sort_key", "sort_key_es", "sort_key_tr")

# SQLite only (a PostgreSQL club server searches with LIKE on the folded column)
FTS = (
    "CREATE VIRTUAL TABLE member_search USING fts5(search_text, content='members', content_rowid='id', "
    "tokenize='trigram')",
    "CREATE TRIGGER member_search_ai AFTER INSERT ON members BEGIN "
    "INSERT INTO member_search(rowid, search_text) VALUES (new.id, new.search_text); END",
    "CREATE TRIGGER member_search_ad AFTER DELETE ON members BEGIN "
    "INSERT INTO member_search(member_search, rowid, search_text) "
    "VALUES ('delete', old.id, old.search_text); END",
    "CREATE TRIGGER member_search_au AFTER UPDATE OF search_text ON members BEGIN "
    "INSERT INTO member_search(member_search, rowid, search_text) "
    "VALUES ('delete', old.id, old.search_text); "
    "INSERT INTO member_search(rowid, search_text) VALUES (new.id, new.search_text); END",
    "INSERT INTO member_search(member_search) VALUES ('rebuild')",
)


def upgrade() -> None:
    with op.batch_alter_table("members") as b:
        for key in KEYS:
            b.add_column(sa.Column(key, sa.LargeBinary(), nullable=False, server_default=""))
    from clubdesk.models.member import member_sort_keys

    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, name FROM members")).all()
    for mid, name in rows:
        conn.execute(
            sa.text("UPDATE members SET sort_key = :k, sort_key_es = :es, sort_key_tr = :tr WHERE id = :i"),
            {**dict(zip(("k", "es", "tr"), member_sort_keys(name).values(), strict=True)), "i": mid},
        )
    for key in KEYS:
        op.create_index(f"ix_members_{key}", "members", [key, "number"])
    if conn.dialect.name == "sqlite":
        for statement in FTS:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in ("member_search_au", "member_search_ad", "member_search_ai"):
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
        op.execute("DROP TABLE IF EXISTS member_search")
    for key in KEYS:
        op.drop_index(f"ix_members_{key}", table_name="members")
    with op.batch_alter_table("members") as b:
        for key in reversed(KEYS):
            b.drop_column(key)
