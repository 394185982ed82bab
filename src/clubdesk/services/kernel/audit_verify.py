"""Checking the audit log: the chain (plain and keyed links), the hands and rows it vouches for, and the
newest anchor written outside the file.

:func:`verify_chain` walks every row in id order. Rows up to where keying began (:mod:`audit_key`) are
checked with plain SHA-256, the rest with the club's key; the first keyed row must hold the marker the
file's setting holds. Hands named by add-entry rows are checked as before; then every payment, member,
final score, penalty, incident and appeal against its last seal (:mod:`audit_seal`), and the log's length
and head against the newest anchor (:mod:`audit_anchor`). Each finding names its row.
"""

from __future__ import annotations

import hmac
import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from clubdesk.i18n import _, ngettext
from clubdesk.services.kernel import audit_key
from clubdesk.services.kernel.audit_anchor import Anchor, check_anchor, newest_anchor, place_of
from clubdesk.services.kernel.audit_chain import (
    COLUMNS,
    GENESIS,
    LINK_HEX,
    at_text,
    hand_digest,
    hash_text,
    keyed_hash,
    row_hash,
)
from clubdesk.services.kernel.audit_redaction import redacted_hashes
from clubdesk.services.kernel.audit_seal import Seals, check_seals
from clubdesk.services.kernel.identity import club_uid
from clubdesk.storage import Database

COLUMNS_SQL = ", ".join(COLUMNS)


@dataclass(frozen=True)
class ChainReport:
    """What a check of the log found: ``ok`` when the chain holds and nothing else was ``found`` (each line
    names a row); ``keyed`` when its newer rows are signed with the club's key; ``anchor`` the newest
    anchor it was compared with."""

    ok: bool
    rows: int
    head: str | None
    broken_id: int | None = None
    broken_at: str | None = None
    reason: str | None = None
    found: tuple[str, ...] = ()
    keyed: bool = False
    anchor: Anchor | None = None

    def message(self) -> str:
        if self.ok:
            text_ = ngettext(
                "The audit log is intact: {n} row.",
                "The audit log is intact: {n} rows, each linked to the one before.",
                self.rows,
            ).format(n=self.rows)
            if self.keyed:
                text_ += " " + _(
                    "Its rows are signed with the club's key, and payments, members, final scores, "
                    "penalties and decisions match what it recorded."
                )
            if self.anchor is not None:
                text_ += " " + _("It matches what was recorded outside the file at {when}.").format(
                    when=self.anchor.when()
                )
            return text_
        lines = list(self.found)
        if self.broken_id is not None:
            lines.insert(
                0,
                _(
                    "The audit log was changed outside ClubDesk: the chain breaks at row {row} ({at}): "
                    "{reason}"
                ).format(row=self.broken_id, at=self.broken_at or "?", reason=self.reason or ""),
            )
        return "\n".join(lines)

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "rows": self.rows,
            "head": self.head,
            "broken_row": self.broken_id,
            "broken_at": self.broken_at,
            "reason": self.reason,
            "found": list(self.found),
            "keyed": self.keyed,
            "anchor": None if self.anchor is None else self.anchor.__dict__,
        }


_HAND_ACTIONS = ("add-entry", "override-entry")
_HAND_RE = re.compile(r'"hand":\[(\d+),"([A-Za-z0-9_-]+)"\]')
_BATCH = 2000


class _Hands:
    """The hands match rows name (an add-entry row its hand, a sheet replaced its new hands under
    ``"hands"``): each entry row that still exists must match the digest its row recorded, unless a later
    row took that hand away; one that is gone must have been taken away by a later row.

    A row takes away one hand when it recorded it (an undo: ``"hand"`` in its before, that entry only) or
    every hand of its match (a correction or a final score: ``"entries"`` in its before; an older undo:
    ``"entry"``). SQLite hands a taken-away entry's id out again, so an entry that differs from an older
    row's digest is only a finding when nothing took that hand away since; the newer row names the new
    hand, and that one is checked (G13: a correction made in ClubDesk verifies, an edit outside does not).
    """

    def __init__(self, session: Session) -> None:
        self.session = session
        self.pending: list[tuple[int, int, str, str]] = []  # (audit id, entry id, digest, match id)
        self.later: list[tuple[int, int, str, str]] = []  # (audit id, entry id, match id, reason)
        self.removed: dict[str, int] = {}  # match id -> last audit row that took all its hands away
        self.removed_entry: dict[int, int] = {}  # entry id -> last audit row that took that hand away
        self.bad: tuple[int, str] | None = None  # (audit id, reason) of the first hand found changed

    def see(self, audit_id: int, values: dict[str, Any]) -> None:
        if values["entity"] != "match":
            return
        match = str(values["entity_id"])
        after = values["after"] or ""
        if values["action"] in _HAND_ACTIONS and '"hand"' in after:
            ref = _HAND_RE.search(after)  # (as audit_json writes it; cheaper than parsing)
            if ref is not None:
                self._claim(audit_id, int(ref[1]), ref[2], match)
        if '"hands"' in after:  # a replaced sheet's new hands (rare: parsed)
            for ref in json.loads(after).get("hands") or ():
                self._claim(audit_id, int(ref[0]), str(ref[1]), match)
        before = values["before"] or ""
        taken = _HAND_RE.search(before) if '"hand"' in before else None
        if taken is not None:
            self.removed_entry[int(taken[1])] = audit_id
        elif '"entry"' in before or '"entries"' in before:
            self.removed[match] = audit_id

    def _claim(self, audit_id: int, entry_id: int, digest: str, match: str) -> None:
        self.pending.append((audit_id, entry_id, digest, match))
        if len(self.pending) >= _BATCH:
            self.check()

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
                reason = _("the hand or game it recorded was deleted outside ClubDesk")
                self.later.append((audit_id, entry_id, match, reason))
            elif str(row[0]) != match or hand_digest(*row) != digest:
                reason = _("the hand or game it recorded was changed outside ClubDesk")
                self.later.append((audit_id, entry_id, match, reason))
        self.pending = []

    def _fail(self, audit_id: int, reason: str) -> None:
        if self.bad is None or audit_id < self.bad[0]:
            self.bad = (audit_id, reason)

    def finish(self) -> tuple[int, str] | None:
        """The first hand found changed or deleted that no later row of ClubDesk took away."""
        self.check()
        for audit_id, entry_id, match, reason in self.later:
            taken = max(self.removed.get(match, 0), self.removed_entry.get(entry_id, 0))
            if taken <= audit_id:  # (a row that replaced a sheet names the new hands)
                self._fail(audit_id, reason)
        return self.bad


def _key_of(session: Session) -> tuple[dict[str, Any] | None, bytes | None, str | None]:
    """The marker, the key and, when the key is not here, the line saying so."""
    mark = audit_key.marker(session)
    if mark is None:
        return None, None, None
    try:
        return mark, audit_key.read_audit_key(str(mark.get("key", ""))), None
    except audit_key.AuditKeyMissing as exc:
        return (
            mark,
            None,
            _(
                "The rows after row {row} are signed with the club's key {name}, which is not on this PC "
                "(looked for in {where}): they cannot be checked. Copy {name}.key from the PC that kept "
                "the club."
            ).format(row=mark.get("after"), name=exc.name, where=exc.where),
        )


def _key_kept(session: Session) -> bool:
    """Whether this club file's audit key exists here (it is made when the log begins to be keyed)."""
    uid = club_uid(session, create=False)
    if uid is None:
        return False
    try:
        audit_key.read_audit_key(audit_key.key_name(uid))
    except audit_key.AuditKeyMissing:
        return False
    return True


def verify_session(session: Session) -> ChainReport:  # noqa: C901, PLR0912 - one walk, each case named
    server = audit_key.is_server(session)
    mark, key, missing = _key_of(session)
    keyed_after = None if mark is None else int(mark.get("after", -1))
    result = session.execute(
        text(f"SELECT id, prev_hash, row_hash, {COLUMNS_SQL} FROM audit_log ORDER BY id")
    )
    prev = GENESIS
    n = 0
    last_id: int | None = None
    first_keyed = True
    hands = _Hands(session)
    seals = Seals()
    redacted = redacted_hashes(session)  # rows a member's erasure rewrote (their links stay)
    unsigned: tuple[int, str] | None = None  # the first plain row after keying that no signed row follows
    for row in result.mappings():
        n += 1
        values = dict(row)
        row_id = int(row["id"])
        at = at_text(row["at"] or "")
        stored = hash_text(values["row_hash"])
        keyed = keyed_after is not None and row_id > keyed_after
        if keyed and first_keyed:
            first_keyed = False
            if values["action"] != audit_key.KEYED_ACTION or values["after"] != audit_key.marker_text(
                mark or {}
            ):
                reason = _("the row where the log began to be signed with the club's key is gone or changed")
                return ChainReport(False, n, None, row_id, at, reason)
        if values["prev_hash"] is not None and values["prev_hash"] != prev:  # a row from before 0017
            reason = _("a row before it was deleted or changed")
            return ChainReport(False, n, None, row_id, at, reason)
        if stored is None:
            reason = _("the row has no link (inserted from outside)")
            return ChainReport(False, n, None, row_id, at, reason)
        if keyed and key is None:
            prev = stored  # (the key is not here: said once below)
            last_id = row_id
            continue
        if redacted.get(row_id) == row_hash(prev, values):  # rewritten by an erasure, as its row recorded
            hands.see(row_id, values)
            if keyed:
                seals.see(row_id, values["after"], at)
            prev, last_id = stored, row_id
            continue
        expected = keyed_hash(key, prev, values) if keyed and key is not None else row_hash(prev, values)
        good = len(stored) in (64, LINK_HEX) and hmac.compare_digest(expected[: len(stored)], stored)
        if good and keyed:
            unsigned = None  # a signed row vouches for every row before it (its link covers theirs)
        if not good and keyed and row_hash(prev, values)[: len(stored)] == stored:
            # rows a club server wrote after a keyed file was copied onto it are plain (the key never
            # leaves its PC); in a file, such rows must be followed by a row signed with the key
            good = True
            if not server and unsigned is None:
                unsigned = (row_id, at)
        if not good:
            # rows from 0017 keep no prev_hash: a gap in the ids is a deleted row (SQLite hands out the
            # next id; a rolled back row leaves none)
            gap = values["prev_hash"] is None and last_id is not None and row_id != last_id + 1
            reason = _("a row before it was deleted or changed") if gap else _("its content was edited")
            return ChainReport(False, n, None, row_id, at, reason)
        hands.see(row_id, values)
        if keyed:
            seals.see(row_id, values["after"], at)
        prev = stored
        last_id = row_id
    if unsigned is not None:
        reason = _("it was edited or added outside ClubDesk: its link was not made with the club's key")
        return ChainReport(False, n, None, unsigned[0], unsigned[1], reason)
    bad = hands.finish()
    if bad is not None:
        bad_at = session.execute(text("SELECT at FROM audit_log WHERE id = :i"), {"i": bad[0]}).scalar()
        return ChainReport(False, n, None, bad[0], at_text(bad_at or ""), bad[1])
    found: list[str] = []
    if missing is not None:
        found.append(missing)
    if mark is None and not server and _key_kept(session):
        found.append(
            _(
                "This club's audit key is on this PC, but the file's log no longer says it is signed with "
                "it: the log was rewritten outside ClubDesk."
            )
        )
    if mark is not None and first_keyed and not server:
        found.append(
            _(
                "The log was signed with the club's key from row {row} on, and no such row is left: its "
                "end was cut off outside ClubDesk (rows left: {n})."
            ).format(row=(keyed_after or 0) + 1, n=n)
        )
    if key is not None and mark is not None and not server:
        found.extend(check_seals(session, seals, key, dict(mark.get("from") or {})))
    head = None if n == 0 else prev
    return ChainReport(not found, n, head, found=tuple(found), keyed=key is not None and not server)


def verify_chain(db: Database) -> ChainReport:
    """Walk the whole audit log and everything it vouches for, and compare it with the newest anchor kept
    outside the file: the first broken link (row id and time), or each row found changed, if any."""
    anchor = newest_anchor(place_of(db))
    with db.read_session() as s:
        report = verify_session(s)
        if anchor is None:
            return report
        more = check_anchor(s, anchor)
    if not more:
        return ChainReport(**{**report.__dict__, "anchor": anchor})
    found = (*report.found, *more)
    return ChainReport(**{**report.__dict__, "ok": False, "found": found, "anchor": anchor})


def key_signs(session: Session, key: bytes) -> bool:
    """Whether ``key`` is the one this club file's keyed rows are signed with: the first keyed row (where
    keying began) links under it. False for a log that is not keyed."""
    mark = audit_key.marker(session)
    if mark is None:
        return False
    after = int(mark.get("after", -1))
    prev = GENESIS
    if after > 0:
        last = session.execute(text("SELECT row_hash FROM audit_log WHERE id = :i"), {"i": after}).scalar()
        prev = hash_text(last) or GENESIS
    row = (
        session.execute(
            text(f"SELECT row_hash, {COLUMNS_SQL} FROM audit_log WHERE id > :i ORDER BY id LIMIT 1"),
            {"i": after},
        )
        .mappings()
        .first()
    )
    if row is None or row["action"] != audit_key.KEYED_ACTION:
        return False
    stored = hash_text(row["row_hash"]) or ""
    expected = keyed_hash(key, prev, dict(row))
    return len(stored) in (64, LINK_HEX) and hmac.compare_digest(expected[: len(stored)], stored)


def signed_key_name(session: Session) -> str | None:
    """The name of the key this club file's log is signed with (None: the log is not keyed)."""
    mark = audit_key.marker(session)
    return None if mark is None else str(mark.get("key", "")) or None


def key_signs_file(file: Path, key: bytes) -> bool:
    """:func:`key_signs` for a club file that is not the open one (a backup to restore onto this PC), read
    as an immutable file: nothing is written beside it."""
    uri = f"{Path(file).resolve().as_uri()}?mode=ro&immutable=1"
    engine = create_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True), poolclass=NullPool)
    try:
        with Session(engine) as s:
            return key_signs(s, key)
    except (SQLAlchemyError, sqlite3.Error, OSError, ValueError):
        return False  # not a readable club file: no key signs it
    finally:
        engine.dispose()
