"""The pure helpers of a competition night (``clubdesk.competition.formats``): seat draw (E7, E7b), score
checks (T8a, B2, G4), forfeit scores (T9a, G15, T3b), the play-off among tied entrants (BC2). Expected values
by hand from RULES.md."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubdesk.competition import formats, playoffs, seating
from clubdesk.competition.errors import CompetitionError

TAVLA = {"match_length": 5}
GAPLE = {"games_to_win": 2}
DOMINO = {"games_to_win": 1}


def code_of(fn, *args, **kwargs) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(CompetitionError) as err:
        fn(*args, **kwargs)
    return err.value.code


# ------------------------------------------------------------------------------------------ scores
def test_tavla_score_is_capped_at_the_match_length() -> None:
    # rule T8a: points beyond the length count for nothing: 7-2 in a match to 5 is 5-2, won by side 0
    oc = formats.outcome_from_score("tavla", TAVLA, (7, 2), final=True)
    assert (oc.score, oc.finished, oc.winner) == ((5, 2), True, 0)
    # a round's own length wins over the preset's: 6-9 in a match to 9 is won by side 1
    oc = formats.outcome_from_score("tavla", TAVLA, (6, 9), match_length=9)
    assert (oc.score, oc.winner) == ((6, 9), 1)


def test_tavla_impossible_scores() -> None:
    assert code_of(formats.outcome_from_score, "tavla", TAVLA, (5, 5)) == "both-at-length"
    assert (
        code_of(formats.outcome_from_score, "tavla", TAVLA, (9, 6)) == "both-at-length"
    )  # 9 -> 5 and 6 -> 5
    assert code_of(formats.outcome_from_score, "tavla", TAVLA, (3, 1), final=True) == "not-finished"
    assert code_of(formats.outcome_from_score, "tavla", TAVLA, (-1, 5)) == "negative-score"
    # unfinished but not confirming: an interim score is fine
    oc = formats.outcome_from_score("tavla", TAVLA, (3, 1))
    assert (oc.finished, oc.winner) == (False, None)


def test_gaple_best_of_three() -> None:
    # rules G4, B2: 2 games win; 2-1 and 0-2 are results, 3-0, 2-2 are not
    assert formats.outcome_from_score("gaple", GAPLE, (2, 1), (510, 380), final=True).winner == 0
    assert formats.outcome_from_score("gaple", GAPLE, (0, 2), final=True).winner == 1
    assert code_of(formats.outcome_from_score, "gaple", GAPLE, (3, 0)) == "too-many-games"
    assert code_of(formats.outcome_from_score, "gaple", GAPLE, (2, 2)) == "too-many-games"
    assert code_of(formats.outcome_from_score, "gaple", GAPLE, (1, 1), final=True) == "not-finished"
    assert code_of(formats.outcome_from_score, "gaple", GAPLE, (2, 1), (-5, 100)) == "negative-score"


def test_domino_team_encounter_of_two_games() -> None:
    # rule E7b: an encounter of 2 games can end 1-1 (a draw: no winner) but not 2-1
    oc = formats.outcome_from_score("domino", DOMINO, (1, 1), (180, 150), encounter_games=2, final=True)
    assert (oc.finished, oc.winner, oc.points) == (True, None, (180, 150))
    assert formats.outcome_from_score("domino", DOMINO, (2, 0), encounter_games=2).winner == 0
    assert (
        code_of(formats.outcome_from_score, "domino", DOMINO, (2, 1), encounter_games=2) == "too-many-games"
    )
    assert code_of(formats.outcome_from_score, "domino", DOMINO, (1, 0), encounter_games=2, final=True) == (
        "not-finished"
    )


# ------------------------------------------------------------------------------------------ forfeits
def test_forfeit_scores() -> None:
    # rule T9a: tavla match length-0, the round's length first
    assert formats.forfeit_outcome("tavla", TAVLA, 0, match_length=None, encounter_games=0).score == (5, 0)
    assert formats.forfeit_outcome("tavla", TAVLA, 1, match_length=7, encounter_games=0).score == (0, 7)
    # rules G15, T3b: dominoes, the match awarded: gaple 2-0 (best of 3), a team encounter 2-0
    oc = formats.forfeit_outcome("gaple", GAPLE, 1, match_length=None, encounter_games=0)
    assert (oc.score, oc.winner, oc.finished) == ((0, 2), 1, True)
    assert formats.forfeit_outcome("domino", DOMINO, 0, match_length=None, encounter_games=2).score == (2, 0)


# ------------------------------------------------------------------------------------------ seats (E7)
def test_tile_rank() -> None:
    # more pips first, then the higher half: 6-0 (6 pips) beats 5-1 (6 pips), 3-3 < 4-2
    assert seating.tile_rank((6, 0)) > seating.tile_rank((5, 1)) > seating.tile_rank((3, 3))
    assert seating.tile_rank((0, 6)) == seating.tile_rank((6, 0))
    assert seating.tile_rank((1, 1)) > seating.tile_rank((0, 1))


PLAYERS = st.permutations(["101", "102", "201", "202"])


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), order=PLAYERS)
def test_seat_draw_follows_rule_e7(seed: int, order: list[str]) -> None:
    a, b = order[:2], order[2:]
    draw = seating.seat_draw(seed, a, b)
    seats, lead = draw["seats"], draw["leader"]
    assert len(set(draw["tiles"].values())) == 4  # four different tiles lifted
    # the home pair at seats 0 and 2, partners opposite
    assert sorted(seats[0::2]) == sorted(a) and sorted(seats[1::2]) == sorted(b)
    # rule E7 (Reading): a tile is worth its pips; the tied players draw again, the last draw decides
    final = dict(draw["tiles"])
    for r in draw["redraws"]:
        lifted = [final[p] for p in r["players"]]
        assert len({sum(int(x) for x in t.split("-")) for t in lifted}) < len(lifted)  # they were tied
        final.update(r["tiles"])

    def pips(p: str) -> int:
        return sum(int(x) for x in final[p].split("-"))

    leader = seats[lead]
    # the lead is settled first (every redraw for it includes the leader); the opponents' redraw comes after
    at_lead = dict(draw["tiles"])
    group = list(seats)

    def value(p: str) -> int:
        return sum(int(x) for x in at_lead[p].split("-"))

    for r in draw["redraws"]:
        if leader in r["players"]:  # those tied on top of the group draw again among themselves
            assert sorted(r["players"]) == sorted(
                p for p in group if value(p) == max(value(q) for q in group)
            )
            group = list(r["players"])
            at_lead.update(r["tiles"])
    assert all(value(leader) > value(p) for p in group if p != leader)  # the highest tile leads, alone
    assert pips(seats[(lead + 1) % 4]) > pips(seats[(lead + 3) % 4])  # higher opponent to his right
    assert seating.seat_draw(seed, a, b) == draw  # the same seed draws the same seats


def test_e7_equal_tiles_are_drawn_again_and_the_sheet_says_so() -> None:
    # rule E7: 6-3 and 5-4 both score 9: the tied players draw again among themselves
    with_ties = [s for s in range(300) if seating.seat_draw(s, ["a1", "a2"], ["b1", "b2"])["redraws"]]
    assert with_ties, "some seed in 300 gives equal tiles"
    draw = seating.seat_draw(with_ties[0], ["a1", "a2"], ["b1", "b2"])
    tied = draw["redraws"][0]["players"]
    assert len(tied) >= 2
    note = seating.seat_draw_note(draw, {"a1": "Ana", "a2": "Bea", "b1": "Ciro", "b2": "Dani"})
    assert note.startswith("Equal tiles drawn again among the tied (E7): ")
    names = {"a1": "Ana", "a2": "Bea", "b1": "Ciro", "b2": "Dani"}
    assert all(f"{names[p]} {draw['redraws'][0]['tiles'][p]}" in note for p in tied)
    assert (
        seating.seat_draw_note(
            seating.seat_draw(next(s for s in range(300) if s not in with_ties), ["a1", "a2"], ["b1", "b2"])
        )
        == ""
    )


def test_seat_draw_needs_two_a_side() -> None:
    assert code_of(seating.seat_draw, 1, ["a"], ["b", "c"]) == "seat-draw-four"


def test_swap_and_substitute() -> None:
    seats = ["a1", "b1", "a2", "b2"]
    # rule E7b: the pair that lost game 1 swaps its two seats for game 2
    assert seating.swap_seats(seats, 0) == ["a2", "b1", "a1", "b2"]
    assert seating.swap_seats(seats, 1) == ["a1", "b2", "a2", "b1"]
    # a substitute takes the seat of the player he replaces
    assert seating.substitute(seats, "b1", "s9") == ["a1", "s9", "a2", "b2"]
    assert code_of(seating.substitute, seats, "zz", "s9") == "not-seated"


# ------------------------------------------------------------------------------------------ play-off (BC2)
def po(round_no: int, a: str, b: str, winner: str, n: int) -> formats.Played:
    return formats.Played(round_no, a, b, "played", winner=winner, ref=f"PO{n}")


def test_playoff_of_two() -> None:
    p = playoffs.playoff_progress(["A", "B"], [])
    assert p.champion is None and p.next_pairs() == [("A", "B")]
    p = playoffs.playoff_progress(["A", "B"], [po(8, "A", "B", "B", 1)])
    assert p.champion == "B" and p.ranks() == {"B": 1, "A": 2}


def test_playoff_of_three_the_best_seed_waits() -> None:
    p = playoffs.playoff_progress(["A", "B", "C"], [])
    assert p.next_pairs() == [("B", "C")]  # A waits
    p = playoffs.playoff_progress(["A", "B", "C"], [po(8, "B", "C", "C", 1)])
    assert p.remaining == ("A", "C") and p.next_pairs() == [("A", "C")] and p.champion is None
    p = playoffs.playoff_progress(["A", "B", "C"], [po(8, "B", "C", "C", 1), po(9, "A", "C", "C", 2)])
    assert p.champion == "C" and p.ranks() == {"C": 1, "A": 2, "B": 3}


def test_playoff_of_four_semi_final_losers_share_third() -> None:
    p = playoffs.playoff_progress(list("ABCD"), [])
    assert p.next_pairs() == [("A", "D"), ("B", "C")]
    games = [po(8, "A", "D", "A", 1), po(8, "B", "C", "C", 2), po(9, "A", "C", "A", 3)]
    p = playoffs.playoff_progress(list("ABCD"), games)
    assert p.champion == "A" and p.ranks() == {"A": 1, "C": 2, "B": 3, "D": 3}


def test_no_playoff_without_a_tie() -> None:
    assert playoffs.playoff_progress(["A"], []).champion is None
    assert playoffs.playoff_progress(["A"], []).next_pairs() == []
    # regular matches do not count as play-off matches
    assert (
        playoffs.playoff_progress(["A", "B"], [formats.Played(1, "A", "B", "played", winner="A")]).champion
        is None
    )


def test_points_scheme_and_formats() -> None:
    # BC1 / T4f: a win 1, a loss 0; a domino team encounter: win 2, draw 1 (shown halved)
    s = formats.points_scheme("gaple")
    assert (s.win, s.draw, s.loss) == (1, 0, 0)
    s = formats.points_scheme("domino", encounter_games=2)
    assert (s.win, s.draw, s.loss, s.scale) == (2, 1, 0, 2)


def test_lives_left() -> None:
    # rule T4g: each loss costs a life, a bye none; a both-lost match costs both a life
    played = [
        formats.Played(1, "A", "B", "played", winner="A"),
        formats.Played(1, "C", None, "bye", winner="C"),
        formats.Played(2, "A", "C", "forfeit", winner="C"),
        formats.Played(3, "B", "C", "both-lost"),
    ]
    assert formats.lives_left(["A", "B", "C"], played, 2) == {"A": 1, "B": 0, "C": 1}
