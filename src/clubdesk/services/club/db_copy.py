"""Moving a club between backends: ``db copy SRC DST`` for any two of SQLite file / club server.

The source is read in one consistent snapshot (SQLite: its write lock; PostgreSQL: a REPEATABLE READ
transaction), the destination is written in ONE transaction: a failure leaves it as it was. A destination
that holds any ClubDesk data is refused. Before the commit, every table's row count and checksum are
computed again from the destination and compared with the source's; any difference rolls everything back.

The checksum of a table is the SHA-256 of its rows in primary-key order, each row the JSON list of its
values as the models read them (so a row reads the same from SQLite and PostgreSQL).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Table, func, select, text
from sqlalchemy.engine import Connection

from clubdesk.i18n import _
from clubdesk.models import Base
from clubdesk.services.kernel import Actor, audit, require
from clubdesk.storage import Database, DatabaseError

CHUNK = 500


@dataclass(frozen=True)
class TableCopy:
    table: str
    rows: int
    checksum: str
    ok: bool

    def as_json(self) -> dict[str, Any]:
        return {"table": self.table, "rows": self.rows, "checksum": self.checksum, "ok": self.ok}


@dataclass(frozen=True)
class CopyReport:
    source: str
    destination: str
    tables: tuple[TableCopy, ...]

    @property
    def rows(self) -> int:
        return sum(t.rows for t in self.tables)

    def as_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "destination": self.destination,
            "rows": self.rows,
            "tables": [t.as_json() for t in self.tables],
        }


# derived, not copied: a club file's own triggers make its standings stamps (migration 0017), the
# club server has none; copied, they collided with the ones the destination's triggers had just made
DERIVED = frozenset({"standings_stamps"})


def _tables() -> list[Table]:
    # parents before children: foreign keys hold on insert
    return [t for t in Base.metadata.sorted_tables if t.name not in DERIVED]


def _order(t: Table) -> list[Any]:
    return list(t.primary_key.columns) or list(t.columns)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, bytes):
        return value.hex()
    return value


def _row_text(row: Iterable[Any]) -> bytes:
    return json.dumps(
        [_plain(v) for v in row], ensure_ascii=False, separators=(",", ":"), default=str
    ).encode()


def table_checksum(conn: Connection, t: Table) -> tuple[int, str]:
    """(rows, sha256) of one table, rows in primary-key order."""
    digest = hashlib.sha256()
    n = 0
    for row in conn.execute(select(*t.columns).order_by(*_order(t))):
        digest.update(_row_text(row))
        digest.update(b"\n")
        n += 1
    return n, digest.hexdigest()


def _is_empty(conn: Connection) -> bool:
    return all(not conn.execute(select(func.count()).select_from(t)).scalar() for t in _tables())


def _reset_sequences(conn: Connection) -> None:
    """PostgreSQL: serial ids go on after the copied ones."""
    for t in _tables():
        pk = list(t.primary_key.columns)
        if len(pk) != 1 or not pk[0].autoincrement or str(pk[0].type) != "INTEGER":
            continue
        seq = conn.execute(
            text("SELECT pg_get_serial_sequence(:t, :c)"), {"t": t.name, "c": pk[0].name}
        ).scalar()
        if seq:
            conn.execute(
                text(f"SELECT setval(:s, COALESCE((SELECT MAX({pk[0].name}) FROM {t.name}), 0) + 1, false)"),
                {"s": seq},
            )


def copy_database(source: Database, destination: Database, actor: Actor | None = None) -> CopyReport:
    """Copy every row of ``source`` into the empty ``destination`` and verify it (see the module doc).
    With ``actor``, both audit logs say so once the copy is verified: the source that a whole copy of the
    club (contacts included) was taken, and where to; the destination where its rows came from."""
    if actor is not None:
        require(actor, "database.backup", source)  # permission table: a whole copy, as a backup is
    if source.location == destination.location:
        raise DatabaseError("copy-self", _("The source and the destination are the same database."))
    if source.revision() != destination.revision():
        raise DatabaseError("copy-schema", _("The two databases have different schemas; open both first."))
    src_conn = source.engine.connect()
    if source.is_server:
        src_conn = src_conn.execution_options(isolation_level="REPEATABLE READ")
    results: list[TableCopy] = []
    try:
        with src_conn.begin(), destination.engine.begin() as dst:
            if not _is_empty(dst):
                raise DatabaseError(
                    "copy-not-empty",
                    _("{db} already holds club data; copy only into a new, empty database.").format(
                        db=destination.location
                    ),
                )
            expected: dict[str, tuple[int, str]] = {}
            for t in _tables():
                expected[t.name] = table_checksum(src_conn, t)
                batch: list[dict[str, Any]] = []
                for row in src_conn.execute(select(*t.columns).order_by(*_order(t))).mappings():
                    batch.append(dict(row))
                    if len(batch) >= CHUNK:
                        dst.execute(t.insert(), batch)
                        batch = []
                if batch:
                    dst.execute(t.insert(), batch)
            if destination.is_server:
                _reset_sequences(dst)
            for t in _tables():
                got = table_checksum(dst, t)
                results.append(TableCopy(t.name, got[0], got[1], got == expected[t.name]))
            bad = [r.table for r in results if not r.ok]
            if bad:
                raise DatabaseError(
                    "copy-mismatch",
                    _("The copy differs from the source in {tables}; nothing was kept.").format(
                        tables=", ".join(bad)
                    ),
                )
    finally:
        src_conn.close()
    report = CopyReport(source.location, destination.location, tuple(results))
    if actor is not None:
        summary = {"source": report.source, "destination": report.destination, "rows": report.rows}
        with destination.session() as s:
            audit(s, actor, "database.copy-in", "database", destination.name, after=summary)
        with source.session() as s:
            audit(s, actor, "database.copy-out", "database", source.name, after=summary)
    return report


def verify_same(a: Database, b: Database) -> list[tuple[str, tuple[int, str], tuple[int, str]]]:
    """Tables whose (rows, checksum) differ between two databases (empty: the same content)."""
    out = []
    with a.engine.connect() as ca, b.engine.connect() as cb:
        for t in _tables():
            x, y = table_checksum(ca, t), table_checksum(cb, t)
            if x != y:
                out.append((t.name, x, y))
    return out
