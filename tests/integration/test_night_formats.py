"""Formats end to end through the services (issue 11): gaple knockout of 8 pairs with hand-by-hand sheets,
double elimination of 10, lives of 9, open league to its deadline (BC3), a domino-es team encounter (E7b),
and a crash between two hands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sqlalchemy import select

from clubdesk.models.result import Match, ResultEntry
from clubdesk.services.night.data import reads, settings
from clubdesk.services.night.play import forfeits, results, rounds, table_sides
from clubdesk.services.night.ranking import event_end, standings
from tests.integration.test_night_helpers import DESK, make_event, open_db

# gaple: seat 0 goes out; opponents (seats 1, 3) hold 30 + 30 = 60 pips (rule GN1)
OUT0 = {
    "type": "out",
    "seat": 0,
    "pips": [0, 30, 10, 30],
    "last_tile": None,
    "two_ends": False,
    "dead": {"0-0": None, "6-6": None},
}
OUT1 = {**OUT0, "seat": 1, "pips": [30, 0, 30, 10]}


def gaple_sheet(winner: int) -> list[dict[str, object]]:
    """Warm-up hand (G6, G7: scores 0), then 5 hands of 60 = 300 >= 250 (GN3) wins game 1; game 2 has no
    warm-up: 5 hands of 60 again. Match 2-0 (G4), game points 300 + 300 = 600."""
    hand = OUT0 if winner == 0 else OUT1
    return [hand] * 11


def run_bracket(db, ev: int, rating: dict[int, float], *, sheet: bool) -> int:
    played = 0
    for _ in range(40):
        try:
            rv = rounds.propose_round(db, DESK, ev)
        except Exception as exc:  # the bracket is finished
            assert getattr(exc, "code", "") in ("event-over", "event-finished"), exc
            break
        rounds.publish_round(db, DESK, ev)
        for t in rv.tables:
            if t.sides[1] is None:
                continue
            a, b = t.sides
            win = 0 if rating[a] > rating[b] else 1
            if sheet:
                results.replace_entries(db, DESK, ev, rv.round, t.table, {1: gaple_sheet(win)})
                results.confirm(db, DESK, ev, rv.round, t.table, 0, "AB")
                res = results.confirm(db, DESK, ev, rv.round, t.table, 1, "CD")
                assert res.score == ((2, 0) if win == 0 else (0, 2)) and res.status == "confirmed"
            else:
                results.set_score(
                    db, DESK, ev, rv.round, t.table, (5, 1) if win == 0 else (1, 5), confirm=True
                )
            played += 1
    return played


def test_gaple_knockout_of_8_pairs_hand_by_hand(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(
        db, ruleset="gaple-tournament", fmt="single-elimination", players=8, per_entrant=2, entry="pair"
    )
    rating = {e: 2000 - 10 * k for k, e in enumerate(ids)}
    played = run_bracket(db, ev, rating, sheet=True)
    assert played == 7  # 4 + 2 + 1 matches
    with db.session() as s:
        m = s.scalars(select(Match).where(Match.ref == "W3-1")).one()
        assert (m.points_a, m.points_b) == (600, 0)
        assert s.query(ResultEntry).filter(ResultEntry.match_id == m.id).count() == 11
    places = {p["entrant"]: tuple(p["place"]) for p in event_end.final_places(db, ev)}
    # seeds by rating: entrant k is seed k+1; the better seed always wins.
    # rule T12a: 1, 2, then 3-4 for the semi-final losers (seeds 3, 4), 5-8 for the quarter-final losers
    assert places[ids[0]] == (1, 1) and places[ids[1]] == (2, 2)
    assert places[ids[2]] == places[ids[3]] == (3, 4)
    assert {places[i] for i in ids[4:]} == {(5, 8)}


def test_double_elimination_of_10(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="double-elimination", players=10)
    rating = {e: 2000 - 10 * k for k, e in enumerate(ids)}
    played = run_bracket(db, ev, rating, sheet=False)
    # rule T4d: everybody but the champion loses twice, the unbeaten champion needs no reset:
    # 2 x (10 - 1) = 18 matches
    assert played == 18
    places = {p["entrant"]: tuple(p["place"]) for p in event_end.final_places(db, ev)}
    assert places[ids[0]] == (1, 1) and places[ids[1]] == (2, 2) and places[ids[2]] == (3, 3)


def test_lives_event_of_9(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="lives", players=9)
    settings.configure(db, DESK, ev, lives=2)
    rating = {e: 2000 - 10 * k for k, e in enumerate(ids)}
    played = run_bracket(db, ev, rating, sheet=False)
    # rule T4g: 8 players lose their 2 lives; the best-rated never loses: 8 x 2 = 16 matches
    assert played == 16
    places = {p["entrant"]: tuple(p["place"]) for p in event_end.final_places(db, ev)}
    assert places[ids[0]] == (1, 1)
    with db.session() as s:
        losses = {e: 0 for e in ids}
        for m in s.scalars(select(Match).where(Match.kind == "played")):
            loser = m.side_b if m.winner == m.side_a else m.side_a
            losses[loser] += 1
    assert losses[ids[0]] == 0 and all(losses[e] == 2 for e in ids[1:])


def test_open_league_reaching_its_deadline(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(
        db, ruleset="gaple-club", fmt="open-round-robin", players=4, per_entrant=2, entry="pair"
    )
    rv = rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    assert len(rv.tables) == 2  # 4 pairs: two matches can run at once
    for t in rv.tables:  # the first-named pair wins 2-1 (B2)
        results.set_score(db, DESK, ev, 1, t.table, (2, 1), (500, 320), confirm=True)
    winners = [t.sides[0] for t in rv.tables]
    rv2 = rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    results.set_score(db, DESK, ev, 2, 1, (2, 0), confirm=True)
    # deadline (BC3): 6 matches in a round robin of 4; 3 played, 3 left. The secretary names the side at
    # fault for one of them; the others are lost by both.
    with db.session() as s:
        open_t2 = [m for m in s.scalars(select(Match).where(Match.round_no == 2, Match.table_no == 2))]
    ref_open = open_t2[0].ref if open_t2 else None
    out = forfeits.league_deadline(db, DESK, ev, {ref_open: open_t2[0].side_b} if ref_open else {})
    assert len(out) == 3
    assert sum(1 for o in out if o["outcome"] == "wo") == (1 if ref_open else 0)
    st = standings.event_standings(db, ev)
    total = sum(r.points for r in st.rows)
    # rule BC1: a win 1, a loss 0; 3 played wins + 1 WO win = 4 points in all (both-lost give nobody any)
    assert total == 3 + (1 if ref_open else 0)
    assert st.finished
    assert rv2.round == 2 and winners


def test_domino_team_encounter(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="domino-es", fmt="round-robin", players=2, per_entrant=4, entry="team")
    settings.configure(db, DESK, ev, encounter_games=2)
    rv = rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    assert len(rv.tables) == 1
    seats1 = table_sides.encounter_seats(db, ev, 1, 1, 1)
    assert len(seats1) == 4
    # game 1: side 0 goes out twice with 30 + 20 + 25 = 75 left in hands (E18): 75, 150 >= 100
    d0 = {"type": "domino", "seat": 0, "pips": [0, 30, 20, 25]}
    d1 = {"type": "domino", "seat": 1, "pips": [30, 0, 20, 25]}
    results.add_entry(db, DESK, ev, 1, 1, d0, game_no=1)
    res = results.add_entry(db, DESK, ev, 1, 1, d0, game_no=1)
    assert res.score == (1, 0) and not res.finished
    # rule E7b: side 1 lost game 1, its two players swap seats (seats 1 and 3) for game 2
    seats2 = table_sides.encounter_seats(db, ev, 1, 1, 2)
    assert seats2 == [seats1[0], seats1[3], seats1[2], seats1[1]]
    # a substitute takes the seat of the player he replaces
    with db.session() as s:
        from clubdesk.models.event import EntrantMember
        from clubdesk.models.member import Member

        spare = [
            m.number
            for m in s.scalars(
                select(Member)
                .join(EntrantMember, EntrantMember.member_id == Member.id)
                .where(EntrantMember.entrant_id == ids[1])
            )
        ]
    bench = [n for n in spare if n not in seats2][0]
    seats = table_sides.substitute(db, DESK, ev, 1, 1, 2, 1, seats2[1], bench, "justified absence").seats
    assert seats["game2"][1] == bench
    results.add_entry(db, DESK, ev, 1, 1, d1, game_no=2)
    res = results.add_entry(db, DESK, ev, 1, 1, d1, game_no=2)
    # 1-1: a level encounter; game points 150 each
    assert res.score == (1, 1) and res.points == (150, 150) and res.finished
    results.confirm(db, DESK, ev, 1, 1, 0, "AN")
    results.confirm(db, DESK, ev, 1, 1, 1, "RC")
    st = standings.event_standings(db, ev)
    # a level encounter is a draw: win 2, draw 1 stored units, shown halved -> 0.5 each
    assert [r.points for r in st.rows] == [0.5, 0.5]


CHILD = """
import os, signal, sys
sys.path.insert(0, {root!r})
from clubdesk.storage import Database
from clubdesk.services.night.play import results
from clubdesk.storage import Database
from clubdesk.services.night.play import results
from tests.integration.test_night_helpers import DESK
db = Database({path!r}, backups_dir=None)
hand = {{"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}}
results.add_entry(db, DESK, {ev}, 1, 1, hand)
results.add_entry(db, DESK, {ev}, 1, 1, {{**hand, "winner": 1, "kind": "gammon"}})
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_crash_between_two_hands_loses_neither(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=2, rounds=1)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    db.close()
    root = str(Path(__file__).resolve().parents[2])
    code = CHILD.format(root=root, path=str(tmp_path / "night.sqlite3"), ev=ev)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == -9, proc.stderr  # killed
    db = open_db(tmp_path)
    entries = results.table_entries(db, ev, 1, 1)
    assert [e["kind"] for e in entries[1]] == ["single", "gammon"]
    rv = reads.get_round(db, ev, 1)
    # 1 (single) for player 1, 2 (gammon x1, T7c) for player 2
    assert rv.tables[0].score == (1, 2) and rv.tables[0].status == "in_play"
    assert json.dumps(entries)
