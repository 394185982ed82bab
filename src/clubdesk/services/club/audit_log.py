"""The audit view: every change to results,
pairings, penalties, money and members, filtered by event, round, table and person, newest first in SQL
pages, exported as CSV as a stream. Of an update a row shows only the fields that changed, before and
after; older rows show the whole snapshots they were written with. An add-entry row stores
only a reference to its hand (0018_audit_compact); the view shows the hand from the entry row, as the
rows before stored it (``"entry"``, ``"game"``, ``"seq"``).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from itertools import islice
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk import labels
from clubdesk.i18n import N_, _, current_language
from clubdesk.models.audit import AuditEntry
from clubdesk.models.result import ResultEntry
from clubdesk.services.kernel import Actor, ServiceError, allowed, audit_json, mask_contacts, unsealed
from clubdesk.storage import Database, DatabaseError, write_atomically
from clubdesk.text import excel_safe, fold
from clubdesk.timefmt import local_text


@dataclass(frozen=True)
class AuditRow:
    id: int
    at: datetime
    actor: str
    role: str
    action: str
    entity: str
    entity_id: str | None
    event: int | None
    round: int | None
    table: int | None
    before: str | None
    after: str | None
    reason: str | None


# ---------------------------------------------------------------------------------------------- audit view
AUDIT_COLUMNS: tuple[str, ...] = (
    "at",
    "actor",
    "role",
    "action",
    "entity",
    "entity_id",
    "event",
    "round",
    "table",
    "before",
    "after",
    "reason",
)
AUDIT_TITLES: dict[str, str] = {  # the CSV header in the language in force, as the audit view's columns
    "at": N_("When"),
    "actor": N_("Who"),
    "role": N_("Role"),
    "action": N_("Action"),
    "entity": N_("What"),
    "entity_id": N_("No."),
    "event": N_("Event"),
    "round": N_("Round"),
    "table": N_("Table"),
    "before": N_("Before"),
    "after": N_("After"),
    "reason": N_("Reason"),
}


def audit_rows(
    db: Database,
    *,
    event_id: int | None = None,
    round_no: int | None = None,
    table_no: int | None = None,
    person: str | None = None,
    limit: int | None = None,
    viewer: Actor | None = None,
    after: tuple[datetime, int] | None = None,
) -> list[AuditRow]:
    """Every change (results, pairings, penalties, money, members): who, when, before and after, newest
    first; ``after`` (the at and id of the last row shown) gives the next page. ``person`` matches who
    acted, or a name or member number in what changed (accents ignored)."""
    return list(
        iter_audit_rows(
            db,
            event_id=event_id,
            round_no=round_no,
            table_no=table_no,
            person=person,
            limit=limit,
            viewer=viewer,
            after=after,
        )
    )


def iter_audit_rows(
    db: Database,
    *,
    event_id: int | None = None,
    round_no: int | None = None,
    table_no: int | None = None,
    person: str | None = None,
    limit: int | None = None,
    viewer: Actor | None = None,
    after: tuple[datetime, int] | None = None,
) -> Iterator[AuditRow]:
    """:func:`audit_rows` one row at a time, read in batches in one read transaction (a page is
    an SQL ``LIMIT``; the export of a million rows keeps memory flat and takes no write lock)."""

    # phones and e-mails in what changed: the secretary's alone; others see them masked (T14)
    see_contacts = viewer is None or allowed(viewer, "contacts.view")
    needle = fold(person) if person and person.strip() else ""
    with db.read_session() as s:
        q = select(AuditEntry)
        if event_id is not None:
            q = q.where(AuditEntry.event_id == event_id)
        if round_no is not None:
            q = q.where(AuditEntry.round_no == round_no)
        if table_no is not None:
            q = q.where(AuditEntry.table_no == table_no)
        if after is not None:  # keyset paging: the rows older than the last one shown
            q = q.where(AuditEntry.id < after[1])
        # newest first: ids grow with time (0018_audit_compact: the rowid, or the (event_id, id) index)
        q = q.order_by(AuditEntry.id.desc())
        if limit is not None and not needle:
            q = q.limit(limit)  # the page in SQL, not the whole log in memory
        n = 0
        scan = iter(s.scalars(q.execution_options(yield_per=2000)))
        while batch := list(islice(scan, 500)):
            hands = _hands(s, batch)
            for r in batch:
                shown_after = _without_hand_refs(
                    unsealed(_show_hand(r.after, hands[r.id]) if r.id in hands and r.after else r.after)
                )
                if needle and not any(
                    needle in fold(t)
                    for t in (r.actor_name, r.before or "", shown_after or "", r.entity_id or "")
                ):
                    continue
                yield AuditRow(
                    r.id,
                    r.at,
                    r.actor_name,
                    r.actor_role,
                    r.action,
                    r.entity,
                    r.entity_id,
                    r.event_id,
                    r.round_no,
                    r.table_no,
                    r.before if see_contacts else mask_contacts(r.before),
                    shown_after if see_contacts else mask_contacts(shown_after),
                    r.reason,
                )
                n += 1
                if limit is not None and n >= limit:
                    return  # (the session holds read rows weakly: memory stays flat over a long export)


def _hand_id(after: str | None) -> int | None:
    """The entry row an add-entry row of 0017 names (``"hand": [entry id, digest]``), if any."""
    if not after or '"hand"' not in after:
        return None
    ref = json.loads(after).get("hand")
    return int(ref[0]) if isinstance(ref, list) and len(ref) == 2 else None


def _hands(s: Session, batch: list[AuditEntry]) -> dict[int, tuple[int, int, str]]:
    """audit id -> (game, seq, entry JSON) of the hands a batch of rows names, in one query."""
    refs = {r.id: i for r in batch if r.entity == "match" and (i := _hand_id(r.after)) is not None}
    if not refs:
        return {}
    rows = {
        e.id: (e.game_no, e.seq, e.data)
        for e in s.execute(
            select(ResultEntry.id, ResultEntry.game_no, ResultEntry.seq, ResultEntry.data).where(
                ResultEntry.id.in_(set(refs.values()))
            )
        )
    }
    return {a: rows[i] for a, i in refs.items() if i in rows}


def _show_hand(after: str, hand: tuple[int, int, str]) -> str:
    """An add-entry row's after as the rows before 0017 stored it: the hand, its game and seq (a hand
    taken back later is shown by the undo or correction row that removed it)."""
    game, seq, data = hand
    shown = json.loads(after)
    shown.pop("hand", None)
    return audit_json({**shown, "entry": json.loads(data), "game": game, "seq": seq}) or after


def _without_hand_refs(after: str | None) -> str | None:
    """A replaced sheet's row as a reader sees it: its new hands (``"entries"``) without the ids and
    digests the audit walk checks them by (``"hands"``)."""
    if not after or '"hands"' not in after:
        return after
    shown = json.loads(after)
    if isinstance(shown, dict):
        shown.pop("hands", None)
    return audit_json(shown) or after


def export_audit_csv(
    db: Database,
    path: Path,
    rows: Iterable[AuditRow] | None = None,
    *,
    progress: Callable[[int], object] | None = None,
    **filters: Any,
) -> int:
    """The audit view as CSV (UTF-8 with BOM, so spreadsheet programs read accents); returns the rows.
    The "at" column is the club's local time, as on the screen (rows are stored in UTC). Without ``rows``
    the log is streamed; ``progress`` gets the rows written so far every 1,000 rows."""

    data = rows if rows is not None else iter_audit_rows(db, **filters)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:  # whole or not at all: a full disk leaves neither a half file nor a temporary one
        return write_atomically(path, lambda tmp: _write_audit_csv(tmp, data, progress), suffix=".csv")
    except DatabaseError as exc:
        raise ServiceError(exc.code, str(exc)) from exc


def _write_audit_csv(path: Path, data: Iterable[AuditRow], progress: Callable[[int], object] | None) -> int:
    count = 0
    with path.open("w", encoding="utf-8-sig", newline="") as fh:
        w = csv.writer(fh)
        # English keeps the column keys and stored actions (scripts read them); other languages get the
        # audit view's words
        words = current_language() != "en"
        w.writerow([_(AUDIT_TITLES[c]) for c in AUDIT_COLUMNS] if words else list(AUDIT_COLUMNS))
        for r in data:
            cells = [
                local_text(r.at, "%Y-%m-%d %H:%M:%S"),
                r.actor,
                labels.role_label(r.role) if words else r.role,
                labels.audit_action_label(r.action) if words else r.action,
                labels.entity_label(r.entity) if words else r.entity,
                r.entity_id or "",
                "" if r.event is None else r.event,
                "" if r.round is None else r.round,
                "" if r.table is None else r.table,
                r.before or "",
                r.after or "",
                r.reason or "",
            ]
            w.writerow([excel_safe(c) if isinstance(c, str) else c for c in cells])  # formula-safe
            count += 1
            if progress is not None and count % 1000 == 0:
                progress(count)
    return count
