"""Redacting an older audit row (a member's erasure): its before/after rewritten without the erased values.

The row keeps its stored link, so the rows after it still link to it; what its content now hashes to is
returned, for the erasing row to record (:func:`redacted_hashes` reads it back when the log is
verified). The erased values are kept nowhere.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from clubdesk.services.kernel.audit_chain import COLUMNS, GENESIS, hash_text, row_hash
from clubdesk.services.kernel.base import audit_json


def redact_row(session: Session, row_id: int, before: Any, after: Any) -> str:
    """Store ``before``/``after`` as row ``row_id``'s content; the hash its content now has (chained to the
    link before it, as the verification walks it)."""
    cols = ", ".join(COLUMNS)
    row = (
        session.execute(text(f"SELECT id, prev_hash, {cols} FROM audit_log WHERE id = :i"), {"i": row_id})
        .mappings()
        .one()
    )
    values = dict(row) | {"before": audit_json(before), "after": audit_json(after)}
    prev = row["prev_hash"]
    if prev is None:  # a row from 0017 on links to the stored link of the row before it
        last = session.execute(
            text("SELECT row_hash FROM audit_log WHERE id < :i ORDER BY id DESC LIMIT 1"), {"i": row_id}
        ).scalar()
        prev = hash_text(last) or GENESIS
    session.execute(
        text("UPDATE audit_log SET before = :b, after = :a WHERE id = :i"),
        {"b": values["before"], "a": values["after"], "i": row_id},
    )
    return row_hash(str(prev), values)


# The erasing row (chained and, in a keyed log, signed itself) lists each redacted row's hash over its new
# content; the walk accepts a row whose content matches that instead of its stored link, whose rows after it
# still link to it.
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
