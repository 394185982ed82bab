"""One open ClubDesk database, a club file or a club server: opening it (checked, upgraded), its sessions
and the order of its writers, and closing it.

Every session ClubDesk opens is a :class:`ClubSession`: the hooks that hold loaded rows and note changes
are registered on that class, not on SQLAlchemy's ``Session`` (other code in the same process, such as
Alembic or a test's own session, is left alone).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, Engine
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from clubdesk.i18n import _
from clubdesk.paths import data_dir
from clubdesk.storage.changes import forget_changes, note_changes, notify_changes
from clubdesk.storage.checks import check_file
from clubdesk.storage.errors import (
    DatabaseError,
    busy_error,
    disk_full_error,
    is_disk_full,
    is_read_only,
    read_only_error,
)
from clubdesk.storage.migrate import create_file, upgrade_in_place
from clubdesk.storage.revisions import head_revision
from clubdesk.storage.server import (
    is_server_url,
    make_server_engine,
    migrate_server,
    refusal,
    server_address,
    server_revision,
)
from clubdesk.storage.sqlite import (
    busy_seconds,
    closed_clean,
    current_revision,
    forget_clean_close,
    is_busy,
    make_engine,
    mark_closed,
    mark_open,
    not_a_database,
    on_read_only_medium,
    sidecar,
)


class ClubSession(Session):
    """ClubDesk's session: rows it loads stay held until its transaction ends, and what it writes is
    noted (and announced on a club server at commit)."""


@event.listens_for(ClubSession, "loaded_as_persistent")
def _hold(session: Session, instance: object) -> None:
    """Every row a transaction loads stays in its identity map until the transaction ends: SQLAlchemy keeps
    unchanged rows only weakly, so a row read twice in one change (the event's night settings, a table's
    state) was read twice from the file (a hand's work in proportion to the hand)."""
    session.info.setdefault("clubdesk.held", []).append(instance)


@event.listens_for(ClubSession, "after_transaction_end")
def _let_go(session: Session, transaction: Any) -> None:
    if transaction.parent is None:  # the outermost transaction: its rows may go
        session.info.pop("clubdesk.held", None)


@event.listens_for(ClubSession, "after_flush")
def _after_flush(session: Session, _flush_context: Any) -> None:
    note_changes(session)


@event.listens_for(ClubSession, "before_commit")
def _before_commit(session: Session) -> None:
    try:
        bind = session.get_bind()
    except Exception:  # noqa: BLE001 - a session without a bind has nothing to announce
        return
    if bind.dialect.name == "postgresql":
        session.flush()
        notify_changes(session)
    else:
        forget_changes(session)


@event.listens_for(ClubSession, "after_rollback")
def _after_rollback(session: Session) -> None:
    forget_changes(session)


class Database:
    """One open ClubDesk database: a file (SQLite) or a club server (a PostgreSQL URL)."""

    backend: str = "sqlite"
    url: str | None = None  # the server URL without its password; None for a file
    read_only: bool = False  # a club file on a read-only medium: opened for reading only

    def __init__(
        self,
        path: Path | str,
        *,
        backups_dir: Path | None = None,
        create: bool = True,
        password: str | None = None,
    ) -> None:
        self.upgrade_backup: Path | None = None
        self.unclean_shutdown = False
        # One writer at a time in this process (the window, the phones' request threads): a waiting thread
        # is woken when the writer commits, instead of SQLite's busy handler sleeping in steps of up to
        # 100 ms (at 64 tables, hands queued behind those sleeps for seconds).
        self._writer = threading.RLock()
        if is_server_url(path):
            self._open_server(str(path), backups_dir, password)
            return
        self.path = Path(path).expanduser().absolute()
        if self.path.is_symlink() and not self.path.exists():
            raise DatabaseError(
                "dangling-link",
                _(
                    "{path} is a link to {target}, which does not exist; nothing was opened or created."
                ).format(path=self.path, target=self.path.readlink()),
            )
        if self.path.exists():
            self.path = self.path.resolve()
        self.backups_dir = backups_dir if backups_dir is not None else self.path.parent / "backups"
        if not self.path.parent.is_dir():
            raise DatabaseError(
                "no-such-folder",
                _("The folder {folder} does not exist; no database was created.").format(
                    folder=self.path.parent
                ),
            )
        if self.path.exists():
            if self.path.is_dir() or not self.path.is_file():
                raise not_a_database(self.path)
            self.read_only = on_read_only_medium(self.path)
            if self.read_only:
                self._open_for_reading()
                return
            self.unclean_shutdown = sidecar(self.path).exists()
            clean = not self.unclean_shutdown and closed_clean(self.path)
            forget_clean_close(self.path)
            revision = check_file(self.path, full=self.unclean_shutdown, pages=not clean)
            self._migrate(revision)
        elif create:
            create_file(self.path)
        else:
            raise DatabaseError("no-such-file", _("{path} does not exist.").format(path=self.path))
        self.engine: Engine = make_engine(self.path)
        self._sessions = sessionmaker(self.engine, class_=ClubSession, expire_on_commit=False)
        mark_open(self.path)

    def _open_for_reading(self) -> None:
        """A sound club file ClubDesk cannot write (a read-only medium, folder or file): checked in full
        and opened for reading only; nothing is written beside it (no marks, no upgrade), and a write is
        refused with :func:`read_only_error`. A file of an older schema cannot be upgraded here, so it is
        refused with what to do."""
        wal = self.path.with_name(self.path.name + "-wal")
        if wal.exists() and wal.stat().st_size:  # read as immutable, the file would hide these changes
            raise DatabaseError(
                "read-only-unfinished",
                _(
                    "{path} is read-only and its last changes are still in {wal}, which cannot be merged "
                    "where it is. Copy both files to a writable folder and open the copy."
                ).format(path=self.path, wal=wal.name),
            )
        revision = check_file(self.path, pages=True)
        if revision != head_revision():
            raise DatabaseError(
                "read-only-old",
                _(
                    "{path} is read-only and of an older ClubDesk (schema {rev}): it cannot be upgraded "
                    "where it is. Copy it to a writable folder and open the copy."
                ).format(path=self.path, rev=revision),
            )
        self.engine = make_engine(self.path, reading_only=True)
        self._sessions = sessionmaker(self.engine, class_=ClubSession, expire_on_commit=False)

    # --- the club server -------------------------------------------------------------------------------
    @property
    def is_server(self) -> bool:
        return self.backend == "postgresql"

    @property
    def location(self) -> str:
        """What to show a person: the file's path or the server URL without its password."""
        return self.url if self.url is not None else str(self.path)

    @property
    def name(self) -> str:
        """A short name for backup files: the file's stem or the server database's name."""
        return self.path.stem if not self.is_server else (self._address.database or "club")

    @property
    def server_address(self) -> URL:
        """The club server's full address, password included (for pg_dump and LISTEN; never shown)."""
        return self._address

    def _open_server(self, url: str, backups_dir: Path | None, password: str | None) -> None:
        self._address = server_address(url, password)
        self.backend = "postgresql"
        self.url = self._address.render_as_string(hide_password=True)
        self.path = Path(self._address.database or "club")  # never a file here: only the name is used
        self.backups_dir = backups_dir if backups_dir is not None else data_dir() / "backups"
        self.engine = make_server_engine(self._address)
        try:
            migrate_server(self.engine, self.url)
        except BaseException:
            self.engine.dispose()
            raise
        self._sessions = sessionmaker(self.engine, class_=ClubSession, expire_on_commit=False)

    def revision(self) -> str | None:
        """The schema revision in use."""
        if not self.is_server:
            return current_revision(self.path)
        return server_revision(self.engine)

    def _migrate(self, revision: str | None) -> None:
        """Upgrade the file when ``revision`` (what :func:`check_file` read from it) is not the head; the
        upgrade reads the revision again under the write lock (another process may have upgraded)."""
        if revision == head_revision():
            return
        self.upgrade_backup = upgrade_in_place(self.path, self.backups_dir)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One write transaction (``BEGIN IMMEDIATE``): committed when the block ends, rolled back on any
        error. A lock held by another desk longer than the busy timeout is ``DatabaseError("busy")``.
        """
        try:
            with self.write_turn(), self._sessions() as session, session.begin():
                yield session
        except StaleDataError as exc:  # a versioned row (a match) changed by another desk meanwhile
            raise DatabaseError(
                "changed-elsewhere",
                _("Another desk changed the same data at the same moment; nothing was saved. Look again."),
            ) from exc
        except DBAPIError as exc:
            if not self.is_server:
                if isinstance(exc, OperationalError) and is_busy(exc):
                    raise busy_error() from exc
                if is_read_only(exc):
                    raise read_only_error(self.path) from exc
                if is_disk_full(exc):  # SQLite rolled the transaction back: nothing half-written
                    raise disk_full_error(self.path) from exc
                raise
            refused = refusal(exc, self.url)
            if refused is not None:
                raise refused from exc
            raise

    def read_now(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read statement on a pooled driver connection of a club file, without a
        transaction of its own (one statement reads one state of the file): the cheapest read there is,
        for what is asked on every hand or page. Not for the club server."""
        raw = self.engine.raw_connection()
        try:
            cur = raw.cursor()
            try:
                cur.execute(sql, tuple(params))
                return [tuple(r) for r in cur.fetchall()]
            finally:
                cur.close()
        finally:
            raw.close()

    def share_writer(self, lock: Any | None) -> None:
        """Take turns at writing with other processes on this file through ``lock`` (a
        ``multiprocessing`` RLock: ``serve --workers N``), so a waiting writer is woken at the other's
        commit instead of SQLite's busy handler sleeping between tries (at 64 tables two processes'
        hands waited up to ~100 ms per try). ``None``: this process's own lock again."""
        self._writer = lock if lock is not None else threading.RLock()

    @contextmanager
    def write_turn(self) -> Iterator[None]:
        """This process's turn among the file's writers (every :meth:`session` takes it; so does a
        restore)."""
        if self.is_server:  # the server orders its writers itself
            yield
            return
        # only an order among this process's (or this server's) writers: SQLite's own write lock
        # keeps the data right, so a turn not given in time (a worker killed while writing) goes on
        # without it
        lock = self._writer  # the one taken is the one given back, even if shared meanwhile
        held = lock.acquire(timeout=busy_seconds())
        try:
            yield
        finally:
            if held:
                lock.release()

    @contextmanager
    def read_session(self) -> Iterator[Session]:
        """A read-only transaction (deferred ``BEGIN``: one consistent snapshot, no write lock), for long
        reads such as the audit export; nothing done in it is committed."""
        try:
            with self.engine.connect() as conn:
                conn.execution_options(clubdesk_read=True)
                with ClubSession(bind=conn, expire_on_commit=False) as session:
                    session.begin()
                    try:
                        yield session
                    finally:
                        session.rollback()
        except OperationalError as exc:
            if is_busy(exc):
                raise busy_error() from exc
            raise

    def close(self) -> None:
        self.engine.dispose()
        if self.is_server or self.read_only:
            return
        mark_closed(self.path)
