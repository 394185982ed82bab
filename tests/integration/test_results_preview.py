"""Correction preview (issue 11): before a confirmed result is corrected, what it changes downstream."""

from __future__ import annotations

from pathlib import Path

import pytest

from clubdesk.services.night.data import reads
from clubdesk.services.night.play import results, rounds
from clubdesk.services.night.ranking import standings
from tests.integration.test_night_helpers import DESK, make_event, open_db

pytestmark = pytest.mark.usefixtures("both_backends")  # issue 25: SQLite and the club server


def test_preview_shows_points_ratings_and_published_pairings(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=2)
    rv = rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    for t in rv.tables:
        results.set_score(db, DESK, ev, 1, t.table, (5, 3), confirm=True)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    a, b = rv.tables[0].sides
    pv = standings.correction_preview(db, ev, 1, 1, (3, 5))
    assert pv.winner_changes
    # PTS: the winner of table 1 loses his point, the loser gains one (win 1, loss 0: BC1/T4f scheme)
    assert pv.tiebreaks[a]["PTS"] == (1, 0) and pv.tiebreaks[b]["PTS"] == (0, 1)
    # rule T12c: 1500 v 1500, 5 points, K=5 each: +-22.3607 swaps sides
    ra = {k: v for k, v in pv.ratings.items()}
    assert sorted(round(x, 4) for pair in ra.values() for x in pair) == pytest.approx(
        sorted([1522.3607, 1477.6393, 1477.6393, 1522.3607]), abs=1e-4
    )
    # both sides play in the already published round 2
    assert len(pv.published_pairings) == 2
    # nothing was written: the table still says 5-3
    assert reads.get_round(db, ev, 1).tables[0].score == (5, 3)
