"""Anchors: the audit log's head and length, written outside the club file.

A keyed chain cannot be recomputed, but its end can still be cut off, or every row deleted, and what is
left is a sound chain. So at every backup (automatic ones too), at every restore and at ``audit --verify
--anchor``, the last row's id and link, the number of rows up to it and where keying began are appended
to ``audit-<club uid>.anchors.jsonl`` beside the key in ``keys.keys_dir()`` (one JSON object a line,
owner-only, only ever appended to). ``--verify`` compares the file with the newest anchor written for it
(the same path): the row it names must still be there with the same link, with as many rows up to it.

The anchor names the club file's path, so a copy of the file opened elsewhere (a backup, a test) is not
judged against the original's later anchors; a restore writes an anchor for what it brought back.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from clubdesk import keys
from clubdesk.i18n import _, ngettext
from clubdesk.services.kernel import audit_key
from clubdesk.services.kernel.audit_chain import hash_text
from clubdesk.services.kernel.identity import club_uid
from clubdesk.storage import Database, read_only

ANCHOR_SUFFIX = ".anchors.jsonl"


@dataclass(frozen=True)
class Anchor:
    """The log as it stood at ``at`` (UTC, ``YYYY-mm-dd HH:MM:SS``) for ``reason`` (backup, restore,
    verify, sheet): its last row ``last_id`` with link ``head``, ``rows`` rows up to it, keyed after
    ``keyed_after`` with key ``key``."""

    at: str
    reason: str
    place: str
    uid: str
    last_id: int
    head: str
    rows: int
    keyed_after: int | None
    key: str | None
    backup: str = ""

    @property
    def path(self) -> str:
        """The anchors file it was written to."""
        return str(anchors_file(self.uid))

    def when(self) -> str:
        """The occasion, for a message: "the backup of 2026-12-04 13:05:12 UTC"."""
        stamp = f"{self.at} UTC"
        if self.reason == "restore":
            return _("the restore of {time}").format(time=stamp)
        if self.reason == "verify":
            return _("the check of {time}").format(time=stamp)
        if self.reason == "sheet":
            return _("the sheet printed at {time}").format(time=stamp)
        return _("the backup of {time}").format(time=stamp)


def place_of(db: Database) -> str:
    """What an anchor names the database by: the club file's full path (a server's address)."""
    return db.location if db.is_server else str(Path(db.location).resolve())


def anchors_file(uid: str) -> Path:
    return keys.keys_dir() / f"{audit_key.key_name(uid)}{ANCHOR_SUFFIX}"


def log_state(session: Session) -> tuple[int, str, int] | None:
    """The log's last row id, its link and the number of rows (None while it is empty)."""
    last = session.execute(text("SELECT id, row_hash FROM audit_log ORDER BY id DESC LIMIT 1")).first()
    if last is None:
        return None
    rows = int(session.execute(text("SELECT count(*) FROM audit_log")).scalar() or 0)
    return int(last[0]), hash_text(last[1]) or "", rows


def take_anchor(session: Session, place: str, reason: str, backup: str = "") -> Anchor | None:
    """The anchor of the log as this session reads it (None before any audited write)."""
    uid = club_uid(session, create=False)
    state = log_state(session)
    if uid is None or state is None:
        return None
    mark = None if audit_key.is_server(session) else audit_key.marker(session)
    return Anchor(
        at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S"),
        reason=reason,
        place=place,
        uid=uid,
        last_id=state[0],
        head=state[1],
        rows=state[2],
        keyed_after=None if mark is None else int(mark.get("after", -1)),
        key=None if mark is None else str(mark.get("key", "")),
        backup=backup,
    )


def record_anchor(db: Database, reason: str, backup: str = "") -> Anchor | None:
    """Append the log's anchor to its file outside the club file; returns it (None with nothing to anchor).
    A key store that cannot be written is :class:`keys.KeyStoreError`."""
    with db.read_session() as s:
        anchor = take_anchor(s, place_of(db), reason, backup)
    if anchor is None:
        return None
    path = anchors_file(anchor.uid)
    line = json.dumps(asdict(anchor), ensure_ascii=False, sort_keys=True) + "\n"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)  # appended, never rewritten
        try:
            os.write(fd, line.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise keys.KeyStoreError(f"{path}: {exc}") from exc
    with contextlib.suppress(OSError):
        path.chmod(0o600)
    return anchor


def audit_state(db: Database, backup: Path) -> tuple[int | None, str | None]:
    """What a backup carries to be checked with: its log's rows and the name of the key its newer rows
    are signed with (never the key). A club server's dump is not read here: its rows are counted on the
    server right after the dump."""
    if db.is_server:
        with db.engine.connect() as c:
            rows = c.exec_driver_sql("SELECT count(*) FROM audit_log").scalar()
        return int(rows or 0), None
    con = read_only(backup)
    try:
        rows = con.execute("SELECT count(*) FROM audit_log").fetchone()
        mark = con.execute("SELECT value FROM settings WHERE key = ?", (audit_key.MARKER_KEY,)).fetchone()
    finally:
        con.close()
    try:
        key = None if mark is None else str(json.loads(mark[0]).get("key") or "") or None
    except (ValueError, AttributeError):
        key = None
    return int(rows[0]) if rows else 0, key


def anchor_for_print(db: Database) -> Anchor | None:
    """The log's state for a sheet people sign, anchored outside the file like a backup's (when the key
    folder cannot be written, the state is still printed)."""
    try:
        return record_anchor(db, "sheet")
    except keys.KeyStoreError:
        with db.read_session() as s:
            return take_anchor(s, place_of(db), "sheet")


def signed_with(file: Path) -> str | None:
    """The name of the audit key a club file's log is signed with (None: not keyed, or not a readable club
    file). Read as an immutable file: no ``-wal``/``-shm`` is left beside a file a restore then refuses."""
    try:
        con = sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
        try:
            mark = con.execute("SELECT value FROM settings WHERE key = ?", (audit_key.MARKER_KEY,)).fetchone()
        finally:
            con.close()
        return None if mark is None else str(json.loads(mark[0]).get("key") or "") or None
    except (sqlite3.Error, OSError, ValueError, AttributeError):
        return None  # restore_database refuses such a file with its own message


def _read(path: Path) -> list[Anchor]:
    found: list[Anchor] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return found
    for line in lines:
        try:
            found.append(Anchor(**json.loads(line)))
        except (ValueError, TypeError):
            continue  # a torn last line (a crash while appending) is skipped
    return found


def newest_anchor(place: str) -> Anchor | None:
    """The newest anchor written for the database at ``place``, in any club's anchors file (an id
    changed in the file must not hide its anchors)."""
    newest: Anchor | None = None
    for path in keys.keys_dir().glob(f"audit-*{ANCHOR_SUFFIX}"):
        for anchor in _read(path):
            if anchor.place == place and (newest is None or anchor.at >= newest.at):
                newest = anchor
    return newest


def check_anchor(session: Session, anchor: Anchor) -> list[str]:
    """What differs between the log now and ``anchor``: rows cut off or deleted, a rewritten head, keying
    or the club's id taken away. One line each."""
    found: list[str] = []
    when = anchor.when()
    if club_uid(session, create=False) != anchor.uid:
        found.append(_("The club file's id was changed outside ClubDesk since {when}.").format(when=when))
    state = log_state(session)
    now = 0 if state is None else state[2]
    head = session.execute(
        text("SELECT row_hash FROM audit_log WHERE id = :i"), {"i": anchor.last_id}
    ).scalar()
    upto = int(
        session.execute(text("SELECT count(*) FROM audit_log WHERE id <= :i"), {"i": anchor.last_id}).scalar()
        or 0
    )
    if head is None or upto < anchor.rows:
        found.append(
            ngettext(
                "The audit log had {n} row at {when}; it now has {m}: rows were removed outside ClubDesk.",
                "The audit log had {n} rows at {when}; it now has {m}: rows were removed outside ClubDesk.",
                anchor.rows,
            ).format(n=anchor.rows, when=when, m=now)
            + " "
            + (
                _("Row {row}, the last one then, is gone.")
                if head is None
                else _("Rows before row {row}, the last one then, are gone.")
            ).format(row=anchor.last_id)
        )
    elif hash_text(head) != anchor.head or upto != anchor.rows:
        found.append(
            _("Row {row} is not the row recorded at {when}: the log was rewritten outside ClubDesk.").format(
                row=anchor.last_id, when=when
            )
        )
    mark = None if audit_key.is_server(session) else audit_key.marker(session)
    if anchor.keyed_after is not None and (mark is None or int(mark.get("after", -1)) != anchor.keyed_after):
        found.append(
            _(
                "At {when} the log was signed with the club's key from row {row} on; the file no longer "
                "says so: it was rewritten outside ClubDesk."
            ).format(when=when, row=anchor.keyed_after + 1)
        )
    return found


def anchor_json(anchor: Anchor | None) -> dict[str, Any] | None:
    return None if anchor is None else asdict(anchor)
