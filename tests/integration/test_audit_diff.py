"""Issue 22: the audit log stores what changed. An update's row holds the before and after of only the
fields that changed, an insert the new fields, a hand's row the hand itself; the audit view and the CSV
export show each changed field before and after; the hash chain of issue 23 covers the new rows, and rows
written earlier as whole snapshots stay readable and verifiable."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path
from typing import Any

from clubdesk.services.club import audit_log
from clubdesk.services.kernel import audit_chain
from clubdesk.services.kernel.audit_verify import verify_chain
from clubdesk.services.members import edit, records
from clubdesk.services.night.play import results, rounds
from clubdesk.storage import Database
from clubdesk.storage.migrate import upgrade
from tests.integration.test_night_helpers import DESK, make_event, open_db

HAND = {"type": "out", "seat": 1, "pips": [7, 0, 12, 3], "last_tile": None, "two_ends": False, "dead": {}}


def _last(db: Database, action: str) -> audit_log.AuditRow:
    return next(r for r in audit_log.audit_rows(db) if r.action == action)


def test_an_update_stores_only_the_changed_fields_before_and_after(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    edit.create_member(db, DESK, records.MemberData(name="Siti Rahayu", number="0101", city="Bandung"))
    created = _last(db, "member.create")
    assert created.before is None
    inserted = json.loads(created.after or "")
    assert inserted["name"] == "Siti Rahayu" and inserted["city"] == "Bandung"  # an insert: the new fields

    edit.update_member(
        db, DESK, "0101", records.MemberData(name="Siti Rahayu", number="0101", city="Jakarta")
    )
    changed = _last(db, "member.change")
    assert json.loads(changed.before or "") == {"city": "Bandung"}
    assert json.loads(changed.after or "") == {"city": "Jakarta"}

    audit_log.export_audit_csv(db, tmp_path / "audit.csv")
    with (tmp_path / "audit.csv").open(encoding="utf-8-sig") as fh:
        rows = list(csv.DictReader(fh))
    row = next(r for r in rows if r["action"] == "member.change")
    assert row["actor"] == "Desk" and row["entity_id"] == "0101"
    assert json.loads(row["before"]) == {"city": "Bandung"}
    assert json.loads(row["after"]) == {"city": "Jakarta"}
    assert verify_chain(db).ok


def test_a_hand_row_holds_the_hand_and_the_fields_it_moved(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="gaple-tournament", fmt="swiss", players=4, rounds=2)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    results.add_entry(db, DESK, ev, 1, 1, HAND)
    first = _last(db, "add-entry")
    results.add_entry(db, DESK, ev, 1, 1, HAND)
    second = _last(db, "add-entry")
    assert second.id != first.id and (second.event, second.round, second.table) == (ev, 1, 1)
    before, after = json.loads(second.before or ""), json.loads(second.after or "")
    assert after["entry"] == HAND and after["seq"] == 2
    sheet = results.table_entries(db, ev, 1, 1)[1]
    assert sheet == [HAND, HAND]
    # the first hand moved the table from waiting into play; the second left the match's fields alone
    assert json.loads(first.before or "")["status"] == "waiting"
    assert json.loads(first.after or "")["status"] == "in_play"
    assert before == {} and set(after) == {"entry", "game", "seq"}
    results.undo_last_entry(db, DESK, ev, 1, 1)
    undone = _last(db, "undo-entry")
    assert json.loads(undone.before or "")["entry"] == HAND  # a delete keeps what was removed
    assert verify_chain(db).ok


def old_hand_rows(path: Path, rows: list[tuple[str, Any, Any]]) -> None:
    """Add-entry audit rows (time, before, after) written into ``path`` as earlier revisions wrote them:
    text time, hex hashes, each row's prev_hash, chained from the genesis."""
    prev = audit_chain.GENESIS
    con = sqlite3.connect(path)
    for at, before, after in rows:
        values = {
            "at": at,
            "actor_name": "AB",
            "actor_role": "scorer",
            "action": "add-entry",
            "entity": "match",
            "entity_id": "7",
            "event_id": 1,
            "round_no": 1,
            "table_no": 3,
            "before": json.dumps(before),
            "after": json.dumps(after),
            "reason": None,
        }
        digest = audit_chain.row_hash(prev, values)
        cols = ", ".join([*values, "prev_hash", "row_hash"])
        con.execute(
            f"INSERT INTO audit_log ({cols}) VALUES ({', '.join('?' * (len(values) + 2))})",
            [*values.values(), prev, digest],
        )
        prev = digest
    con.commit()
    con.close()


def test_snapshot_rows_of_before_the_upgrade_stay_readable_and_verifiable(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    upgrade(path, "0013_table_entry")
    snapshot = {"status": "in_play", "kind": "played", "score": [0, 0], "points": [None, None]}
    old_hand_rows(
        path,
        [
            (f"2026-11-0{i + 1} 20:00:00.000000", snapshot, {**snapshot, "score": [i + 1, 0], "entry": HAND})
            for i in range(3)
        ],
    )
    db = Database(path, backups_dir=tmp_path / "bk")  # upgrades to the head (0016_audit_diff)
    try:
        edit.create_member(db, DESK, records.MemberData(name="Budi", number="0202"))
        edit.update_member(db, DESK, "0202", records.MemberData(name="Budi Santoso", number="0202"))
        report = verify_chain(db)
        old = [r for r in audit_log.audit_rows(db) if r.action == "add-entry"]
        new = _last(db, "member.change")
    finally:
        db.close()
    assert report.ok and report.rows == 6  # + the row where the log began to be signed with the key
    assert len(old) == 3 and json.loads(old[0].after or "")["kind"] == "played"  # whole snapshots, as written
    assert json.loads(new.after or "") == {"name": "Budi Santoso"}
