"""The database file: engine, pragmas, migrations at start-up, sessions.

- Every connection gets ``journal_mode=WAL``, ``foreign_keys=ON``, ``synchronous=FULL`` and a busy timeout.
- Migrations (Alembic, packaged in ``clubdesk/models/migrations``) are applied when the file is opened; a
  backup copy is made first whenever an existing database is upgraded. Alembic is imported only then.
- A database written by a newer ClubDesk (a revision this version does not know) is refused.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from clubdesk.i18n import _

log = logging.getLogger("clubdesk.db")

MIGRATIONS_DIR = Path(__file__).resolve().parent / "models" / "migrations"
BUSY_TIMEOUT_MS = 5000


class DatabaseError(Exception):
    """A database that cannot be opened; ``code`` is stable, ``str()`` is translated."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def known_revisions() -> list[str]:
    """Revision ids in order. Each migration file is named after its revision id (``0003_events.py``;
    a letter may follow the number, ``0006b_sheets.py``, for branches made side by side)."""
    return sorted(p.stem for p in (MIGRATIONS_DIR / "versions").glob("[0-9][0-9][0-9][0-9]*_*.py"))


def head_revision() -> str:
    return known_revisions()[-1]


def _set_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.close()


def current_revision(path: Path) -> str | None:
    """The schema revision stored in the file, or None for an empty/new file."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    con = sqlite3.connect(path)
    try:
        row = con.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name='alembic_version'"
        ).fetchone()
        if row is None:
            return None
        ver = con.execute("SELECT version_num FROM alembic_version").fetchone()
        return str(ver[0]) if ver else None
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(
            "not-a-database", _("{path} is not a ClubDesk database.").format(path=path)
        ) from exc
    finally:
        con.close()


def backup_file(source: Path, target: Path) -> Path:
    """A consistent copy of a (possibly live) SQLite file, made with sqlite3's backup API."""
    target.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
    return target


class Database:
    """One open ClubDesk database file."""

    def __init__(self, path: Path | str, *, backups_dir: Path | None = None) -> None:
        self.path = Path(path).expanduser().resolve()
        self.backups_dir = backups_dir if backups_dir is not None else self.path.parent / "backups"
        self.upgrade_backup: Path | None = None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._migrate()
        self.engine: Engine = create_engine(f"sqlite:///{self.path}", future=True)
        event.listen(self.engine, "connect", _set_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def _migrate(self) -> None:
        revisions = known_revisions()
        current = current_revision(self.path)
        if current is not None and current not in revisions:
            raise DatabaseError(
                "schema-too-new",
                _(
                    "{path} was written by a newer ClubDesk (schema {rev}). "
                    "Install the newer ClubDesk to open it; nothing was changed."
                ).format(path=self.path, rev=current),
            )
        if current == revisions[-1]:
            return
        if current is not None:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            self.upgrade_backup = backup_file(
                self.path, self.backups_dir / f"{self.path.stem}-before-{revisions[-1]}-{stamp}.sqlite3"
            )
            log.info("backed up %s to %s before upgrading", self.path, self.upgrade_backup)
        upgrade(self.path)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One transaction: committed when the block ends, rolled back on any error."""
        with self._sessions() as session, session.begin():
            yield session

    def close(self) -> None:
        self.engine.dispose()


def upgrade(path: Path, revision: str = "head") -> None:
    """Apply migrations up to ``revision`` (Alembic is imported here only)."""
    from alembic import command
    from alembic.config import Config

    engine = create_engine(f"sqlite:///{path}", future=True)
    event.listen(engine, "connect", _set_pragmas)
    try:
        with engine.begin() as connection:
            cfg = Config()
            cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, revision)
    finally:
        engine.dispose()
