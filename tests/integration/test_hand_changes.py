"""The hand use cases answer with the table's result and what changed (``Changes``), so a screen refreshes
that table (and the standings, the round) instead of reading the whole round again; the desk's sheet
editor's change is one use case whichever of add, undo or correction it is (the screen does not choose)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.kernel.changes import Changes
from clubdesk.services.night.data import reads
from clubdesk.services.night.data.tokens import round_tokens
from clubdesk.services.night.play import approvals, hands, rounds
from clubdesk.services.night.play.table_change import TableId
from clubdesk.services.phones import posts, table_page
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, make_event

WIN = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}
LOSS = {"type": "game", "winner": 1, "kind": "single", "cube": 1, "dropped": False}


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    d = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "b")
    try:
        yield d
    finally:
        d.close()


def _tavla(db: Database, length: int = 3) -> int:
    ev, _ids = make_event(
        db, ruleset="tavla", fmt="swiss", players=2, rounds=2, match_lengths=[length, length]
    )
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    return ev


def _actions(db: Database) -> list[str]:
    con = sqlite3.connect(db.path)
    try:
        return [r[0] for r in con.execute("SELECT action FROM audit_log WHERE entity = 'match' ORDER BY id")]
    finally:
        con.close()


def test_a_hand_says_which_table_and_what_else_changed(db: Database) -> None:
    ev = _tavla(db)
    t = TableId(ev, 1, 1)
    first = hands.enter_hand(db, DESK, t, WIN, seen_version=None)
    assert first.table.status == "in_play" and first.table.entries == 1
    assert first.changes == Changes(ev, 1, frozenset({1}), entries=True, rounds=True)  # the round in play
    assert first.version == reads.get_round(db, ev, 1).tables[0].version
    second = hands.enter_hand(db, DESK, t, WIN, seen_version=first.version)
    assert second.changes == Changes(ev, 1, frozenset({1}), entries=True)  # in play: no standings
    last = hands.enter_hand(db, DESK, t, WIN, seen_version=second.version)  # 3 points: the match ends
    assert last.table.finished and last.table.status == "pending"
    assert last.changes.standings and not last.changes.approvals
    with pytest.raises(ServiceError) as refused:
        hands.enter_hand(db, DESK, t, LOSS, seen_version=first.version)  # a page two changes old
    assert refused.value.code == "changed-elsewhere"
    home = approvals.approve(db, DESK, t, 0, "A. Home", seen_version=last.version)
    assert home.changes.approvals and home.table.status == "pending"
    both = approvals.approve(db, DESK, t, 1, "B. Away", seen_version=home.version)
    assert both.table.status == "confirmed" and both.changes.approvals and both.changes.rounds  # round closed


def test_undo_answers_with_the_approvals_it_took_back(db: Database) -> None:
    ev = _tavla(db, length=1)
    t = TableId(ev, 1, 1)
    done = hands.enter_hand(db, DESK, t, WIN, seen_version=None)
    approved = approvals.approve(db, DESK, t, 1, "B. Away", seen_version=done.version)
    undone = hands.undo_hand(db, DESK, t, seen_version=approved.version)
    assert undone.table.status == "waiting" and undone.table.entries == 0
    assert undone.changes.approvals and undone.changes.entries and undone.changes.standings
    view = reads.get_round(db, ev, 1).tables[0]
    assert (view.scorer, view.counter) == ("", "")


def test_the_sheet_editors_change_is_one_use_case(db: Database) -> None:
    ev = _tavla(db, length=5)
    t = TableId(ev, 1, 1)

    def change(
        action: str, index: int, entry: object, entries: list[dict[str, object]], **kw: object
    ) -> object:
        version = reads.get_round(db, ev, 1).tables[0].version
        return hands.save_hand_change(
            db,
            DESK,
            t,
            game_no=1,
            action=action,
            index=index,
            entry=entry,  # type: ignore[arg-type]
            entries=entries,
            seen_version=version,
            **kw,  # type: ignore[arg-type]
        )

    change("append", 0, WIN, [WIN])
    change("append", 1, LOSS, [WIN, LOSS])
    change("delete", 1, None, [WIN])  # the last hand deleted: an undo
    change("replace", 0, LOSS, [LOSS])  # an earlier hand corrected: the game's sheet replaced
    assert _actions(db) == ["add-entry", "add-entry", "undo-entry", "sheet"]
    view = reads.get_round(db, ev, 1).tables[0]
    assert view.score == (0, 1)
    for _ in range(4):
        change("append", 1, LOSS, [LOSS, LOSS])
    assert reads.get_round(db, ev, 1).tables[0].status == "pending"
    approvals.approve(db, DESK, t, 0, "A", seen_version=None)
    approvals.approve(db, DESK, t, 1, "B", seen_version=None)
    with pytest.raises(ServiceError) as refused:  # a confirmed table: a correction, with its reason
        change("append", 5, LOSS, [LOSS] * 6)
    assert refused.value.code == "reason-required"
    res = change("delete", 4, None, [LOSS] * 4, reason="counted twice")
    assert _actions(db)[-1] == "correct"
    assert res.table.status == "in_play" and res.changes.approvals


def test_a_repeated_post_changes_nothing(db: Database) -> None:
    ev = _tavla(db)
    ref = table_page.table_for_token(db, round_tokens(db, ev, 1)[1])
    assert ref is not None
    shown = posts.table_status(db, ev, 1)[1].version  # the version the phone's page showed
    first = posts.post_entry(db, ref, WIN, client_id="same", version=shown, side=0, address="x")
    again = posts.post_entry(db, ref, WIN, client_id="same", version=shown, side=0, address="x")
    assert again.duplicate and again.message == first.message == "Game 1 saved."
    assert reads.get_round(db, ev, 1).tables[0].score == (1, 0)


def test_changes_merge() -> None:
    a = Changes(7, 1, frozenset({1}), entries=True)
    b = Changes(7, 1, frozenset({2}), standings=True)
    assert a.merged(b) == Changes(7, 1, frozenset({1, 2}), entries=True, standings=True)
    other_round = a.merged(Changes(7, 2, frozenset({1}), entries=True))
    assert other_round.round_no is None and other_round.rounds and not other_round.tables
    assert Changes(7).nothing and not a.nothing
    assert Changes(7).merged(a) == a
    with pytest.raises(ValueError):
        a.merged(Changes(8))
