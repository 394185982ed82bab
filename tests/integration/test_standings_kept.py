"""Issue 22: the standings are built again only when something they read has changed (migration 0017's
stamp, moved by the database itself); a hand in play updates its sheet only. Every check compares the
standings shown with the ones built from scratch in a transaction of their own, and with the figures
the change implies."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from clubdesk.i18n import language_context
from clubdesk.services.club.db_copy import copy_database, verify_same
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import results, rounds
from clubdesk.services.night.ranking import standings
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, make_event
from tests.integration.test_speed import _Counter

GAME = {"type": "game", "winner": 0, "kind": "single", "cube": 1}


@pytest.fixture
def night(tmp_path: Path) -> Iterator[tuple[Database, int]]:
    db = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "b")  # a club file: its triggers
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[3])
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    yield db, ev
    db.close()


def _fresh(db: Database, ev: int) -> standings.EventStandings:
    """The standings built from scratch (no kept copy)."""
    with db.session() as s:
        return standings.session_standings(s, reads.get_event(s, ev))


def _points(st: standings.EventStandings) -> dict[str, float | int]:
    return {r.name: r.points for r in st.rows}


def _outside(db: Database, sql: str, *args: object) -> None:
    """An edit from outside the program (another tool on the club file)."""
    con = sqlite3.connect(db.path)
    try:
        con.execute(sql, args)
        con.commit()
    finally:
        con.close()


def test_a_hand_in_play_leaves_the_standings_unbuilt(night: tuple[Database, int]) -> None:
    db, ev = night
    before = standings.event_standings(db, ev)
    results.add_entry(db, DESK, ev, 1, 1, GAME)  # a game of a match to 3: the table stays in play
    with _Counter(db) as c:
        after = standings.event_standings(db, ev)
    assert c.n == 0  # nothing read but the stamp
    assert after == before == _fresh(db, ev)


def test_the_standings_follow_every_change_they_read(night: tuple[Database, int]) -> None:
    db, ev = night
    tables = reads.get_round(db, ev, 1).tables
    standings.event_standings(db, ev)
    # a confirmed result: its winner has a point (rule T4f: a win 1)
    results.set_score(db, DESK, ev, 1, tables[0].table, (3, 1), confirm=True)
    shown = standings.event_standings(db, ev)
    assert shown == _fresh(db, ev)
    winner, loser = tables[0].names
    assert _points(shown)[winner] == 1
    # an edit from outside: the entrant's name, then the confirmed table's winner
    _outside(db, "UPDATE entrants SET name = ? WHERE name = ?", "Renamed", winner)
    shown = standings.event_standings(db, ev)
    assert "Renamed" in _points(shown) and winner not in _points(shown)
    assert shown == _fresh(db, ev)
    _outside(
        db,
        "UPDATE matches SET score_a = 1, score_b = 3, winner = side_b WHERE event_id = ? AND table_no = ?",
        ev,
        tables[0].table,
    )
    shown = standings.event_standings(db, ev)
    assert _points(shown)["Renamed"] == 0 and _points(shown)[str(loser)] == 1
    assert shown == _fresh(db, ev)
    # rule T9c: a disqualified entrant leaves the ranking
    _outside(db, "UPDATE entrants SET status = 'disqualified' WHERE name = 'Renamed'")
    shown = standings.event_standings(db, ev)
    assert "Renamed" not in _points(shown)
    assert shown == _fresh(db, ev)
    # the tie-break order of the event's night
    _outside(db, "UPDATE event_night SET tiebreaks = 'PTS,WIN' WHERE event_id = ?", ev)
    shown = standings.event_standings(db, ev)
    assert shown.codes == ("PTS", "WIN") and shown == _fresh(db, ev)


def test_the_standings_of_the_language_asked(night: tuple[Database, int]) -> None:
    """The kept standings are per language: their explanations are in the language asked."""
    db, ev = night
    table = reads.get_round(db, ev, 1).tables[0].table
    results.set_score(db, DESK, ev, 1, table, (3, 1), confirm=True)
    en = standings.event_standings(db, ev)
    with language_context("tr"):
        tr = standings.event_standings(db, ev)
        assert tr == _fresh(db, ev)
    assert en == _fresh(db, ev)
    assert en.explanations and en.explanations != tr.explanations


def test_a_restored_backup_never_shows_the_standings_of_what_came_after(tmp_path: Path) -> None:
    """A backup taken, a result confirmed (standings shown), the backup restored and the same table
    confirmed the other way: the standings show the second result, not the first (the stamps are random,
    so the restored file's next stamp is not the one the first result left)."""
    path = tmp_path / "club.sqlite3"
    db = Database(path, backups_dir=tmp_path / "b")
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[3])
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    first, second = reads.get_round(db, ev, 1).tables[0].names
    standings.event_standings(db, ev)
    db.close()
    src, copy = sqlite3.connect(path), sqlite3.connect(tmp_path / "backup.sqlite3")
    src.backup(copy)
    src.close()
    db = Database(path, backups_dir=tmp_path / "b")
    results.set_score(db, DESK, ev, 1, 1, (3, 1), confirm=True)
    assert _points(standings.event_standings(db, ev))[first] == 1
    db.close()
    back = sqlite3.connect(path)
    copy.backup(back)  # the backup restored into the club file
    back.close()
    copy.close()
    db = Database(path, backups_dir=tmp_path / "b")
    results.set_score(db, DESK, ev, 1, 1, (1, 3), confirm=True)
    shown = standings.event_standings(db, ev)
    assert _points(shown)[first] == 0 and _points(shown)[str(second)] == 1
    assert shown == _fresh(db, ev)
    db.close()


def test_a_club_file_copied_into_a_new_file_keeps_its_standings(
    night: tuple[Database, int], tmp_path: Path
) -> None:
    """``db copy`` into a new club file: the stamps are the destination's own (its triggers make them as
    the rows go in), never copied, so the copy neither collides nor shows stale standings."""
    from clubdesk.services.night.data import reads
    from clubdesk.services.night.play import results
    from clubdesk.services.night.ranking import standings

    db, ev = night
    results.set_score(db, DESK, ev, 1, reads.get_round(db, ev, 1).tables[0].table, (3, 1), confirm=True)
    shown = standings.event_standings(db, ev)
    copy = Database(tmp_path / "copy.sqlite3", backups_dir=tmp_path / "cb")
    try:
        report = copy_database(db, copy)
        assert all(t.ok for t in report.tables) and verify_same(db, copy) == []
        assert standings.event_standings(copy, ev) == shown == _fresh(copy, ev)
        results.set_score(
            copy, DESK, ev, 1, reads.get_round(copy, ev, 1).tables[1].table, (3, 0), confirm=True
        )
        assert standings.event_standings(copy, ev) == _fresh(copy, ev) != shown
    finally:
        copy.close()


def test_every_standings_trigger_is_in_a_new_club_file(tmp_path: Path) -> None:
    """A later migration that rebuilds a watched table (SQLite batch mode) drops its triggers with it:
    the head must still hold every one migration 0017 made, or the kept standings would stay stale."""
    import importlib.util

    import clubdesk.models

    versions = Path(clubdesk.models.__file__).parent / "migrations" / "versions"
    spec = importlib.util.spec_from_file_location("m0017", versions / "0017_standings_stamp.py")
    assert spec is not None and spec.loader is not None
    m17 = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m17)
    made = {sql.split()[2] for sql in m17.trigger_sql()}
    assert len(made) == 15  # insert, update, delete on events, event_night, rounds, entrants, matches
    Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "b").close()
    con = sqlite3.connect(tmp_path / "club.sqlite3")
    try:
        there = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    finally:
        con.close()
    assert made <= there
