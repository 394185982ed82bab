"""Issue 23: hands typed at the same instant at two desks (processes) on one table get distinct order numbers,
and no hand is accepted after the match has ended."""

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
    runs = _race(tmp_path, path, [["result", str(ev), "--round", "1", "--table", "1", "--entry", game]] * 6)
    codes = sorted(code for code, _err in runs)
    # a match to 3 ends after three single games: exactly three are stored, the others refused in one line
    assert codes == [0, 0, 0, 1, 1, 1], runs
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
