"""The audit log anchored outside the club file: keyed links, seals of the rows it vouches for, anchors.

Each edit a file's owner can make with any SQLite tool is made here on a club with history (a member, a
final score 9-1, a payment, a penalty), after a backup wrote its anchor; ``audit --verify`` must report it
naming the row (rules G13 audit trail, T12b money kept). The key and the anchors live in a folder of the
test's own (``CLUBDESK_KEYS``), never in the file.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import text

from clubdesk.cli.core import main as cli
from clubdesk.models.event import Entrant
from clubdesk.services.club import safety
from clubdesk.services.discipline import incidents
from clubdesk.services.kernel import ServiceError
from clubdesk.services.kernel.audit_chain import COLUMNS, hash_text, link_of
from clubdesk.services.kernel.audit_verify import verify_chain
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.services.members import edit, records
from clubdesk.services.money import fees
from clubdesk.services.night.play import results, rounds
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, make_event

REF = Actor("Referee", Role.REFEREE)


@dataclass
class Club:
    db: Database
    path: Path
    keys: Path
    event: int
    match: int
    payment: int
    penalty: int
    member: int


def _outside(path: Path, *sql: str) -> None:
    """Edits made with another tool on the club file."""
    con = sqlite3.connect(path)
    try:
        for statement in sql:
            con.execute(statement)
        con.commit()
    finally:
        con.close()


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Club]:
    keys = tmp_path / "keys"
    monkeypatch.setenv("CLUBDESK_KEYS", str(keys))
    path = tmp_path / "club.sqlite3"
    db = Database(path, backups_dir=tmp_path / "backups")
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[9])
    with db.session() as s:
        for en in s.query(Entrant).filter(Entrant.event_id == ev):
            en.fee = 2500
    edit.create_member(db, DESK, records.MemberData(name="Budi Santoso", number="0202"))
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    results.set_score(db, DESK, ev, 1, 1, (9, 1), confirm=True)
    paid = fees.pay(db, DESK, ev, ids[0], 2500, "cash")
    penalty = incidents.disqualify(db, REF, ev, ids[3], "insulted the referee")
    safety.backup(db, DESK)
    member_id = int(_one(path, "SELECT id FROM members WHERE number = '0202'"))
    match = int(_one(path, f"SELECT id FROM matches WHERE event_id = {ev} AND round_no = 1 AND table_no = 1"))
    yield Club(db, path, keys, ev, match, paid.id, penalty.id, member_id)
    db.close()


def _one(path: Path, sql: str) -> object:
    con = sqlite3.connect(path)
    try:
        return con.execute(sql).fetchone()[0]
    finally:
        con.close()


def _verify(c: Club) -> str:
    report = verify_chain(c.db)
    assert not report.ok
    return report.message()


def test_an_untouched_club_is_intact_signed_and_anchored(club: Club) -> None:
    report = verify_chain(club.db)
    assert report.ok and report.keyed and report.anchor is not None, report.message()
    assert "signed with the club's key" in report.message() and "the backup of" in report.message()
    # the key and the anchors are outside the file, the file names the key only
    uid = json.loads(str(_one(club.path, "SELECT value FROM settings WHERE key = 'club.uid'")))
    assert (club.keys / f"audit-{uid}.key").is_file()
    anchors = (club.keys / f"audit-{uid}.anchors.jsonl").read_text().splitlines()
    assert json.loads(anchors[-1])["rows"] == report.rows
    key = (club.keys / f"audit-{uid}.key").read_text().strip()
    assert key not in club.path.read_bytes().decode("latin-1")


def test_a_row_edited_and_the_chain_recomputed_with_the_plain_function_is_seen(club: Club) -> None:
    pid = club.payment
    con = sqlite3.connect(club.path)
    con.row_factory = sqlite3.Row
    rows = [
        dict(r) for r in con.execute(f"SELECT id, row_hash, {', '.join(COLUMNS)} FROM audit_log ORDER BY id")
    ]
    target = next(r for r in rows if r["action"] == "payment.record")
    target["after"] = str(target["after"]).replace("2500", "500")
    prev = hash_text(rows[rows.index(target) - 1]["row_hash"]) or ""
    for r in rows[rows.index(target) :]:  # every link from there on, as ClubDesk's plain chain makes it
        link = link_of(prev, r)
        con.execute(
            "UPDATE audit_log SET after = ?, row_hash = ? WHERE id = ?",
            (r["after"], bytes.fromhex(link), r["id"]),
        )
        prev = link
    con.execute(f"UPDATE payments SET amount = 500 WHERE id = {pid}")
    con.commit()
    con.close()
    message = _verify(club)
    assert f"row {target['id']}" in message and "edited" in message


def test_the_keying_taken_away_and_a_plain_chain_recomputed_is_seen_without_any_anchor(club: Club) -> None:
    for anchors in club.keys.glob("*.anchors.jsonl"):
        anchors.unlink()  # (the file's owner may not reach the keys folder; here nothing anchors it)
    con = sqlite3.connect(club.path)
    con.row_factory = sqlite3.Row
    con.execute("DELETE FROM settings WHERE key = 'audit.keyed'")
    prev = "0" * 64
    for r in [dict(r) for r in con.execute(f"SELECT id, {', '.join(COLUMNS)} FROM audit_log ORDER BY id")]:
        link = link_of(prev, r)
        con.execute("UPDATE audit_log SET row_hash = ? WHERE id = ?", (bytes.fromhex(link), r["id"]))
        prev = link
    con.commit()
    con.close()
    assert "no longer says it is signed" in _verify(club)


def test_the_last_five_rows_cut_are_seen(club: Club) -> None:
    n = verify_chain(club.db).rows
    _outside(
        club.path, "DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log ORDER BY id DESC LIMIT 5)"
    )
    message = _verify(club)
    assert f"had {n} rows at the backup of" in message and f"now has {n - 5}" in message


def test_an_emptied_log_is_seen(club: Club) -> None:
    n = verify_chain(club.db).rows
    _outside(club.path, "DELETE FROM audit_log")
    message = _verify(club)
    assert f"had {n} rows at the backup of" in message and "now has 0" in message


def test_a_final_score_turned_round_is_seen(club: Club) -> None:
    _outside(
        club.path, f"UPDATE matches SET score_a = 1, score_b = 9, winner = side_b WHERE id = {club.match}"
    )
    message = _verify(club)
    assert f"Match {club.match} was changed outside ClubDesk" in message


def test_a_payment_amount_changed_is_seen(club: Club) -> None:
    _outside(club.path, f"UPDATE payments SET amount = 250 WHERE id = {club.payment}")
    assert f"Payment {club.payment} was changed outside ClubDesk" in _verify(club)


def test_a_payment_deleted_is_seen(club: Club) -> None:
    _outside(club.path, f"DELETE FROM payments WHERE id = {club.payment}")
    assert f"Payment {club.payment} was deleted outside ClubDesk" in _verify(club)


def test_a_member_renamed_is_seen(club: Club) -> None:
    _outside(club.path, "UPDATE members SET name = 'Someone Else' WHERE number = '0202'")
    assert f"Member 0202 (row {club.member}) was changed outside ClubDesk" in _verify(club)


def test_a_penalty_changed_is_seen(club: Club) -> None:
    _outside(club.path, f"UPDATE penalties SET kind = 'warning' WHERE id = {club.penalty}")
    assert f"Penalty {club.penalty} was changed outside ClubDesk" in _verify(club)


def test_a_payment_added_outside_is_seen(club: Club) -> None:
    _outside(
        club.path,
        "INSERT INTO payments (entrant_id, amount, currency, method, reference, paid_at, recorded_at, "
        "recorded_by, kind, note) SELECT entrant_id, 9900, currency, method, '', paid_at, recorded_at, "
        f"recorded_by, kind, note FROM payments WHERE id = {club.payment}",
    )
    assert "was added outside ClubDesk" in _verify(club)


def test_changes_made_in_clubdesk_keep_it_intact(club: Club) -> None:
    edit.update_member(club.db, DESK, "0202", records.MemberData(name="Budi S.", number="0202"))
    results.set_score(club.db, DESK, club.event, 1, 1, (9, 3), confirm=True, override="the sheet was misread")
    report = verify_chain(club.db)
    assert report.ok, report.message()


def test_the_cli_refuses_in_the_club_language_and_anchors_on_request(
    club: Club, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ["--db", str(club.path)]
    assert cli([*db, "audit", "--verify", "--anchor"]) == 0
    assert "recorded in" in capsys.readouterr().out
    _outside(club.path, f"UPDATE payments SET amount = 250 WHERE id = {club.payment}")
    assert cli([*db, "--lang", "es", "audit", "--verify"]) == 1
    err = capsys.readouterr().err
    assert f"Pago {club.payment} se modificó fuera de ClubDesk" in err  # said in Spanish


def test_a_restore_is_the_new_anchor_not_a_cut(club: Club) -> None:
    first = safety.backup(club.db, DESK)
    assert first.audit_rows and first.audit_key and first.audit_key.startswith("audit-")
    assert first.audit_anchor and Path(first.audit_anchor).parent == club.keys
    edit.update_member(club.db, DESK, "0202", records.MemberData(name="Budi S.", number="0202"))
    safety.backup(club.db, DESK)
    safety.restore(club.db, DESK, first.file)  # fewer rows than the newest backup held: not a tamper
    report = verify_chain(club.db)
    assert report.ok and report.anchor is not None and report.anchor.reason == "restore", report.message()


def test_a_club_file_on_a_pc_without_its_key(
    club: Club, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other-pc"
    monkeypatch.setenv("CLUBDESK_KEYS", str(other / "keys"))
    copy = other / "club.sqlite3"
    other.mkdir()
    club.db.close()
    shutil.copy(club.path, copy)
    db = Database(copy, backups_dir=other / "backups")
    try:
        report = verify_chain(db)
        assert (
            not report.ok and "not on this PC" in report.message() and str(other / "keys") in report.message()
        )
        with pytest.raises(ServiceError) as refused:
            edit.update_member(db, DESK, "0202", records.MemberData(name="Budi S.", number="0202"))
        assert "Copy the key file" in refused.value.message
        backup = next((tmp_path / "backups").glob("*.sqlite3"))
        before = copy.read_bytes()
        with pytest.raises(ServiceError) as refused:  # checked before anything is replaced
            safety.restore(db, DESK, backup)
        assert refused.value.code == "audit-key-missing" and copy.read_bytes() == before
        key = next(club.keys.glob("audit-*.key"))
        (other / "keys").mkdir(exist_ok=True)
        shutil.copy(key, other / "keys" / key.name)  # what a restore onto another PC needs: the key file
        assert verify_chain(db).ok
        edit.update_member(db, DESK, "0202", records.MemberData(name="Budi S.", number="0202"))
        assert verify_chain(db).ok
    finally:
        db.close()
    club.db = Database(club.path, backups_dir=tmp_path / "backups")


def test_signed_sheets_and_the_act_print_the_head_and_anchor_it(club: Club, tmp_path: Path) -> None:
    from pypdf import PdfReader

    from clubdesk.services.publishing.match_act import incident_act_report
    from clubdesk.services.publishing.score_sheets import score_sheets_report

    report = verify_chain(club.db)
    assert report.head is not None
    for name, write in (
        ("sheets.pdf", lambda out: score_sheets_report(club.db, club.event, out, round_no=1, language="es")),
        (
            "act.pdf",
            lambda out: incident_act_report(club.db, club.event, out, round_no=1, table_no=1, language="es"),
        ),
    ):
        out = tmp_path / name
        write(out)
        text = " ".join(page.extract_text() or "" for page in PdfReader(out).pages)
        assert f"{report.head[:12]}" in text and f"{report.rows}" in text, name
    anchor = verify_chain(club.db).anchor
    assert anchor is not None and anchor.reason == "sheet" and anchor.rows == report.rows
    _outside(
        club.path, "DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log ORDER BY id DESC LIMIT 2)"
    )
    assert "the sheet printed at" in _verify(club)


def test_a_whole_demo_club_written_by_clubdesk_is_intact(tmp_path: Path, demo_file: Path) -> None:
    """Every use case the demo runs (members, entries, payments, nights, penalties, appeals, prizes) seals
    what it writes: the check finds nothing to report on a club only ClubDesk wrote (the run's demo club,
    filled by ``fill_demo``)."""
    shutil.copy(demo_file, tmp_path / "demo.club.sqlite3")
    db = Database(tmp_path / "demo.club.sqlite3", backups_dir=tmp_path / "backups")
    try:
        report = verify_chain(db)
        with db.read_session() as s:
            sealed = s.execute(text("SELECT count(*) FROM audit_log WHERE after LIKE '%\"~seal\"%'")).scalar()
    finally:
        db.close()
    assert report.ok and report.keyed, report.message()
    assert sealed and sealed > 20  # payments, members, final scores, penalties… were sealed as written


def _append_plain_row(c: Club, action: str) -> int:
    """A row linked with the plain function after the signed ones, as a club server writes them once a keyed
    club file was copied onto it (or as someone adds a row with another tool)."""
    con = sqlite3.connect(c.path)
    con.row_factory = sqlite3.Row
    last = dict(
        con.execute(f"SELECT id, row_hash, {', '.join(COLUMNS)} FROM audit_log ORDER BY id DESC").fetchone()
    )
    row = dict(last, action=action, entity="database", entity_id="x", before=None, after=None, reason=None)
    link = link_of(hash_text(last["row_hash"]) or "", row)
    cols = ", ".join(COLUMNS)
    marks = ", ".join("?" for _c in COLUMNS)
    con.execute(
        f"INSERT INTO audit_log (id, row_hash, {cols}) VALUES (?, ?, {marks})",
        (last["id"] + 1, bytes.fromhex(link), *(row[c] for c in COLUMNS)),
    )
    con.commit()
    con.close()
    return int(last["id"]) + 1


def test_a_plain_row_at_the_end_of_a_signed_log_is_seen(club: Club) -> None:
    added = _append_plain_row(club, "payment.refund")
    message = _verify(club)
    assert f"row {added}" in message and "club's key" in message


def test_plain_rows_a_server_wrote_are_vouched_for_by_the_next_signed_row(club: Club) -> None:
    """A keyed club file copied onto a club server and back: the server's own rows are plain (the key never
    leaves its PC); the next row signed with the club's key covers them, as its link covers their links."""
    _append_plain_row(club, "database.copy-in")
    edit.create_member(club.db, DESK, records.MemberData(name="Ayşe Yılmaz", number="0303"))  # a signed row
    report = verify_chain(club.db)
    assert report.ok, report.message()
