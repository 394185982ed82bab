"""The database file: migrations at start, refusal of newer schemas, backups, pragmas, audit."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import select, text

from clubdesk.models import AuditEntry
from clubdesk.services.club import settings
from clubdesk.services.kernel.base import Actor, Role, ServiceError
from clubdesk.storage import Database, DatabaseError, current_revision, known_revisions
from clubdesk.storage.migrate import upgrade
from clubdesk.storage.revisions import head_revision


def test_new_file_is_migrated_to_head_and_reopens(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    db = Database(path)
    assert current_revision(path) == head_revision()
    with db.session() as s:
        tables = set(s.scalars(text("SELECT name FROM sqlite_master WHERE type='table'")))
    assert {"clubs", "settings", "audit_log"} <= tables
    settings.put(db, Actor("AB"), "club.name", "Kadıköy Tavla Kulübü")
    db.close()
    again = Database(path)
    assert again.upgrade_backup is None  # nothing to upgrade, so no backup copy
    assert settings.get(again, "club.name") == "Kadıköy Tavla Kulübü"
    again.close()


def test_pragmas_on_every_connection(tmp_path: Path) -> None:  # SQLite only: the file's own settings
    db = Database(tmp_path / "club.sqlite3")
    with db.session() as s:
        assert s.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert s.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert s.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert s.execute(text("PRAGMA busy_timeout")).scalar() >= 1000
    db.close()


def test_database_from_a_newer_clubdesk_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    Database(path).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(DatabaseError) as info:
        Database(path)
    assert info.value.code == "schema-too-new"
    assert "newer ClubDesk" in str(info.value)
    assert path.read_bytes() == before


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_text("this is a shopping list, not a database\n" * 50)
    with pytest.raises(DatabaseError) as info:
        Database(path)
    assert info.value.code == "not-a-database"


def test_upgrading_an_older_database_makes_a_backup_first(tmp_path: Path) -> None:
    revisions = known_revisions()
    assert len(revisions) >= 2, "needs at least two migrations to exercise an upgrade"
    path = tmp_path / "old.sqlite3"
    upgrade(path, revisions[0])
    con = sqlite3.connect(path)
    con.execute("INSERT INTO settings(key, value) VALUES ('club.name', '\"Old Club\"')")
    con.commit()
    con.close()
    db = Database(path, backups_dir=tmp_path / "backups")
    assert db.upgrade_backup is not None and db.upgrade_backup.exists()
    assert current_revision(db.upgrade_backup) == revisions[0]  # the copy is the database as it was
    assert current_revision(path) == head_revision()
    assert settings.get(db, "club.name") == "Old Club"  # data survives the upgrade
    db.close()


def test_a_service_change_writes_an_audit_row_with_before_and_after(db: Database) -> None:
    referee = Actor("MH", Role.REFEREE)
    settings.save_club_settings(db, referee, "Gaple Club Bandung", None, "en")
    settings.save_club_settings(db, referee, "Gaple Club Bandung Raya", None, "en")
    with db.session() as s:
        rows = s.scalars(
            select(AuditEntry).where(AuditEntry.entity_id == "club.name").order_by(AuditEntry.id)
        ).all()
        last = rows[-1]
        assert (last.actor_name, last.actor_role, last.action) == ("MH", "referee", "settings.change")
        assert json.loads(last.before or "null") == "Gaple Club Bandung"
        assert json.loads(last.after or "null") == "Gaple Club Bandung Raya"


def test_refused_settings_change_writes_nothing(db: Database) -> None:
    settings.save_club_settings(db, Actor("AB"), "Club A", None, "en")
    with db.session() as s:
        audit_before = s.scalar(text("SELECT count(*) FROM audit_log"))
    with pytest.raises(ServiceError) as info:
        settings.save_club_settings(db, Actor("AB"), "Club B", "/no/such/logo.png", "en")
    assert info.value.code == "logo-missing"
    assert settings.club_settings(db).club_name == "Club A"
    with db.session() as s:
        assert s.scalar(text("SELECT count(*) FROM audit_log")) == audit_before


def test_nobody_acting_is_refused(db: Database) -> None:
    with pytest.raises(ServiceError) as info:
        settings.save_club_settings(db, Actor("  "), "Club A", None, "en")
    assert info.value.code == "actor-required"


def test_clubdesks_session_hooks_are_its_own_not_sqlalchemys(tmp_path: Path) -> None:
    """Rows held for the transaction and change noting belong to ClubDesk's sessions (write and read); a
    plain SQLAlchemy session in the same process (Alembic's, a tool's) is left alone."""
    from sqlalchemy import create_engine
    from sqlalchemy.orm import Session

    from clubdesk.storage.database import ClubSession

    path = tmp_path / "club.sqlite3"
    db = Database(path)
    settings.put(db, Actor("AB"), "club.name", "Kulüp")
    with db.session() as s:
        assert isinstance(s, ClubSession)
        s.scalars(select(AuditEntry)).all()
        assert s.info.get("clubdesk.held")  # loaded rows held until the transaction ends
    with db.read_session() as s:
        assert isinstance(s, ClubSession)
    plain_engine = create_engine(f"sqlite:///{path}")
    try:
        with Session(plain_engine) as plain, plain.begin():
            plain.scalars(select(AuditEntry)).all()
            plain.add(AuditEntry(actor_name="X", actor_role="test", action="test", entity="t", event_id=1))
            plain.flush()
            assert "clubdesk.held" not in plain.info
            assert "clubdesk.changed" not in plain.info
            plain.rollback()
    finally:
        plain_engine.dispose()
        db.close()
