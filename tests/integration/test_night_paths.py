"""Competition-night paths beyond the happy one (issue 11), through the services: withdrawal (T9b),
postponement (G20), an accepted excuse (G15), latecomers (T3a), referee approval and dispute (T8c), undo,
the seeded seat draw (E7), season points and prizes at the end (T12d, T13), the double elimination's reset
match (T4d) and elimination places (T12a). Expected figures are worked out by hand from RULES.md."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from clubdesk.competition import formats, seating
from clubdesk.models.audit import AuditEntry
from clubdesk.models.event import Entrant, Event
from clubdesk.models.money import Payment
from clubdesk.models.result import Match, PrizeAward
from clubdesk.models.round import Round
from clubdesk.services.desk import arrivals
from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.night.data import reads, settings
from clubdesk.services.night.data import rows as data_rows
from clubdesk.services.night.play import forfeits, results, rounds
from clubdesk.services.night.ranking import event_end, standings
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, REF, make_event, open_db

pytestmark = pytest.mark.usefixtures("both_backends")  # issue 25: SQLite and the club server

GAME = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}


def refused(code: str, fn, *args, **kwargs) -> ServiceError:  # type: ignore[no-untyped-def]
    with pytest.raises(ServiceError) as err:
        fn(*args, **kwargs)
    assert err.value.code == code, err.value
    return err.value


def table_of(db: Database, ev: int, round_no: int, entrant: int) -> Match:
    with db.session() as s:
        return next(
            m
            for m in s.scalars(select(Match).where(Match.event_id == ev, Match.round_no == round_no))
            if entrant in (m.side_a, m.side_b)
        )


# ------------------------------------------------------------------------------------------ T9b
def test_withdrawal_mid_event_forfeits_the_open_match_and_leaves_the_field(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3)
    rv = rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    # round 1 by rating: E1-E3, E2-E4 (top half against bottom half, T4e); E1 wins 5-2
    assert [t.sides for t in rv.tables] == [(ids[0], ids[2]), (ids[1], ids[3])]
    results.set_score(db, DESK, ev, 1, 1, (5, 2), confirm=True)
    # E4 (side 1 of table 2) withdraws while his table is still open: rule T9b, he forfeits it,
    # match length-0 for E2 (T9a): 5-0
    assert forfeits.withdraw_from_play(db, DESK, ev, ids[3], "family emergency").tables == [2]
    t2 = reads.get_round(db, ev, 1).tables[1]
    assert (t2.kind, t2.status, t2.score, t2.winner) == ("forfeit", "confirmed", (5, 0), ids[1])
    # round 2: E4 is out of the field; three players left, so one bye (T4e)
    rv2 = rounds.propose_round(db, DESK, ev)
    drawn = {x for t in rv2.tables for x in t.sides if x is not None}
    assert drawn == {ids[0], ids[1], ids[2]} and sum(1 for t in rv2.tables if t.sides[1] is None) == 1
    # E4 keeps his result in the standings (0 points), the others are ranked around him
    st = standings.event_standings(db, ev)
    assert {r.entrant: r.points for r in st.rows} == {ids[0]: 1, ids[1]: 1, ids[2]: 0, ids[3]: 0}
    db.close()


def test_withdrawn_entrant_forfeits_each_later_round_robin_match(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="gaple-club", fmt="round-robin", players=4, per_entrant=2, entry="pair")
    rv = rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    for t in rv.tables:
        results.set_score(db, DESK, ev, 1, t.table, (2, 0), confirm=True)
    quitter = ids[3]
    forfeits.withdraw_from_play(db, DESK, ev, quitter, "moved away")
    # rounds 2 and 3: the Berger schedule still pairs him; rule T9b: each of those matches is his forfeit,
    # the opponent awarded the match 2-0 (B2: best of 3) as soon as the round is published
    for r in (2, 3):
        rounds.propose_round(db, DESK, ev)
        rounds.publish_round(db, DESK, ev)
        m = table_of(db, ev, r, quitter)
        assert (m.kind, m.status, m.winner) == (
            "forfeit",
            "confirmed",
            m.side_b if m.side_a == quitter else m.side_a,
        )
        assert (m.score_a, m.score_b) == ((0, 2) if m.side_a == quitter else (2, 0))
        for t in reads.get_round(db, ev, r).tables:
            if t.status != "confirmed":
                results.set_score(db, DESK, ev, r, t.table, (2, 1), confirm=True)
    st = standings.event_standings(db, ev)
    # 6 matches, 1 point each (BC1): 6 points in all; the quitter has at most his round-1 point
    assert sum(r.points for r in st.rows) == 6
    assert next(r.points for r in st.rows if r.entrant == quitter) <= 1
    db.close()


def test_withdrawn_entrant_loses_his_open_league_matches_at_the_deadline(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(
        db, ruleset="gaple-club", fmt="open-round-robin", players=3, per_entrant=2, entry="pair"
    )
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    quitter = ids[2]
    forfeits.withdraw_from_play(db, DESK, ev, quitter, "injured")
    out = forfeits.league_deadline(db, DESK, ev)
    # 3 pairs: 3 league matches. Whatever was open when he withdrew was forfeited then; at the deadline
    # his remaining matches are lost by him alone (T9b), the match between the two others by both (BC3)
    by_sides = {frozenset(o["sides"]): o for o in out}
    other = frozenset({ids[0], ids[1]})
    assert other in by_sides and by_sides[other]["winner"] is None
    for o in out:
        if quitter in o["sides"]:
            assert o["winner"] == next(x for x in o["sides"] if x != quitter)
    st = standings.event_standings(db, ev)
    assert next(r.points for r in st.rows if r.entrant == quitter) == 0
    assert sorted(r.points for r in st.rows if r.entrant != quitter) == [1, 1]  # each beat the quitter
    db.close()


# ------------------------------------------------------------------------------------------ G20, G15
def test_postponed_match_keeps_the_event_open_until_played(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="gaple-club", fmt="round-robin", players=4, per_entrant=2, entry="pair")

    def better_wins(t: reads.TableView) -> tuple[int, int]:  # E1 beats everybody, E2 all but E1, ...
        a, b = t.sides
        return (2, 1) if ids.index(a) < ids.index(b) else (1, 2)  # type: ignore[arg-type]

    rv = rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    refused("reason-required", rounds.postpone, db, DESK, ev, 1, 1, datetime(2024, 6, 1, 19), " ")
    tv = rounds.postpone(db, DESK, ev, 1, 1, datetime(2024, 6, 1, 19), "flooded street (force majeure)")
    assert tv.status == "postponed"
    results.set_score(db, DESK, ev, 1, 2, better_wins(rv.tables[1]), confirm=True)
    # round 1 is not closed while a match is postponed (G20) ...
    assert reads.get_round(db, ev, 1).status == "in_play"
    # ... but the next rounds can go on
    for r in (2, 3):
        rvr = rounds.propose_round(db, DESK, ev)
        rounds.publish_round(db, DESK, ev)
        for t in rvr.tables:
            results.set_score(db, DESK, ev, r, t.table, better_wins(t), confirm=True)
    assert not standings.event_standings(db, ev).finished  # the postponed match is still to play
    refused("event-over", rounds.propose_round, db, DESK, ev)  # no new round for it: it has its table
    # played on its new date (round 1 is locked by now: T10 leaves open tables alone)
    res = results.set_score(db, DESK, ev, 1, 1, better_wins(rv.tables[0]), confirm=True).table
    assert res.status == "confirmed"
    assert reads.get_round(db, ev, 1).status == "closed"
    st = standings.event_standings(db, ev)
    # 6 matches of BC1, 1 point each: E1 3, E2 2, E3 1, E4 0; the event ends with the last one
    assert st.finished and [(r.entrant, r.points) for r in st.rows] == list(
        zip(ids, [3, 2, 1, 0], strict=True)
    )
    db.close()


def test_postponed_match_can_be_forfeited_at_once(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=2)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)  # called just now: the 10 minutes of T3b have not passed
    refused("too-early", forfeits.forfeit, db, REF, ev, 1, 2, 1)
    rounds.postpone(db, DESK, ev, 1, 2, datetime(2024, 6, 1, 19), "power cut")
    # a postponed match has no table call to wait for: the absent side forfeits, 5-0 (T9a)
    res = forfeits.forfeit(db, REF, ev, 1, 2, 1).table
    assert (res.status, res.score) == ("confirmed", (5, 0))
    db.close()


def test_accepted_excuse_postpones_instead_of_forfeiting(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(
        db, ruleset="gaple-tournament", fmt="single-elimination", players=4, per_entrant=2, entry="pair"
    )
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev, call_at=datetime(2024, 5, 1, 19, 0))
    # rule G15: an accepted excuse is recorded; no walkover, the match waits (G20)
    res = forfeits.forfeit(db, REF, ev, 1, 1, 1, excuse="hospital visit, certificate shown").table
    assert (res.status, res.score, res.winner) == ("postponed", (0, 0), None)
    with db.session() as s:
        m = s.scalars(select(Match).where(Match.event_id == ev, Match.table_no == 1)).one()
        assert m.excuse == "hospital visit, certificate shown" and m.kind == "played"
        assert s.scalars(select(AuditEntry).where(AuditEntry.action == "excuse")).one().reason == m.excuse
    # later played: a gaple match is best of 3 (G4), 2-1
    assert results.set_score(db, DESK, ev, 1, 1, (2, 1), confirm=True).table.status == "confirmed"
    db.close()


# ------------------------------------------------------------------------------------------ latecomers
def test_latecomer_is_paired_from_the_next_round_with_a_zero_bye(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=5, rounds=3)
    with db.session() as s:
        late = Entrant(event_id=ev, name="Late", code=f"LATE{ev}", rating=1000.0)
        s.add(late)
        s.flush()
        late_id = late.id
    rv = rounds.propose_round(db, DESK, ev)
    assert late_id not in {x for t in rv.tables for x in t.sides}  # no check-in, no draw (T3a)
    rounds.publish_round(db, DESK, ev)
    for t in rv.tables:
        if t.sides[1] is not None:
            results.set_score(db, DESK, ev, 1, t.table, (5, 0), confirm=True)
    ci = arrivals.checkin(db, DESK, ev, f"LATE{ev}")
    assert ci.joins_from_round == 2  # checked in after round 1 was published
    rv2 = rounds.propose_round(db, DESK, ev)
    # six players now: no bye in round 2, and the latecomer has a real opponent
    assert all(t.sides[1] is not None for t in rv2.tables) and len(rv2.tables) == 3
    assert late_id in {x for t in rv2.tables for x in t.sides}
    rounds.publish_round(db, DESK, ev)
    m = table_of(db, ev, 2, late_id)
    late_side = 0 if m.side_a == late_id else 1
    results.set_score(db, DESK, ev, 2, m.table_no, (5, 3) if late_side == 0 else (3, 5), confirm=True)
    st = standings.event_standings(db, ev)
    # round 1 was a zero-point bye for him (not the 1 point of a pairing bye): 0 + 1 = 1 point
    assert next(r.points for r in st.rows if r.entrant == late_id) == 1
    played = [p for p in _played(db, ev) if p.a == str(late_id) and p.round == 1]
    assert [(p.kind, p.b) for p in played] == [("zero-bye", None)]
    db.close()


def _played(db: Database, ev: int) -> list[formats.Played]:
    with db.session() as s:
        return data_rows.played_matches(s, s.get(Event, ev))  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------ T8c, undo
def test_referee_dispute_then_approve(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=2, rounds=1)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    assert results.set_score(db, DESK, ev, 1, 1, (5, 3)).table.status == "pending"
    # only a referee decides
    refused("referee-only", results.referee_decision, db, DESK, ev, 1, 1, approve=False)
    res = results.referee_decision(db, REF, ev, 1, 1, approve=False, note="players disagree on game 4").table
    assert res.status == "disputed"
    # a side cannot confirm a disputed result
    refused("disputed", results.confirm, db, DESK, ev, 1, 1, 0, "AB")
    assert not standings.event_standings(db, ev).finished
    # rule T8c: the referee-approved result is the official one
    res = results.referee_decision(db, REF, ev, 1, 1, approve=True, note="checked the score sheet").table
    assert (res.status, res.score) == ("confirmed", (5, 3))
    with db.session() as s:
        assert s.scalars(select(Match)).one().referee == "Ref"
    assert standings.event_standings(db, ev).finished
    db.close()


def test_referee_cannot_approve_an_unfinished_match(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=2, rounds=1)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    results.add_entry(db, DESK, ev, 1, 1, GAME)  # 1-0 in a match to 5
    refused("sheet-incomplete", results.referee_decision, db, REF, ev, 1, 1, approve=True)
    refused("sheet-incomplete", results.confirm, db, DESK, ev, 1, 1, 0, "AB")
    db.close()


def test_confirmation_needs_both_sides(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=2, rounds=1)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    results.set_score(db, DESK, ev, 1, 1, (2, 5))
    assert results.confirm(db, DESK, ev, 1, 1, 1, "MK").status == "pending"  # one side only (G13, E6)
    refused("initials-required", results.confirm, db, DESK, ev, 1, 1, 0, "  ")
    assert results.confirm(db, DESK, ev, 1, 1, 0, "AY").status == "confirmed"
    db.close()


def test_undo_the_last_entry(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=2, rounds=1)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    refused("no-entry", results.undo_last_entry, db, DESK, ev, 1, 1)
    results.add_entry(db, DESK, ev, 1, 1, GAME)  # single game: 1 point (T7c)
    res = results.add_entry(db, DESK, ev, 1, 1, {**GAME, "winner": 1, "kind": "gammon", "cube": 2})
    assert res.score == (1, 4)  # gammon x2 at cube 2 = 4 points
    res = results.undo_last_entry(db, DESK, ev, 1, 1)
    assert (res.score, res.entries, res.status) == ((1, 0), 1, "in_play")
    res = results.undo_last_entry(db, DESK, ev, 1, 1)
    assert (res.score, res.entries, res.status) == ((0, 0), 0, "waiting")
    # a confirmed table is not undone: it is corrected with a reason
    results.add_entry(db, DESK, ev, 1, 1, {**GAME, "kind": "backgammon", "cube": 2})  # 3 x 2 = 6 -> 5 (T8a)
    results.confirm(db, DESK, ev, 1, 1, 0, "A")
    results.confirm(db, DESK, ev, 1, 1, 1, "B")
    refused("already-confirmed", results.undo_last_entry, db, DESK, ev, 1, 1)
    assert results.table_entries(db, ev, 1, 1)[1][0]["kind"] == "backgammon"
    db.close()


# ------------------------------------------------------------------------------------------ E7
def test_seat_draw_per_table_is_seeded_and_shown(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="domino-es", fmt="round-robin", players=4, per_entrant=2, entry="pair")
    rv = rounds.propose_round(db, DESK, ev, seed=41)
    rounds.publish_round(db, DESK, ev)
    assert rv.seed == 41
    for t in reads.get_round(db, ev, 1).tables:
        draw = t.seats
        assert draw is not None and draw["seed"] == 41 * 1000 + t.table  # recorded with the draw
        with db.session() as s:
            a = [m.number for m in reads.entrant_members(s, t.sides[0])]
            b = [m.number for m in reads.entrant_members(s, t.sides[1])]  # type: ignore[arg-type]
        seats, lead = draw["seats"], draw["leader"]
        # the home pair (first-named, E6) sits at seats 0 and 2, partners opposite (E7)
        assert set(seats[0::2]) == set(a) and set(seats[1::2]) == set(b)

        tiles = {p: tuple(int(v) for v in tile.split("-")) for p, tile in draw["tiles"].items()}

        def rank(p: str, tiles: dict[str, tuple[int, ...]] = tiles) -> tuple[int, int]:
            x, y = tiles[p]  # higher tile: more pips, then the higher half
            return (x + y, max(x, y))

        # rule E7: the highest tile leads; the opponent with the higher tile plays right after him
        assert seats[lead] == max(seats, key=rank)
        right, left = seats[(lead + 1) % 4], seats[(lead + 3) % 4]
        assert rank(right) > rank(left)
        # reproducible from the seed
        assert seating.seat_draw(draw["seed"], a, b) == draw
    db.close()


# ------------------------------------------------------------------------------------------ T4d, T12a
def run_bracket(db: Database, ev: int, winner_of) -> int:  # type: ignore[no-untyped-def]
    played = 0
    while True:
        try:
            rv = rounds.propose_round(db, DESK, ev)
        except ServiceError as exc:
            assert exc.code in ("event-over", "event-finished"), exc
            return played
        rounds.publish_round(db, DESK, ev)
        for t in rv.tables:
            if t.sides[1] is None:
                continue
            w = winner_of(t.ref, *t.sides)
            results.set_score(
                db, DESK, ev, rv.round, t.table, (5, 2) if w == t.sides[0] else (2, 5), confirm=True
            )
            played += 1


def test_double_elimination_reset_when_the_losers_bracket_winner_wins_the_final(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="double-elimination", players=4)
    seed = {e: k + 1 for k, e in enumerate(ids)}  # ratings 2000, 1990, ... : E1 is seed 1

    def winner(ref: str, a: int, b: int) -> int:
        if ref.startswith("GF"):  # the grand final and its reset: the losers' bracket side wins
            return a if seed[a] == 2 else b
        return a if seed[a] < seed[b] else b  # otherwise the better seed wins

    played = run_bracket(db, ev, winner)
    # WB: 1-4, 2-3, final 1-2 (seed 1 unbeaten); LB: 4-3 (3 wins), then 2-3 (2 wins);
    # GF: seed 2 beats seed 1 -> both have one loss -> reset match GF2, seed 2 wins again (T4d)
    # 2N - 1 = 7 matches with the reset
    assert played == 7
    with db.session() as s:
        refs = sorted(m.ref for m in s.scalars(select(Match).where(Match.event_id == ev)))
    assert "GF2" in refs and "GF" in refs
    places = {p["entrant"]: tuple(p["place"]) for p in event_end.final_places(db, ev)}
    assert places == {ids[1]: (1, 1), ids[0]: (2, 2), ids[2]: (3, 3), ids[3]: (4, 4)}
    db.close()


def test_single_elimination_places_with_upsets(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="single-elimination", players=8)
    seed = {e: k + 1 for k, e in enumerate(ids)}
    # strength decides every match: seed 6 > 5 > 2 > 8 > 1 > 4 > 7 > 3
    strength = {6: 8, 5: 7, 2: 6, 8: 5, 1: 4, 4: 3, 7: 2, 3: 1}

    def winner(_ref: str, a: int, b: int) -> int:
        return a if strength[seed[a]] > strength[seed[b]] else b

    assert run_bracket(db, ev, winner) == 7
    # bracket 8 (T4c order 1-8, 4-5, 2-7, 3-6): 8 beats 1, 5 beats 4, 2 beats 7, 6 beats 3;
    # semi-finals: 5 beats 8, 6 beats 2; final: 6 beats 5.
    # rule T12a: 1 = seed 6, 2 = seed 5, semi-final losers 8 and 2 share 3-4, first-round losers 5-8
    places = {seed[p["entrant"]]: tuple(p["place"]) for p in event_end.final_places(db, ev)}
    assert places == {6: (1, 1), 5: (2, 2), 8: (3, 4), 2: (3, 4), 1: (5, 8), 4: (5, 8), 7: (5, 8), 3: (5, 8)}
    rows = standings.event_standings(db, ev).rows
    assert [seed[r.entrant] for r in rows[:2]] == [6, 5] and {r.place for r in rows[4:]} == {"5–8"}
    db.close()


# ------------------------------------------------------------------------------------------ T12d, T13
def test_season_points_and_prizes_when_the_event_ends(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="single-elimination", players=6)
    with db.session() as s:
        s.get(Event, ev).coefficient_class = "regional"  # type: ignore[union-attr]
        for e in ids:  # everybody paid 20.00 EUR; one got 5.00 back
            s.add(Payment(entrant_id=e, amount=2000, currency="EUR", method="cash", recorded_by="t"))
        s.add(Payment(entrant_id=ids[5], amount=-500, currency="EUR", method="cash", recorded_by="t"))
    settings.configure(
        db,
        DESK,
        ev,
        season_scale={"base_points": [100, 70, 50, 40, 30, 20], "coefficients": {"regional": 150}},
        prize_plan={
            "pool_rate": 8000,
            "places": [
                {"place": 1, "pool_share": 5000},
                {"place": 2, "pool_share": 3000},
                {"place": 3, "pool_share": 2000},
            ],
        },
    )
    seed = {e: k + 1 for k, e in enumerate(ids)}
    # 6 in a bracket of 8: seeds 1 and 2 have byes (T4c); the better seed always wins:
    # round 1: 4-5, 3-6; round 2: 1-4, 2-3; final 1-2
    assert run_bracket(db, ev, lambda _r, a, b: a if seed[a] < seed[b] else b) == 5
    got = {seed[p["entrant"]]: p for p in event_end.final_places(db, ev)}
    assert {k: tuple(v["place"]) for k, v in got.items()} == {
        1: (1, 1),
        2: (2, 2),
        3: (3, 4),
        4: (3, 4),
        5: (5, 6),
        6: (5, 6),
    }
    # rule T12d: base x coefficient 1.5; shared places average their base points
    # 1st 100 x 1.5 = 150; 2nd 70 x 1.5 = 105; 3-4 (50+40)/2 x 1.5 = 67.5; 5-6 (30+20)/2 x 1.5 = 37.5
    assert {k: v["season_points"] for k, v in got.items()} == {
        1: 150,
        2: 105,
        3: 67.5,
        4: 67.5,
        5: 37.5,
        6: 37.5,
    }
    # rule T13b: pool = (6 x 2000 - 500) x 80 % = 9200; 1st 50 % = 4600, 2nd 30 % = 2760,
    # 3rd 20 % = 1840 shared by places 3-4 (T13c): 920 each
    money = {k: sum(p["amount"] for p in v["prizes"]) for k, v in got.items()}
    assert money == {1: 4600, 2: 2760, 3: 920, 4: 920, 5: 0, 6: 0}
    with db.session() as s:
        assert sum(a.amount for a in s.scalars(select(PrizeAward))) == 9200
        assert s.get(Event, ev).status == "finished"  # type: ignore[union-attr]
    db.close()


def test_rounds_record_the_call_time(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=2, rounds=1)
    rounds.propose_round(db, DESK, ev)
    call = datetime(2024, 5, 1, 19, 30)
    rounds.publish_round(db, DESK, ev, call_at=call)
    # rule T3b: a forfeit is possible from 19:40, not before
    refused("too-early", forfeits.forfeit, db, REF, ev, 1, 1, 0, now=call + timedelta(minutes=9))
    res = forfeits.forfeit(db, REF, ev, 1, 1, 0, now=call + timedelta(minutes=10)).table
    assert res.score == (0, 5)
    with db.session() as s:
        assert s.scalars(select(Round)).one().call_at == call
        assert (
            json.loads(s.scalars(select(AuditEntry).where(AuditEntry.action == "forfeit")).one().after)[
                "absent_side"
            ]
            == 0
        )
    db.close()
