"""A tamper-evident audit log: every row's hash covers its content and the previous row's hash.

``row_hash = sha256(canonical JSON of [prev_hash, at, actor, role, action, entity, entity_id, event,
round, table, before, after, reason])``. Rows are chained in id order. Editing a row outside ClubDesk
changes its hash; deleting one breaks the next row's link; both are found by :func:`verify_chain`, which
names the first broken row and its time. A backup records the chain head (the last row's hash), so rows
cut off the end are seen against a backup.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from clubdesk.db import Database, lock_audit_chain
from clubdesk.i18n import _, ngettext

GENESIS = "0" * 64
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


def at_text(at: datetime | str) -> str:
    return at if isinstance(at, str) else at.strftime(AT_FORMAT)


def row_hash(prev: str, values: dict[str, Any]) -> str:
    content = [prev] + [at_text(values["at"]) if c == "at" else values.get(c) for c in COLUMNS]
    data = json.dumps(content, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


def chain_head(session: Session) -> str:
    """The hash the next audit row of this transaction links to (the last stored or just added row's)."""
    head = session.info.get(_HEAD_KEY)
    if head is None:
        lock_audit_chain(session)  # issue 25: on a server, one desk's transaction at a time extends the chain
        last = session.execute(
            text("SELECT row_hash FROM audit_log WHERE row_hash IS NOT NULL ORDER BY id DESC LIMIT 1")
        ).scalar()
        head = last or GENESIS
    return str(head)


def link(session: Session, values: dict[str, Any]) -> tuple[str, str]:
    """(prev_hash, row_hash) for a new row with ``values``; the transaction's head moves on."""
    prev = chain_head(session)
    digest = row_hash(prev, values)
    session.info[_HEAD_KEY] = digest
    return prev, digest


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


def verify_session(session: Session) -> ChainReport:
    cols = ", ".join(COLUMNS)
    result = session.execute(text(f"SELECT id, prev_hash, row_hash, {cols} FROM audit_log ORDER BY id"))
    prev = GENESIS
    n = 0
    for row in result.mappings():
        n += 1
        values = dict(row)
        if values["prev_hash"] != prev:
            reason = (
                _("a row before it was deleted or changed")
                if values["prev_hash"]
                else _("the row has no link (inserted from outside)")
            )
            return ChainReport(False, n, None, row["id"], at_text(row["at"] or ""), reason)
        if row_hash(prev, values) != values["row_hash"]:
            edited = _("its content was edited")
            return ChainReport(False, n, None, row["id"], at_text(row["at"] or ""), edited)
        prev = values["row_hash"]
    return ChainReport(True, n, None if n == 0 else prev)


def verify_chain(db: Database) -> ChainReport:
    """Walk the whole audit log and report the first broken link (row id and time), if any."""
    with db.session() as s:
        return verify_session(s)
