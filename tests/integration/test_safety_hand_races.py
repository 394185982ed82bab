"""Issue 23: hands typed at the same instant at two desks (processes) on one table get distinct order numbers,
no hand is accepted after the match has ended, and a hand typed on a table changed meanwhile is refused."""

from __future__ import annotations

import json
from pathlib import Path

from clubdesk.services.night.play import results, rounds
from tests.integration.test_night_helpers import DESK, make_event, open_db
from tests.integration.test_safety import _count, _race


def test_racing_hands_get_distinct_order_numbers_and_none_after_the_end(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=2, rounds=1, match_lengths=[3])
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    path = Path(db.path)
    db.close()
    game = json.dumps({"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False})
    argv = ["result", str(ev), "--round", "1", "--table", "1", "--entry", game]
    runs: list[tuple[int, str]] = []
    # each process reads the table's version as it starts: of those that read the same version one hand
    # is stored and the others are refused (a table changed meanwhile), so every race stores at least one
    # hand; once the match to 3 has ended (after three single games) every further hand is refused
    for _race_no in range(3):
        runs += _race(tmp_path, path, [argv] * 6)
        if _count(path, "SELECT count(*) FROM result_entries") >= 3:
            break
    after_end = _race(tmp_path, path, [argv] * 3)
    assert [code for code, _err in after_end] == [1, 1, 1], after_end
    codes = [code for code, _err in runs + after_end]
    assert codes.count(0) == 3, runs  # exactly three hands stored, none after the end
    assert all(
        len(err.strip().splitlines()) == 1 and "Traceback" not in err for code, err in runs if code == 1
    )
    seqs = _count(path, "SELECT count(DISTINCT seq) FROM result_entries")
    assert seqs == _count(path, "SELECT count(*) FROM result_entries") == 3  # no order number given twice
    db = open_db(tmp_path)
    try:
        assert results.table_entries(db, ev, 1, 1)[1] == [json.loads(game)] * 3
    finally:
        db.close()
