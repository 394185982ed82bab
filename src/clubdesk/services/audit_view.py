"""The audit view (split out of ``services/discipline.py`` in issue 22): every change to results,
pairings, penalties, money and members, filtered by event, round, table and person, newest first in SQL
pages, exported as CSV as a stream. Of an update a row shows only the fields that changed, before and
after (issue 22); older rows show the whole snapshots they were written with.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import and_, or_, select

from clubdesk import labels as L
from clubdesk.db import Database
from clubdesk.i18n import N_, _, current_language
from clubdesk.models.audit import AuditEntry
from clubdesk.services.base import Actor
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
    """:func:`audit_rows` one row at a time, read in batches in one read transaction (issue 22: a page is
    an SQL ``LIMIT``; the export of a million rows keeps memory flat and takes no write lock)."""
    from clubdesk.services.permissions import allowed, mask_contacts
    from clubdesk.services.text import fold

    # phones and e-mails in what changed: the secretary's alone; others see them masked (T14, issue 23)
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
            at, last_id = after
            q = q.where(or_(AuditEntry.at < at, and_(AuditEntry.at == at, AuditEntry.id < last_id)))
        q = q.order_by(AuditEntry.at.desc(), AuditEntry.id.desc())
        if limit is not None and not needle:
            q = q.limit(limit)  # the page in SQL, not the whole log in memory
        n = 0
        for r in s.scalars(q.execution_options(yield_per=2000)):
            if needle and not any(
                needle in fold(t) for t in (r.actor_name, r.before or "", r.after or "", r.entity_id or "")
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
                r.after if see_contacts else mask_contacts(r.after),
                r.reason,
            )
            n += 1
            if limit is not None and n >= limit:
                return  # (the session holds read rows weakly: memory stays flat over a long export)


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
    the log is streamed (issue 22); ``progress`` gets the rows written so far every 1,000 rows."""
    from clubdesk.services.text import excel_safe

    data = rows if rows is not None else iter_audit_rows(db, **filters)
    count = 0
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
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
                L.role_label(r.role) if words else r.role,
                L.audit_action_label(r.action) if words else r.action,
                L.entity_label(r.entity) if words else r.entity,
                r.entity_id or "",
                "" if r.event is None else r.event,
                "" if r.round is None else r.round,
                "" if r.table is None else r.table,
                r.before or "",
                r.after or "",
                r.reason or "",
            ]
            w.writerow([excel_safe(c) if isinstance(c, str) else c for c in cells])  # formula-safe (issue 23)
            count += 1
            if progress is not None and count % 1000 == 0:
                progress(count)
    return count
