"""A permission table without gaps: every use case on a service face that takes an ``actor`` is listed here
with its action in the permission table, or with the reason it is open to every desk role; a new use case
without an entry fails. A scorer is refused the night's organisation (pairing, publishing, taking back and
throwing away rounds, changing tables, the night settings) before anything is written; the demo writes only
the demo file."""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from sqlalchemy import func, select

from clubdesk.cli.core import main as cli
from clubdesk.models import AuditEntry, Round
from clubdesk.services import club, demo, events, night
from clubdesk.services.kernel import Actor, Role, ServiceError
from clubdesk.services.kernel.permissions import PERMISSIONS
from clubdesk.services.publishing import documents
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, REF, make_event

SERVICE_PACKAGES = (
    "kernel club members events desk night money discipline phones publishing federation demo".split()
)

# not an action of the table: why such a use case is open to every desk role (or is no use case)
HELPER = "not a use case: the table itself, the audit row, or a step inside a use case's own transaction"
TABLE = "the night at the tables: a scorer enters what happens there (E6, T8c); a referee's part is his"
DESK_WORK = "the desk's everyday work, open to every desk role"
REFEREE = "the referee's alone, by rule (T10, G15, G16): refused to every other role in the use case"
SETTING_ROW = "the settings row itself: what a person changes goes through a use case of the table"

# package.function -> its action in PERMISSIONS, or one of the reasons above
USE_CASES: dict[str, str] = {
    "kernel.allowed": HELPER,
    "kernel.audit": HELPER,
    "kernel.require": HELPER,
    "club.add_staff": "staff.manage",
    "club.backup": "database.backup",
    "club.copy_database": "database.backup",
    "club.deactivate": "staff.manage",
    "club.export_audit_key": "audit.key",  # whoever holds the key can re-sign the log (G13)
    "club.import_audit_key": "audit.key",
    "club.put": SETTING_ROW,
    "club.restore": "database.restore",
    "club.save_club_settings": "settings.edit",
    "club.set_pin": "staff.manage",
    "members.create_member": "members.edit",
    "members.deactivate_member": "members.edit",
    "members.clear_inactive": "members.erase",  # privacy: contacts of members long inactive cleared
    "members.erase_member": "members.erase",  # privacy: the right to erasure
    "members.export_csv": "members.export",  # phones and e-mails leave the building (T14)
    "members.import_members": "members.import",
    "members.merge_members": "members.merge",
    "members.save_club": "members.edit",
    "members.update_member": "members.edit",
    "events.copy_event": "events.edit",
    "federation.export_event": "federation.send",  # public results leave the club (T12d, T14)
    "federation.push_event": "federation.send",
    "federation.set_hub": "federation.send",
    "events.create_event": "events.edit",
    "events.draw_league_pairs": "rounds.edit",
    "events.set_event_language": "events.edit",
    "events.set_status": "events.status",
    "events.update_event": "events.edit",
    "desk.checkin": DESK_WORK,
    "desk.give_back": HELPER,
    "desk.give_no_show_places": "desk.register",
    "desk.mark_sent": DESK_WORK,
    "desk.promote": "desk.register",
    "desk.register": "desk.register",
    "desk.withdraw": "desk.withdraw",
    "night.add_entry": TABLE,
    "night.apply_forfeit": HELPER,
    "night.apply_readings": TABLE,
    "night.approve": TABLE,
    "night.check_lock": HELPER,
    "night.configure": "night.configure",
    "night.confirm": TABLE,
    "night.decide_late_notice": REFEREE,
    "night.discard_round": "rounds.edit",
    "night.ensure_tokens": TABLE,
    "night.enter_hand": TABLE,
    "night.forfeit": TABLE,
    "night.import_match_file": TABLE,
    "night.late_notice": TABLE,
    "night.league_deadline": "rounds.edit",
    "night.name_captains": TABLE,
    "night.propose_round": "rounds.edit",
    "night.publish_round": "rounds.edit",
    "night.record_result": TABLE,
    "night.referee_confirms": HELPER,
    "night.referee_decision": REFEREE,
    "night.replace_entries": TABLE,
    "night.request_bye": "desk.register",
    "night.require_referee": HELPER,
    "night.save_hand_change": TABLE,
    "night.set_score": TABLE,
    "night.set_tables": "rounds.edit",
    "night.substitute": TABLE,
    "night.undo_hand": TABLE,
    "night.undo_last_entry": TABLE,
    "night.unpublish_round": "rounds.edit",
    "night.withdraw_from_play": "desk.withdraw",
    "money.pay": "desk.pay",
    "money.pay_prize": "prizes.pay",
    "money.refund": "desk.refund",
    "discipline.decide_appeal": REFEREE,
    "discipline.disqualify": REFEREE,
    "discipline.file_appeal": DESK_WORK,
    "discipline.hear_appeal": DESK_WORK,
    "discipline.impose_penalty": REFEREE,
    "discipline.record_incident": DESK_WORK,
    "discipline.reopen_appeal": REFEREE,
    "discipline.set_appeal_window": "settings.edit",
    "phones.handle_referee_call": TABLE,
    "phones.set_base_url": "settings.edit",
    "phones.table_links": TABLE,
    "publishing.export_personal": "members.personal",  # privacy: the right of access
    "publishing.set_announcement": DESK_WORK,
    "demo.fill_demo": "demo.fill",
}

SEC = Actor("Sekretaris", Role.SECRETARY)
SCORER = Actor("Ayu", Role.SCORER)


def _face_use_cases() -> dict[str, Callable[..., Any]]:
    out: dict[str, Callable[..., Any]] = {}
    for package in SERVICE_PACKAGES:
        face = importlib.import_module(f"clubdesk.services.{package}")
        for name in face.__all__:
            value = getattr(face, name)
            if inspect.isfunction(value) and "actor" in inspect.signature(value).parameters:
                out[f"{package}.{name}"] = value
    return out


def _called_names(fn: Callable[..., Any]) -> set[str]:
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    return {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def _requires(fn: Callable[..., Any], action: str, depth: int = 2) -> bool:
    """``fn`` calls ``require(actor, action, ...)`` itself or through a function of its own module."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "require"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value == action
        ):
            return True
    if depth == 0:
        return False
    module: ModuleType = inspect.getmodule(fn)  # type: ignore[assignment]
    for name in _called_names(fn):
        inner = getattr(module, name, None)
        if inspect.isfunction(inner) and inner.__module__ == module.__name__ and inner is not fn:
            if _requires(inner, action, depth - 1):
                return True
    return False


def test_every_use_case_with_an_actor_has_an_entry() -> None:
    faces = _face_use_cases()
    missing = sorted(set(faces) - set(USE_CASES))
    gone = sorted(set(USE_CASES) - set(faces))
    assert not missing, f"use cases without an entry in the permission list: {missing}"
    assert not gone, f"entries for use cases no face has: {gone}"


def test_every_action_is_in_the_table_and_checked_by_its_use_case() -> None:
    faces = _face_use_cases()
    reasons = {HELPER, TABLE, DESK_WORK, REFEREE, SETTING_ROW}
    for name, entry in USE_CASES.items():
        if entry in reasons:
            continue
        assert entry in PERMISSIONS, f"{name}: {entry} is not in the permission table"
        assert _requires(faces[name], entry), f"{name} does not call require(actor, {entry!r}, ...)"
    for name, entry in USE_CASES.items():
        if entry == REFEREE:
            source = inspect.getsource(faces[name])
            assert "require_referee" in source or "Role.REFEREE" in source, name


def _audit_rows(db: Database) -> int:
    with db.session() as s:
        return int(s.scalar(select(func.count(AuditEntry.id))) or 0)


def _round_states(db: Database) -> list[tuple[int, str]]:
    with db.session() as s:
        return [(r.number, r.status) for r in s.scalars(select(Round).order_by(Round.id))]


@pytest.fixture
def staffed(tmp_path: Path) -> tuple[Database, int]:
    """A club with accounts (the table decides) and a Swiss night: round 1 played, round 2 proposed."""
    db = Database(tmp_path / "club.sqlite3")
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[3])
    club.add_staff(db, SEC, SEC.name, "secretary", "1234")
    night.propose_round(db, DESK, ev)
    night.publish_round(db, DESK, ev)
    for t in (1, 2):
        night.set_score(db, DESK, ev, 1, t, (3, 1), None, confirm=True)
    night.propose_round(db, DESK, ev)
    yield db, ev
    db.close()


def test_a_scorer_is_refused_the_nights_organisation_before_anything_is_written(
    staffed: tuple[Database, int],
) -> None:
    db, ev = staffed
    proposed = night.get_round(db, ev, 2)
    calls: dict[str, Callable[[Actor], Any]] = {
        "publish": lambda a: night.publish_round(db, a, ev),
        "discard": lambda a: night.discard_round(db, a, ev),
        "tables": lambda a: night.set_tables(db, a, ev, [t.sides for t in reversed(proposed.tables)]),
        "configure": lambda a: night.configure(db, a, ev, call_minutes=20),
    }
    rows, rounds_before = _audit_rows(db), _round_states(db)
    settings_before = night.night_settings(db, ev)
    for what, call in calls.items():
        with pytest.raises(ServiceError) as info:
            call(SCORER)
        assert info.value.code == "not-allowed", what
        assert info.value.message.startswith("A scorer may not "), what
    assert _audit_rows(db) == rows and _round_states(db) == rounds_before
    assert night.night_settings(db, ev) == settings_before
    # the organiser and the referee may
    night.configure(db, REF, ev, call_minutes=20)
    night.publish_round(db, SEC, ev)
    with pytest.raises(ServiceError) as info:
        night.propose_round(db, SCORER, ev)
    assert info.value.code == "not-allowed"
    with pytest.raises(ServiceError) as info:
        night.unpublish_round(db, SCORER, ev, "wrong pairing")
    assert info.value.code == "referee-only"  # T10: the referee's alone, besides the table
    assert night.unpublish_round(db, REF, ev, "wrong pairing").round.status == "proposed"


def test_a_scorer_may_not_print_the_contact_list(staffed: tuple[Database, int], tmp_path: Path) -> None:
    db, ev = staffed
    out = tmp_path / "contacts.pdf"
    with pytest.raises(ServiceError) as info:
        documents.contact_list_report(db, SCORER, ev, out)  # phones and e-mails (T14)
    assert info.value.code == "not-allowed" and not out.exists()
    assert documents.contact_list_report(db, SEC, ev, out) > 0 and out.exists()


def test_the_scorers_refusal_is_translated(staffed: tuple[Database, int]) -> None:
    from clubdesk import i18n

    db, ev = staffed
    i18n.set_language("es")
    with pytest.raises(ServiceError) as info:
        night.publish_round(db, SCORER, ev)
    assert "publicar" in info.value.message and "may not" not in info.value.message


def test_demo_refuses_a_real_club_file_and_writes_nothing(tmp_path: Path) -> None:
    real = Database(tmp_path / "club.sqlite3")
    try:
        events.create_event(real, SEC, events.EventData(name="Kupa", ruleset="tavla", format="swiss"))
        rows = _audit_rows(real)
        assert not demo.is_demo_file(real)
        with pytest.raises(ServiceError) as info:
            demo.fill_demo(real)
        assert info.value.code == "not-demo-file" and str(real.path) in info.value.message
        assert _audit_rows(real) == rows and len(events.list_events(real)) == 1
        assert club.get(real, demo.DEMO_MARKER) is None
    finally:
        real.close()


def test_cli_demo_writes_only_the_demo_file(
    tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "club.sqlite3")
    create = ["event", "create", "--name", "Kupa", "--ruleset", "tavla", "--format", "swiss"]
    assert cli(["--db", path, *create]) == 0
    capsys.readouterr()
    assert cli(["--db", path, "demo", "--members", "5"]) == 1
    assert "real club's file" in capsys.readouterr().err
    real = Database(path)
    try:
        assert [e.name for e in events.list_events(real)] == ["Kupa"]
    finally:
        real.close()
    # the demo file (no --db), and an empty new file, are the demo's; filling twice stays the demo's
    assert cli(["demo", "--members", "5"]) == 0
    assert cli(["demo", "--members", "5"]) == 0
    fresh = str(tmp_path / "fresh.sqlite3")
    assert cli(["--db", fresh, "demo", "--members", "5"]) == 0
    made = Database(fresh)
    try:
        assert demo.is_demo_file(made) and club.get(made, demo.DEMO_MARKER) is True
    finally:
        made.close()
