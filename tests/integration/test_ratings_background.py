"""Issue 22: a correction of an old tavla match re-rates what follows it (rule T12c); with more than a
handful of later matches the window does it in the background (``ratings.catch_up``), in parts, and a
second correction meanwhile starts it again from the earliest changed match. The result always equals
rating every match again in order. The command line (no window) re-rates at once."""

from __future__ import annotations

from pathlib import Path

from clubdesk.services.night.play import results
from clubdesk.services.night.ranking import ratings, ratings_background
from tests.integration.test_night_helpers import REF, open_db
from tests.rating_league import full_recompute, ratings_now, tavla_league

MATCHES = 400  # 40 rounds of 10 tables: far more than ratings.BACKGROUND_AFTER after round 1


def test_without_a_window_a_correction_re_rates_at_once(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    lg = tavla_league(db, MATCHES)
    before = ratings_now(db)
    results.set_score(db, REF, lg, 1, 1, (0, 5), confirm=True, override="score misread")  # rule T10 override
    assert not ratings_background.pending(db)
    after = ratings_now(db)
    assert after != before
    assert after == full_recompute(db)


def test_a_long_re_rating_runs_in_parts_in_the_background_and_equals_a_full_recompute(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    lg = tavla_league(db, MATCHES)
    ratings_background.rerate_in_background(db)
    before = ratings_now(db)
    results.set_score(db, REF, lg, 1, 1, (0, 5), confirm=True, override="score misread")
    assert ratings_background.pending(db)  # saved; the re-rating waits for the worker
    assert ratings_now(db) == before
    steps: list[tuple[int, int]] = []
    done = ratings.catch_up(db, lambda d, t: steps.append((d, t)), chunk=60, pause=0)
    assert done == MATCHES  # round 1 table 1 and everything after it
    assert len(steps) > 3 and steps[-1] == (MATCHES, MATCHES)
    assert [d for d, _t in steps] == sorted(d for d, _t in steps)
    assert not ratings_background.pending(db)
    after = ratings_now(db)
    assert after != before
    assert after == full_recompute(db)
    ratings_background.rerate_in_background(db, False)


def test_a_second_correction_meanwhile_restarts_from_the_earliest_change(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    lg = tavla_league(db, MATCHES)
    ratings_background.rerate_in_background(db)
    results.set_score(db, REF, lg, 20, 3, (5, 0), confirm=True, override="wrong winner")
    seen: list[int] = []

    def meanwhile(done: int, total: int) -> None:
        seen.append(total)
        if len(seen) == 2:  # while the worker is half-way: an older match is corrected too
            results.set_score(db, REF, lg, 2, 4, (0, 5), confirm=True, override="score misread")
        if len(seen) == 4:  # and a match the worker has not reached yet
            results.set_score(db, REF, lg, 35, 1, (1, 5), confirm=True, override="score misread")

    ratings.catch_up(db, meanwhile, chunk=50, pause=0)
    assert max(seen) > seen[0]  # started again from round 2, earlier than round 20
    assert not ratings_background.pending(db)
    assert ratings_now(db) == full_recompute(db)
    ratings_background.rerate_in_background(db, False)


def test_a_short_tail_is_re_rated_at_once_even_with_a_window(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    lg = tavla_league(db, MATCHES)
    ratings_background.rerate_in_background(db)
    last_round = MATCHES // 10
    results.set_score(db, REF, lg, last_round - 1, 2, (0, 5), confirm=True, override="score misread")
    assert not ratings_background.pending(db)  # 20 later matches: no background work
    assert ratings_now(db) == full_recompute(db)
    ratings_background.rerate_in_background(db, False)


def test_one_window_re_rates_at_a_time_and_a_stopped_one_leaves_the_rest_waiting(tmp_path: Path) -> None:
    """Two desks' windows on one club: the second finds the work claimed and leaves it; a window that
    closes half-way leaves the rest in the database for the next one, which finishes it."""
    db = open_db(tmp_path)
    lg = tavla_league(db, MATCHES)
    ratings_background.rerate_in_background(db)
    results.set_score(db, REF, lg, 1, 1, (0, 5), confirm=True, override="score misread")
    other: list[int] = []

    def first(done: int, total: int) -> None:
        if not other:
            other.append(ratings.catch_up(db, pause=0))  # the other desk's window, meanwhile

    calls: list[int] = []

    def closing() -> bool:
        calls.append(1)
        return len(calls) > 3  # the window closes after three parts

    part = ratings.catch_up(db, first, chunk=50, pause=0, stop=closing)
    assert other == [0]  # claimed: the other window did nothing
    assert part == 150 and ratings_background.pending(db)  # three parts done, the rest waits
    rest = ratings.catch_up(db, chunk=50, pause=0)  # the next start picks it up at once (nobody claims it)
    assert rest == MATCHES - 150
    assert not ratings_background.pending(db)
    assert ratings_now(db) == full_recompute(db)
    ratings_background.rerate_in_background(db, False)
