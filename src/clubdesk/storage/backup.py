"""Backups of a club file or a club server, and their keeping rule.

``backup_database`` uses SQLite's online backup API, consistent while others write; the copy passes the
full check of a ClubDesk file (:func:`clubdesk.storage.checks.check_file`) or is not kept.

The keeping rule: only the automatic backups (made on opening, every 30 minutes of a night with changes,
on closing) roll: the last 10, the newest of each of the last 30 days and of each of the last 12 months
are kept. Manual backups, the copies made before a restore and before an upgrade are kept apart: no
rotation ever deletes them (the secretary deletes them by hand), and a backup being restored is never
deleted.
A backup's audit chain head is not read here: the audit log is the services' (``services/club/safety.py`` adds
it to the :class:`BackupInfo`).
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from clubdesk.i18n import _
from clubdesk.storage.checks import copy_check
from clubdesk.storage.database import Database
from clubdesk.storage.errors import DatabaseError, busy_error
from clubdesk.storage.sqlite import backup_file, current_revision, is_busy, restrict

BACKUP_STAMP = "%Y%m%d-%H%M%S"
ROLLING_REASONS = ("auto", "open", "close")  # the automatic backups: only these are ever rotated
KEEP_LAST = 10
KEEP_DAYS = 30
KEEP_MONTHS = 12


@dataclass(frozen=True)
class BackupInfo:
    """One backup made. ``audit_head`` (the audit chain's last hash in the copy), ``audit_rows`` (its
    rows), ``audit_key`` (the name of the key its log is signed with, never the key) and ``audit_anchor``
    (the file outside the club file the anchor went to) are filled in by the service that reads the audit
    log; storage leaves them None."""

    file: Path
    bytes: int
    integrity: str
    revision: str | None
    made: datetime
    audit_head: str | None = None
    audit_rows: int | None = None
    audit_key: str | None = None
    audit_anchor: str | None = None


def _free_name(folder: Path, stem: str, suffix: str) -> Path:
    """``folder/stem+suffix``, or ``stem-2``, ``stem-3``… when backups were made within the same second."""
    target = folder / f"{stem}{suffix}"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{stem}-{n}{suffix}"
    return target


def backup_target(folder: Path, stem: str, reason: str, made: datetime) -> Path:
    """The name of a new backup of database ``stem``: ``stem-YYYYmmdd-HHMMSS-reason.sqlite3``."""
    folder.mkdir(parents=True, exist_ok=True)
    return _free_name(folder, f"{stem}-{made.strftime(BACKUP_STAMP)}-{reason}", ".sqlite3")


def copy_file(source: Path, target: Path) -> None:
    """The online copy of a backup (a busy file is one clear refusal)."""
    try:
        backup_file(source, target)
    except sqlite3.OperationalError as exc:
        if is_busy(exc):
            raise busy_error() from exc
        raise


def checked_copy(target: Path, made: datetime, *, keep_failed: bool = False) -> BackupInfo:
    """A copy just made, with the full check of a ClubDesk file (every table, column, index and trigger
    of its revision, and ``integrity_check``). A copy that fails is deleted and refused, unless
    ``keep_failed`` (the copy before a restore: the only copy of what is replaced, kept whatever it is;
    its ``integrity`` says what is wrong)."""
    checked = copy_check(target)
    if checked != "ok" and not keep_failed:
        target.unlink(missing_ok=True)
        raise DatabaseError(
            "backup-failed",
            _("The backup copy failed its check ({detail}); nothing was kept.").format(detail=checked),
        )
    return BackupInfo(
        file=target,
        bytes=target.stat().st_size,
        integrity=checked,
        revision=current_revision(target) if checked == "ok" else None,
        made=made,
    )


def backup_database(
    source: Path, folder: Path, *, reason: str = "manual", now: datetime | None = None
) -> BackupInfo:
    """A verified online backup of ``source`` into ``folder``: consistent while other desks write,
    refused unless the copy passes the full check, owner-only; then the automatic backups are rotated."""
    made = now or datetime.now()
    target = backup_target(folder, source.stem, reason, made)
    copy_file(source, target)
    info = checked_copy(target, made)
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


def backup_reason(path: Path, stem: str) -> str | None:
    """Why a timed backup of database ``stem`` was made (``auto``, ``manual``, ``before-restore``…), read
    from its name; None for other copies."""
    if backup_time(path, stem) is None:
        return None
    rest = path.name[len(stem) + 1 + 15 + 1 :].split(".", 1)[0]
    return re.sub(r"-\d+$", "", rest)  # a second backup within the same second is "reason-2"


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


def rotate_backups(
    folder: Path, stem: str, *, now: datetime | None = None, spare: Collection[Path] = ()
) -> list[Path]:
    """Of the automatic backups (:data:`ROLLING_REASONS`), keep the last 10, the newest of each of the
    last 30 days and of each of the last 12 months, and delete the rest. Manual, before-restore and
    pre-upgrade copies are never deleted here, nor are the files in ``spare`` (a backup being restored).
    Returns what was deleted."""
    now = now or datetime.now()
    spared = {p.resolve() for p in spare}
    timed = [
        (t, p)
        for t, p in list_backups(folder, stem)
        if backup_reason(p, stem) in ROLLING_REASONS and p.resolve() not in spared
    ]
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
