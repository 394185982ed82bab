"""Building and upgrading a club file's schema with Alembic.

- Migrations run in ONE transaction under the write lock: a kill leaves the old or the new schema, never
  half; a second process opening the same old file waits for the first upgrader and then finds it already
  upgraded. One backup per upgrade, not per try.
- A new database is built beside the target and moved into place only when complete, so a kill during
  creation leaves nothing.
- Alembic is imported only when a schema is built or upgraded (opening an up-to-date file stays cheap).
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

from sqlalchemy.exc import OperationalError

from clubdesk.i18n import _
from clubdesk.storage.errors import (
    DatabaseError,
    busy_error,
    disk_full_error,
    is_disk_full,
    is_read_only,
    write_refusal,
)
from clubdesk.storage.revisions import MIGRATIONS_DIR, head_revision
from clubdesk.storage.sqlite import (
    FILE_MODE,
    backup_file,
    is_busy,
    make_engine,
    remove_with_side_files,
    restrict,
    side_files,
)

log = logging.getLogger("clubdesk.storage")

UPGRADE_WAIT_MS = 120_000  # a second opener waits this long for another process's upgrade


def create_file(path: Path) -> None:
    """Build a new database beside ``path`` and move it into place only when every migration has run.
    A failure (a full disk, a read-only folder) leaves nothing behind and is one clear refusal."""
    partial = path.with_name(path.name + ".creating")
    try:
        remove_with_side_files(partial)
        fd = os.open(partial, os.O_CREAT | os.O_WRONLY, FILE_MODE)
        os.close(fd)
        upgrade(partial)
        con = sqlite3.connect(partial)
        try:
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            con.close()
        for side in side_files(partial):
            side.unlink(missing_ok=True)
        try:
            os.link(partial, path)  # fails if another process created the file meanwhile: theirs wins
        except FileExistsError:
            pass
        except OSError:
            if not path.exists():
                os.replace(partial, path)
    except BaseException as exc:
        remove_with_side_files(partial)
        if is_read_only(exc) or (isinstance(exc, PermissionError) and not os.access(path.parent, os.W_OK)):
            raise DatabaseError(
                "read-only-folder",
                _(
                    "The folder {folder} is read-only: no club file can be created there; "
                    "nothing was created."
                ).format(folder=path.parent),
            ) from exc
        refused = write_refusal(exc, path)
        if refused is None or is_busy(exc):
            raise
        raise refused from exc
    partial.unlink(missing_ok=True)
    restrict(path)


def upgrade_in_place(path: Path, backups_dir: Path) -> Path | None:
    """Upgrade an existing file to head in one transaction, after one backup copy of the revision it had."""
    from alembic import command
    from alembic.config import Config

    head = head_revision()
    engine = make_engine(path)
    backup: Path | None = None
    try:
        with engine.connect() as connection:
            raw = connection.connection.dbapi_connection
            assert raw is not None
            raw.execute(f"PRAGMA busy_timeout={UPGRADE_WAIT_MS}")
            try:
                transaction = connection.begin()  # BEGIN IMMEDIATE: waits for another upgrader
            except OperationalError as exc:
                if is_busy(exc):
                    raise busy_error() from exc
                raise
            with transaction:
                row = connection.exec_driver_sql("SELECT version_num FROM alembic_version").fetchone()
                current = str(row[0]) if row else None
                if current == head:
                    return None  # another process upgraded it while we waited
                backup = backups_dir / f"{path.stem}-before-{head}-from-{current}.sqlite3"
                if not backup.exists():  # one copy per upgrade, however often it is retried
                    backup_file(path, backup)
                    log.info("backed up %s to %s before upgrading", path, backup)
                cfg = Config()
                cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
                cfg.attributes["connection"] = connection
                command.upgrade(cfg, "head")
    except OperationalError as exc:  # the upgrade's one transaction was rolled back: the file is as it was
        if is_disk_full(exc):
            raise disk_full_error(path) from exc
        raise
    finally:
        engine.dispose()
    return backup


def upgrade(path: Path, revision: str = "head") -> None:
    """Apply migrations up to ``revision`` in one transaction (Alembic is imported here only)."""
    from alembic import command
    from alembic.config import Config

    engine = make_engine(path)
    try:
        with engine.begin() as connection:
            cfg = Config()
            cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, revision)
    finally:
        engine.dispose()
    restrict(path)
