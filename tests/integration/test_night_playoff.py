"""Rule BC2 end to end: a gaple-club round robin (BC1) that ends with a tie for first goes to a play-off,
whose winner is placed first and ends the event; a tie of three or more is a knockout among the tied."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clubdesk.cli.core import main
from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.night.play import results, rounds
from clubdesk.services.night.ranking import event_end, standings
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, make_event, open_db

pytestmark = pytest.mark.usefixtures("both_backends")  # issue 25: SQLite and the club server


def cli(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, object, str]:
    code = main(["--db", str(db), "--json", *args])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and out.strip() else None), err


def play_round_robin(db: Database, ev: int, beats: set[tuple[int, int]]) -> None:
    """Pair, publish and confirm every round of the Berger schedule; (w, l) in ``beats`` says who wins.
    A won match is 2-1 in games (rule B2)."""
    while True:
        rv = rounds.propose_round(db, DESK, ev)
        assert rv.kind == "regular"
        rounds.publish_round(db, DESK, ev)
        for t in rv.tables:
            a, b = t.sides
            assert b is not None
            score = (2, 1) if (a, b) in beats else (1, 2)
            assert (a, b) in beats or (b, a) in beats
            results.set_score(db, DESK, ev, rv.round, t.table, score, confirm=True)
        if rv.round == 3:  # 4 pairs: 3 rounds (Berger, rule T4f)
            return


def test_tie_for_first_goes_to_a_playoff_from_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = open_db(tmp_path)
    ev, (a, b, c, d) = make_event(
        db, ruleset="gaple-club", fmt="round-robin", players=4, per_entrant=2, entry="pair"
    )
    # rule BC1 (win 1, loss 0): A beats C and D, B beats A and D, C beats B, D beats C
    # -> A 2, B 2, C 1, D 1: A and B tied for first; gaple-club breaks ties by points only (BC2)
    play_round_robin(db, ev, {(a, c), (a, d), (b, a), (b, d), (c, b), (d, c)})
    st = standings.event_standings(db, ev)
    assert [(r.entrant, r.points, r.playoff) for r in st.rows[:2]] == [(a, 2, True), (b, 2, True)] or [
        (r.entrant, r.points, r.playoff) for r in st.rows[:2]
    ] == [(b, 2, True), (a, 2, True)]
    assert not st.finished  # the play-off is still to come
    db.close()
    path = db.location  # the file, or the club server's URL (issue 25)
    code, out, err = cli(capsys, path, "pair", str(ev))
    assert code == 0, err
    assert isinstance(out, dict) and out["round"] == 4
    assert len(out["tables"]) == 1 and set(out["tables"][0]["sides"]) == {a, b}
    assert cli(capsys, path, "publish", str(ev))[0] == 0
    code, rnd, err = cli(capsys, path, "round", str(ev), "--round", "4")
    assert code == 0 and isinstance(rnd, dict)
    assert rnd["tables"][0]["ref"] == "PO1"  # labelled as the play-off match
    # the play-off is a normal gaple-club match, best of 3 (B2): the second-named side wins 2-0 ...
    loser, winner = out["tables"][0]["sides"]
    code, res, err = cli(
        capsys, path, "result", str(ev), "--round", "4", "--table", "1", "--score", "0-2", "--confirm"
    )
    assert code == 0, err
    assert res == {"table": 1, "score": [0, 2], "status": "confirmed"}
    # ... and is champion; the play-off adds no standings point (both keep 2 points)
    code, table, err = cli(capsys, path, "standings", str(ev))
    assert code == 0, err
    rows = table["rows"]  # type: ignore[index]
    assert [(r["rank"], r["entrant"], r["points"]) for r in rows[:2]] == [(1, winner, 2), (2, loser, 2)]
    # rule T12a/BC2 places: C and D share 3-4 on one point each
    code, places, err = cli(capsys, path, "places", str(ev))
    assert code == 0, err
    got = {p["entrant"]: tuple(p["place"]) for p in places}  # type: ignore[union-attr]
    assert got == {winner: (1, 1), loser: (2, 2), c: (3, 4), d: (3, 4)}
    # the event is over: nothing more to pair, one line on stderr, exit 1
    code, _o, err = cli(capsys, path, "pair", str(ev))
    assert code == 1 and "finished" in err and err.count("\n") == 1


def test_three_tied_for_first_play_a_knockout(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, (a, b, c, d) = make_event(
        db, ruleset="gaple-club", fmt="round-robin", players=4, per_entrant=2, entry="pair"
    )
    # a cycle A > B > C > A, and everybody beats D: A 2, B 2, C 2, D 0 (BC1)
    play_round_robin(db, ev, {(a, b), (b, c), (c, a), (a, d), (b, d), (c, d)})
    st = standings.event_standings(db, ev)
    tied = [r.entrant for r in st.rows if r.playoff]
    assert sorted(tied) == sorted([a, b, c]) and not st.finished
    seed1, seed2, seed3 = tied  # the standings' order of the tied is the play-off seeding
    # play-off round 1: seeds 2 and 3 play, seed 1 waits (a bye, as top seeds get in T4c)
    rv = rounds.propose_round(db, DESK, ev)
    assert rv.kind == "playoff" and [(t.sides, t.ref) for t in rv.tables] == [((seed2, seed3), "PO1")]
    rounds.publish_round(db, DESK, ev)
    results.set_score(db, DESK, ev, rv.round, 1, (1, 2), confirm=True)  # seed 3 wins 2-1
    assert not standings.event_standings(db, ev).finished
    # play-off round 2: seed 1 against the winner, seed 3
    rv2 = rounds.propose_round(db, DESK, ev)
    assert [(t.sides, t.ref) for t in rv2.tables] == [((seed1, seed3), "PO2")]
    rounds.publish_round(db, DESK, ev)
    results.set_score(db, DESK, ev, rv2.round, 1, (2, 0), confirm=True)  # seed 1 wins 2-0
    st = standings.event_standings(db, ev)
    assert st.finished
    # places: seed 1 champion, seed 3 lost the final (2nd), seed 2 lost in play-off round 1 (3rd),
    # D last with 0 points (4th)
    assert [(r.rank, r.entrant) for r in st.rows] == [(1, seed1), (2, seed3), (3, seed2), (4, d)]
    assert {p["entrant"]: tuple(p["place"]) for p in event_end.final_places(db, ev)} == {
        seed1: (1, 1),
        seed3: (2, 2),
        seed2: (3, 3),
        d: (4, 4),
    }
    with pytest.raises(ServiceError) as err:
        rounds.propose_round(db, DESK, ev)
    assert err.value.code == "event-finished"
    db.close()
