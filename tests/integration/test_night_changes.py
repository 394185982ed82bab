"""Every use case that changes a night answers what it changed (rule 5 of the house: one use case, one
typed result), so that the screens refresh from it: the tables, the round, the standings, the event."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from clubdesk.services.kernel.changes import Changes
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import forfeits, proposal, results, rounds
from tests.integration.test_night_helpers import DESK, REF, make_event, open_db

CALL = datetime(2026, 5, 1, 19, 0)


def test_the_night_use_cases_say_what_they_changed(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=6, rounds=3, match_lengths=[3])
    proposed = rounds.propose_round(db, DESK, ev)
    assert rounds.discard_round(db, DESK, ev).changes == Changes(ev, 1, rounds=True)
    proposed = rounds.propose_round(db, DESK, ev)
    edited = proposal.set_tables(db, DESK, ev, [t.sides for t in proposed.tables])
    assert edited.round.round == 1 and edited.changes == Changes(ev, 1, rounds=True)
    published = rounds.publish_round(db, DESK, ev, call_at=CALL)
    assert published.round.status == "published"
    assert published.changes.rounds and published.changes.standings and published.changes.event
    assert not published.changes.tables

    # a score in play: its table and its round (in play now), not the standings; the final score: the
    # standings too
    score = results.set_score(db, DESK, ev, 1, 1, (1, 0))
    assert score.table.status == "in_play" and score.version > 0
    assert score.changes == Changes(ev, 1, frozenset({1}), rounds=True)
    final = results.set_score(db, DESK, ev, 1, 1, (3, 0), confirm=True)
    assert final.table.status == "confirmed"
    assert final.changes.tables == frozenset({1}) and final.changes.standings and final.changes.approvals

    # a notice of lateness changes its table only; the referee's walkover counts in the standings
    late = forfeits.late_notice(db, DESK, ev, 1, 2, 1, "the captain", now=CALL)
    assert late.changes == Changes(ev, 1, frozenset({2}))
    walkover = forfeits.decide_late_notice(db, REF, ev, 1, 2, walkover=True, reason="still absent")
    assert walkover.table.status == "confirmed" and walkover.changes.standings

    disputed = results.referee_decision(db, REF, ev, 1, 3, approve=False, note="unclear")
    assert disputed.table.status == "disputed" and disputed.changes.approvals

    # a withdrawal forfeits his open table: that table, and the standings; the round closes with it
    entrant = next(t.sides[0] for t in reads.get_round(db, ev, 1).tables if t.table == 3)
    gone = forfeits.withdraw_from_play(db, REF, ev, int(entrant), "family emergency")
    assert gone.tables == [3]
    assert gone.changes.tables == frozenset({3}) and gone.changes.standings and gone.changes.rounds

    taken_back_round = rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev, call_at=CALL + timedelta(hours=1))
    taken_back = rounds.unpublish_round(db, REF, ev, "wrong call time", now=CALL)
    assert taken_back.round.round == taken_back_round.round == 2
    assert taken_back.changes.round_no == 2 and taken_back.changes.rounds
    db.close()
