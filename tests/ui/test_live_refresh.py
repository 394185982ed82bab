"""Live refresh (issue 25): another desk's change on the club server reaches this window's dataChanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from clubdesk.db import Database
from clubdesk.services import results as RS
from clubdesk.services import rounds as R
from tests.conftest import BACKENDS, DbMaker
from tests.integration.test_night_helpers import DESK, make_event

GAME = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}


@pytest.mark.skipif("postgresql" not in BACKENDS, reason="no test server (CLUBDESK_TEST_PG_URL)")
def test_another_desks_hand_reloads_this_window_within_a_second(
    qtbot, tmp_path: Path, request: pytest.FixtureRequest
) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.ui.live_refresh import LiveRefresh
    from clubdesk.ui.state import DeskState

    maker = DbMaker("postgresql", tmp_path, request)
    try:
        target = maker.url_or_path("club")
        mine, other = Database(target), Database(target)
        ev, _ids = make_event(other, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[9])
        R.propose_round(other, DESK, ev)
        rv = R.publish_round(other, DESK, ev)
        state = DeskState(mine)
        seen: list[str] = []
        state.dataChanged.connect(seen.append)
        live = LiveRefresh(state)
        live.start()
        try:
            qtbot.wait(700)  # listening
            seen.clear()
            RS.add_entry(other, DESK, ev, 1, rv.tables[0].table, GAME)
            qtbot.waitUntil(lambda: "rounds" in seen, timeout=1500)  # 1 s target + Qt's queue
            assert {"rounds", "desk"} <= set(seen)
        finally:
            live.stop()
        mine.close()
        other.close()
    finally:
        maker.cleanup()


def test_on_the_file_nothing_listens(db: Database) -> None:
    from clubdesk.ui.live_refresh import LiveRefresh
    from clubdesk.ui.state import DeskState

    live = LiveRefresh(DeskState(db))
    live.start()
    assert live._thread is None  # SQLite: one PC, nothing to hear
