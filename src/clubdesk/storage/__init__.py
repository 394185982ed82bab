"""ClubDesk's storage: a club file (SQLite) or a club server (PostgreSQL), opened as one :class:`Database`.

The modules, from the bottom: ``errors`` (:class:`DatabaseError`), ``revisions`` (the known schema
revisions), ``sqlite`` (pragmas, ``BEGIN IMMEDIATE``, the safe open, file marks), ``changes`` (what a
transaction changed, ``data_version``), ``server`` (a club server's address, errors, schema, advisory
locks, ``NOTIFY``), ``migrate`` (building and upgrading a file's schema), ``checks`` (the one full check
of a club file: pages, and every table, column, index and trigger of its revision), ``database``
(:class:`Database` and ClubDesk's session class), ``backup`` (backups and their keeping rule),
``restore`` (a restore under the writers' lock), ``files`` (prints and exports written whole or not at
all).

This face lists what code outside storage uses; tests may reach the modules themselves.
"""

from clubdesk.storage.backup import (
    BackupInfo,
    backup_database,
    backup_server,
    list_backups,
)
from clubdesk.storage.changes import DataVersion
from clubdesk.storage.database import ClubSession, Database
from clubdesk.storage.errors import DatabaseError
from clubdesk.storage.files import write_atomically
from clubdesk.storage.restore import restore_database
from clubdesk.storage.revisions import known_revisions
from clubdesk.storage.server import (
    db_target,
    is_server,
    is_server_url,
    listen_changes,
    lock_audit_chain,
    lock_event,
)
from clubdesk.storage.sqlite import current_revision, read_only

__all__ = [
    "BackupInfo",
    "ClubSession",
    "DataVersion",
    "Database",
    "DatabaseError",
    "backup_database",
    "backup_server",
    "current_revision",
    "db_target",
    "is_server",
    "is_server_url",
    "known_revisions",
    "listen_changes",
    "lock_audit_chain",
    "lock_event",
    "list_backups",
    "read_only",
    "restore_database",
    "write_atomically",
]
