"""The audit log's key, kept outside the club file, and the row from which the log is keyed.

A chain of plain SHA-256 links can be recomputed by whoever edits the file, with ClubDesk's own function.
From the first audited write of this version on, a club file's new rows are linked with HMAC-SHA256 under
the club's audit key (``audit-<club uid>`` in :mod:`clubdesk.keys`: the system keyring, else an owner-only
key file in ``keys.keys_dir()``), which the file does not hold. The rows written before stay as they are
and are checked as before; the first keyed row links to the last of them, so editing an old row and
recomputing the plain chain still breaks the keyed one.

Where keying starts is kept twice: in the setting ``audit.keyed`` (which the verifier reads first) and in
the first keyed row itself (action ``audit.keyed``, covered by the key), with the highest id each watched
table had then (rows older than that carry no seal, see :mod:`audit_seal`). Every anchor written outside
the file also records it (:mod:`audit_anchor`), so removing the setting and recomputing a plain chain is
seen too.

A club server is not keyed: its desks are several PCs and a key never leaves its PC; its log stays
chained with SHA-256 (and the server's own access rules keep the desks' users off its tables).
"""

from __future__ import annotations

import json
import os
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from clubdesk import keys
from clubdesk.models import Setting
from clubdesk.services.kernel.identity import club_uid

MARKER_KEY = "audit.keyed"
KEYED_ACTION = "audit.keyed"
# the rows whose values the keyed log seals (audit_seal.WATCHED); their highest ids when keying began
SEALED_TABLES = ("payments", "members", "matches", "penalties", "incidents", "appeals")


class AuditKeyMissing(Exception):
    """This club file's log is keyed and its key is not on this PC (``name``, ``where`` it is looked for)."""

    def __init__(self, name: str, where: str) -> None:
        super().__init__(name)
        self.name = name
        self.where = where


def key_name(uid: str) -> str:
    return f"audit-{uid}"


def is_server(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def marker(session: Session) -> dict[str, Any] | None:
    """Where keying began (``after``: the last plain row's id, ``key``: the key's name, ``from``: the
    watched tables' highest ids then), or None for a log that is not keyed."""
    stored = session.execute(text("SELECT value FROM settings WHERE key = :k"), {"k": MARKER_KEY}).scalar()
    return parse_marker(stored)


def parse_marker(stored: str | None) -> dict[str, Any] | None:
    if stored is None:
        return None
    try:
        value = json.loads(stored)
    except ValueError:
        return {"after": -1, "key": "", "from": {}}  # unreadable: no row will match it
    return value if isinstance(value, dict) else {"after": -1, "key": "", "from": {}}


def marker_text(mark: dict[str, Any]) -> str:
    """The marker as the keyed row's ``after`` stores it (canonical JSON, as ``audit_json`` writes it)."""
    return json.dumps(mark, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def read_audit_key(name: str) -> bytes:
    """The key called ``name`` (remembered for the process by ``keys.read_key``), or
    :class:`AuditKeyMissing` saying where it is looked for."""
    try:
        found = keys.read_key(name)
    except keys.KeyStoreError as exc:
        raise AuditKeyMissing(name, str(exc)) from exc  # (the message names the file)
    if found is None:
        raise AuditKeyMissing(name, str(keys.keys_dir()))
    return found


def chain_key(session: Session, stored: str | None) -> tuple[bytes | None, dict[str, Any] | None]:
    """The key new rows of this transaction are linked with, and the marker (``stored``: the setting's
    text); both None when the log is not keyed yet, or on a club server."""
    if is_server(session):
        return None, None
    mark = parse_marker(stored)
    if mark is None:
        return None, None
    return read_audit_key(str(mark.get("key", ""))), mark


def start_keyed(session: Session) -> tuple[bytes, dict[str, Any]]:
    """Key this club file's log from now on: make (or find) the club's key, note the last plain row and
    the watched tables' highest ids in the setting; returns the key and the marker for the keyed row."""
    uid = club_uid(session)
    name = key_name(str(uid))
    key = keys.ensure_key(name, lambda: os.urandom(32))
    last = session.execute(text("SELECT max(id) FROM audit_log")).scalar()
    bounds = {
        table: int(session.execute(text(f"SELECT coalesce(max(id), 0) FROM {table}")).scalar() or 0)
        for table in SEALED_TABLES
    }
    mark = {"after": int(last or 0), "key": name, "from": bounds}
    session.add(Setting(key=MARKER_KEY, value=json.dumps(mark, sort_keys=True)))
    return key, mark
