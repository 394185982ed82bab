"""Moving the club's audit key to another PC: ``audit key export`` on the PC that kept the club, ``audit key
import`` on the new one (each PC's keys folder its own, ``CLUBDESK_KEYS``); the moved club verifies intact,
and a key that does not sign this file is refused with nothing written (rule G13: a tamper-evident trail
whose key only the secretary moves)."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from clubdesk.cli.core import main as cli
from clubdesk.keys import key_file
from clubdesk.services import club, members
from clubdesk.services.kernel import Actor, Role, ServiceError, verify_chain
from clubdesk.services.night.play import results, rounds
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, make_event

GAME = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}


@pytest.fixture
def old_pc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A club played on the old PC, its key in that PC's keys folder."""
    monkeypatch.setenv("CLUBDESK_KEYS", str(tmp_path / "old-keys"))
    path = tmp_path / "old" / "club.sqlite3"
    path.parent.mkdir()
    db = Database(path, backups_dir=tmp_path / "old" / "backups")
    try:
        ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=2, match_lengths=[3])
        rounds.propose_round(db, DESK, ev)
        rounds.publish_round(db, DESK, ev)
        for _game in range(3):
            results.add_entry(db, DESK, ev, 1, 1, GAME)
        assert verify_chain(db).ok
    finally:
        db.close()
    return path


def _on_new_pc(old: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLUBDESK_KEYS", str(tmp_path / "new-keys"))
    new = tmp_path / "new" / "club.sqlite3"
    new.parent.mkdir()
    shutil.copy(old, new)
    return new


def test_the_key_moves_to_another_pc_and_the_club_verifies_intact(
    old_pc: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "stick" / "club.key"
    out.parent.mkdir()
    assert cli(["--db", str(old_pc), "audit", "key", "export", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert str(out) in said and "re-sign the audit log" in said
    assert stat.S_IMODE(out.stat().st_mode) == 0o600  # owner-only
    # exporting again over the file is refused, the file as it was
    kept = out.read_bytes()
    assert cli(["--db", str(old_pc), "audit", "key", "export", "--out", str(out)]) == 1
    assert out.read_bytes() == kept

    new = _on_new_pc(old_pc, tmp_path, monkeypatch)
    assert cli(["--db", str(new), "audit", "--verify"]) == 1  # no key here: the keyed rows cannot be checked
    assert "not on this PC" in capsys.readouterr().err
    assert cli(["--db", str(new), "audit", "key", "import", str(out)]) == 0
    assert "is kept on this PC" in capsys.readouterr().out
    assert cli(["--db", str(new), "audit", "--verify"]) == 0
    assert "intact" in capsys.readouterr().out
    # changes on the new PC are signed with the moved key and verify too
    db = Database(new)
    try:
        results.add_entry(db, DESK, 1, 1, 2, GAME)  # (the only event: id 1)
        assert verify_chain(db).ok
    finally:
        db.close()


def test_a_key_that_does_not_sign_the_file_is_refused_and_nothing_is_written(
    old_pc: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    new = _on_new_pc(old_pc, tmp_path, monkeypatch)
    wrong = tmp_path / "wrong.key"
    wrong.write_text("c2l4dGVlbiBieXRlcyBvZiBhIGtleSB0aGF0IGlzIG5vdCB0aGVpcnM=\n")
    rows_before = new.read_bytes()
    assert cli(["--db", str(new), "--lang", "es", "audit", "key", "import", str(wrong)]) == 1
    assert "no es la" in capsys.readouterr().err  # refused in the club's language
    garbage = tmp_path / "garbage.key"
    garbage.write_bytes(b"\x00\xff not a key")
    assert cli(["--db", str(new), "audit", "key", "import", str(garbage)]) == 1
    assert "not a ClubDesk audit key file" in capsys.readouterr().err
    keys_dir = tmp_path / "new-keys"
    assert not keys_dir.exists() or not any(p.suffix == ".key" for p in keys_dir.iterdir())
    assert new.read_bytes() == rows_before  # nothing written in the club file either


def test_only_the_secretary_moves_the_key(old_pc: Path, tmp_path: Path) -> None:
    db = Database(old_pc)
    try:
        club.add_staff(db, Actor("Sekretaris", Role.SECRETARY), "Sekretaris", Role.SECRETARY, "1234")
        club.add_staff(db, Actor("Sekretaris", Role.SECRETARY), "Wasit", Role.REFEREE, "5678")
        for role in (Role.REFEREE, Role.SCORER):
            with pytest.raises(ServiceError) as refused:
                club.export_audit_key(db, Actor("Wasit", role), tmp_path / "k.key")
            assert refused.value.code == "not-allowed"
            assert not (tmp_path / "k.key").exists()
        name = club.export_audit_key(db, Actor("Sekretaris", Role.SECRETARY), tmp_path / "k.key").name
        assert (tmp_path / "k.key").read_text() == key_file(name).read_text()
        assert os.stat(tmp_path / "k.key").st_mode & 0o077 == 0
    finally:
        db.close()


def test_a_backup_restores_onto_a_new_pc_once_its_key_is_imported(
    old_pc: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = Database(old_pc, backups_dir=tmp_path / "old" / "backups")
    try:
        backup = Path(club.backup(db, DESK).file)
        key = tmp_path / "club.key"
        club.export_audit_key(db, DESK, key)
    finally:
        db.close()
    monkeypatch.setenv("CLUBDESK_KEYS", str(tmp_path / "new-keys"))
    fresh = tmp_path / "new" / "club.sqlite3"
    fresh.parent.mkdir()
    db = Database(fresh, backups_dir=tmp_path / "new" / "backups")
    try:
        members.create_member(db, DESK, members.MemberData(name="Budi Santoso", number="0202"))
        with pytest.raises(ServiceError) as refused:
            club.restore(db, DESK, backup)
        assert refused.value.code == "audit-key-missing"
        # the key checked against the fresh file is refused (another club's key); against the backup, kept
        with pytest.raises(ServiceError) as wrong:
            club.import_audit_key(db, DESK, key)
        assert wrong.value.code == "wrong-audit-key"
        kept_backup = backup.read_bytes()
        club.import_audit_key(db, DESK, key, backup=backup)
        assert backup.read_bytes() == kept_backup  # only read
        club.restore(db, DESK, backup)
        report = verify_chain(db)
        assert report.ok and report.keyed, report.message()
    finally:
        db.close()
