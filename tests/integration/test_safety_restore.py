"""Data safety II: one full check of a club file (open, backup, restore), a keeping rule that never rotates
manual or before-restore backups away, and a restore under the writers' lock that loses no acknowledged
write of another process."""

from __future__ import annotations

import json
import sqlite3
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from clubdesk.cli.core import main as cli
from clubdesk.services.club import safety, settings
from clubdesk.services.kernel.base import Actor
from clubdesk.storage import Database, DatabaseError, checks
from clubdesk.storage.backup import backup_database, rotate_backups
from clubdesk.storage.revisions import head_revision
from tests.forks import Forks

ME = Actor("AB")
WAIT = 60.0  # the longest any wait on another process may take
RESTORES = 12  # more than the ten automatic backups rotation keeps: no before-restore copy is rotated away


def _club(path: Path) -> None:
    db = Database(path)
    settings.put(db, ME, "club.name", "Club A")
    db.close()


def _no_payments(path: Path) -> None:
    _club(path)
    con = sqlite3.connect(path)
    con.execute("DROP TABLE payments")
    con.commit()
    con.close()


def _three_tables(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE alembic_version(version_num VARCHAR(32) PRIMARY KEY)")
    con.execute("INSERT INTO alembic_version VALUES (?)", (head_revision(),))
    con.execute("CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT)")
    con.execute("CREATE TABLE audit_log(id INTEGER PRIMARY KEY, action TEXT)")
    con.commit()
    con.close()


def _no_index_nor_trigger(path: Path) -> None:
    _club(path)
    con = sqlite3.connect(path)
    index = con.execute(
        "SELECT name FROM sqlite_master WHERE type='index' AND sql IS NOT NULL ORDER BY name"
    ).fetchone()[0]
    con.execute(f"DROP INDEX {index}")
    con.execute("DROP TRIGGER member_search_ai")
    con.commit()
    con.close()


DAMAGED = {
    "no-payments": (_no_payments, ["table payments"]),
    "three-tables": (_three_tables, ["table clubs", "table discipline_kinds", "more"]),
    "no-index-trigger": (_no_index_nor_trigger, ["index ", "trigger member_search_ai"]),
}


def _side_files(path: Path) -> list[str]:
    return [s for s in ("-wal", "-shm") if path.with_name(path.name + s).exists()]


# ----------------------------------------------------------------------------- one full check


@pytest.mark.parametrize("kind", sorted(DAMAGED))
def test_open_refuses_an_incomplete_file_naming_what_is_missing(tmp_path: Path, kind: str) -> None:
    make, words = DAMAGED[kind]
    bad = tmp_path / f"{kind}.sqlite3"
    make(bad)
    before = bad.read_bytes()
    with pytest.raises(DatabaseError) as info:
        Database(bad)
    assert info.value.code == "incomplete"
    assert all(w in str(info.value) for w in words), str(info.value)
    assert bad.read_bytes() == before
    assert _side_files(bad) == []
    assert not bad.with_name(bad.name + ".open").exists()  # never opened


@pytest.mark.parametrize("kind", sorted(DAMAGED))
def test_restore_refuses_an_incomplete_file_and_changes_nothing(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "club.sqlite3"
    _club(path)
    make, words = DAMAGED[kind]
    bad = tmp_path / f"{kind}.sqlite3"
    make(bad)
    before, club_before = bad.read_bytes(), path.read_bytes()
    assert cli(["--db", str(path), "restore", str(bad)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(bad) in err[0] and all(w in err[0] for w in words), err
    assert bad.read_bytes() == before and _side_files(bad) == []
    assert path.read_bytes() == club_before
    assert not (tmp_path / "backups").exists() or not list((tmp_path / "backups").glob("*before-restore*"))


def test_backup_of_a_file_damaged_while_open_is_not_check_ok(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "club.sqlite3"
    db = Database(path)
    try:
        con = sqlite3.connect(path)
        con.execute("DROP TABLE payments")  # behind ClubDesk's back, while it has the file open
        con.commit()
        con.close()
        with pytest.raises(DatabaseError) as info:
            safety.backup(db, ME, folder=tmp_path / "bk")
        assert info.value.code == "backup-failed" and "table payments" in str(info.value)
        assert list((tmp_path / "bk").glob("*.sqlite3")) == []  # nothing kept that would say "ok"
    finally:
        db.close()


def test_a_sound_backup_says_check_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.sqlite3"
    _club(path)
    assert cli(["--db", str(path), "backup", "--to", str(tmp_path / "bk"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["integrity"] == "ok"


# ----------------------------------------------------------------------------- what is kept


def _fake(folder: Path, t: datetime, reason: str) -> Path:
    p = folder / f"club-{t.strftime('%Y%m%d-%H%M%S')}-{reason}.sqlite3"
    p.write_bytes(b"x")
    return p


def test_rotation_rolls_only_the_automatic_backups(tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    now = datetime(2026, 12, 1, 21, 0, 0)
    kept = [_fake(folder, now - timedelta(days=200), "manual")]
    kept += [_fake(folder, now - timedelta(days=d, hours=1), "before-restore") for d in range(40)]
    kept += [_fake(folder, now - timedelta(days=d, hours=2), "manual") for d in range(0, 40, 3)]
    autos = [_fake(folder, now - timedelta(hours=h), "auto") for h in range(0, 24 * 60, 4)]
    autos += [_fake(folder, now - timedelta(hours=h, minutes=1), "open") for h in range(0, 24 * 60, 8)]
    deleted = rotate_backups(folder, "club", now=now)
    assert deleted and set(deleted) <= set(autos)
    assert all(p.exists() for p in kept)


def test_ten_restores_keep_the_manual_backup_being_restored_and_every_before_restore_copy(
    tmp_path: Path,
) -> None:
    path = tmp_path / "club.sqlite3"
    db = Database(path)
    try:
        settings.put(db, ME, "club.name", "Club A")
        manual = safety.backup(db, ME)
        kept = []
        for i in range(12):
            settings.put(db, ME, "club.name", f"changed {i}")
            kept.append(safety.restore(db, ME, manual.file).file)
            assert settings.get(db, "club.name") == "Club A"
        assert manual.file.exists()
        assert all(p.exists() for p in kept) and len(set(kept)) == 12
    finally:
        db.close()


def test_an_old_automatic_backup_being_restored_is_not_rotated_away(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    _club(path)
    folder = tmp_path / "backups"
    now = datetime.now()
    old = backup_database(path, folder, reason="auto", now=now - timedelta(days=90, hours=1)).file
    for h in range(0, 24 * 100, 6):  # newer automatic backups in every day and month since
        if h != 24 * 90:
            _fake(folder, now - timedelta(hours=h), "auto")
    db = Database(path, backups_dir=folder)
    try:
        safety.restore(db, ME, old)
        assert old.exists()
    finally:
        db.close()


# ----------------------------------------------------------------------------- restore under the lock

WRITER = """
    import os, sys
    from pathlib import Path
    from clubdesk.services.club import settings
    from clubdesk.services.kernel.base import Actor
    from clubdesk.storage import Database, DatabaseError
    db = Database(Path({path!r}))
    acked, stop = Path({acked!r}), Path({stop!r})
    i = 0
    while not stop.exists():
        try:
            settings.put(db, Actor("W"), f"w{{i}}", i)
        except DatabaseError:
            continue  # refused (busy), not acknowledged: tried again
        i += 1
        tmp = acked.with_name("acked.tmp")
        tmp.write_text(str(i))
        os.replace(tmp, acked)  # acknowledged: the commit returned
    db.close()
"""


def _acked(path: Path) -> int:
    try:
        return int(path.read_text() or 0)
    except (OSError, ValueError):
        return 0


def _wait_for(done: object, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"waited {WAIT} s for {what}"
        time.sleep(0.001)


def _keys(path: Path) -> set[str]:
    con = sqlite3.connect(path)
    try:
        return {r[0] for r in con.execute("SELECT key FROM settings WHERE key LIKE 'w%'")}
    finally:
        con.close()


def test_restores_while_another_process_writes_lose_no_acknowledged_write(
    tmp_path: Path, forks: Forks
) -> None:
    path = tmp_path / "club.sqlite3"
    _club(path)
    db = Database(path)
    manual = safety.backup(db, ME, folder=tmp_path / "elsewhere")  # out of the rotated folder
    acked, stop = tmp_path / "acked.txt", tmp_path / "stop"
    writer = forks.run(WRITER.format(path=str(path), acked=str(acked), stop=str(stop)))
    held: set[str] = set()
    messages = []
    try:
        for _n in range(RESTORES):
            seen = _acked(acked)
            _wait_for(lambda seen=seen: _acked(acked) > seen or writer.poll() is not None, "a write")
            kept = safety.restore(db, ME, manual.file)
            held |= _keys(kept.file)  # read at once: what the restore replaced
            messages.append(kept.file)
    finally:
        stop.touch()
        _out, err = writer.communicate(WAIT)
        db.close()
    assert writer.returncode == 0, err
    total = _acked(acked)
    assert total >= RESTORES
    held |= _keys(path)
    lost = [f"w{i}" for i in range(total) if f"w{i}" not in held]
    assert lost == [], f"{len(lost)} of {total} acknowledged writes lost: {lost[:5]}"
    assert all(p.exists() and p.parent == path.parent / "backups" for p in messages)


def test_the_restore_message_says_where_the_replaced_file_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "club.sqlite3"
    _club(path)
    assert cli(["--db", str(path), "backup", "--json"]) == 0
    backup = json.loads(capsys.readouterr().out)["file"]
    assert cli(["--db", str(path), "restore", backup]) == 0
    out = capsys.readouterr().out
    kept = next((path.parent / "backups").glob("*-before-restore.sqlite3"))
    assert str(kept) in out


def test_the_shipped_schema_is_the_one_the_migrations_build() -> None:
    """Opening a current file checks it against the shipped schema of the newest revision (no migration run
    before the first screen); it must be exactly what the migrations build. After a new migration:
    ``python -m clubdesk.storage.checks`` writes it again."""
    head = head_revision()
    shipped = checks.shipped_schema(head)
    assert shipped is not None, "schema_head.json is stale: run python -m clubdesk.storage.checks"
    assert shipped == checks._built(head)
