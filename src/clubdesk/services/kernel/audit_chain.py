"""A tamper-evident audit log: every row's hash covers its content and the previous row's hash.

``row_hash = sha256(canonical JSON of [prev_hash, at, actor, role, action, entity, entity_id, event,
round, table, before, after, reason])``. Rows are chained in id order. Editing a row outside ClubDesk
changes its hash; deleting one breaks the next row's link; both are found by :func:`verify_chain`, which
names the first broken row and its time. A backup records the chain head (the last row's hash), so rows
cut off the end are seen against a backup.

From ``0018_audit_compact`` a new row stores its link, the first 16 bytes of that hash
(:data:`LINK_HEX`), as raw bytes and no ``prev_hash`` (it is the previous row's link: the chain is
recomputed in id order, so a deletion still breaks the next row, and a gap in the ids names it). Older rows
keep their 64-hex-digit text and their ``prev_hash`` and are checked as before. Every reader shows a hash as
hex text (:func:`hash_text`). A new row's time is stored as integer milliseconds and hashed in the same text
form as before (:func:`at_text`). An add-entry row no longer copies the hand: it names the entry row and an
8-byte digest of it (:func:`hand_ref`), which the walk checks while the entry exists; an entry that is gone
must have been taken away by a later row of the same match that recorded what it removed (undo, sheet,
correction, final score).

From the first write of a club file after keying began (:mod:`audit_key`), a new row's hash is HMAC-SHA256
under the club's audit key, kept outside the file, instead of plain SHA-256: the file's owner can no
longer recompute the chain. Checking the log is :mod:`audit_verify`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from clubdesk.models.audit import AuditEntry
from clubdesk.services.kernel import audit_key
from clubdesk.storage import Database, lock_audit_chain, read_only

GENESIS = "0" * 64
# migration 0018_audit_compact: a new row's link is the first 16 bytes of its SHA-256 (older rows: all
# 32, as 64 hex digits). 128 bits leave a second preimage out of reach as surely as 256 for an audit
# trail; the full 32 bytes made the log 1.02x the size of the hands at 200,000 hands, 16 make it 0.93x.
LINK_HEX = 32
AT_FORMAT = "%Y-%m-%d %H:%M:%S.%f"  # how SQLAlchemy stores a DateTime in SQLite
COLUMNS = (
    "at",
    "actor_name",
    "actor_role",
    "action",
    "entity",
    "entity_id",
    "event_id",
    "round_no",
    "table_no",
    "before",
    "after",
    "reason",
)
HEAD_KEY = "clubdesk.audit_head"


def at_text(at: datetime | str | int) -> str:
    """The time as the hash covers it: SQLAlchemy's text form (0017 stores milliseconds, see
    ``models.audit.stored_at``: the same text comes back)."""
    if isinstance(at, int):  # (C-level gmtime: the verifier formats a million of these)
        t = time.gmtime(at // 1000)
        y, mo, d, h, mi, sec = t[:6]
        return f"{y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}:{sec:02d}.{at % 1000:03d}000"
    return at if isinstance(at, str) else at.strftime(AT_FORMAT)


def hash_text(stored: object) -> str | None:
    """A stored hash as hex text: raw bytes (rows from 0017) or the hex text older rows hold."""
    if stored is None:
        return None
    if isinstance(stored, (bytes, bytearray, memoryview)):
        return bytes(stored).hex()
    return str(stored)


_CANONICAL = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def hand_digest(match_id: int, game_no: int, data: str | dict[str, Any]) -> str:
    """8 bytes (11 base64url characters) of SHA-256 over an entry row's match, game and hand (its JSON in
    canonical form, so the hand an undo or correction row recorded gives the same digest); not its seq: a
    penalty inserted at the breach moves the later hands on (discipline)."""
    hand = json.loads(data) if isinstance(data, str) else data
    raw = _CANONICAL.encode([int(match_id), int(game_no), hand])
    return base64.urlsafe_b64encode(hashlib.sha256(raw.encode("utf-8")).digest()[:8]).decode().rstrip("=")


def hand_ref(entry_id: int, match_id: int, game_no: int, data: str | dict[str, Any]) -> list[Any]:
    """What an add-entry audit row stores of its hand: ``[entry id, digest]``; the entry row
    (result_entries: game, seq, data, entered_by, entered_at) holds the hand itself."""
    return [int(entry_id), hand_digest(match_id, game_no, data)]


def row_content(prev: str, values: dict[str, Any]) -> bytes:
    """What a row's link covers: canonical JSON of the previous link and the row's columns."""
    content = [prev] + [at_text(values["at"]) if c == "at" else values.get(c) for c in COLUMNS]
    return json.dumps(content, ensure_ascii=False, separators=(",", ":"), default=str).encode("utf-8")


def row_hash(prev: str, values: dict[str, Any]) -> str:
    return hashlib.sha256(row_content(prev, values)).hexdigest()


_MACS: dict[bytes, hmac.HMAC] = {}  # the key's HMAC state, made once and copied for each row


def keyed_hash(key: bytes, prev: str, values: dict[str, Any]) -> str:
    """A keyed row's hash: HMAC-SHA256 under the club's audit key (kept outside the file, audit_key)."""
    mac = _MACS.get(key)
    if mac is None:
        mac = _MACS[key] = hmac.new(key, digestmod=hashlib.sha256)
    row = mac.copy()
    row.update(row_content(prev, values))
    return row.hexdigest()


@dataclass
class ChainState:
    """One transaction's place in the chain: the head, the key (None: plain SHA-256) and the last row it
    added (its entry, the link before it and its values), which the seal at commit may amend."""

    head: str
    key: bytes | None
    mark: dict[str, Any] | None = None
    last: tuple[AuditEntry, str, dict[str, Any]] | None = None


def chain_state(session: Session, values: dict[str, Any] | None = None) -> ChainState:
    """This transaction's chain state; the first audited write of a club file that is not keyed yet
    starts the keyed log (audit_key.start_keyed) with a row of its own, made in ``values``' name."""
    state = session.info.get(HEAD_KEY)
    if isinstance(state, ChainState):
        return state
    lock_audit_chain(session)  # on a server, one desk's transaction at a time extends the chain
    # the head and the keying marker in one statement: a hand's transaction reads no more than before
    last, marked = session.execute(
        text(
            "SELECT (SELECT row_hash FROM audit_log WHERE row_hash IS NOT NULL ORDER BY id DESC LIMIT 1), "
            "(SELECT value FROM settings WHERE key = :marker)"
        ),
        {"marker": audit_key.MARKER_KEY},
    ).one()
    key, mark = audit_key.chain_key(session, marked)
    state = ChainState(hash_text(last) or GENESIS, key, mark)
    session.info[HEAD_KEY] = state
    if key is None and values is not None and not audit_key.is_server(session):
        state.key, state.mark = audit_key.start_keyed(session)
        first = {k: values.get(k) for k in COLUMNS} | {
            "action": audit_key.KEYED_ACTION,
            "entity": "audit",
            "entity_id": state.mark["key"],
            "event_id": None,
            "round_no": None,
            "table_no": None,
            "before": None,
            "after": audit_key.marker_text(state.mark),
            "reason": None,
        }
        add_row(session, first)
    return state


def chain_head(session: Session) -> str:
    """The hash the next audit row of this transaction links to (the last stored or just added row's)."""
    return chain_state(session).head


def audit_head(db: Database, backup: Path) -> str | None:
    """The chain head a backup of ``db`` holds (the last row's hash, as hex text), recorded with the backup
    so rows later cut off the log are seen against it. A club file's copy is read itself (read-only); a
    club server's dump cannot be read here, so the server is asked right after its dump. None before the
    log had a chain."""
    if db.is_server:
        with db.engine.connect() as c:
            head = c.exec_driver_sql(
                "SELECT row_hash FROM audit_log WHERE row_hash IS NOT NULL ORDER BY id DESC LIMIT 1"
            ).scalar()
        return hash_text(head) if head else None
    con = read_only(backup)
    try:
        cols = {r[1] for r in con.execute("PRAGMA table_info(audit_log)")}
        if "row_hash" not in cols:
            return None
        row = con.execute("SELECT row_hash FROM audit_log ORDER BY id DESC LIMIT 1").fetchone()
        return hash_text(row[0]) if row and row[0] else None
    finally:
        con.close()


def link_of(prev: str, values: dict[str, Any], key: bytes | None = None) -> str:
    """The link a row from 0017 stores: the first LINK_HEX hex digits of its hash (16 bytes), keyed
    (HMAC) when the log is."""
    return (row_hash(prev, values) if key is None else keyed_hash(key, prev, values))[:LINK_HEX]


def link(session: Session, values: dict[str, Any]) -> str:
    """The link (hex) of a new row with ``values``, chained to the head; the transaction's head moves on.
    The row stores it as raw bytes and no prev_hash (0018_audit_compact)."""
    state = chain_state(session, values)
    digest = link_of(state.head, values, state.key)
    state.head = digest
    return digest


def add_row(session: Session, values: dict[str, Any]) -> AuditEntry:
    """Add one audit row with ``values`` to the transaction, linked to the chain's head."""
    state = chain_state(session, values)
    prev = state.head
    entry = AuditEntry(**values, prev_hash=None, row_hash=link(session, values))
    session.add(entry)
    state.last = (entry, prev, values)
    return entry


def amend_last(session: Session, after: str | None) -> None:
    """Give the transaction's last audit row a new ``after`` (the seal added at commit) and its new link:
    nothing links to it yet (the transaction holds the writers' lock)."""
    state = chain_state(session)
    if state.last is None:
        return
    entry, prev, values = state.last
    values = values | {"after": after}
    digest = link_of(prev, values, state.key)
    entry.after = after
    entry.row_hash = digest
    state.head = digest
    state.last = (entry, prev, values)


def forget_head(session: Session) -> None:
    session.info.pop(HEAD_KEY, None)
