"""The database file: engine, pragmas, migrations at start-up, sessions, backups.

- Every connection gets ``journal_mode=WAL``, ``foreign_keys=ON``, ``synchronous=FULL`` and a busy timeout.
- Transactions are real SQLite transactions (the driver's own implicit BEGIN is switched off): a
  service's session starts with ``BEGIN IMMEDIATE``, so a check and the write it allows happen under one
  write lock and two desks cannot both pass the same check; a lock held too long by another desk is one
  clear refusal.
- Opening is safe: a 0-byte, damaged or foreign file is refused and never written to; ``quick_check``
  runs on every open (issue 22: except of a file ClubDesk closed cleanly and nothing changed since), the
  full ``integrity_check`` after an unclean shutdown; a new database is built
  beside the target and moved into place only when complete, so a kill during creation leaves nothing.
- Migrations (Alembic, packaged in ``clubdesk/models/migrations``) run in ONE transaction under the write
  lock: a kill leaves the old or the new schema, never half; a second process opening the same old file
  waits for the first upgrader and then finds it already upgraded. One backup per upgrade, not per try.
- Files are created readable by their owner only (0600).
- ``backup_database`` / ``restore_database`` use SQLite's online backup API, consistent while others write.

A club server (issue 25): ``Database("postgresql+psycopg://user@host:5432/club")`` opens a PostgreSQL
database through the same models and migrations. Everything that differs lives here: migrations run in one
transaction under an advisory lock (a second desk waits and finds the schema upgraded), a lock held too long
by another desk is the same ``busy`` refusal, an unreachable server is ``unreachable``, writes that must not
interleave (one event's publish/check-in/payments, the audit chain's head) take advisory transaction locks
(:func:`lock_event`, :func:`lock_audit_chain`; no-ops on SQLite, whose ``BEGIN IMMEDIATE`` already
serialises every write), and each committed change is announced with ``NOTIFY`` (:func:`listen_changes`).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from clubdesk.i18n import _

log = logging.getLogger("clubdesk.db")

MIGRATIONS_DIR = Path(__file__).resolve().parent / "models" / "migrations"
BUSY_TIMEOUT_MS = 5000
UPGRADE_WAIT_MS = 120_000  # a second opener waits this long for another process's upgrade
FILE_MODE = 0o600
CLUBDESK_TABLES = {"alembic_version", "settings", "audit_log"}


class DatabaseError(Exception):
    """A database that cannot be opened or used; ``code`` is stable, ``str()`` is translated."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def busy_error() -> DatabaseError:
    return DatabaseError("busy", _("The database is busy at another desk; try again."))


# advisory lock classes (pg_advisory_xact_lock(class, key)); one number space for ClubDesk
LOCK_MIGRATE = 2500
LOCK_EVENT = 2501
LOCK_AUDIT = 2502
CHANGES_CHANNEL = "clubdesk_changes"  # payload: the event id, or "" for club-wide data
SERVER_LOCK_TIMEOUT = "5s"  # like SQLite's busy timeout: then one clear refusal
SERVER_CONNECT_TIMEOUT = 5


def is_server_url(target: object) -> bool:
    """True for a SQLAlchemy URL of a database server (``postgresql+psycopg://…``), not a file path."""
    return isinstance(target, str) and "://" in target and not target.startswith("sqlite")


def unreachable_error(where: str, exc: BaseException | None = None) -> DatabaseError:
    detail = str(getattr(exc, "orig", None) or exc or "").strip().splitlines()
    return DatabaseError(
        "unreachable",
        _("The club server {where} cannot be reached ({detail}); nothing was saved. Try again.").format(
            where=where, detail=detail[0] if detail else "?"
        ),
    )


def _server_error(exc: BaseException) -> str | None:
    """'busy' for a lock timeout / deadlock / serialisation failure, 'unreachable' for a lost connection."""
    orig = getattr(exc, "orig", exc)
    sqlstate = getattr(orig, "sqlstate", None) or ""
    if sqlstate in ("55P03", "40P01", "40001", "57014"):  # lock_not_available, deadlock, serialisation
        return "busy"
    if sqlstate.startswith("08") or getattr(exc, "connection_invalidated", False):
        return "unreachable"
    if isinstance(exc, OperationalError) and not sqlstate:
        return "unreachable"  # no answer at all: the connection could not be made or was lost
    return None


def db_target(value: str) -> Path | str:
    """``--db``'s value: a server URL stays text, anything else is a file path."""
    return value if is_server_url(value) else Path(value)


def is_server(session_or_engine: Any) -> bool:
    bind = session_or_engine.get_bind() if isinstance(session_or_engine, Session) else session_or_engine
    return bool(bind.dialect.name == "postgresql")


def lock_event(session: Session, event_id: int) -> None:
    """Serialise this transaction with every other desk's that touches the same event's rounds,
    check-in or payments (held until commit). SQLite: the write lock of BEGIN IMMEDIATE already does."""
    if is_server(session):
        session.execute(text("SELECT pg_advisory_xact_lock(:c, :k)"), {"c": LOCK_EVENT, "k": int(event_id)})
    _changed_events(session).add(int(event_id))


def lock_audit_chain(session: Session) -> None:
    """The audit chain's read-the-head-then-insert must not interleave between desks (server only)."""
    if is_server(session):
        session.execute(text("SELECT pg_advisory_xact_lock(:c, 0)"), {"c": LOCK_AUDIT})


def _changed_events(session: Session) -> set[int]:
    found: set[int] = session.info.setdefault("clubdesk.changed_events", set())
    return found


def _note_changes(session: Session, _flush_context: Any) -> None:
    changed = _changed_events(session)
    session.info["clubdesk.changed"] = True
    for obj in [*session.new, *session.dirty, *session.deleted]:
        ev = getattr(obj, "event_id", None)
        if ev is None and getattr(obj, "__tablename__", "") == "events":
            ev = getattr(obj, "id", None)
        if isinstance(ev, int):
            changed.add(ev)


def _notify_changes(session: Session) -> None:
    if not session.info.pop("clubdesk.changed", False):
        return
    events = session.info.pop("clubdesk.changed_events", set())
    for ev in sorted(events) or [None]:
        payload = "" if ev is None else str(ev)
        session.execute(text("SELECT pg_notify(:ch, :p)"), {"ch": CHANGES_CHANNEL, "p": payload})
        if ev is not None:
            session.execute(text("SELECT pg_notify(:ch, '')"), {"ch": f"clubdesk_event_{ev}"})


def listen_changes(db: Database) -> Any:
    """A psycopg connection LISTENing on the changes channel of ``db`` (a server); iterate
    ``conn.notifies(timeout=…)``; each notification's payload is an event id, or "" for club-wide data."""
    import psycopg

    conninfo = db._url.set(drivername="postgresql").render_as_string(hide_password=False)
    conn = psycopg.connect(conninfo, autocommit=True, connect_timeout=SERVER_CONNECT_TIMEOUT)
    conn.execute(f"LISTEN {CHANGES_CHANNEL}")
    return conn


class DataVersion:
    """SQLite's ``PRAGMA data_version`` on a connection of its own (issue 27): it moves whenever another
    connection commits (the window's own, a table server's thread, ``clubdesk-cli serve`` in another
    process), so a timer can follow the file without reading any table. ``changed()`` is cheap."""

    def __init__(self, path: Path) -> None:
        uri = f"{path.resolve().as_uri()}?mode=ro"
        self._lock = threading.Lock()  # the web server's threads share one watcher
        self._conn: sqlite3.Connection | None = sqlite3.connect(
            uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
        )
        self._last = -1
        self._last = self._read()

    def _read(self) -> int:
        with self._lock:
            if self._conn is None:
                return -1
            try:
                return int(self._conn.execute("PRAGMA data_version").fetchone()[0])
            except sqlite3.Error:
                return self._last

    def value(self) -> int:
        """The version now (it only ever differs from an earlier value after another connection's commit)."""
        return self._read()

    def changed(self) -> bool:
        now = self._read()
        moved, self._last = now != self._last, now
        return moved

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def known_revisions() -> list[str]:
    """Revision ids in order. Each migration file is named after its revision id (``0003_events.py``)."""
    return sorted(p.stem for p in (MIGRATIONS_DIR / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))


def head_revision() -> str:
    return known_revisions()[-1]


def _set_pragmas(dbapi_connection: Any, _record: Any) -> None:
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


def make_engine(path: Path) -> Engine:
    """An engine on ``path`` whose transactions take the write lock at their start (``BEGIN IMMEDIATE``)."""
    engine = create_engine(f"sqlite:///{path}", future=True)
    event.listen(engine, "connect", _set_pragmas)
    event.listen(engine, "begin", _begin_immediate)
    return engine


def _is_busy(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "database is locked" in text or "database is busy" in text or "database table is locked" in text


def _not_a_database(path: Path) -> DatabaseError:
    return DatabaseError("not-a-database", _("{path} is not a ClubDesk database.").format(path=path))


def _read_only(path: Path) -> sqlite3.Connection:
    """A connection that can never write to ``path`` (nor create it)."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)


def current_revision(path: Path) -> str | None:
    """The schema revision stored in the file, or None for a missing file or one without ClubDesk's schema."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    try:
        con = _read_only(path)
    except sqlite3.DatabaseError as exc:
        raise _not_a_database(path) from exc
    try:
        row = con.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name='alembic_version'"
        ).fetchone()
        if row is None:
            return None
        ver = con.execute("SELECT version_num FROM alembic_version").fetchone()
        return str(ver[0]) if ver else None
    except sqlite3.DatabaseError as exc:
        raise _not_a_database(path) from exc
    finally:
        con.close()


def check_file(path: Path, *, full: bool = False, pages: bool = True) -> str:
    """Refuse a file that is not a sound ClubDesk database; return its revision.

    0-byte, damaged (``quick_check``/``integrity_check`` fails), foreign (an SQLite file without ClubDesk's
    tables) and unknown-schema files are refused with a translated :class:`DatabaseError`. Never writes.
    ``pages=False`` leaves out the check that reads every page (issue 22: a file ClubDesk closed cleanly
    and nothing touched since, see :func:`_closed_clean`).
    """
    if not path.is_file():
        raise DatabaseError("no-such-file", _("{path} does not exist.").format(path=path))
    if path.stat().st_size == 0:
        raise DatabaseError(
            "empty-file",
            _("{path} is an empty file, not a ClubDesk database; it was left alone.").format(path=path),
        )
    try:
        con = _read_only(path)
        try:
            names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            check = "integrity_check" if full else "quick_check"
            result = [r[0] for r in con.execute(f"PRAGMA {check}")] if pages or full else ["ok"]
        finally:
            con.close()
    except sqlite3.OperationalError as exc:
        if _is_busy(exc):
            raise busy_error() from exc
        raise _not_a_database(path) from exc
    except sqlite3.DatabaseError as exc:
        raise _not_a_database(path) from exc
    if result != ["ok"]:
        raise DatabaseError(
            "damaged",
            _("{path} is damaged ({detail}); it was not opened. Restore a backup.").format(
                path=path, detail=result[0] if result else "?"
            ),
        )
    if not CLUBDESK_TABLES <= names:
        raise DatabaseError(
            "foreign-database",
            _("{path} is a database of another program, not of ClubDesk; it was left alone.").format(
                path=path
            ),
        )
    revision = current_revision(path)
    if revision is None:
        raise _not_a_database(path)
    if revision not in known_revisions():
        raise DatabaseError(
            "schema-too-new",
            _(
                "{path} was written by a newer ClubDesk (schema {rev}). "
                "Install the newer ClubDesk to open it; nothing was changed."
            ).format(path=path, rev=revision),
        )
    return revision


def _restrict(path: Path) -> None:
    with suppress(OSError):
        os.chmod(path, FILE_MODE)


def backup_file(source: Path, target: Path) -> Path:
    """A consistent copy of a (possibly live) SQLite file, made with sqlite3's backup API; owner-only."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    partial.unlink(missing_ok=True)
    fd = os.open(partial, os.O_CREAT | os.O_WRONLY, FILE_MODE)
    os.close(fd)
    src = sqlite3.connect(source, timeout=BUSY_TIMEOUT_MS / 1000)
    dst = sqlite3.connect(partial)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # the copy is one self-contained file
    finally:
        dst.close()
        src.close()
    os.replace(partial, target)
    _restrict(target)
    return target


def _stamp(path: Path) -> Path:
    """Written when ClubDesk closes the file cleanly: its size and modification time then (issue 22)."""
    return path.with_name(path.name + ".closed")


def _file_mark(path: Path) -> str | None:
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size:
        return None  # changes still in the write-ahead log: the next open checks the pages
    st = path.stat()
    return f"{st.st_size} {st.st_mtime_ns}"


def _closed_clean(path: Path) -> bool:
    """Whether ClubDesk closed this file cleanly and nothing changed it since (same size, same time to the
    nanosecond, no write-ahead log). Then opening skips ``quick_check``, which reads every page (at a
    million hand entries about a second, issue 22); any other open still runs it."""
    try:
        mark = _file_mark(path)
        return mark is not None and _stamp(path).read_text(encoding="ascii").strip() == mark
    except (OSError, UnicodeError):
        return False


def _sidecar(path: Path) -> Path:
    """Present while a ClubDesk has the file open: found at the next open, it means an unclean shutdown."""
    return path.with_name(path.name + ".open")


class Database:
    """One open ClubDesk database: a file (SQLite) or a club server (a PostgreSQL URL)."""

    backend: str = "sqlite"
    url: str | None = None  # the server URL without its password; None for a file

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
        # 100 ms (issue 27's 64 tables: hands queued behind those sleeps for seconds).
        self._writer = threading.RLock()
        if is_server_url(path):
            self._open_server(str(path), backups_dir, password)
            return
        self.path = Path(path).expanduser().absolute()
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
                raise _not_a_database(self.path)
            self.unclean_shutdown = _sidecar(self.path).exists()
            clean = not self.unclean_shutdown and _closed_clean(self.path)
            with suppress(OSError):
                _stamp(self.path).unlink(missing_ok=True)  # from here on ClubDesk may write
            revision = check_file(self.path, full=self.unclean_shutdown, pages=not clean)
            self._migrate(revision)
        elif create:
            _create(self.path)
        else:
            raise DatabaseError("no-such-file", _("{path} does not exist.").format(path=self.path))
        self.engine: Engine = make_engine(self.path)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        with suppress(OSError):
            _sidecar(self.path).touch(mode=FILE_MODE)

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
        return self.path.stem if not self.is_server else (self._url.database or "club")

    def _open_server(self, url: str, backups_dir: Path | None, password: str | None) -> None:
        try:
            u: URL = make_url(url)
        except ArgumentError as exc:
            raise DatabaseError("bad-url", _("{url} is not a database address.").format(url=url)) from exc
        if u.get_backend_name() != "postgresql":
            raise DatabaseError(
                "bad-url", _("Only PostgreSQL club servers are supported, not {url}.").format(url=url)
            )
        if u.drivername == "postgresql":
            u = u.set(drivername="postgresql+psycopg")
        if password is not None:
            u = u.set(password=password)
        self._url = u
        self.backend = "postgresql"
        self.url = u.render_as_string(hide_password=True)
        self.path = Path(u.database or "club")  # never a file here: only the name is used (backups)
        from clubdesk.paths import data_dir

        self.backups_dir = backups_dir if backups_dir is not None else data_dir() / "backups"
        self.engine = create_engine(
            u,
            future=True,
            pool_pre_ping=True,
            connect_args={
                "connect_timeout": SERVER_CONNECT_TIMEOUT,
                "options": f"-c lock_timeout={SERVER_LOCK_TIMEOUT} -c timezone=UTC",
            },
        )
        try:
            self._migrate_server()
        except BaseException:
            self.engine.dispose()
            raise
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def _migrate_server(self) -> None:
        """Bring the server's schema to head in ONE transaction under an advisory lock (PostgreSQL's DDL
        is transactional: a lost connection leaves the old schema); a second desk waits, then finds it
        done."""
        from alembic import command
        from alembic.config import Config

        try:
            with self.engine.connect() as connection, connection.begin():
                connection.exec_driver_sql("SET LOCAL lock_timeout = '120s'")
                connection.execute(text("SELECT pg_advisory_xact_lock(:c, 0)"), {"c": LOCK_MIGRATE})
                tables = {
                    r[0]
                    for r in connection.exec_driver_sql(
                        "SELECT table_name FROM information_schema.tables"
                        " WHERE table_schema = current_schema()"
                    )
                }
                current: str | None = None
                if "alembic_version" in tables:
                    row = connection.exec_driver_sql("SELECT version_num FROM alembic_version").fetchone()
                    current = str(row[0]) if row else None
                elif tables:
                    raise DatabaseError(
                        "foreign-database",
                        _(
                            "{path} is a database of another program, not of ClubDesk; it was left alone."
                        ).format(path=self.url),
                    )
                if current is not None and current not in known_revisions():
                    raise DatabaseError(
                        "schema-too-new",
                        _(
                            "{path} was written by a newer ClubDesk (schema {rev}). "
                            "Install the newer ClubDesk to open it; nothing was changed."
                        ).format(path=self.url, rev=current),
                    )
                if current == head_revision():
                    return
                cfg = Config()
                cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
                cfg.attributes["connection"] = connection
                command.upgrade(cfg, "head")
        except DBAPIError as exc:
            code = _server_error(exc)
            if code == "busy":
                raise busy_error() from exc
            if code == "unreachable":
                raise unreachable_error(self.url or "?", exc) from exc
            raise

    def revision(self) -> str | None:
        """The schema revision in use."""
        if not self.is_server:
            return current_revision(self.path)
        with self.engine.connect() as c:
            row = c.exec_driver_sql("SELECT version_num FROM alembic_version").fetchone()
            return str(row[0]) if row else None

    def _migrate(self, revision: str | None) -> None:
        """Upgrade the file when ``revision`` (what :func:`check_file` read from it) is not the head; the
        upgrade reads the revision again under the write lock (another process may have upgraded)."""
        if revision == head_revision():
            return
        self.upgrade_backup = _upgrade_in_place(self.path, self.backups_dir)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One write transaction (``BEGIN IMMEDIATE``): committed when the block ends, rolled back on any
        error. A lock held by another desk longer than the busy timeout is ``DatabaseError("busy")``.
        """
        try:
            with self._write_turn(), self._sessions() as session, session.begin():
                yield session
        except StaleDataError as exc:  # a versioned row (a match) changed by another desk meanwhile
            raise DatabaseError(
                "changed-elsewhere",
                _("Another desk changed the same data at the same moment; nothing was saved. Look again."),
            ) from exc
        except DBAPIError as exc:
            if not self.is_server:
                if isinstance(exc, OperationalError) and _is_busy(exc):
                    raise busy_error() from exc
                raise
            code = _server_error(exc)
            if code == "busy":
                raise busy_error() from exc
            if code == "unreachable":
                raise unreachable_error(self.url or "?", exc) from exc
            raise

    def read_now(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read statement on a pooled driver connection of a club file, without a
        transaction of its own (one statement reads one state of the file): the cheapest read there is,
        for what is asked on every hand or page (issue 22, 27). Not for the club server."""
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
        commit instead of SQLite's busy handler sleeping between tries (issue 27: at 64 tables two
        processes' hands waited up to ~100 ms per try). ``None``: this process's own lock again."""
        self._writer = lock if lock is not None else threading.RLock()

    @contextmanager
    def _write_turn(self) -> Iterator[None]:
        if self.is_server:  # the server orders its writers itself
            yield
            return
        # only an order among this process's (or this server's) writers: SQLite's own write lock
        # keeps the data right, so a turn not given in time (a worker killed while writing) goes on
        # without it
        lock = self._writer  # the one taken is the one given back, even if shared meanwhile
        held = lock.acquire(timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            yield
        finally:
            if held:
                lock.release()

    @contextmanager
    def read_session(self) -> Iterator[Session]:
        """A read-only transaction (deferred ``BEGIN``: one consistent snapshot, no write lock), for long
        reads such as the audit export (issue 22); nothing done in it is committed."""
        try:
            with self.engine.connect() as conn:
                conn.execution_options(clubdesk_read=True)
                with Session(bind=conn, expire_on_commit=False) as session:
                    session.begin()
                    try:
                        yield session
                    finally:
                        session.rollback()
        except OperationalError as exc:
            if _is_busy(exc):
                raise busy_error() from exc
            raise

    def close(self) -> None:
        self.engine.dispose()
        if self.is_server:
            return
        with suppress(OSError):
            _sidecar(self.path).unlink(missing_ok=True)
            mark = _file_mark(self.path)
            if mark is not None:
                _stamp(self.path).touch(mode=FILE_MODE)
                _stamp(self.path).write_text(mark, encoding="ascii")


@event.listens_for(Session, "loaded_as_persistent")
def _hold(session: Session, instance: object) -> None:
    """Every row a transaction loads stays in its identity map until the transaction ends: SQLAlchemy keeps
    unchanged rows only weakly, so a row read twice in one change (the event's night settings, a table's
    state) was read twice from the file (issue 22/27: a hand's work in proportion to the hand)."""
    session.info.setdefault("clubdesk.held", []).append(instance)


@event.listens_for(Session, "after_transaction_end")
def _let_go(session: Session, transaction: Any) -> None:
    if transaction.parent is None:  # the outermost transaction: its rows may go
        session.info.pop("clubdesk.held", None)


@event.listens_for(Session, "after_flush")
def _after_flush(session: Session, flush_context: Any) -> None:
    _note_changes(session, flush_context)


@event.listens_for(Session, "before_commit")
def _before_commit(session: Session) -> None:
    try:
        bind = session.get_bind()
    except Exception:  # noqa: BLE001 - a session without a bind is none of ClubDesk's
        return
    if bind.dialect.name == "postgresql":
        session.flush()
        _notify_changes(session)
    else:
        session.info.pop("clubdesk.changed", None)
        session.info.pop("clubdesk.changed_events", None)


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    session.info.pop("clubdesk.changed", None)
    session.info.pop("clubdesk.changed_events", None)


def _create(path: Path) -> None:
    """Build a new database beside ``path`` and move it into place only when every migration has run."""
    partial = path.with_name(path.name + ".creating")
    for suffix in ("", "-wal", "-shm"):
        partial.with_name(partial.name + suffix).unlink(missing_ok=True)
    fd = os.open(partial, os.O_CREAT | os.O_WRONLY, FILE_MODE)
    os.close(fd)
    upgrade(partial)
    con = sqlite3.connect(partial)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()
    for side in ("-wal", "-shm"):
        partial.with_name(partial.name + side).unlink(missing_ok=True)
    try:
        os.link(partial, path)  # fails if another process created the file meanwhile: theirs wins
    except FileExistsError:
        pass
    except OSError:
        if not path.exists():
            os.replace(partial, path)
    partial.unlink(missing_ok=True)
    _restrict(path)


def _upgrade_in_place(path: Path, backups_dir: Path) -> Path | None:
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
                if _is_busy(exc):
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
    _restrict(path)


@dataclass(frozen=True)
class BackupInfo:
    file: Path
    bytes: int
    integrity: str
    revision: str | None
    audit_head: str | None
    made: datetime


def _integrity(path: Path) -> str:
    con = _read_only(path)
    try:
        rows = [r[0] for r in con.execute("PRAGMA integrity_check")]
    finally:
        con.close()
    return "ok" if rows == ["ok"] else "; ".join(rows[:3])


def _hash_hex(stored: object) -> str:
    """An audit row hash as hex text: raw bytes from 0018_audit_compact (16), hex text before (issue 22)."""
    return bytes(stored).hex() if isinstance(stored, (bytes, bytearray, memoryview)) else str(stored)


def _audit_head(path: Path) -> str | None:
    con = _read_only(path)
    try:
        cols = {r[1] for r in con.execute("PRAGMA table_info(audit_log)")}
        if "row_hash" not in cols:
            return None
        row = con.execute("SELECT row_hash FROM audit_log ORDER BY id DESC LIMIT 1").fetchone()
        return _hash_hex(row[0]) if row and row[0] else None
    finally:
        con.close()


BACKUP_STAMP = "%Y%m%d-%H%M%S"
KEEP_LAST = 10
KEEP_DAYS = 30
KEEP_MONTHS = 12


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
        if _is_busy(exc):
            raise busy_error() from exc
        raise
    integrity = _integrity(target)
    if integrity != "ok":
        target.unlink(missing_ok=True)
        raise DatabaseError(
            "backup-failed",
            _("The backup copy failed its check ({detail}); nothing was kept.").format(detail=integrity),
        )
    info = BackupInfo(
        file=target,
        bytes=target.stat().st_size,
        integrity=integrity,
        revision=current_revision(target),
        audit_head=_audit_head(target),
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
    import shutil
    import subprocess

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
    u = db._url
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
    integrity = "ok"
    pg_restore = shutil.which("pg_restore")
    if pg_restore is not None:
        listed = subprocess.run(
            [pg_restore, "--list", str(partial)], capture_output=True, text=True, timeout=120
        )
        integrity = "ok" if listed.returncode == 0 and "TABLE DATA" in listed.stdout else "unreadable"
    if integrity != "ok":
        partial.unlink(missing_ok=True)
        raise DatabaseError(
            "backup-failed",
            _("The backup copy failed its check ({detail}); nothing was kept.").format(detail=integrity),
        )
    os.replace(partial, target)
    _restrict(target)
    with db.engine.connect() as c:
        head = c.exec_driver_sql(
            "SELECT row_hash FROM audit_log WHERE row_hash IS NOT NULL ORDER BY id DESC LIMIT 1"
        ).scalar()
    info = BackupInfo(
        file=target,
        bytes=target.stat().st_size,
        integrity=integrity,
        revision=db.revision(),
        audit_head=_hash_hex(head) if head else None,
        made=made,
    )
    rotate_backups(folder, db.name, now=made)  # the same keeping rule as the file's backups (issue 25)
    return info


def _backup_time(path: Path, stem: str) -> datetime | None:
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
        made = _backup_time(p, stem) or datetime.fromtimestamp(mtime / 1e9)
        found.append((made, mtime, p))  # copies made within one second are ordered by their file time
    return [(made, p) for made, _m, p in sorted(found, reverse=True)]


def rotate_backups(folder: Path, stem: str, *, now: datetime | None = None) -> list[Path]:
    """Keep the last 10 timed backups, the newest of each of the last 30 days and of each of the last
    12 months; delete the rest (pre-upgrade copies are never deleted here). Returns what was deleted."""
    now = now or datetime.now()
    timed = [(t, p) for t, p in list_backups(folder, stem) if _backup_time(p, stem) is not None]
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
    src = _read_only(file)
    dst = sqlite3.connect(db.path, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        src.backup(dst)
    except sqlite3.OperationalError as exc:
        if _is_busy(exc):
            raise busy_error() from exc
        raise
    finally:
        dst.close()
        src.close()
    if current_revision(db.path) != head_revision():
        _upgrade_in_place(db.path, db.backups_dir)
    return safety
