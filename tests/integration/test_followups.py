"""Issue 22 item 6: ``followups.after_change`` owns what follows a change. A final result of an event
that cannot be over yet (tables still open, or Swiss rounds still to play) does not build the event's
standings: its query count does not grow with the event's matches (the standings and the event's end
are checked in full once the event may be over; the night tests cover the places and prizes then), and
it loads no ORM object per match of the event (issue 22 item 1)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import event

from clubdesk.models.result import Match
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import results, rounds
from clubdesk.services.night.ranking import event_end, standings
from clubdesk.storage import Database
from tests.integration.test_night_helpers import REF, open_db
from tests.rating_league import tavla_league


def _queries(db: Database, fn: object) -> tuple[int, int]:
    """(SQL statements run, Match rows loaded as ORM objects) while ``fn`` runs."""
    hits: list[int] = []
    loads: list[int] = []

    def hit(*_args: object) -> None:
        hits.append(1)

    def load(*_args: object) -> None:
        loads.append(1)

    event.listen(db.engine, "before_cursor_execute", hit)
    event.listen(Match, "load", load)
    try:
        fn()  # type: ignore[operator]
    finally:
        event.remove(db.engine, "before_cursor_execute", hit)
        event.remove(Match, "load", load)
    return len(hits), len(loads)


def _latest_result_queries(tmp_path: Path, matches: int) -> tuple[int, int]:
    tmp_path.mkdir()
    db = open_db(tmp_path)
    lg = tavla_league(db, matches)  # a league without a number of rounds: never over by its rounds
    last = (matches + 9) // 10
    return _queries(
        db, lambda: results.set_score(db, REF, lg, last, 1, (5, 1), confirm=True, override="score misread")
    )


def test_a_final_result_costs_the_same_queries_at_any_event_size(tmp_path: Path) -> None:
    small = _latest_result_queries(tmp_path / "a", 60)
    large = _latest_result_queries(tmp_path / "b", 600)
    assert small == large
    assert large[1] <= 10  # its round's 10 tables (the round's closed check), never the event's 600


def test_the_event_still_ends_with_its_last_result(tmp_path: Path) -> None:
    """Rule T12a: the last round's last result ends a Swiss event; its places are written."""
    from clubdesk.services.night.play import results
    from tests.integration.test_night_helpers import DESK, make_event

    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=2)
    for rno in (1, 2):
        rounds.propose_round(db, DESK, ev)
        rounds.publish_round(db, DESK, ev)
        tables = reads.get_round(db, ev, rno).tables
        for k, t in enumerate(tables):
            assert event_end.final_places(db, ev) == []  # not over before the last result
            results.set_score(db, DESK, ev, rno, t.table, (5, 2), confirm=True)
            if rno == 1 or k < len(tables) - 1:
                assert event_end.final_places(db, ev) == []
    places = event_end.final_places(db, ev)
    assert len(places) == 4 and places[0]["place"] == [1, 1]
    assert standings.event_standings(db, ev).finished
