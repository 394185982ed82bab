"""The club file's own identity: a random id made once, which names its keys kept outside the file
(``clubdesk.keys``: ``audit-<uid>``, ``sign-<uid>``) and its events in a federation's hub."""

from __future__ import annotations

import json
import uuid

from sqlalchemy.orm import Session

from clubdesk.models import Setting

CLUB_UID_KEY = "club.uid"


def club_uid(session: Session, *, create: bool = True) -> str | None:
    """This club file's id (32 hex digits); made and stored in the session's transaction the first time
    when ``create`` (else None while it has none)."""
    row = session.get(Setting, CLUB_UID_KEY)
    if row is not None:
        value = json.loads(row.value)
        if isinstance(value, str) and value:
            return value
    if not create:
        return None
    uid = uuid.uuid4().hex
    if row is None:
        session.add(Setting(key=CLUB_UID_KEY, value=json.dumps(uid)))
    else:
        row.value = json.dumps(uid)
    session.flush()
    return uid
