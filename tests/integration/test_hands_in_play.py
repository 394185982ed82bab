"""Issue 22: a dominoes hand that leaves the match in play is saved with plain statements
(``services/hands_in_play``). Whatever the hands, the club file must end exactly as the full path leaves
it: the same tables, entries, rounds and audit trail, the same refusals, the same answers (rules G3-G8
gaple and E18 dominoes are the engine's; the fast path only stores what the engine says)."""

from __future__ import annotations

import random
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.night.play import results, rounds
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, make_event
from tests.integration.test_speed import _Counter


def _gaple(rng: random.Random) -> dict[str, Any]:
    seat = rng.randrange(4)
    kind = rng.random()
    if kind < 0.08:
        return {"type": "block", "pips": [rng.randrange(0, 30) for _ in range(4)], "dead": {}}
    pips = [0 if s == seat else rng.randrange(0, 60) for s in range(4)]
    if rng.random() < 0.05:
        pips[seat] = 3  # an impossible hand: the winner holds pips (refused, nothing stored)
    two = rng.random() < 0.1
    return {"type": "out", "seat": seat, "pips": pips, "last_tile": None, "two_ends": two, "dead": {}}


def _domino(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.1:
        return {"type": "block", "pips": [rng.randrange(0, 40) for _ in range(4)]}
    seat = rng.randrange(4)
    pips = [0 if k == seat else rng.randrange(0, 12) for k in range(4)]
    if rng.random() < 0.05:
        pips[seat] = 2  # an impossible hand: the seat out holds pips (refused, nothing stored)
    return {"type": "domino", "seat": seat, "pips": pips}


def _night(folder: Path, ruleset: str) -> tuple[Database, int]:
    folder.mkdir()
    db = Database(folder / "club.sqlite3", backups_dir=folder / "b")
    entry = "pair"
    ev, _ids = make_event(db, ruleset=ruleset, fmt="swiss", players=4, per_entrant=2, entry=entry, rounds=2)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    return db, ev


def _full_path(*_args: object) -> None:
    """A ``check`` that refuses nothing: add_entry takes its full path."""


def _state(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    con = sqlite3.connect(db.path)
    try:
        return {
            "matches": con.execute("SELECT * FROM matches ORDER BY id").fetchall(),
            "rounds": con.execute("SELECT id, status FROM rounds ORDER BY id").fetchall(),
            "entries": con.execute(
                "SELECT match_id, game_no, seq, data, entered_by FROM result_entries ORDER BY id"
            ).fetchall(),
            "audit": con.execute(
                "SELECT actor_name, actor_role, action, entity, entity_id, event_id, round_no, table_no,"
                " before, after, reason FROM audit_log ORDER BY id"
            ).fetchall(),
        }
    finally:
        con.close()


def _stamps(db: Database) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(db.path)
    try:
        return con.execute("SELECT * FROM standings_stamps ORDER BY event_id").fetchall()
    finally:
        con.close()


def _without_times(state: dict[str, list[tuple[Any, ...]]], db: Database) -> dict[str, list[tuple[Any, ...]]]:
    con = sqlite3.connect(db.path)
    cols = [r[1] for r in con.execute("PRAGMA table_info(matches)")]
    con.close()
    drop = {cols.index("changed_at")}
    kept = [tuple(v for i, v in enumerate(r) if i not in drop) for r in state["matches"]]
    return {**state, "matches": kept}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), ruleset=st.sampled_from(["gaple-tournament", "gaple-club", "domino-es"]))
def test_the_fast_path_leaves_the_file_as_the_full_path(seed: int, ruleset: str) -> None:
    rng = random.Random(seed)
    make = _domino if ruleset == "domino-es" else _gaple
    with tempfile.TemporaryDirectory() as tmp:
        fast, ev = _night(Path(tmp) / "fast", ruleset)
        full, ev2 = _night(Path(tmp) / "full", ruleset)
        assert ev == ev2
        try:
            stamps = (_stamps(fast), _stamps(full))
            for _k in range(60):
                table = rng.choice([1, 2])
                hand = make(rng)
                answers = []
                for db, check in ((fast, None), (full, _full_path)):
                    try:
                        answers.append(results.add_entry(db, DESK, ev, 1, table, hand, check=check))
                    except ServiceError as exc:
                        answers.append((exc.code, exc.message))
                assert answers[0] == answers[1], (hand, answers)
                # the standings' stamp (random) moves at the same hands on both paths
                now = (_stamps(fast), _stamps(full))
                assert (now[0] != stamps[0]) == (now[1] != stamps[1]), hand
                stamps = now
            assert _without_times(_state(fast), fast) == _without_times(_state(full), full)
        finally:
            fast.close()
            full.close()


def test_a_hand_in_play_reads_and_writes_a_few_plain_statements(tmp_path: Path) -> None:
    """The desk's commonest change costs a handful of statements, not the full path's dozen."""
    db, ev = _night(tmp_path / "a", "gaple-tournament")
    hand = {"type": "out", "seat": 0, "pips": [0, 5, 1, 5], "last_tile": None, "two_ends": False, "dead": {}}
    results.add_entry(db, DESK, ev, 1, 1, hand)
    with _Counter(db) as fast:
        results.add_entry(db, DESK, ev, 1, 1, hand)
    with _Counter(db) as full:
        results.add_entry(db, DESK, ev, 1, 1, hand, check=_full_path)
    assert results.table_entries(db, ev, 1, 1)[1] == [hand, hand, hand]
    assert fast.n < full.n
    db.close()
