"""People and PINs (issue 23): the permission table checked against every role, PIN log-in with lock-out,
the CLI acting only as a proved person once the club has accounts, contacts masked for non-secretaries."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from clubdesk.cli.core import main as cli
from clubdesk.models import AuditEntry
from clubdesk.services import demo, events, federation, members, money, night, publishing
from clubdesk.services.club import audit_keys, audit_log, safety, settings, staff
from clubdesk.services.desk import registration
from clubdesk.services.kernel import unsealed
from clubdesk.services.kernel.base import Actor, Role, ServiceError
from clubdesk.services.kernel.permissions import PERMISSIONS
from clubdesk.services.members import csv_io, edit, merge, records, search
from clubdesk.services.money import fees
from clubdesk.services.publishing.players import player_card
from clubdesk.storage import Database

SEC = Actor("Sekretaris", Role.SECRETARY)


@pytest.fixture
def club(tmp_path: Path) -> Database:
    db = Database(tmp_path / "club.sqlite3")
    for name in ("Şükrü Işık", "Ayşe Çelik", "José Muñoz", "Budi Santoso"):
        edit.create_member(db, SEC, records.MemberData(name=name, phone="+90 532 111 22 33"))
    yield db
    db.close()


def _event(db: Database) -> int:
    ev = events.create_event(
        db, SEC, events.EventData(name="Kupa", ruleset="tavla", format="swiss", fee=25000, currency="TRY")
    )
    return ev.id


def _entrant(db: Database, event_id: int, i: int) -> int:
    number = search.list_members(db)[i].number
    return registration.register(db, SEC, event_id, number).entrant


def _actions(db: Database, tmp_path: Path) -> dict[str, Callable[[Actor], Any]]:
    """One real service call per action of the permission table."""
    nums = [m.number for m in search.list_members(db)]
    ev = _event(db)
    e0, e1, e2 = (_entrant(db, ev, i) for i in range(3))
    fees.pay(db, SEC, ev, e1, 25000, "cash")
    backup = safety.backup(db, SEC).file
    csv_file = tmp_path / "in.csv"
    csv_file.write_text("name,club,city\nNur Aini,Gaple Surabaya,Surabaya\n", encoding="utf-8")
    return {
        "members.edit": lambda a: edit.create_member(db, a, records.MemberData(name="Nur Aini")),
        "members.merge": lambda a: merge.merge_members(db, a, nums[0], nums[3]),
        "members.import": lambda a: csv_io.import_members(db, a, csv_file, dry_run=True),
        "members.export": lambda a: csv_io.export_csv(db, a, tmp_path / "out.csv"),
        "contacts.view": lambda a: _contacts(db, a),
        # the members' privacy rights: a copy of everything held; clearing (a dry run writes nothing)
        "members.personal": lambda a: publishing.export_personal(db, a, nums[0], tmp_path),
        "members.erase": lambda a: members.clear_inactive(db, a, 50, dry_run=True),
        "events.edit": lambda a: events.create_event(
            db, a, events.EventData(name="X", ruleset="tavla", format="swiss")
        ),
        "events.status": lambda a: events.set_status(db, a, ev, "closed"),
        "desk.register": lambda a: registration.register(db, a, ev, nums[3]),
        "desk.pay": lambda a: fees.pay(db, a, ev, e0, 100, "cash"),
        "desk.refund": lambda a: fees.refund(db, a, ev, e1, 100, reason="mistake"),
        "desk.withdraw": lambda a: registration.withdraw(db, a, ev, e2),
        "settings.edit": lambda a: settings.save_club_settings(db, a, "Kulüp", None, "tr"),
        "staff.manage": lambda a: staff.add_staff(db, a, f"Hakem {a.role}", "referee", "4321"),
        "database.backup": lambda a: safety.backup(db, a),
        "database.restore": lambda a: safety.restore(db, a, backup),
        # the audit key (G13): the allowed role meets another refusal, no such key file
        "audit.key": lambda a: audit_keys.import_audit_key(db, a, tmp_path / "no.key"),
        # public results leave the club (T12d, T14): the allowed roles meet another refusal, no such event
        "federation.send": lambda a: federation.export_event(db, a, 9999, tmp_path / "fed.json"),
        "incidents.view": lambda a: _incidents(db, a, nums[0]),
        # the allowed roles meet another refusal: no proposed round, no such prize, not the demo file
        "rounds.edit": lambda a: night.discard_round(db, a, ev),
        "night.configure": lambda a: night.configure(db, a, ev, call_minutes=15),
        "prizes.pay": lambda a: money.pay_prize(db, a, ev, 1, "cash"),
        "demo.fill": lambda a: demo.fill_demo(db, actor=a),
    }


def _incidents(db: Database, viewer: Actor, number: str) -> None:
    """Issue 21: a player card gathers incidents only for a viewer allowed to see them."""
    from clubdesk.services.kernel.base import ServiceError

    if not player_card(db, number, viewer).incidents_shown:
        raise ServiceError("not-allowed", "no incidents on the card")


def _contacts(db: Database, viewer: Actor) -> None:
    with db.session() as s:
        stored = {
            a.id: unsealed(a.after)  # as the view shows it: without the keyed log's seal
            for a in s.scalars(select(AuditEntry).where(AuditEntry.action == "member.create"))
        }
    shown = {r.id: r.after for r in audit_log.audit_rows(db, viewer=viewer) if r.id in stored}
    assert stored and all("phone" in (v or "") for v in stored.values())
    if shown != stored:  # phones masked: this viewer may not see contacts
        raise ServiceError("not-allowed", "masked")


def test_every_action_of_the_permission_table_with_every_role(club: Database, tmp_path: Path) -> None:
    staff.add_staff(club, SEC, SEC.name, "secretary", "1234")
    calls = _actions(club, tmp_path)
    assert set(calls) == set(PERMISSIONS), "every action in the table has a call in this test"
    for action, (roles, _what) in PERMISSIONS.items():
        for role in Role:
            actor = Actor(f"P-{role}", role)
            try:
                calls[action](actor)
                refused = False
            except ServiceError as exc:
                refused = exc.code == "not-allowed"
            assert refused == (role not in roles), f"{role} on {action}"


def test_scorer_is_refused_with_a_translated_reason_and_nothing_is_written(club: Database) -> None:
    ev = _event(club)
    staff.add_staff(club, SEC, "Sekretaris", "secretary", "1234")
    e0 = _entrant(club, ev, 0)
    fees.pay(club, SEC, ev, e0, 25000, "cash")
    with club.session() as s:
        before = len(s.scalars(select(AuditEntry)).all())
    with pytest.raises(ServiceError) as info:
        fees.refund(club, Actor("SR", Role.SCORER), ev, e0, 25000, reason="x")
    assert info.value.code == "not-allowed" and "scorer may not refund payments" in info.value.message
    with club.session() as s:
        assert len(s.scalars(select(AuditEntry)).all()) == before


def test_pin_login_counts_wrong_pins_and_locks_after_five(club: Database) -> None:
    from datetime import datetime, timedelta

    staff.add_staff(club, SEC, "Sekretaris", "secretary", "1234")
    staff.add_staff(club, SEC, "Mehmet Hakem", "referee", "9876")
    t = datetime(2026, 12, 1, 20, 0, 0)
    assert staff.authenticate(club, "mehmet hakem", "9876", now=t) == Actor("Mehmet Hakem", Role.REFEREE)
    for _ in range(5):
        with pytest.raises(ServiceError) as info:
            staff.authenticate(club, "Mehmet Hakem", "0000", now=t)
        assert info.value.code == "wrong-pin"
    with pytest.raises(ServiceError) as info:  # even the right PIN, within the minute
        staff.authenticate(club, "Mehmet Hakem", "9876", now=t + timedelta(seconds=59))
    assert info.value.code == "pin-locked"
    assert (
        staff.authenticate(club, "Mehmet Hakem", "9876", now=t + timedelta(seconds=61)).role is Role.REFEREE
    )
    with club.session() as s:
        actions = [a.action for a in s.scalars(select(AuditEntry).where(AuditEntry.entity == "staff"))]
    assert actions.count("staff.pin-failed") == 5 and actions.count("staff.switch") == 2


def test_pins_are_stored_hashed_and_salted(club: Database) -> None:
    staff.add_staff(club, SEC, "Sekretaris", "secretary", "1234")
    staff.add_staff(club, SEC, "Ayu", "scorer", "1234")
    from clubdesk.models import StaffAccount

    with club.session() as s:
        hashes = [r.pin_hash for r in s.scalars(select(StaffAccount))]
    assert all("1234" not in h and h.startswith("scrypt$") for h in hashes)
    assert hashes[0] != hashes[1]  # same PIN, different salt


@pytest.mark.parametrize("pin", ["12", "abcd", "١٢٣٤", "1234567890123"])
def test_bad_pins_are_refused(club: Database, pin: str) -> None:
    with pytest.raises(ServiceError) as info:
        staff.add_staff(club, SEC, "Sekretaris", "secretary", pin)
    assert info.value.code == "bad-pin"
    assert staff.list_staff(club) == []


def test_first_account_must_be_the_secretary(club: Database) -> None:
    with pytest.raises(ServiceError) as info:
        staff.add_staff(club, SEC, "Ayu", "scorer", "1234")
    assert info.value.code == "first-secretary"


def test_cli_acts_only_as_a_proved_person_once_accounts_exist(
    club: Database, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(club.path)
    club.close()
    ev_cmd = ["--db", path, "event", "create", "--name", "Kupa", "--ruleset", "tavla", "--format", "swiss"]
    # a one-person club: works as before
    assert cli(ev_cmd) == 0
    assert (
        cli(["--db", path, "staff", "add", "--name", "Sekretaris", "--role", "secretary", "--pin", "1234"])
        == 0
    )
    assert (
        cli(
            [
                "--db",
                path,
                "--as",
                "Sekretaris",
                "staff",
                "add",
                "--name",
                "Ayu",
                "--role",
                "scorer",
                "--pin",
                "5555",
            ]
        )
        == 1
    )
    capsys.readouterr()
    monkeypatch.setenv("CLUBDESK_PIN", "1234")
    assert (
        cli(
            [
                "--db",
                path,
                "--as",
                "Sekretaris",
                "staff",
                "add",
                "--name",
                "Ayu",
                "--role",
                "scorer",
                "--pin",
                "5555",
            ]
        )
        == 0
    )
    monkeypatch.delenv("CLUBDESK_PIN")
    capsys.readouterr()
    # CLUBDESK_ROLE alone grants nothing any more
    monkeypatch.setenv("CLUBDESK_ROLE", "referee")
    assert cli(ev_cmd) == 1
    assert "--as NAME" in capsys.readouterr().err
    monkeypatch.delenv("CLUBDESK_ROLE")
    # the scorer may not create events; a wrong PIN is refused in one line
    monkeypatch.setenv("CLUBDESK_PIN", "5555")
    assert cli(["--db", path, "--as", "Ayu", *ev_cmd[2:]]) == 1
    assert capsys.readouterr().err.strip() == "clubdesk-cli: A scorer may not create or change events."
    monkeypatch.setenv("CLUBDESK_PIN", "0000")
    assert cli(["--db", path, "--as", "Ayu", "backup"]) == 1
    assert capsys.readouterr().err.strip() == "clubdesk-cli: Wrong PIN for Ayu."
    assert cli(["--db", path, "staff", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {(p["name"], p["role"]) for p in listed} == {("Sekretaris", "secretary"), ("Ayu", "scorer")}


def test_audit_json_masks_phones_unless_the_secretary_reads_it(
    club: Database, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    staff.add_staff(club, SEC, "Sekretaris", "secretary", "1234")
    staff.add_staff(club, SEC, "Ayu", "scorer", "5555")
    path = str(club.path)
    club.close()
    assert cli(["--db", path, "audit", "--json"]) == 0
    anonymous = capsys.readouterr().out
    phones = [
        json.loads(r["after"])["phone"] for r in json.loads(anonymous) if r["action"] == "member.create"
    ]
    assert len(phones) == 4 and all(p.endswith("33") and "532" not in p for p in phones)
    monkeypatch.setenv("CLUBDESK_PIN", "5555")
    assert cli(["--db", path, "--as", "Ayu", "audit", "--json"]) == 0
    assert "532" not in capsys.readouterr().out
    monkeypatch.setenv("CLUBDESK_PIN", "1234")
    assert cli(["--db", path, "--as", "Sekretaris", "audit", "--json"]) == 0
    assert "532" in capsys.readouterr().out


def test_a_one_person_club_allows_everything_as_before(club: Database) -> None:
    ev = _event(club)
    e0 = _entrant(club, ev, 0)
    fees.pay(club, SEC, ev, e0, 25000, "cash")
    refunded = fees.refund(club, Actor("SR", Role.SCORER), ev, e0, 100, reason="no accounts yet")
    assert refunded
