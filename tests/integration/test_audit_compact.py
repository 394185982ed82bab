"""Issue 22 (0018_audit_compact): at a million hands the audit log is no larger than the hands. A new
row keeps a 16-byte link (of its SHA-256) and no prev_hash, its time as milliseconds, compact JSON; an
add-entry row names its hand (entry id and an 8-byte digest) instead of copying it. The trail stays
complete (whatever takes a hand away records it), tamper-evident (an edited or deleted hand or audit row
is named by the verifier), and the audit view and CSV still show the hand. Rows written before the
upgrade verify as they did."""

from __future__ import annotations

import csv
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from clubdesk.cli.core import main as cli
from clubdesk.services.club import audit_log, safety
from clubdesk.services.kernel.audit_chain import hand_digest
from clubdesk.services.kernel.audit_verify import ChainReport, verify_chain
from clubdesk.services.members import edit, records
from clubdesk.services.night.play import results, rounds
from clubdesk.storage import Database, known_revisions
from clubdesk.storage.migrate import upgrade
from clubdesk.storage.revisions import head_revision
from tests.integration.test_audit_diff import old_hand_rows
from tests.integration.test_night_helpers import DESK, make_event

HANDS = [
    {"type": "out", "seat": 1, "pips": [7, 0, 12, 3], "last_tile": None, "two_ends": False, "dead": {}},
    {"type": "out", "seat": 2, "pips": [3, 6, 0, 9], "last_tile": None, "two_ends": False, "dead": {}},
    {"type": "out", "seat": 0, "pips": [0, 5, 4, 8], "last_tile": None, "two_ends": False, "dead": {}},
]


def _night(path: Path) -> tuple[Database, int, int]:
    db = Database(path, backups_dir=path.parent / "bk")
    ev, _ids = make_event(db, ruleset="gaple-tournament", fmt="swiss", players=4, rounds=2)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    with db.engine.connect() as c:
        match = c.exec_driver_sql(
            "SELECT id FROM matches WHERE event_id = ? AND round_no = 1 AND table_no = 1", (ev,)
        ).scalar_one()
    return db, ev, int(match)


def _raw(path: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(path)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def _rows(db: Database, action: str) -> list[audit_log.AuditRow]:
    return sorted((r for r in audit_log.audit_rows(db) if r.action == action), key=lambda r: r.id)


def test_a_hand_row_names_its_hand_and_the_trail_tells_the_whole_story(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    db, ev, match = _night(path)
    try:
        for hand in HANDS:
            results.add_entry(db, DESK, ev, 1, 1, hand)
        added = _rows(db, "add-entry")
        assert len(added) == 3
        # the audit view shows each hand as before 0017: the hand, its game and its place on the sheet
        for k, row in enumerate(added):
            shown = json.loads(row.after or "")
            assert shown["entry"] == HANDS[k] and shown["game"] == 1 and shown["seq"] == k + 1
            assert "hand" not in shown
        audit_log.export_audit_csv(db, tmp_path / "audit.csv")
        with (tmp_path / "audit.csv").open(encoding="utf-8-sig") as fh:
            csv_rows = [r for r in csv.DictReader(fh) if r["action"] == "add-entry"]
        assert sorted(json.loads(r["after"])["entry"]["pips"] for r in csv_rows) == sorted(
            h["pips"] for h in HANDS
        )

        results.undo_last_entry(db, DESK, ev, 1, 1)  # the third hand taken back
        results.replace_entries(db, DESK, ev, 1, 1, {1: [HANDS[1]]}, reason="the scorer swapped two hands")
        results.set_score(db, DESK, ev, 1, 1, (1, 0), (101, 40), reason="paper sheet")
        assert results.table_entries(db, ev, 1, 1) == {}
        report = verify_chain(db)
        undo, sheet, score = _rows(db, "undo-entry")[0], _rows(db, "sheet")[0], _rows(db, "score")[0]
    finally:
        db.close()
    assert report.ok, report.message()

    # what is stored: the hand's id and digest, compact JSON, a 16-byte link, no prev_hash, the time
    # in milliseconds
    stored = _raw(
        path,
        "SELECT after, prev_hash, typeof(row_hash), length(row_hash), typeof(at) FROM audit_log "
        "WHERE action = 'add-entry' ORDER BY id",
    )
    refs = []
    for after, prev, kind, size, at_kind in stored:
        body = json.loads(after)
        assert "entry" not in body and ", " not in after and ": " not in after
        refs.append(body["hand"])
        assert (prev, kind, size, at_kind) == (None, "blob", 16, "integer")

    # every hand is gone from result_entries, yet each one's content is in the rows that took it away,
    # and its digest proves it is the hand that add-entry row named
    undone = json.loads(undo.before or "")
    assert undone["entry"] == HANDS[2] and undone["hand"] == refs[2] and undone["seq"] == 3
    replaced = json.loads(sheet.before or "")["entries"]["1"]
    assert replaced == HANDS[:2]
    for k in range(2):
        assert hand_digest(match, 1, replaced[k]) == refs[k][1]
    assert json.loads(sheet.after or "")["entries"] == {"1": [HANDS[1]]} and sheet.reason
    # a final score that replaces a sheet records the hands it removed (issue 22)
    assert json.loads(score.before or "")["entries"] == {"1": [HANDS[1]]}


def _three_hands(tmp_path: Path) -> tuple[Path, list[int], list[int]]:
    path = tmp_path / "club.sqlite3"
    db, ev, _match = _night(path)
    try:
        for hand in HANDS:
            results.add_entry(db, DESK, ev, 1, 1, hand)
        edit.create_member(db, DESK, records.MemberData(name="Budi", number="0202"))  # a row after the hands
        assert verify_chain(db).ok
    finally:
        db.close()
    audit_ids = [r[0] for r in _raw(path, "SELECT id FROM audit_log WHERE action = 'add-entry' ORDER BY id")]
    entry_ids = [r[0] for r in _raw(path, "SELECT id FROM result_entries ORDER BY id")]
    return path, audit_ids, entry_ids


def _verify_copy(path: Path, name: str, *sql: str) -> ChainReport:
    copy = path.with_name(name)
    shutil.copy(path, copy)
    con = sqlite3.connect(copy)
    for statement in sql:
        con.execute(statement)
    con.commit()
    con.close()
    db = Database(copy, backups_dir=path.parent / "bk")
    try:
        return verify_chain(db)
    finally:
        db.close()


def test_the_verifier_names_an_edited_or_deleted_hand_and_audit_row(tmp_path: Path) -> None:
    path, audit_ids, entry_ids = _three_hands(tmp_path)
    second_row, second_entry = audit_ids[1], entry_ids[1]

    # the hand itself edited outside ClubDesk (other pips): the row that recorded it is named
    edited_hand = _verify_copy(
        path,
        "a.sqlite3",
        "UPDATE result_entries SET data = replace(data, '[3, 6, 0, 9]', '[3, 6, 0, 1]') "
        f"WHERE id = {second_entry}",
    )
    assert not edited_hand.ok and edited_hand.broken_id == second_row
    assert "changed outside" in (edited_hand.reason or "")

    moved_hand = _verify_copy(
        path, "b.sqlite3", f"UPDATE result_entries SET game_no = 2 WHERE id = {second_entry}"
    )
    assert not moved_hand.ok and moved_hand.broken_id == second_row

    # the hand deleted outside ClubDesk (no row of the match recorded taking it away)
    deleted_hand = _verify_copy(path, "c.sqlite3", f"DELETE FROM result_entries WHERE id = {second_entry}")
    assert not deleted_hand.ok and deleted_hand.broken_id == second_row
    assert "deleted outside" in (deleted_hand.reason or "")

    # the audit row edited, deleted, or one added from outside
    edited_row = _verify_copy(
        path,
        "d.sqlite3",
        f"UPDATE audit_log SET actor_name = 'ZZ' WHERE id = {second_row}",
    )
    assert not edited_row.ok and edited_row.broken_id == second_row and "edited" in (edited_row.reason or "")
    deleted_row = _verify_copy(path, "e.sqlite3", f"DELETE FROM audit_log WHERE id = {second_row}")
    assert not deleted_row.ok and deleted_row.broken_id == second_row + 1
    assert "deleted" in (deleted_row.reason or "")
    inserted = _verify_copy(
        path,
        "f.sqlite3",
        "INSERT INTO audit_log (at, actor_name, actor_role, action, entity, row_hash) "
        "SELECT at + 1, 'X', 'scorer', 'note', 'member', randomblob(32) FROM audit_log "
        "ORDER BY id DESC LIMIT 1",
    )
    assert not inserted.ok and inserted.broken_id == max(audit_ids) + 2  # after the member's row


def test_the_chain_head_reads_the_same_hex_text_everywhere(tmp_path: Path, capsys: Any) -> None:
    path, _audit_ids, _entry_ids = _three_hands(tmp_path)
    (last,) = _raw(path, "SELECT row_hash FROM audit_log ORDER BY id DESC LIMIT 1")[0]
    assert cli(["--db", str(path), "audit", "--verify", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    db = Database(path, backups_dir=tmp_path / "bk")
    try:
        info = safety.backup(db, DESK)
    finally:
        db.close()
    assert shown["ok"] and shown["head"] == info.audit_head == bytes(last).hex()
    assert len(shown["head"]) == 32  # the 16-byte link of the last row (0018_audit_compact)


def test_an_old_database_upgrades_and_its_rows_verify_as_before(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    upgrade(path, "0016_audit_diff")
    snapshot = {"status": "in_play", "kind": "played", "score": [0, 0], "points": [None, None]}
    old_hand_rows(  # rows as 0016 wrote them: text time, hex hashes, prev_hash, the whole hand
        path,
        [
            (
                f"2026-11-0{i + 1} 20:00:00.123456",
                {"points": [0, 0]},
                {**snapshot, "entry": HANDS[i], "game": 1, "seq": i + 1},
            )
            for i in range(3)
        ],
    )

    db = Database(path, backups_dir=tmp_path / "bk")  # upgrades to the head
    try:
        assert db.revision() == head_revision() and "0018_audit_compact" in known_revisions()
        edit.create_member(db, DESK, records.MemberData(name="Budi", number="0202"))
        report = verify_chain(db)
        old = _rows(db, "add-entry")
    finally:
        db.close()
    assert report.ok and report.rows == 5  # + the row where the log began to be signed with the key
    assert [json.loads(r.after or "")["entry"] for r in old] == HANDS  # the snapshots, as written
    assert old[0].at.microsecond == 123456
    indexes = {r[0] for r in _raw(path, "SELECT name FROM sqlite_master WHERE tbl_name = 'audit_log'")}
    assert "ix_audit_log_event_id_id" in indexes
    assert not indexes & {"ix_audit_log_at_id", "ix_audit_log_event_at"}
    kinds = _raw(path, "SELECT typeof(prev_hash), typeof(row_hash), typeof(at) FROM audit_log ORDER BY id")
    assert kinds == [("text", "text", "text")] * 3 + [("null", "blob", "integer")] * 2  # keyed start, member

    # an old row edited or deleted after the upgrade is still caught
    edited = _verify_copy(path, "x.sqlite3", "UPDATE audit_log SET after = '99' WHERE id = 2")
    assert not edited.ok and edited.broken_id == 2 and "edited" in (edited.reason or "")
    deleted = _verify_copy(path, "y.sqlite3", "DELETE FROM audit_log WHERE id = 2")
    assert not deleted.ok and deleted.broken_id == 3
    new_deleted = _verify_copy(path, "z.sqlite3", "DELETE FROM audit_log WHERE id = 3")
    assert not new_deleted.ok and new_deleted.broken_id == 4  # the first new row no longer links
