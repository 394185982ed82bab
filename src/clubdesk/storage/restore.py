"""The restore of a club file from a backup, under the writers' lock.

Every writer of a club file takes SQLite's write lock (``BEGIN IMMEDIATE``; in this process, also the
database's :meth:`~clubdesk.storage.database.Database.write_turn`). A restore takes the same lock once and
holds it while it copies the file as it is (the before-restore backup) and copies the backup in, so a
write acknowledged by anyone is either in that copy or made after the restore: nothing acknowledged is
lost. The copy-in is one transaction: another desk sees the old club or the restored one, never a mix,
and a failure leaves the file as it was.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

from clubdesk.i18n import _
from clubdesk.storage.backup import (
    BackupInfo,
    backup_target,
    checked_copy,
    copy_file,
    rotate_backups,
)
from clubdesk.storage.checks import check_file
from clubdesk.storage.database import Database
from clubdesk.storage.errors import DatabaseError, busy_error, read_only_error
from clubdesk.storage.migrate import upgrade_in_place
from clubdesk.storage.revisions import head_revision
from clubdesk.storage.sqlite import busy_seconds, current_revision, is_busy, read_only_uri

SOURCE = "restored"  # the schema name the backup is attached under


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _objects(con: sqlite3.Connection, schema: str) -> list[tuple[str, str, str | None]]:
    """``(type, name, sql)`` of a schema's own objects (SQLite's ``sqlite_*`` left out)."""
    rows = con.execute(
        f"SELECT type, name, sql FROM {schema}.sqlite_master "  # noqa: S608 - a fixed schema name
        "WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    ).fetchall()
    return [(str(t), str(n), s) for t, n, s in rows]


def _virtual(sql: str | None) -> bool:
    return (sql or "").upper().startswith("CREATE VIRTUAL TABLE")


def _empty_main(con: sqlite3.Connection) -> None:
    """Drop everything in the live file: triggers and views, then virtual tables (with their own
    tables), then the tables (with their indexes)."""
    objects = _objects(con, "main")
    for kind in ("trigger", "view"):
        for t, name, _sql in objects:
            if t == kind:
                con.execute(f"DROP {kind.upper()} IF EXISTS main.{_quoted(name)}")
    for t, name, sql in objects:
        if t == "table" and _virtual(sql):
            con.execute(f"DROP TABLE IF EXISTS main.{_quoted(name)}")
    for t, name, _sql in _objects(con, "main"):
        if t == "table":
            con.execute(f"DROP TABLE IF EXISTS main.{_quoted(name)}")


def _copy_in(con: sqlite3.Connection) -> None:
    """Replace the live file's schema and rows with the attached backup's, inside the open transaction:
    tables (virtual ones first, which make their own tables), rows, then indexes, triggers and views
    (after the rows, so no trigger fires on copied rows)."""
    _empty_main(con)
    objects = _objects(con, SOURCE)
    for t, _name, sql in objects:
        if t == "table" and _virtual(sql) and sql:
            con.execute(sql)
    present = {name for t, name, _sql in _objects(con, "main") if t == "table"}
    tables = [(name, sql) for t, name, sql in objects if t == "table" and not _virtual(sql)]
    for name, sql in tables:
        if name not in present and sql:
            con.execute(sql)
    for name, _sql in tables:
        con.execute(f"DELETE FROM main.{_quoted(name)}")  # a virtual table's own tables start filled
        con.execute(f"INSERT INTO main.{_quoted(name)} SELECT * FROM {SOURCE}.{_quoted(name)}")
    has_sequence = con.execute(
        f"SELECT 1 FROM {SOURCE}.sqlite_master WHERE name = 'sqlite_sequence'"
    ).fetchone()
    if has_sequence:
        con.execute("DELETE FROM main.sqlite_sequence")
        con.execute(f"INSERT INTO main.sqlite_sequence SELECT * FROM {SOURCE}.sqlite_sequence")
    for kind in ("index", "trigger", "view"):
        for t, _name, sql in objects:
            if t == kind and sql:
                con.execute(sql)


def _take_lock(con: sqlite3.Connection) -> None:
    try:
        con.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if is_busy(exc):
            raise busy_error() from exc
        raise


def restore_database(db: Database, file: Path) -> BackupInfo:
    """Replace the open club file's content with ``file``; return the backup of what it replaced.

    ``file`` must pass the full check of a ClubDesk file (else refused, nothing changed). Under the
    writers' lock: the current file is copied into the backups folder (kept whatever its state), then
    the backup copied in, in one transaction. An older schema is then upgraded as on opening. A failure
    after the copy says where the copy is.
    """
    if db.read_only:  # nothing can be copied into a club file on a read-only medium
        raise read_only_error(db.path)
    file = Path(file).expanduser()
    check_file(file, full=True)
    if file.resolve() == db.path:
        raise DatabaseError("restore-self", _("That is the open database itself; choose a backup file."))
    made = datetime.now()
    target = backup_target(db.backups_dir, db.path.stem, "before-restore", made)
    with db.write_turn():
        db.engine.dispose()
        con = sqlite3.connect(db.path, timeout=busy_seconds(), isolation_level=None, uri=True)
        try:
            con.execute("PRAGMA foreign_keys=OFF")  # tables are dropped and filled in any order
            con.execute(f"ATTACH DATABASE ? AS {SOURCE}", (read_only_uri(file),))
            _take_lock(con)
            try:
                # read by a second connection (SQLite refuses to copy through one that holds the write
                # lock); no one can commit while the lock is held, so the copy holds every write
                # acknowledged so far
                copy_file(db.path, target)
            except BaseException:
                con.execute("ROLLBACK")
                raise
            try:
                _copy_in(con)
                con.execute("COMMIT")
            except sqlite3.Error as exc:
                con.execute("ROLLBACK")
                raise DatabaseError(
                    "restore-failed",
                    _(
                        "The restore of {file} failed ({detail}); nothing was changed. The database "
                        "as it was is also kept in {kept}."
                    ).format(file=file, detail=exc, kept=target),
                ) from exc
        finally:
            con.close()
    kept = checked_copy(target, made, keep_failed=True)
    rotate_backups(db.backups_dir, db.path.stem, now=made, spare=[file])
    if current_revision(db.path) != head_revision():
        upgrade_in_place(db.path, db.backups_dir)
    return kept
