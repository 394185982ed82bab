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
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from clubdesk.i18n import _, ngettext
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
_HEAD_KEY = "clubdesk.audit_head"


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


def row_hash(prev: str, values: dict[str, Any]) -> str:
    content = [prev] + [at_text(values["at"]) if c == "at" else values.get(c) for c in COLUMNS]
    data = json.dumps(content, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


def chain_head(session: Session) -> str:
    """The hash the next audit row of this transaction links to (the last stored or just added row's)."""
    head = session.info.get(_HEAD_KEY)
    if head is None:
        lock_audit_chain(session)  # on a server, one desk's transaction at a time extends the chain
        last = session.execute(
            text("SELECT row_hash FROM audit_log WHERE row_hash IS NOT NULL ORDER BY id DESC LIMIT 1")
        ).scalar()
        head = hash_text(last) or GENESIS
    return str(head)


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


def link_of(prev: str, values: dict[str, Any]) -> str:
    """The link a row from 0017 stores: the first LINK_HEX hex digits of :func:`row_hash` (16 bytes)."""
    return row_hash(prev, values)[:LINK_HEX]


def link(session: Session, values: dict[str, Any]) -> str:
    """The link (hex) of a new row with ``values``, chained to the head; the transaction's head moves on.
    The row stores it as raw bytes and no prev_hash (0018_audit_compact)."""
    digest = link_of(chain_head(session), values)
    session.info[_HEAD_KEY] = digest
    return digest


def forget_head(session: Session) -> None:
    session.info.pop(_HEAD_KEY, None)


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    rows: int
    head: str | None
    broken_id: int | None = None
    broken_at: str | None = None
    reason: str | None = None

    def message(self) -> str:
        if self.ok:
            return ngettext(
                "The audit log is intact: {n} row.",
                "The audit log is intact: {n} rows, each linked to the one before.",
                self.rows,
            ).format(n=self.rows)
        return _(
            "The audit log was changed outside ClubDesk: the chain breaks at row {row} ({at}): {reason}"
        ).format(row=self.broken_id, at=self.broken_at or "?", reason=self.reason or "")

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "rows": self.rows,
            "head": self.head,
            "broken_row": self.broken_id,
            "broken_at": self.broken_at,
            "reason": self.reason,
        }


_HAND_ACTIONS = ("add-entry", "override-entry")
_HAND_RE = re.compile(r'"hand":\[(\d+),"([A-Za-z0-9_-]+)"\]')
_BATCH = 2000


class _Hands:
    """The hands add-entry rows name: each entry row that still exists must match the digest
    its row recorded; one that is gone must have been removed by a later row of the same match."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.pending: list[tuple[int, int, str, str]] = []  # (audit id, entry id, digest, match id)
        self.gone: list[tuple[int, str]] = []  # (audit id, match id) of entries no longer there
        self.removed: dict[str, int] = {}  # match id -> last audit row that recorded removed hands
        self.bad: tuple[int, str] | None = None  # (audit id, reason) of the first hand found changed

    def see(self, audit_id: int, values: dict[str, Any]) -> None:
        if values["entity"] != "match":
            return
        if values["action"] in _HAND_ACTIONS and values["after"] and '"hand"' in values["after"]:
            ref = _HAND_RE.search(values["after"])  # (as audit_json writes it; cheaper than parsing)
            if ref is not None:
                self.pending.append((audit_id, int(ref[1]), ref[2], str(values["entity_id"])))
                if len(self.pending) >= _BATCH:
                    self.check()
        before = values["before"] or ""
        if '"entry"' in before or '"entries"' in before:
            self.removed[str(values["entity_id"])] = audit_id

    def check(self) -> None:
        if not self.pending:
            return
        ids = sorted({p[1] for p in self.pending})
        rows: dict[int, tuple[int, int, str]] = {}
        for k in range(0, len(ids), 500):
            part = ids[k : k + 500]
            marks = ", ".join(str(int(i)) for i in part)
            for r in self.session.execute(
                text(f"SELECT id, match_id, game_no, data FROM result_entries WHERE id IN ({marks})")
            ):
                rows[int(r[0])] = (int(r[1]), int(r[2]), str(r[3]))
        for audit_id, entry_id, digest, match in self.pending:
            row = rows.get(entry_id)
            if row is None:
                self.gone.append((audit_id, match))
            elif str(row[0]) != match or hand_digest(*row) != digest:
                self._fail(audit_id, _("the hand or game it recorded was changed outside ClubDesk"))
        self.pending = []

    def _fail(self, audit_id: int, reason: str) -> None:
        if self.bad is None or audit_id < self.bad[0]:
            self.bad = (audit_id, reason)

    def finish(self) -> tuple[int, str] | None:
        self.check()
        for audit_id, match in self.gone:
            if self.removed.get(match, 0) < audit_id:
                self._fail(audit_id, _("the hand or game it recorded was deleted outside ClubDesk"))
        return self.bad


# ------------------------------------------------------------------ redacted rows (a member's erasure)
# A member's erasure rewrites the before/after of older rows that held his name or contacts; their stored
# links stay, so the rows after them still link. The erasing row (chained itself) lists each redacted row's
# hash over its new content; the walk accepts a row whose content matches that instead of its link.
REDACTING_ACTIONS = ("member.erase", "member.clear-contacts")


def redacted_hashes(session: Session) -> dict[int, str]:
    """Row id -> :func:`row_hash` of its redacted content, as the erasing rows recorded it (the latest)."""
    found: dict[int, str] = {}
    marks = ", ".join(f"'{a}'" for a in REDACTING_ACTIONS)
    for (after,) in session.execute(
        text(f"SELECT after FROM audit_log WHERE action IN ({marks}) ORDER BY id")
    ):
        try:
            rows = json.loads(after or "{}").get("redacted", {})
        except (ValueError, AttributeError):
            continue
        found.update({int(k): str(v) for k, v in rows.items()} if isinstance(rows, dict) else {})
    return found


def verify_session(session: Session) -> ChainReport:
    cols = ", ".join(COLUMNS)
    redacted = redacted_hashes(session)
    result = session.execute(text(f"SELECT id, prev_hash, row_hash, {cols} FROM audit_log ORDER BY id"))
    prev = GENESIS
    n = 0
    last_id: int | None = None
    hands = _Hands(session)
    for row in result.mappings():
        n += 1
        values = dict(row)
        stored = hash_text(values["row_hash"])
        if values["prev_hash"] is not None and values["prev_hash"] != prev:  # a row from before 0017
            reason = _("a row before it was deleted or changed")
            return ChainReport(False, n, None, row["id"], at_text(row["at"] or ""), reason)
        if stored is None:
            reason = _("the row has no link (inserted from outside)")
            return ChainReport(False, n, None, row["id"], at_text(row["at"] or ""), reason)
        if len(stored) not in (64, LINK_HEX) or row_hash(prev, values)[: len(stored)] != stored:
            if redacted.get(int(row["id"])) == row_hash(prev, values):  # redacted by an erasure
                hands.see(int(row["id"]), values)
                prev, last_id = stored, int(row["id"])
                continue
            # rows from 0017 keep no prev_hash: a gap in the ids is a deleted row (SQLite hands out the
            # next id; a rolled back row leaves none)
            gap = values["prev_hash"] is None and last_id is not None and row["id"] != last_id + 1
            reason = _("a row before it was deleted or changed") if gap else _("its content was edited")
            return ChainReport(False, n, None, row["id"], at_text(row["at"] or ""), reason)
        hands.see(int(row["id"]), values)
        prev = stored
        last_id = int(row["id"])
    bad = hands.finish()
    if bad is not None:
        at = session.execute(text("SELECT at FROM audit_log WHERE id = :i"), {"i": bad[0]}).scalar()
        return ChainReport(False, n, None, bad[0], at_text(at or ""), bad[1])
    return ChainReport(True, n, None if n == 0 else prev)


def verify_chain(db: Database) -> ChainReport:
    """Walk the whole audit log and report the first broken link (row id and time), if any."""
    with db.session() as s:
        return verify_session(s)
