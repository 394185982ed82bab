"""Migration 0009_sheets (issue 18): the scorer and counter of each table, a referee who scored, the
captains, and the hand a substitution plays from; the migration matches the models, and a database of the
previous schema upgrades with its tables kept (rule E6, E7.2, E20)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from clubdesk.storage import Database, current_revision
from clubdesk.storage.migrate import upgrade
from clubdesk.storage.revisions import head_revision

MINE = {
    "matches": {"scorer_member", "counter_member", "scored_by_referee", "captain_a", "captain_b"},
    "substitutions": {"from_hand"},
}


def _columns(path: Path, table: str) -> set[str]:
    con = sqlite3.connect(path)
    try:
        return {row[1] for row in con.execute(f"PRAGMA table_info({table})")}
    finally:
        con.close()


def test_migration_matches_the_models(tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from clubdesk.models import Base

    db = Database(tmp_path / "club.sqlite3", backups_dir=None)
    try:
        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert [d for d in diff if any(c in repr(d) for cols in MINE.values() for c in cols)] == []
    finally:
        db.close()


def test_a_database_of_the_previous_schema_upgrades(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    upgrade(path, "0005_discipline")
    assert current_revision(path) == "0005_discipline"
    assert not MINE["matches"] & _columns(path, "matches")
    db = Database(path, backups_dir=tmp_path / "backups")
    db.close()
    assert current_revision(path) == head_revision()
    for table, cols in MINE.items():
        assert cols <= _columns(path, table)
    assert db.upgrade_backup is not None and db.upgrade_backup.exists()  # the old file was kept first
