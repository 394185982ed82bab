"""Issue 22: the standings shown read the plain played games summed per pair in SQL. Whatever happened
at the tables (byes, withdrawals and their forfeits, rule T9b; both-lost league matches, rule BC3;
disqualification, rule T9c), the table shown equals the one built from every table one by one, rank,
points, tie-breaks (rule T12b) and explanations. Times are measured in benchmarks/, never here."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from clubdesk.services.discipline.incidents import disqualify
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import forfeits, results, rounds
from clubdesk.services.night.ranking import standings
from tests.integration.test_night_helpers import DESK, REF, make_event, open_db


def _both_ways(db: object, ev: int) -> tuple[standings.EventStandings, standings.EventStandings, bool]:
    shown = standings.event_standings(db, ev)  # type: ignore[arg-type]
    with db.session() as s:  # type: ignore[attr-defined]
        e = reads.get_event(s, ev)
        summed = standings._summed_build(s, e, reads.night(s, e)) is not None
        n, played, _ids, st = standings.build(s, e)  # every table, one by one
        full = standings._view(s, e, n, played, st)
    return shown, full, summed


def _play(db: object, ev: int, rnd: int, rng: random.Random, scores: list[tuple[int, int]]) -> None:
    for t in reads.get_round(db, ev, rnd).tables:  # type: ignore[arg-type]
        if t.sides[1] is not None and t.status != "confirmed":
            results.set_score(db, DESK, ev, rnd, t.table, rng.choice(scores), confirm=True)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tavla_swiss_summed_equals_table_by_table(tmp_path: Path, seed: int) -> None:
    # rule T12b: PTS, IAV, GAV, BH; 9 players (a bye each round), one withdraws after round 2 (T9b),
    # one is disqualified at the end (T9c)
    rng = random.Random(seed)
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=9, rounds=5)
    for rnd in range(1, 6):
        rounds.propose_round(db, DESK, ev)
        rounds.publish_round(db, DESK, ev)
        _play(db, ev, rnd, rng, [(5, 2), (1, 5), (5, 4), (0, 5), (5, 0)])
        if rnd == 2:
            forfeits.withdraw_from_play(db, DESK, ev, ids[4], "moved away")
        shown, full, summed = _both_ways(db, ev)
        assert summed
        assert shown == full
    disqualify(db, REF, ev, ids[1], "conduct")
    shown, full, summed = _both_ways(db, ev)
    assert summed and shown == full
    assert ids[1] not in [r.entrant for r in shown.rows]
    db.close()


def test_gaple_round_robin_with_a_withdrawal(tmp_path: Path) -> None:
    # rules BC1, T9b: points only (a play-off flag on a tie for first, BC2), forfeits of the quitter
    rng = random.Random(5)
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="gaple-club", fmt="round-robin", players=5, per_entrant=2, entry="pair")
    for rnd in range(1, 6):
        rounds.propose_round(db, DESK, ev)
        rounds.publish_round(db, DESK, ev)
        _play(db, ev, rnd, rng, [(2, 0), (0, 2), (2, 1), (1, 2)])
        if rnd == 1:
            forfeits.withdraw_from_play(db, DESK, ev, ids[2], "injured")
        shown, full, summed = _both_ways(db, ev)
        assert summed and shown == full
    db.close()


def test_open_league_both_lost_at_the_deadline(tmp_path: Path) -> None:
    # rule BC3: the matches not played by the deadline are lost by both
    db = open_db(tmp_path)
    ev, ids = make_event(
        db, ruleset="gaple-club", fmt="open-round-robin", players=4, per_entrant=2, entry="pair"
    )
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    t = reads.get_round(db, ev, 1).tables[0]
    results.set_score(db, DESK, ev, 1, t.table, (2, 1), confirm=True)
    forfeits.league_deadline(db, DESK, ev)
    shown, full, summed = _both_ways(db, ev)
    assert summed and shown == full
    db.close()


def test_other_tiebreaks_take_every_table(tmp_path: Path) -> None:
    # domino-es: PTS, DE, GAV; direct encounter is not summed, so the table is built game by game
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="domino-es", fmt="round-robin", players=4, per_entrant=2, entry="pair")
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    shown, full, summed = _both_ways(db, ev)
    assert not summed and shown == full
    db.close()
