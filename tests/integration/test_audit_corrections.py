"""Corrections made in ClubDesk keep the keyed audit log intact; the same hands edited outside do not.

A referee's correction of a confirmed or locked table (T10: the round after it published) replaces the
table's sheet through the one hand use case; SQLite hands the new entries the ids the removed ones had, so
the walk must tell a hand replaced in ClubDesk (a later row of the match recorded what it removed and named
the new hands) from one edited outside it (rules G13 audit trail, T10 referee's written override).
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from pathlib import Path

import pytest

from clubdesk.services import club, federation
from clubdesk.services.kernel.audit_verify import verify_chain
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.services.night.play import hands, results, rounds
from clubdesk.storage import Database
from tests.federation_helpers import tavla_night
from tests.integration.test_night_helpers import DESK, make_event

REF = Actor("Referee", Role.REFEREE)
WIN_A = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}
WIN_B = {**WIN_A, "winner": 1}
GAMMON_A = {**WIN_A, "kind": "gammon"}


@pytest.fixture
def night(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Database, int]:
    monkeypatch.setenv("CLUBDESK_KEYS", str(tmp_path / "keys"))
    db = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "backups")
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[3])
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    for table in (1, 2):  # both tables confirmed, hand by hand (3 games to side A)
        for _game in range(3):
            results.add_entry(db, DESK, ev, 1, table, WIN_A)
        results.confirm(db, DESK, ev, 1, table, 0, "SC")
        results.confirm(db, DESK, ev, 1, table, 1, "CO")
    return db, ev


def _intact(db: Database) -> None:
    report = verify_chain(db)
    assert report.ok, report.message()


def _outside(db: Database, sql: str) -> None:
    con = sqlite3.connect(db.path)
    try:
        con.execute(sql)
        con.commit()
    finally:
        con.close()


def test_a_referee_correction_of_a_confirmed_table_verifies_intact(night: tuple[Database, int]) -> None:
    db, ev = night
    _intact(db)
    fixed = {1: [WIN_B, WIN_A, WIN_A, WIN_A]}  # a game the scorer gave the wrong side
    results.replace_entries(db, REF, ev, 1, 2, fixed, override="the sheet shows side B won game 1")
    assert results.table_entries(db, ev, 1, 2) == fixed
    _intact(db)
    # the corrected hands are vouched for: one edited outside ClubDesk is still reported
    _outside(db, "UPDATE result_entries SET data = replace(data, '\"winner\": 1', '\"winner\": 0')")
    report = verify_chain(db)
    assert not report.ok and "changed outside ClubDesk" in report.message()


def test_an_undo_after_a_correction_and_new_hands_verify_intact(night: tuple[Database, int]) -> None:
    db, ev = night
    results.replace_entries(db, REF, ev, 1, 2, {1: [WIN_A, WIN_B]}, override="two games were not played")
    results.undo_last_entry(db, DESK, ev, 1, 2)
    results.add_entry(db, DESK, ev, 1, 2, GAMMON_A)  # the undone hand's id is handed out again
    _intact(db)
    _outside(db, "UPDATE result_entries SET data = replace(data, 'gammon', 'single')")
    assert not verify_chain(db).ok


def test_a_correction_of_an_older_round_after_the_next_is_published_verifies_intact(
    night: tuple[Database, int],
) -> None:
    db, ev = night
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)  # round 1 is locked now (T10)
    results.add_entry(db, DESK, ev, 2, 1, WIN_A)  # hands of round 2 after round 1's
    results.replace_entries(
        db, REF, ev, 1, 1, {1: [WIN_A, WIN_B, GAMMON_A]}, override="referee: game 2 went to side B"
    )
    _intact(db)


def test_the_desks_sheet_editor_corrects_through_the_same_route(night: tuple[Database, int]) -> None:
    """The desk's sheet editor (ui/night table panel, after its correction preview) saves a corrected hand of
    a confirmed table with save_hand_change: the same replaced sheet, verified intact."""
    db, ev = night
    sheet = [WIN_B, WIN_A, GAMMON_A]
    changed = hands.save_hand_change(
        db,
        REF,
        hands.TableId(ev, 1, 2),
        game_no=1,
        action="edit",
        index=3,
        entry=GAMMON_A,
        entries=sheet,
        seen_version=None,
        reason="game 1 went to side B, game 3 was a gammon",
    )
    assert changed.table.status == "pending" and results.table_entries(db, ev, 1, 2) == {1: sheet}
    _intact(db)


@pytest.mark.parametrize("last", [True, False], ids=["last-table-played", "round-1"])
def test_a_finished_night_corrected_by_the_referee_is_still_sent_to_the_federation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, last: bool
) -> None:
    """The export refuses a file whose history is broken (T12d): a correction made in ClubDesk is not."""
    monkeypatch.setenv("CLUBDESK_KEYS", str(tmp_path / "keys"))
    db = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "backups")
    try:
        people = [(f"0{k}", name, f"TR-{k}") for k, name in enumerate(["Ali", "Can", "Deniz", "Ece"])]
        ev = tavla_night(db, people, name="Kupa", day=dt.date(2026, 3, 1))
        with db.engine.connect() as c:
            round_no, table_no = c.exec_driver_sql(
                "SELECT r.number, m.table_no FROM result_entries e JOIN matches m ON m.id = e.match_id"
                " JOIN rounds r ON r.id = m.round_id WHERE r.event_id = ? ORDER BY e.id "
                + ("DESC" if last else "ASC")
                + " LIMIT 1",
                (ev,),
            ).one()
        games = results.table_entries(db, ev, round_no, table_no)[1]
        fixed = [games[1], games[0], *games[2:]]  # the first two games were entered the wrong way round
        assert fixed != games
        results.replace_entries(
            db, REF, ev, round_no, table_no, {1: fixed}, override="the referee read the sheet again"
        )
        for side, initials in ((0, "AA"), (1, "BB")):  # both sides approve the corrected sheet again
            results.confirm(db, REF, ev, round_no, table_no, side, initials, override="sheet re-approved")
        _intact(db)
        sent = federation.export_event(db, DESK, ev, tmp_path / "kupa.json")
        assert sent.file.is_file()
    finally:
        db.close()


def test_the_audit_view_shows_a_corrected_sheet_without_its_hand_ids(night: tuple[Database, int]) -> None:
    db, ev = night
    fixed = {1: [WIN_B, WIN_A, WIN_A, WIN_A]}
    results.replace_entries(db, REF, ev, 1, 2, fixed, override="the sheet shows side B won game 1")
    (row,) = [r for r in club.audit_rows(db) if r.action == "correct"]
    shown = json.loads(row.after or "")
    assert shown["entries"] == {"1": fixed[1]} and "hands" not in shown
