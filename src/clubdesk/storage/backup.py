"""Backups of a club file or a club server, their keeping rule, and the restore of a club file.

``backup_database`` / ``restore_database`` use SQLite's online backup API, consistent while others write.
A backup's audit chain head is not read here: the audit log is the services' (``services/club/safety.py`` adds
it to the :class:`BackupInfo`).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from clubdesk.i18n import _
from clubdesk.storage.database import Database
from clubdesk.storage.errors import DatabaseError, busy_error
from clubdesk.storage.migrate import upgrade_in_place
from clubdesk.storage.revisions import head_revision
from clubdesk.storage.sqlite import (
    backup_file,
    busy_seconds,
    check_file,
    current_revision,
    integrity,
    is_busy,
    read_only,
    restrict,
)

BACKUP_STAMP = "%Y%m%d-%H%M%S"
KEEP_LAST = 10
KEEP_DAYS = 30
KEEP_MONTHS = 12


@dataclass(frozen=True)
class BackupInfo:
    """One backup made. ``audit_head`` (the audit chain's last hash in the copy) is filled in by the
    service that reads the audit log; storage leaves it None."""

    file: Path
    bytes: int
    integrity: str
    revision: str | None
    made: datetime
    audit_head: str | None = None


def _free_name(folder: Path, stem: str, suffix: str) -> Path:
    """``folder/stem+suffix``, or ``stem-2``, ``stem-3``… when backups were made within the same second."""
    target = folder / f"{stem}{suffix}"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{stem}-{n}{suffix}"
    return target


def backup_database(
    source: Path, folder: Path, *, reason: str = "manual", now: datetime | None = None
) -> BackupInfo:
    """A verified online backup of ``source`` into ``folder``: consistent while other desks write,
    checked with ``integrity_check`` on the copy, owner-only; then the folder's backups are rotated."""
    if not folder.exists():
        folder.mkdir(parents=True, exist_ok=True)
    made = now or datetime.now()
    target = _free_name(folder, f"{source.stem}-{made.strftime(BACKUP_STAMP)}-{reason}", ".sqlite3")
    try:
        backup_file(source, target)
    except sqlite3.OperationalError as exc:
        if is_busy(exc):
            raise busy_error() from exc
        raise
    checked = integrity(target)
    if checked != "ok":
        target.unlink(missing_ok=True)
        raise DatabaseError(
            "backup-failed",
            _("The backup copy failed its check ({detail}); nothing was kept.").format(detail=checked),
        )
    info = BackupInfo(
        file=target,
        bytes=target.stat().st_size,
        integrity=checked,
        revision=current_revision(target),
        made=made,
    )
    rotate_backups(folder, source.stem, now=made)
    return info


def backup_server(
    db: Database, folder: Path, *, reason: str = "manual", now: datetime | None = None
) -> BackupInfo:
    """A club server's backup with ``pg_dump`` (custom format, restorable with ``pg_restore``), checked by
    reading its table of contents back; refused with a clear message when pg_dump is not installed. The
    folder's dumps are then rotated like the file's backups."""
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise DatabaseError(
            "no-pg-dump",
            _(
                "pg_dump is not installed on this PC, so the club server was not backed up. Install "
                "PostgreSQL's client tools, or copy the club to a file with 'clubdesk-cli db copy'."
            ),
        )
    folder.mkdir(parents=True, exist_ok=True)
    made = now or datetime.now()
    target = _free_name(folder, f"{db.name}-{made.strftime(BACKUP_STAMP)}-{reason}", ".pgdump")
    u = db.server_address
    env = dict(os.environ)
    if u.password:
        env["PGPASSWORD"] = str(u.password)
    conninfo = u.set(drivername="postgresql", password=None).render_as_string(hide_password=False)
    partial = target.with_name(target.name + ".part")
    done = subprocess.run(
        [pg_dump, "--format=custom", "--no-owner", f"--file={partial}", f"--dbname={conninfo}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        detail = (done.stderr.strip().splitlines() or ["?"])[-1]
        raise DatabaseError(
            "backup-failed", _("pg_dump failed ({detail}); nothing was kept.").format(detail=detail)
        )
    checked = "ok"
    pg_restore = shutil.which("pg_restore")
    if pg_restore is not None:
        listed = subprocess.run(
            [pg_restore, "--list", str(partial)], capture_output=True, text=True, timeout=120
        )
        checked = "ok" if listed.returncode == 0 and "TABLE DATA" in listed.stdout else "unreadable"
    if checked != "ok":
        partial.unlink(missing_ok=True)
        raise DatabaseError(
            "backup-failed",
            _("The backup copy failed its check ({detail}); nothing was kept.").format(detail=checked),
        )
    os.replace(partial, target)
    restrict(target)
    info = BackupInfo(
        file=target,
        bytes=target.stat().st_size,
        integrity=checked,
        revision=db.revision(),
        made=made,
    )
    rotate_backups(folder, db.name, now=made)  # the same keeping rule as the file's backups
    return info


def backup_time(path: Path, stem: str) -> datetime | None:
    """When a timed backup of database ``stem`` was made, read from its name (None for other copies)."""
    rest = path.name[len(stem) + 1 :]
    try:
        return datetime.strptime(rest[:15], BACKUP_STAMP)
    except ValueError:
        return None


def list_backups(folder: Path, stem: str) -> list[tuple[datetime, Path]]:
    """The backups of database ``stem`` in ``folder``, newest first (pre-upgrade copies included)."""
    if not folder.is_dir():
        return []
    found: list[tuple[datetime, int, Path]] = []
    for p in [*folder.glob(f"{stem}-*.sqlite3"), *folder.glob(f"{stem}-*.pgdump")]:  # file / server
        mtime = p.stat().st_mtime_ns
        made = backup_time(p, stem) or datetime.fromtimestamp(mtime / 1e9)
        found.append((made, mtime, p))  # copies made within one second are ordered by their file time
    return [(made, p) for made, _m, p in sorted(found, reverse=True)]


def rotate_backups(folder: Path, stem: str, *, now: datetime | None = None) -> list[Path]:
    """Keep the last 10 timed backups, the newest of each of the last 30 days and of each of the last
    12 months; delete the rest (pre-upgrade copies are never deleted here). Returns what was deleted."""
    now = now or datetime.now()
    timed = [(t, p) for t, p in list_backups(folder, stem) if backup_time(p, stem) is not None]
    keep: set[Path] = {p for _t, p in timed[:KEEP_LAST]}
    days: set[str] = set()
    months: set[str] = set()
    for t, p in timed:  # newest first: the first of each day/month is its newest
        day, month = t.strftime("%Y%m%d"), t.strftime("%Y%m")
        if (now - t).days < KEEP_DAYS and day not in days:
            days.add(day)
            keep.add(p)
        if len(months) < KEEP_MONTHS and month not in months:
            months.add(month)
            keep.add(p)
    deleted = []
    for _t, p in timed:
        if p not in keep:
            p.unlink(missing_ok=True)
            deleted.append(p)
    return deleted


def restore_database(db: Database, file: Path) -> BackupInfo:
    """Replace the open database's content with ``file`` after a backup of the current content.

    ``file`` must be a sound ClubDesk database of a known schema (else refused, the current database
    untouched). The copy goes through SQLite's backup API into the live file: one transaction, seen at
    once by other desks. An older schema is then upgraded as on opening.
    """
    file = Path(file).expanduser()
    check_file(file, full=True)
    if file.resolve() == db.path:
        raise DatabaseError("restore-self", _("That is the open database itself; choose a backup file."))
    safety = backup_database(db.path, db.backups_dir, reason="before-restore")
    db.engine.dispose()
    src = read_only(file)
    dst = sqlite3.connect(db.path, timeout=busy_seconds())
    try:
        src.backup(dst)
    except sqlite3.OperationalError as exc:
        if is_busy(exc):
            raise busy_error() from exc
        raise
    finally:
        dst.close()
        src.close()
    if current_revision(db.path) != head_revision():
        upgrade_in_place(db.path, db.backups_dir)
    return safety
