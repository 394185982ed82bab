"""What is particular to a club server (PostgreSQL): its address, its errors, its schema, its locks, its
notices.

``Database("postgresql+psycopg://user@host:5432/club")`` opens a PostgreSQL database through the same
models and migrations. Migrations run in one transaction under an advisory lock (a second desk waits and
finds the schema upgraded), a lock held too long by another desk is the same ``busy`` refusal as on a file,
an unreachable server is ``unreachable``, writes that must not interleave (one event's
publish/check-in/payments, the audit chain's head) take advisory transaction locks (:func:`lock_event`,
:func:`lock_audit_chain`; no-ops on SQLite, whose ``BEGIN IMMEDIATE`` already serialises every write), and
each committed change is announced with ``NOTIFY`` (:func:`listen_changes`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError
from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.storage.changes import CHANGES_CHANNEL, changed_events
from clubdesk.storage.errors import DatabaseError, busy_error
from clubdesk.storage.revisions import MIGRATIONS_DIR, head_revision, known_revisions, unknown_revision_error

# advisory lock classes (pg_advisory_xact_lock(class, key)); one number space for ClubDesk
LOCK_MIGRATE = 2500
LOCK_EVENT = 2501
LOCK_AUDIT = 2502
SERVER_LOCK_TIMEOUT = "5s"  # like SQLite's busy timeout: then one clear refusal
SERVER_CONNECT_TIMEOUT = 5


def is_server_url(target: object) -> bool:
    """True for a SQLAlchemy URL of a database server (``postgresql+psycopg://…``), not a file path."""
    return isinstance(target, str) and "://" in target and not target.startswith("sqlite")


def db_target(value: str) -> Path | str:
    """``--db``'s value: a server URL stays text, anything else is a file path."""
    return value if is_server_url(value) else Path(value)


def unreachable_error(where: str, exc: BaseException | None = None) -> DatabaseError:
    detail = str(getattr(exc, "orig", None) or exc or "").strip().splitlines()
    return DatabaseError(
        "unreachable",
        _("The club server {where} cannot be reached ({detail}); nothing was saved. Try again.").format(
            where=where, detail=detail[0] if detail else "?"
        ),
    )


def server_error(exc: BaseException) -> str | None:
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


def refusal(exc: DBAPIError, where: str | None) -> DatabaseError | None:
    """The clear refusal a server's driver error means (busy, unreachable), or None for any other."""
    code = server_error(exc)
    if code == "busy":
        return busy_error()
    if code == "unreachable":
        return unreachable_error(where or "?", exc)
    return None


def is_server(session_or_engine: Any) -> bool:
    bind = session_or_engine.get_bind() if isinstance(session_or_engine, Session) else session_or_engine
    return bool(bind.dialect.name == "postgresql")


def lock_event(session: Session, event_id: int) -> None:
    """Serialise this transaction with every other desk's that touches the same event's rounds,
    check-in or payments (held until commit). SQLite: the write lock of BEGIN IMMEDIATE already does."""
    if is_server(session):
        session.execute(text("SELECT pg_advisory_xact_lock(:c, :k)"), {"c": LOCK_EVENT, "k": int(event_id)})
    changed_events(session).add(int(event_id))


def lock_audit_chain(session: Session) -> None:
    """The audit chain's read-the-head-then-insert must not interleave between desks (server only)."""
    if is_server(session):
        session.execute(text("SELECT pg_advisory_xact_lock(:c, 0)"), {"c": LOCK_AUDIT})


def server_address(url: str, password: str | None) -> URL:
    """The address of a club server (psycopg as the driver, the password if given), or a refusal."""
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
    return u


def make_server_engine(address: URL) -> Engine:
    """An engine whose connections give up on a lock after :data:`SERVER_LOCK_TIMEOUT` and keep UTC."""
    return create_engine(
        address,
        future=True,
        pool_pre_ping=True,
        connect_args={
            "connect_timeout": SERVER_CONNECT_TIMEOUT,
            "options": f"-c lock_timeout={SERVER_LOCK_TIMEOUT} -c timezone=UTC",
        },
    )


def migrate_server(engine: Engine, where: str | None) -> None:
    """Bring the server's schema to head in ONE transaction under an advisory lock (PostgreSQL's DDL
    is transactional: a lost connection leaves the old schema); a second desk waits, then finds it
    done. ``where`` is the address shown in a refusal (without its password)."""
    from alembic import command  # only when a schema is checked: opening a file stays cheap without it
    from alembic.config import Config

    try:
        with engine.connect() as connection, connection.begin():
            connection.exec_driver_sql("SET LOCAL lock_timeout = '120s'")
            connection.execute(text("SELECT pg_advisory_xact_lock(:c, 0)"), {"c": LOCK_MIGRATE})
            tables = {
                r[0]
                for r in connection.exec_driver_sql(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                )
            }
            current: str | None = None
            if "alembic_version" in tables:
                row = connection.exec_driver_sql("SELECT version_num FROM alembic_version").fetchone()
                current = str(row[0]) if row else None
            elif tables:
                raise DatabaseError(
                    "foreign-database",
                    _("{path} is a database of another program, not of ClubDesk; it was left alone.").format(
                        path=where
                    ),
                )
            if current is not None and current not in known_revisions():
                raise unknown_revision_error(where, current)
            if current == head_revision():
                return
            cfg = Config()
            cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")
    except DBAPIError as exc:
        refused = refusal(exc, where)
        if refused is not None:
            raise refused from exc
        raise


def server_revision(engine: Engine) -> str | None:
    """The schema revision a club server holds."""
    with engine.connect() as c:
        row = c.exec_driver_sql("SELECT version_num FROM alembic_version").fetchone()
        return str(row[0]) if row else None


class OnServer(Protocol):
    """An open database on a club server, as :func:`listen_changes` needs it."""

    @property
    def server_address(self) -> URL: ...


def listen_changes(db: OnServer) -> Any:
    """A psycopg connection LISTENing on the changes channel of ``db`` (a server); iterate
    ``conn.notifies(timeout=…)``; each notification's payload is an event id, or "" for club-wide data."""
    import psycopg  # the club server's driver: a club file never needs it

    conninfo = db.server_address.set(drivername="postgresql").render_as_string(hide_password=False)
    conn = psycopg.connect(conninfo, autocommit=True, connect_timeout=SERVER_CONNECT_TIMEOUT)
    conn.execute(f"LISTEN {CHANGES_CHANNEL}")
    return conn
