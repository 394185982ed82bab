"""What is particular to a club file (SQLite): pragmas, transactions, the safe open, copies, file marks.

- Every connection gets ``journal_mode=WAL``, ``foreign_keys=ON``, ``synchronous=FULL`` and a busy timeout.
- Transactions are real SQLite transactions (the driver's own implicit BEGIN is switched off): a
  service's session starts with ``BEGIN IMMEDIATE``, so a check and the write it allows happen under one
  write lock and two desks cannot both pass the same check; a lock held too long by another desk is one
  clear refusal.
- Opening is safe: a 0-byte, damaged, foreign or incomplete file is refused and never written to (the
  full check is :func:`clubdesk.storage.checks.check_file`); ``quick_check`` runs on every open except of
  a file ClubDesk closed cleanly and nothing changed since (:func:`closed_clean`), the full
  ``integrity_check`` after an unclean shutdown (:func:`sidecar`).
- Files are created readable by their owner only (0600).
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import suppress
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine

from clubdesk.i18n import _
from clubdesk.storage.errors import DatabaseError, write_refusal

BUSY_TIMEOUT_MS = 5000
FILE_MODE = 0o600


def busy_seconds() -> float:
    """The busy timeout in seconds, read when asked (tests shorten :data:`BUSY_TIMEOUT_MS`)."""
    return BUSY_TIMEOUT_MS / 1000


def set_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # The driver's implicit transactions leave DDL outside any transaction; we begin them ourselves.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.close()


def _begin_immediate(connection: Any) -> None:
    if connection.get_execution_options().get("clubdesk_read"):
        connection.exec_driver_sql("BEGIN")  # Database.read_session: a deferred read, no write lock
        return
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def _set_read_pragmas(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.close()


def make_engine(path: Path, *, reading_only: bool = False) -> Engine:
    """An engine on ``path`` whose transactions take the write lock at their start (``BEGIN IMMEDIATE``).
    ``reading_only``: a file on a read-only medium (:func:`on_read_only_medium`), opened as immutable
    (SQLite then needs no ``-shm`` beside it); any write is refused by SQLite (SQLITE_READONLY)."""
    if reading_only:
        engine = create_engine(f"sqlite:///{read_only_uri(path)}&uri=true", future=True)
        event.listen(engine, "connect", _set_read_pragmas)
    else:
        engine = create_engine(f"sqlite:///{path}", future=True)
        event.listen(engine, "connect", set_pragmas)
    event.listen(engine, "begin", _begin_immediate)
    return engine


def on_read_only_medium(path: Path) -> bool:
    """Whether ClubDesk cannot write ``path`` or its folder (a read-only medium, a write-protected card, a
    folder or file without write permission). SQLite then could not make the ``-wal``/``-shm`` files it
    reads a WAL-mode file with, so such a file is read as immutable: nobody is writing it."""
    try:
        st = os.statvfs(path)
        if st.f_flag & os.ST_RDONLY:
            return True
    except (OSError, AttributeError):
        pass
    return not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))


def read_only_uri(path: Path) -> str:
    """The URI that opens ``path`` for reading only, never creating it (immutable on a read-only medium)."""
    uri = f"{path.resolve().as_uri()}?mode=ro"
    return uri + "&immutable=1" if on_read_only_medium(path) else uri


def is_busy(exc: BaseException) -> bool:
    """Whether SQLite refused because another connection holds the lock."""
    text = str(exc).lower()
    return "database is locked" in text or "database is busy" in text or "database table is locked" in text


def not_a_database(path: Path) -> DatabaseError:
    return DatabaseError("not-a-database", _("{path} is not a ClubDesk database.").format(path=path))


def read_only(path: Path) -> sqlite3.Connection:
    """A connection that can never write to ``path`` (nor create it)."""
    return sqlite3.connect(read_only_uri(path), uri=True, timeout=busy_seconds())


def current_revision(path: Path) -> str | None:
    """The schema revision stored in the file, or None for a missing file or one without ClubDesk's schema."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    try:
        con = read_only(path)
    except sqlite3.DatabaseError as exc:
        raise not_a_database(path) from exc
    try:
        row = con.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name='alembic_version'"
        ).fetchone()
        if row is None:
            return None
        ver = con.execute("SELECT version_num FROM alembic_version").fetchone()
        return str(ver[0]) if ver else None
    except sqlite3.DatabaseError as exc:
        raise not_a_database(path) from exc
    finally:
        con.close()


def integrity(path: Path) -> str:
    """``integrity_check`` of a file read-only: "ok", or its first three complaints."""
    con = read_only(path)
    try:
        rows = [r[0] for r in con.execute("PRAGMA integrity_check")]
    finally:
        con.close()
    return "ok" if rows == ["ok"] else "; ".join(rows[:3])


def restrict(path: Path) -> None:
    """Owner-only (0600), where the file system allows it."""
    with suppress(OSError):
        os.chmod(path, FILE_MODE)


def side_files(path: Path) -> list[Path]:
    """The files SQLite may keep beside ``path``: its write-ahead log, shared memory and rollback journal."""
    return [path.with_name(path.name + side) for side in ("-wal", "-shm", "-journal")]


def remove_with_side_files(path: Path) -> None:
    for leftover in (path, *side_files(path)):
        with suppress(OSError):
            leftover.unlink(missing_ok=True)


def backup_file(source: Path, target: Path) -> Path:
    """A consistent copy of a (possibly live) SQLite file, made with sqlite3's backup API; owner-only.
    The copy is made beside the target and moved into place when whole: a failure (a full disk, a
    read-only folder) leaves no partial file and is one clear refusal (a busy source is left to the
    caller)."""
    partial = target.with_name(target.name + ".part")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_with_side_files(partial)
        fd = os.open(partial, os.O_CREAT | os.O_WRONLY, FILE_MODE)
        os.close(fd)
        if on_read_only_medium(source):  # a file on a read-only medium is copied out as it is
            src = sqlite3.connect(read_only_uri(source), uri=True, timeout=busy_seconds())
        else:
            src = sqlite3.connect(source, timeout=busy_seconds())
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode=DELETE")  # the copy is one self-contained file
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as exc:
        remove_with_side_files(partial)
        refused = write_refusal(exc, target)
        if refused is None or is_busy(exc):
            raise
        raise refused from exc
    except BaseException:
        remove_with_side_files(partial)
        raise
    restrict(target)
    return target


# --- the file marks: how the next open knows whether the last one ended cleanly ------------------------


def _stamp(path: Path) -> Path:
    """Written when ClubDesk closes the file cleanly: its size and modification time then."""
    return path.with_name(path.name + ".closed")


def _file_mark(path: Path) -> str | None:
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size:
        return None  # changes still in the write-ahead log: the next open checks the pages
    st = path.stat()
    return f"{st.st_size} {st.st_mtime_ns}"


def closed_clean(path: Path) -> bool:
    """Whether ClubDesk closed this file cleanly and nothing changed it since (same size, same time to the
    nanosecond, no write-ahead log). Then opening skips ``quick_check``, which reads every page (at a
    million hand entries about a second); any other open still runs it."""
    try:
        mark = _file_mark(path)
        return mark is not None and _stamp(path).read_text(encoding="ascii").strip() == mark
    except (OSError, UnicodeError):
        return False


def sidecar(path: Path) -> Path:
    """Present while a ClubDesk has the file open: found at the next open, it means an unclean shutdown."""
    return path.with_name(path.name + ".open")


def forget_clean_close(path: Path) -> None:
    """Before the open's checks: from here on ClubDesk may write, so the clean-close stamp goes."""
    with suppress(OSError):
        _stamp(path).unlink(missing_ok=True)


def mark_open(path: Path) -> None:
    """Once open: the sidecar says so until a clean close."""
    with suppress(OSError):
        sidecar(path).touch(mode=FILE_MODE)


def mark_closed(path: Path) -> None:
    """A clean close: the sidecar goes, and the stamp records the file as it is now (unless the
    write-ahead log still holds changes)."""
    with suppress(OSError):
        sidecar(path).unlink(missing_ok=True)
        mark = _file_mark(path)
        if mark is not None:
            _stamp(path).touch(mode=FILE_MODE)
            _stamp(path).write_text(mark, encoding="ascii")
