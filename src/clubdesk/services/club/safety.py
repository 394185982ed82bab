"""Backups and restores of the club's database, and the audit chain check.

Backups go through SQLite's online backup API (:func:`clubdesk.storage.backup_database`): consistent while
other desks write, the copy passing the full check of a club file (every table, column, index and trigger
of its revision, and ``integrity_check``), owner-only; only automatic backups rotate. A restore copies the
file and copies the backup in under the writers' lock (:func:`clubdesk.storage.restore_database`). Each
backup is audited with the audit chain's head at that moment, and every backup and restore appends an
anchor of the log (its last row, link and length) to a file outside the club file, beside the audit key
(``kernel.record_anchor``), so rows later cut off the log, or all of them, are seen by ``audit --verify``.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path

from sqlalchemy import func, select

from clubdesk.i18n import _
from clubdesk.keys import KeyStoreError
from clubdesk.models.audit import AuditEntry
from clubdesk.services.kernel import (
    Actor,
    audit,
    audit_head,
    audit_state,
    record_anchor,
    require,
    require_audit_key,
    signed_with,
)
from clubdesk.storage import (
    BackupInfo,
    Database,
    DatabaseError,
    backup_database,
    backup_server,
    list_backups,
    restore_database,
)

AUTO_INTERVAL_MINUTES = 30


def backup(
    db: Database,
    actor: Actor,
    *,
    folder: Path | None = None,
    reason: str = "manual",
    now: datetime | None = None,
) -> BackupInfo:
    """A verified backup of ``db`` (into ``folder`` or the database's backups folder)."""
    require(actor, "database.backup", db)  # permission table
    target = Path(folder) if folder else db.backups_dir
    info = _made(db, target, reason=reason, now=now)
    if db.read_only:  # a copy out of a club file on a read-only medium: its log cannot say so
        return info
    with db.session() as s:
        audit(
            s,
            actor,
            "database.backup",
            "database",
            info.file.name,
            after={
                "file": str(info.file),
                "bytes": info.bytes,
                "audit_head": info.audit_head,
                "audit_rows": info.audit_rows,
                "audit_key": info.audit_key,
                "reason": reason,
            },
        )
    return _anchored(db, info, "backup")


def backups(db: Database) -> list[tuple[datetime, Path]]:
    """The backups of this database, newest first (for the Settings screen)."""
    return list_backups(db.backups_dir, db.name)


def restore(db: Database, actor: Actor, file: Path) -> BackupInfo:
    """Replace the database with ``file`` (refused unless it passes the full check of a club file); the
    current content is backed up first, under the same lock as every writer, and returned."""
    require(actor, "database.restore", db)  # permission table
    if db.is_server:
        raise DatabaseError(
            "server-restore",
            _(
                "A club server is restored by its administrator with pg_restore (see the README), or a "
                "file is copied into a new server database with 'clubdesk-cli db copy'; nothing was changed."
            ),
        )
    _key_here(Path(file))
    kept = restore_database(db, Path(file))
    kept = replace(kept, audit_head=audit_head(db, kept.file))
    with db.session() as s:
        audit(
            s,
            actor,
            "database.restore",
            "database",
            Path(file).name,
            after={"restored": str(file), "previous_kept_as": str(kept.file)},
        )
    _anchored(db, kept, "restore", Path(file).name)  # the log as restored is the one to check from now on
    return kept


def _key_here(file: Path) -> None:
    """A backup whose audit log is signed with a key not on this PC is refused before anything is replaced
    (every change after the restore would be refused); what the key is and where it goes is said."""
    key = signed_with(file)
    if key:
        require_audit_key(key)


def backup_quietly(db: Database, *, reason: str = "auto") -> BackupInfo:
    """An automatic backup (opening, every 30 minutes of a night with changes, closing): not audited, so
    it does not itself count as a change. On a club server: pg_dump, when this PC has it."""
    return _anchored(db, _made(db, db.backups_dir, reason=reason), "backup")


def _made(db: Database, folder: Path, *, reason: str, now: datetime | None = None) -> BackupInfo:
    """A backup of ``db`` into ``folder`` (a club server with pg_dump), with the audit chain's
    head it holds."""
    if db.is_server:
        info = backup_server(db, folder, reason=reason, now=now)
    else:
        info = backup_database(db.path, folder, reason=reason, now=now)
    rows, key = audit_state(db, info.file)
    return replace(info, audit_head=audit_head(db, info.file), audit_rows=rows, audit_key=key)


def _anchored(db: Database, info: BackupInfo, reason: str, name: str = "") -> BackupInfo:
    """``info`` with the anchor of the log appended outside the club file (a key folder that cannot be
    written leaves the backup made, without an anchor)."""
    try:
        anchor = record_anchor(db, reason, name or info.file.name)
    except KeyStoreError:
        return info
    return info if anchor is None else replace(info, audit_anchor=anchor.path)


def change_marker(db: Database) -> int:
    """Moves on with every audited change (the last audit row's id): automatic backups skip quiet periods."""
    with db.session() as s:
        return int(s.scalar(select(func.max(AuditEntry.id))) or 0)
