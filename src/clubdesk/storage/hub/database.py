"""Opening the hub: its PostgreSQL URL (the engine the club server uses), its ``federation`` schema and its
own Alembic chain, brought to head by ``federation init`` and checked on every open."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from clubdesk.i18n import _
from clubdesk.storage.hub.models import SCHEMA

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
HUB_LOCK = 0x46454431  # advisory lock: one import at a time decides an event's versions


class HubError(Exception):
    """The hub cannot be opened or used (the message says why, for people)."""


def _config(connection: object | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def _engine(url: str) -> Engine:
    if not url.startswith("postgresql"):
        raise HubError(_("A federation hub is a PostgreSQL database: give a postgresql:// URL."))
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return create_engine(url, pool_pre_ping=True)


class Hub:
    """An open hub: ``session()`` is one transaction (committed at the end, rolled back on any error)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self._sessions() as s, s.begin():
            yield s

    def close(self) -> None:
        self.engine.dispose()


def init_hub(url: str) -> str:
    """Create the ``federation`` schema and bring the hub's chain to head (again: nothing to do)."""
    engine = _engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}"))
            command.upgrade(_config(connection), "head")
    except SQLAlchemyError as exc:
        raise HubError(_("Cannot prepare the hub: {why}").format(why=str(exc).splitlines()[0])) from exc
    finally:
        engine.dispose()
    return head_revision()


def open_hub(url: str) -> Hub:
    """The hub at ``url``, refused unless ``federation init`` brought it to this ClubDesk's revision."""
    engine = _engine(url)
    try:
        with engine.connect() as connection:
            found = connection.execute(
                text("SELECT to_regclass(:t)"), {"t": f"{SCHEMA}.alembic_version"}
            ).scalar()
            current = (
                connection.execute(text(f"SELECT version_num FROM {SCHEMA}.alembic_version")).scalar()
                if found
                else None
            )
    except SQLAlchemyError as exc:
        engine.dispose()
        raise HubError(_("Cannot reach the hub: {why}").format(why=str(exc).splitlines()[0])) from exc
    if current != head_revision():
        engine.dispose()
        raise HubError(_("This database is not a federation hub yet: run federation init first."))
    return Hub(engine)


def copy_rows(session: Session, table: str, columns: tuple[str, ...], rows: list[tuple[object, ...]]) -> None:
    """Rows written with PostgreSQL's COPY inside the session's transaction: an event's 120 matches in
    one exchange with the server, without building an INSERT per row (the import's bulk of work)."""
    if not rows:
        return
    raw = session.connection().connection.driver_connection
    assert raw is not None
    with (
        raw.cursor() as cursor,
        cursor.copy(f"COPY {SCHEMA}.{table} ({', '.join(columns)}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row(row)
