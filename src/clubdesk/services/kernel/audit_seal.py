"""Seals: what the keyed audit log vouches for beyond its own rows.

A payment, refund, member's identity, final score, penalty or decision edited straight in the file leaves
the audit log as it was, so the chain alone cannot see it. So every transaction of a keyed club file that
changes such a row ends with a seal in its last audit row: for each row touched, a keyed digest (HMAC
under the audit key, 8 bytes) of the fields below as the transaction leaves them, or ``null`` for a row it
deleted. It is kept in that row's ``after`` under ``"~seal"`` (readers leave it out), so the chain covers
it and no column was added. :func:`check_seals` compares every watched row with the last seal that named
it and names the row that differs, was deleted or was added outside ClubDesk.

A match is sealed only while finished or when it stops being finished: the running score of a table in
play moves with each hand, and each hand is vouched for by its own add-entry row (``hand_ref``). A
finished match's seal starts with ``F``, so a final score made unfinished outside ClubDesk is seen too.

Rows older than the keyed log (their id at most the table's highest id when keying began, kept in the
marker) carry no seal until ClubDesk changes them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import event, inspect, text
from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.services.kernel import audit_chain
from clubdesk.storage import ClubSession

SEAL = "~seal"
VALUE = "~value"  # an ``after`` that was not a mapping, kept whole beside the seal
# the fields each watched table's seal covers: identity and money, results, decisions (not a member's
# rating, which every rated match moves, nor contact fields)
WATCHED: dict[str, tuple[str, ...]] = {
    "payments": ("entrant_id", "amount", "currency", "method", "reference", "refund_of_id", "kind"),
    "members": ("number", "licence", "name", "club_id", "gender", "birth_year", "active", "merged_into_id"),
    "matches": (
        "side_a",
        "side_b",
        "kind",
        "score_a",
        "score_b",
        "points_a",
        "points_b",
        "winner",
        "finished",
    ),
    "penalties": ("match_id", "game_no", "entrant_id", "side", "kind", "points", "action", "reason"),
    "incidents": ("kind", "entrant_id", "member_id", "decision", "decided_by"),
    "appeals": ("entrant_id", "status", "fee", "refund", "fee_payment_id", "decided_by"),
}
_TOUCHED = "clubdesk.audit_touched"
_CANONICAL = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str)


def _row_label(table: str, row: dict[str, Any] | None, row_id: int) -> str:
    labels: dict[str, Callable[[], str]] = {
        "payments": lambda: _("payment {id}").format(id=row_id),
        "members": lambda: (
            _("member {number} (row {id})").format(number=row["number"], id=row_id)
            if row
            else _("member row {id}").format(id=row_id)
        ),
        "matches": lambda: _("match {id}").format(id=row_id),
        "penalties": lambda: _("penalty {id}").format(id=row_id),
        "incidents": lambda: _("incident {id}").format(id=row_id),
        "appeals": lambda: _("appeal {id}").format(id=row_id),
    }
    return labels[table]()


def digest(key: bytes, table: str, row: dict[str, Any]) -> str:
    """A row's seal: HMAC-SHA256 over its watched fields (8 bytes, base64url), ``F`` before a finished
    match's."""
    values = [table, int(row["id"])] + [row[c] for c in WATCHED[table]]
    mac = hmac.new(key, _CANONICAL.encode(values).encode("utf-8"), hashlib.sha256).digest()[:8]
    sealed = base64.urlsafe_b64encode(mac).decode().rstrip("=")
    return ("F" + sealed) if table == "matches" and row["finished"] else sealed


def _rows(session: Session, table: str, ids: list[int] | None) -> dict[int, dict[str, Any]]:
    cols = ", ".join(("id", *WATCHED[table]))
    found: dict[int, dict[str, Any]] = {}
    if ids is None:
        result = session.execute(text(f"SELECT {cols} FROM {table}"))
        return {int(r["id"]): dict(r) for r in result.mappings()}
    for k in range(0, len(ids), 500):
        marks = ", ".join(str(int(i)) for i in ids[k : k + 500])
        for r in session.execute(text(f"SELECT {cols} FROM {table} WHERE id IN ({marks})")).mappings():
            found[int(r["id"])] = dict(r)
    return found


# ------------------------------------------------------------------------------------------ sealing
def _note_touched(session: Session, _flush_context: Any) -> None:
    """Note the watched rows this flush wrote (a match only while or when no longer finished)."""
    touched: set[tuple[str, int]] | None = None
    for obj in [*session.new, *session.dirty, *session.deleted]:
        table = getattr(obj, "__tablename__", "")
        if table not in WATCHED:
            continue
        if table == "matches" and not obj.finished and not inspect(obj).attrs.finished.history.deleted:
            continue
        if touched is None:
            touched = session.info.setdefault(_TOUCHED, set())
        touched.add((table, int(obj.id)))


def _forget_touched(session: Session) -> None:
    session.info.pop(_TOUCHED, None)
    audit_chain.forget_head(session)


def _seal(session: Session) -> None:
    """Before a keyed transaction commits: its last audit row gets the seals of the watched rows it
    wrote (see the module doc)."""
    if not session.info.get(_TOUCHED):
        return
    session.flush()
    touched: set[tuple[str, int]] = session.info.pop(_TOUCHED, set())
    state = session.info.get(audit_chain.HEAD_KEY)
    if not isinstance(state, audit_chain.ChainState) or state.key is None or state.last is None:
        return  # a plain log (a club server), or nothing audited: nothing to seal into
    seals: dict[str, str | None] = {}
    for table in WATCHED:
        ids = sorted(i for t, i in touched if t == table)
        if ids:
            rows = _rows(session, table, ids)
            for i in ids:
                seals[f"{table}:{i}"] = digest(state.key, table, rows[i]) if i in rows else None
    after = state.last[2].get("after")
    audit_chain.amend_last(session, with_seals(after, seals))


def install() -> None:
    """Register the sealing hooks on ClubDesk's session class (once; ``base`` calls it on import)."""
    for name, hook in (
        ("after_flush", _note_touched),
        ("after_rollback", _forget_touched),
        ("before_commit", _seal),
    ):
        if not event.contains(ClubSession, name, hook):
            event.listen(ClubSession, name, hook)


def with_seals(after: str | None, seals: dict[str, str | None]) -> str:
    """An audit row's ``after`` (canonical JSON) with ``seals`` added under ``"~seal"``."""
    value = json.loads(after) if after else None
    if value is not None and not isinstance(value, dict):
        value = {VALUE: value}
    merged = dict(value or {})
    merged[SEAL] = {**merged.get(SEAL, {}), **seals}
    return json.dumps(merged, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)


def without_seals(after: Any) -> Any:
    """What a reader shows of a parsed ``after``: the seal left out (and a kept non-mapping unwrapped)."""
    if not isinstance(after, dict) or SEAL not in after:
        return after
    if VALUE in after:
        return after[VALUE]
    rest = {k: v for k, v in after.items() if k != SEAL}
    return rest or None


def unsealed(after: str | None) -> str | None:
    """An audit row's stored ``after`` as a reader shows it: without its seal."""
    if not after or '"~seal"' not in after:
        return after
    shown = without_seals(json.loads(after))
    return (
        None
        if shown is None
        else json.dumps(shown, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    )


# ----------------------------------------------------------------------------------------- checking
class Seals:
    """The last seal the log holds for each watched row, gathered while the chain is walked."""

    def __init__(self) -> None:
        self.last: dict[tuple[str, int], tuple[str | None, int]] = {}
        self.at: dict[int, str] = {}  # the time of each audit row that holds a seal

    def see(self, audit_id: int, after: str | None, at: str) -> None:
        if not after or '"~seal"' not in after:
            return
        self.at[audit_id] = at[:19]  # to the second, as a person reads it
        found = json.loads(after).get(SEAL)
        if not isinstance(found, dict):
            return
        for name, sealed in found.items():
            table, _sep, row_id = str(name).partition(":")
            if table in WATCHED and row_id.isdigit():
                self.last[(table, int(row_id))] = (sealed, audit_id)


def check_seals(session: Session, seals: Seals, key: bytes, bounds: dict[str, Any]) -> list[str]:
    """Each watched row as it is now against the last seal naming it: one line per row changed, deleted or
    added outside ClubDesk (rows older than the keyed log and never sealed are not checked)."""
    found: list[str] = []
    for table in WATCHED:
        rows = _rows(session, table, None)
        bound = int(bounds.get(table, 0) or 0)
        for row_id, row in rows.items():
            sealed = seals.last.get((table, row_id))
            if sealed is None:
                new = row_id > bound and (table != "matches" or bool(row["finished"]))
                if new:
                    found.append(
                        _("{row} was added outside ClubDesk: no audit row records it.").format(
                            row=_row_label(table, row, row_id)
                        )
                    )
                continue
            value, audit_id = sealed
            if value is None or (table == "matches" and not row["finished"] and not value.startswith("F")):
                if value is None:
                    found.append(
                        _(
                            "{row} was deleted by audit row {audit} and is back: added outside ClubDesk."
                        ).format(row=_row_label(table, row, row_id), audit=audit_id)
                    )
                continue
            if not hmac.compare_digest(digest(key, table, row), value):
                found.append(
                    _(
                        "{row} was changed outside ClubDesk since audit row {audit} ({at}) recorded it."
                    ).format(
                        row=_row_label(table, row, row_id), audit=audit_id, at=seals.at.get(audit_id, "?")
                    )
                )
        for (sealed_table, row_id), (value, audit_id) in seals.last.items():
            if sealed_table == table and value is not None and row_id not in rows:
                found.append(
                    _("{row} was deleted outside ClubDesk (audit row {audit} recorded it).").format(
                        row=_row_label(table, None, row_id), audit=audit_id
                    )
                )
    return [line[:1].upper() + line[1:] for line in found]  # each begins with the row it names
