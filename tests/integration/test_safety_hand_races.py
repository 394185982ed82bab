"""Issue 23: hands typed at the same instant at two desks (processes) on one table get distinct order numbers,
no hand is accepted after the match has ended, and a hand typed on a table changed meanwhile is refused."""

from __future__ import annotations

import json
from pathlib import Path

from clubdesk.services.night.play import results, rounds
from tests.forks import Forks
from tests.integration.test_night_helpers import DESK, make_event, open_db
from tests.integration.test_safety import _count, _race


def test_racing_hands_get_distinct_order_numbers_and_none_after_the_end(tmp_path: Path, forks: Forks) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=2, rounds=1, match_lengths=[3])
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    path = Path(db.path)
    db.close()
    game = json.dumps({"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False})
    argv = ["result", str(ev), "--round", "1", "--table", "1", "--entry", game]
    # each process reads the table's version as it starts: of those that read the same version one hand
    # is stored and the others are refused (the table changed meanwhile); so a race stores one hand or more
    runs = _race(tmp_path, forks, path, [argv] * 6)
    stored = _count(path, "SELECT count(*) FROM result_entries")
    assert 1 <= stored <= 3 and [code for code, _err in runs].count(0) == stored, runs
    db = open_db(tmp_path)
    try:
        for _hand in range(stored, 2):  # the match to 3 is one single game from its end
            results.add_entry(db, DESK, ev, 1, 1, json.loads(game))
    finally:
        db.close()
    before_end = _count(path, "SELECT count(*) FROM result_entries")
    # the last game: exactly one racer stores it (the others read the same version, or come after the end)
    last = _race(tmp_path, forks, path, [argv] * 4)
    assert [code for code, _err in last].count(0) == 3 - before_end, last
    assert all(
        len(err.strip().splitlines()) == 1 and "Traceback" not in err
        for code, err in runs + last
        if code == 1
    )
    seqs = _count(path, "SELECT count(DISTINCT seq) FROM result_entries")
    assert seqs == _count(path, "SELECT count(*) FROM result_entries") == 3  # no order number given twice
    db = open_db(tmp_path)
    try:
        assert results.table_entries(db, ev, 1, 1)[1] == [json.loads(game)] * 3
    finally:
        db.close()
