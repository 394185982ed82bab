"""The one full check of a ClubDesk file, used by open, backup and restore.

A file passes when SQLite finds its pages sound (``quick_check``, or ``integrity_check`` after an unclean
shutdown) and it has every table, column, index and trigger that its revision has: the reference is a file
freshly built at that revision by :func:`clubdesk.storage.migrate.upgrade`, read once per ClubDesk version and
kept in the data folder (``schemas/``), keyed by a digest of the migration scripts. A file that fails is
refused with what is wrong or missing, never written to, and the ``-wal``/``-shm`` files a read-only look
may leave beside it are removed again.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from clubdesk.i18n import _
from clubdesk.paths import data_dir
from clubdesk.storage.errors import DatabaseError, busy_error
from clubdesk.storage.migrate import upgrade
from clubdesk.storage.revisions import MIGRATIONS_DIR, known_revisions, unknown_revision_error
from clubdesk.storage.sqlite import is_busy, not_a_database, read_only

CLUBDESK_TABLES = {"alembic_version", "settings", "audit_log"}
SHOWN_MISSING = 8  # a refusal names this many missing parts, then "and N more"
SIDE_FILES = ("-wal", "-shm")


@dataclass(frozen=True)
class Schema:
    """What a ClubDesk file has: its tables with their columns, its indexes and its triggers (by name;
    SQLite's own ``sqlite_*`` objects are left out, as they follow from the tables)."""

    tables: dict[str, frozenset[str]]
    indexes: frozenset[str]
    triggers: frozenset[str]

    def missing(self, found: Schema) -> list[str]:
        """What ``found`` lacks of this schema, in words: tables, then columns, indexes and triggers."""
        gaps = [_("table {name}").format(name=t) for t in sorted(self.tables) if t not in found.tables]
        for table in sorted(set(self.tables) & set(found.tables)):
            for column in sorted(self.tables[table] - found.tables[table]):
                gaps.append(_("column {table}.{name}").format(table=table, name=column))
        gaps += [_("index {name}").format(name=i) for i in sorted(self.indexes - found.indexes)]
        gaps += [_("trigger {name}").format(name=t) for t in sorted(self.triggers - found.triggers)]
        return gaps


def read_schema(con: sqlite3.Connection) -> Schema:
    """The schema of the file behind ``con`` (read only)."""
    rows = con.execute(
        "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    ).fetchall()
    tables = {
        name: frozenset(str(c[1]) for c in con.execute(f'PRAGMA table_info("{name}")'))
        for kind, name in rows
        if kind == "table"
    }
    return Schema(
        tables=tables,
        indexes=frozenset(name for kind, name in rows if kind == "index"),
        triggers=frozenset(name for kind, name in rows if kind == "trigger"),
    )


def _digest() -> str:
    """Changes with any migration script: a reference built by another ClubDesk version is not reused."""
    h = hashlib.sha256()
    for script in sorted((MIGRATIONS_DIR / "versions").glob("*.py")):
        h.update(script.name.encode())
        h.update(script.read_bytes())
    return h.hexdigest()[:16]


def _to_json(schema: Schema) -> str:
    return json.dumps(
        {
            "tables": {t: sorted(c) for t, c in sorted(schema.tables.items())},
            "indexes": sorted(schema.indexes),
            "triggers": sorted(schema.triggers),
        }
    )


def _from_json(text: str) -> Schema:
    raw = json.loads(text)
    return Schema(
        tables={str(t): frozenset(map(str, c)) for t, c in raw["tables"].items()},
        indexes=frozenset(map(str, raw["indexes"])),
        triggers=frozenset(map(str, raw["triggers"])),
    )


def _built(revision: str) -> Schema:
    """The schema of a file freshly created at ``revision`` by the migrations."""
    with tempfile.TemporaryDirectory(prefix="clubdesk-schema-") as folder:
        path = Path(folder) / "reference.sqlite3"
        upgrade(path, revision)
        con = sqlite3.connect(path)
        try:
            return read_schema(con)
        finally:
            con.close()


# The schema of the newest revision ships with ClubDesk, so opening a current file needs no migration run
# (and no Alembic before the first screen): tests/integration/test_safety_restore.py checks it against a file
# built by the migrations, and `python -m clubdesk.storage.checks` writes it again after a new migration.
SHIPPED = Path(__file__).with_name("schema_head.json")


def shipped_schema(revision: str) -> Schema | None:
    """The shipped schema, when it is the one of ``revision`` and of these migration scripts."""
    with suppress(OSError, ValueError, KeyError, AttributeError, TypeError):
        raw = json.loads(SHIPPED.read_text(encoding="utf-8"))
        if raw["revision"] == revision and raw["digest"] == _digest():
            return _from_json(json.dumps(raw["schema"]))
    return None


def write_shipped(revision: str) -> Path:
    """Write :data:`SHIPPED` for ``revision`` from a file the migrations build."""
    raw = {"revision": revision, "digest": _digest(), "schema": json.loads(_to_json(_built(revision)))}
    SHIPPED.write_text(json.dumps(raw, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return SHIPPED


@cache
def revision_schema(revision: str) -> Schema:
    """Every table, column, index and trigger a file at ``revision`` has (shipped for the newest revision,
    else built once, then kept)."""
    shipped = shipped_schema(revision)
    if shipped is not None:
        return shipped
    kept: Path | None = None
    with suppress(OSError, ValueError, KeyError, AttributeError):
        kept = data_dir() / "schemas" / f"{revision}-{_digest()}.json"
        return _from_json(kept.read_text(encoding="utf-8"))  # a damaged copy is built again
    schema = _built(revision)
    if kept is not None:  # a cache only: a full disk or read-only folder leaves it out, and no .part
        part = kept.with_name(kept.name + ".part")
        try:
            kept.parent.mkdir(parents=True, exist_ok=True)
            part.write_text(_to_json(schema), encoding="utf-8")
            part.replace(kept)
        except OSError:
            with suppress(OSError):
                part.unlink(missing_ok=True)
    return schema


@contextmanager
def _leaving_no_side_files(path: Path) -> Iterator[None]:
    """A refused file is left as it was found: the ``-wal``/``-shm`` files a read-only connection made
    beside it (none were there before, so no other connection uses them) are removed again."""
    before = {s for s in SIDE_FILES if path.with_name(path.name + s).exists()}
    try:
        yield
    except DatabaseError:
        for side in SIDE_FILES:
            if side not in before:
                with suppress(OSError):
                    path.with_name(path.name + side).unlink(missing_ok=True)
        raise


def _missing_error(path: Path, revision: str, gaps: list[str]) -> DatabaseError:
    shown = ", ".join(gaps[:SHOWN_MISSING])
    if len(gaps) > SHOWN_MISSING:
        shown += " " + _("and {n} more").format(n=len(gaps) - SHOWN_MISSING)
    return DatabaseError(
        "incomplete",
        _(
            "{path} is not a whole ClubDesk database (schema {rev}): it lacks {missing}. "
            "It was left alone; restore a backup."
        ).format(path=path, rev=revision, missing=shown),
    )


def check_file(path: Path, *, full: bool = False, pages: bool = True) -> str:
    """Refuse a file that is not a sound, whole ClubDesk database; return its revision.

    0-byte, damaged (``quick_check``/``integrity_check`` fails), foreign (an SQLite file without ClubDesk's
    tables), unknown-schema and incomplete files (a table, column, index or trigger of its revision
    missing) are refused with a translated :class:`DatabaseError`. Never writes. ``pages=False`` leaves
    out the check that reads every page (a file ClubDesk closed cleanly and nothing touched since, see
    :func:`clubdesk.storage.sqlite.closed_clean`).
    """
    if not path.is_file():
        raise DatabaseError("no-such-file", _("{path} does not exist.").format(path=path))
    if path.stat().st_size == 0:
        raise DatabaseError(
            "empty-file",
            _("{path} is an empty file, not a ClubDesk database; it was left alone.").format(path=path),
        )
    with _leaving_no_side_files(path):
        return _check(path, full=full, pages=pages)


def _check(path: Path, *, full: bool, pages: bool) -> str:
    try:
        con = read_only(path)
        try:
            found = read_schema(con)
            check = "integrity_check" if full else "quick_check"
            result = [r[0] for r in con.execute(f"PRAGMA {check}")] if pages or full else ["ok"]
            revision = None
            if "alembic_version" in found.tables:
                row = con.execute("SELECT version_num FROM alembic_version").fetchone()
                revision = str(row[0]) if row else None
        finally:
            con.close()
    except sqlite3.OperationalError as exc:
        if is_busy(exc):
            raise busy_error() from exc
        raise not_a_database(path) from exc
    except sqlite3.DatabaseError as exc:
        raise not_a_database(path) from exc
    if result != ["ok"]:
        raise DatabaseError(
            "damaged",
            _("{path} is damaged ({detail}); it was not opened. Restore a backup.").format(
                path=path, detail=result[0] if result else "?"
            ),
        )
    if not CLUBDESK_TABLES <= set(found.tables):
        raise DatabaseError(
            "foreign-database",
            _("{path} is a database of another program, not of ClubDesk; it was left alone.").format(
                path=path
            ),
        )
    if revision is None:
        raise not_a_database(path)
    if revision not in known_revisions():
        raise unknown_revision_error(path, revision)
    gaps = revision_schema(revision).missing(found)
    if gaps:
        raise _missing_error(path, revision, gaps)
    return revision


def copy_check(path: Path) -> str:
    """The full check of a copy just made (a backup): "ok", or what is wrong with it."""
    try:
        check_file(path, full=True)
    except DatabaseError as exc:
        return str(exc)
    return "ok"


if __name__ == "__main__":
    from clubdesk.storage.revisions import head_revision

    print(write_shipped(head_revision()))
