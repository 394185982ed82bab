"""An independent referee's review of the game engines: small tricky sheets worked out BY HAND from RULES.md
sections A–D, CONTRACTS.md §1 and REFERENCES.md "Backgammon match scoring", then replayed.

Seats 0–3 in playing order; side 0 = seats 0 and 2, side 1 = seats 1 and 3 (CONTRACTS.md §1).
Every expected value below is the referee's arithmetic (in the comment beside it), never the engine's output.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubdesk.games import EntryError, RulesetError, replay
from clubdesk.games.gaple import GapleMatch
from clubdesk.games.ruleset import load_ruleset
from clubdesk.games.sheet import Sheet

T = "gaple-tournament"
C = "gaple-club"
D = "domino-es"
B = "tavla"


def out(
    seat: int,
    pips: list[int],
    last: str | None = None,
    two_ends: bool = False,
    d00: int | None = None,
    d66: int | None = None,
) -> dict[str, object]:
    return {
        "type": "out",
        "seat": seat,
        "pips": pips,
        "last_tile": last,
        "two_ends": two_ends,
        "dead": {"0-0": d00, "6-6": d66},
    }


def block(seat: int, pips: list[int]) -> dict[str, object]:
    return {"type": "block", "seat": seat, "pips": pips}


def penalty(side: int, points: int) -> dict[str, object]:
    return {"type": "penalty", "side": side, "points": points}


REDEAL: dict[str, object] = {"type": "redeal"}
WARMUP = out(0, [0, 10, 10, 10])  # rule G6, G7: the tournament's first hand scores nothing


def hands(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [h for g in result["games"] for h in g["hands"]]


def points(result: dict[str, Any]) -> list[list[int]]:
    return [h["points"] for h in hands(result)]


def totals(result: dict[str, Any]) -> list[list[int]]:
    return [h["totals"] for h in hands(result)]


def game(winner: int, kind: str = "single", cube: int = 1, dropped: bool = False) -> dict[str, object]:
    return {"type": "game", "winner": winner, "kind": kind, "cube": cube, "dropped": dropped}


# ======================================================================================== gaple, seed 000


# rule G6, G7, G11, G14: the warm-up is the first hand that is not a redeal; redeals score nothing
def test_g6_warmup_is_first_hand_after_redeals() -> None:
    entries = [REDEAL, REDEAL, out(2, [10, 20, 0, 15]), out(1, [12, 0, 14, 0])]
    r = replay(T, entries)
    # redeal 0, redeal 0, warm-up (seat 2 out, 20 + 15 = 35) scores 0 (G7);
    # then seat 1 out: opponents 12 + 14 = 26 >= 25 opens (GN4) -> side 1 at 26
    assert points(r) == [[0, 0], [0, 0], [0, 0], [0, 26]]
    assert totals(r)[-1] == [0, 26]
    assert [h["warmup"] for h in hands(r)] == [False, False, True, False]


# rule GN4, GN5: opening thresholds are tested on the pure value, before the x2
def test_gn4_gn5_opening_on_pure_value_then_burned_side_needs_ten() -> None:
    entries = [
        WARMUP,
        out(0, [0, 12, 0, 12], two_ends=True),  # pure 12 + 12 = 24 < 25: nothing, although x2 would be 48
        out(0, [0, 13, 0, 12], two_ends=True),  # pure 25 >= 25: opens, x2 kept (GN5) -> 50
        out(0, [0, 2, 0, 1]),  # side 0 above 0: no minimum -> 3; totals 53-0
        out(1, [30, 0, 30, 0]),  # side 1 first score 60 >= 25; 0 <= 53 before, 60 > 53 after -> 53 burned
        out(0, [0, 5, 0, 4]),  # side 0 at 0 after a burn: 9 < 10 does not open (GN4, GN6)
        out(0, [0, 6, 0, 4]),  # 10 >= 10 opens: 10-60
    ]
    r = replay(T, entries)
    assert points(r) == [[0, 0], [0, 0], [50, 0], [3, 0], [0, 60], [0, 0], [10, 0]]
    assert totals(r) == [[0, 0], [0, 0], [50, 0], [53, 0], [0, 60], [0, 60], [10, 60]]


# rule GN6: level before, strictly ahead after, other side above 0 -> burned; exactly level -> no burn
def test_gn6_burn_from_level_totals() -> None:
    entries = [
        WARMUP,
        out(0, [0, 20, 0, 20]),  # 40 -> 40-0
        out(1, [20, 0, 20, 0]),  # 40 -> 40-40: level after, not strictly ahead: no burn
        out(0, [0, 8, 0, 7]),  # 15: level (40 = 40) before, 55 > 40 after, 40 > 0 -> 55-0
    ]
    r = replay(T, entries)
    assert totals(r) == [[0, 0], [40, 0], [40, 40], [55, 0]]
    assert points(r)[-1] == [15, 0]  # the burn is in the totals, not in the hand's points
    assert hands(r)[-1]["burned"] == 1


def test_gn6_no_burn_when_already_ahead() -> None:
    entries = [WARMUP, out(0, [0, 25, 0, 25]), out(1, [20, 0, 20, 0]), out(0, [0, 5, 0, 5])]
    r = replay(T, entries)
    # 50-0; side 1 +40 -> 50-40 (40 < 50, not ahead); side 0 +10 was ahead before (50 > 40): 60-40
    assert totals(r) == [[0, 0], [50, 0], [50, 40], [60, 40]]


# rule GN2, GN7, G17, GN5: duel against the previous seat; a tie loses for the blocker; x2 after the pure test
def test_gn2_gn7_g17_block_duels() -> None:
    entries = [
        WARMUP,
        block(1, [14, 14, 20, 17]),  # blocker 1 vs seat 0: 14 = 14 -> blocker loses (GN7);
        # count = all but the blocker's = 14 + 20 + 17 = 51 >= 25; 2 x 51 = 102 to side 0
        block(0, [9, 20, 11, 10]),  # G17: blocker 0 vs seat 3 (the one before him): 9 < 10 wins;
        # count = 20 + 11 + 10 = 41 to side 0 -> 143
        block(2, [10, 5, 12, 8]),  # blocker 2 vs seat 1: 12 > 5 loses; count = 10 + 5 + 8 = 23;
        # side 1 has never scored: pure 23 < 25 -> 0 (the x2 = 46 does not help, GN5)
    ]
    r = replay(T, entries)
    assert points(r) == [[0, 0], [102, 0], [41, 0], [0, 0]]
    assert totals(r)[-1] == [143, 0]


# rule GS1/GS2, GS3, GS4: dead doubles count only in an opponent's hand; two ends doubles the whole value
def test_gs1_gs3_gs4_dead_doubles_and_two_ends() -> None:
    entries = [
        WARMUP,
        out(0, [0, 17, 8, 3], two_ends=True, d66=1, d00=3),
        # opponents 17 + 3 = 20; 6-6 dead counts 50 instead of 12 (+38); 0-0 dead 25 -> 83; x2 = 166
        out(0, [0, 3, 12, 2], d66=2),  # 6-6 dead with the partner: the partner's hand does not count -> 5
    ]
    r = replay(T, entries)
    assert points(r) == [[0, 0], [166, 0], [5, 0]]
    assert hands(r)[1]["pure"] == 83


# rule GS5, GS6, GS7, GN3: out with 6-6 = 200 + normal; with 0-0 = 50 + normal; 250 wins the game
def test_gs5_gs6_out_with_double_plus_normal_and_game_won() -> None:
    entries = [WARMUP, out(1, [10, 0, 5, 0], last="6-6"), out(3, [4, 0, 3, 0], last="0-0")]
    r = replay(T, entries)
    # 200 + 10 + 5 = 215; then 50 + 4 + 3 = 57: 215 + 57 = 272 >= 250 -> side 1 wins game 1
    assert points(r) == [[0, 0], [0, 215], [0, 57]]
    assert r["games"][0]["totals"] == [0, 272]
    assert r["games"][0]["winner"] == 1
    assert r["games_won"] == [0, 1] and r["winner"] is None and r["finished"] is False


# rule GS1/GS2: "two ends" is never with a double: out with 6-6 on two ends is refused, nothing changes
def test_gs1_two_ends_with_double_refused() -> None:
    good = [WARMUP, out(0, [0, 20, 0, 10])]
    sheet = Sheet.open(T, good)
    with pytest.raises(EntryError) as exc:
        sheet.append(out(0, [0, 20, 0, 10], last="6-6", two_ends=True))
    assert exc.value.index == 2 and exc.value.code == "two-ends-double"
    # the sheet is as it was: 30 for side 0 after the warm-up
    assert sheet.result["games"][0]["totals"] == [30, 0] and len(sheet.entries) == 2


# rule G3, B8 (Reading): in seed 000 a deduction stops at 0; a side back at 0 needs 10 to open again
def test_g3_penalty_stops_at_zero() -> None:
    entries = [WARMUP, out(0, [0, 10, 0, 15]), penalty(0, 40), out(0, [0, 5, 0, 4])]
    r = replay(T, entries)
    # 25 opens; 40 taken from 25 stops at 0 (-25); then 9 < 10 (side 0 has scored): 0
    assert points(r) == [[0, 0], [25, 0], [-25, 0], [0, 0]]
    assert totals(r) == [[0, 0], [25, 0], [0, 0], [0, 0]]


# ======================================================================================== gaple, seed 001


# rule B6, B7, B8: going out with 6-6 adds 100 to the count (Reading, out_double_mode = plus); caught doubles
# fined from the holder's total (below 0)
def test_b6_b7_b8_club_out_with_66_fines_below_zero_and_first_score() -> None:
    entries = [
        out(0, [0, 10, 5, 7], last="6-6", d00=1),  # 17 + 100 = 117; side 1 fined 25: 117 / -25
        out(1, [8, 0, 9, 0]),  # side 1 has never scored: 8 + 9 = 17 < 25 -> 0 (B8)
        out(3, [20, 5, 10, 0]),  # 20 + 10 = 30 >= 25: -25 + 30 = 5
        out(3, [3, 0, 2, 0]),  # 5 counts: no reopening minimum in seed 001 -> 10
        penalty(1, 20),  # B7: a wrong play costs 20: 10 - 20 = -10
        out(1, [3, 0, 1, 0]),  # 4 counts (side 1 has scored; open_again_min 0): -10 + 4 = -6
    ]
    r = replay(C, entries)
    assert points(r) == [[117, -25], [0, 0], [0, 30], [0, 5], [0, -20], [0, 4]]
    assert totals(r) == [[117, -25], [117, -25], [117, 5], [117, 10], [117, -10], [117, -6]]
    # the reading before issue 29 (out_double_mode = flat, kept by old events): exactly 100
    flat = replay(C, entries, {"out_double_mode": "flat"})
    assert points(flat)[0] == [100, -25]


def test_b6_club_out_with_00_adds_50() -> None:
    r = replay(C, [out(2, [30, 20, 0, 20], last="0-0")])
    # seed 001 rule 6 as seed 000's GS5: 20 + 20 + 50 = 90 (a flat 50 would be less than an ordinary finish)
    assert points(r) == [[90, 0]]
    assert points(replay(C, [out(2, [30, 20, 0, 20], last="0-0")], {"out_double_mode": "flat"})) == [[50, 0]]


# rule B5 vs GN7: a drawn duel replays the hand in the club; the blocker loses in the tournament
def test_b5_duel_tie_replays_in_club() -> None:
    r = replay(C, [block(1, [14, 14, 20, 17])])
    assert points(r) == [[0, 0]] and totals(r) == [[0, 0]]
    t = replay(T, [WARMUP, block(1, [14, 14, 20, 17])])
    assert points(t)[-1] == [102, 0]  # 2 x (14 + 20 + 17)


# rule B9: six doubles wins the current game (total set to the target); B8 once per match
def test_b9_six_doubles_wins_game_then_no_minimum_in_game_two() -> None:
    entries = [
        out(0, [0, 20, 0, 10]),  # 30 >= 25: side 0 30-0
        {"type": "six_doubles", "seat": 3},  # side 1: 0 -> 250 = target, wins game 1
        out(0, [0, 3, 0, 2]),  # game 2 from 0-0: side 0 has scored in the match, 5 counts (B8)
    ]
    r = replay(C, entries)
    assert r["games"][0]["totals"] == [30, 250] and r["games"][0]["winner"] == 1
    assert r["games"][1]["hands"][0]["points"] == [5, 0]
    assert r["games_won"] == [0, 1]


# rule B10, G11: a redeal scores nothing and stays on the sheet
def test_b10_redeal_on_the_sheet() -> None:
    r = replay(C, [REDEAL, out(0, [0, 20, 0, 10])])
    assert points(r) == [[0, 0], [30, 0]]


# ======================================================================================== contract shapes


def test_gaple_result_shape() -> None:
    r = replay(T, [WARMUP])
    assert {"games", "games_won", "winner", "finished"} <= set(r)
    g = r["games"][0]
    assert {"hands", "totals", "winner"} <= set(g)
    assert {"points", "totals"} <= set(g["hands"][0])


def test_preset_values_match_contract_table() -> None:
    # CONTRACTS.md §1, the parameter table, column by column
    t = load_ruleset(T).params
    assert (t.target, t.games_to_win, t.warmup, t.open_first_min, t.open_again_min, t.burn) == (
        250,
        2,
        True,
        25,
        10,
        True,
    )
    assert (t.caught_double, t.dead_00, t.dead_66, t.out_00, t.out_66, t.out_double_mode) == (
        "count",
        25,
        50,
        50,
        200,
        "plus",
    )
    assert (t.two_ends_mult, t.duel_loss_mult, t.duel_tie, t.allow_negative) == (2, 2, "blocker-loses", False)
    c = load_ruleset(C).params
    assert (c.target, c.games_to_win, c.warmup, c.open_first_min, c.open_again_min, c.burn) == (
        250,
        2,
        False,
        25,
        0,
        False,
    )
    assert (c.caught_double, c.dead_00, c.dead_66, c.out_00, c.out_66, c.out_double_mode) == (
        "fine",
        25,
        50,
        50,
        100,
        "plus",  # rule B6 (Reading, issue 29): 50 / 100 added to the normal count
    )
    assert (c.open_on, c.fine_in_block, t.open_on, t.fine_in_block) == ("won", True, "pure", False)  # B8, B6
    assert (c.two_ends_mult, c.duel_loss_mult, c.duel_tie, c.allow_negative) == (1, 2, "replay", True)
    b = load_ruleset(B).params
    assert (b.match_length, b.crawford) == (5, True)


def test_domino_es_takes_the_contract_parameters() -> None:
    # CONTRACTS.md §1: domino-es has target 100, games_to_win 1, warmup false, open_first_min 0,
    # open_again_min 0, burn false; params override "by name", so these names must be accepted
    d = load_ruleset(D).params
    assert (d.target, d.games_to_win, d.warmup, d.open_first_min, d.open_again_min, d.burn) == (
        100,
        1,
        False,
        0,
        0,
        False,
    )
    params = {"warmup": False, "open_first_min": 0, "open_again_min": 0, "burn": False}
    r = replay(D, [{"type": "domino", "seat": 1, "pips": [2, 0, 1, 1]}], params)
    assert points(r) == [[0, 4]]  # 2 + 0 + 1 + 1 = 4: no minimum, no warm-up (E18)
    # seed 002 has no burn: asking for one is refused by name, not silently ignored
    with pytest.raises(RulesetError) as exc:
        replay(D, [], {"burn": True})
    assert exc.value.key == "burn"


# ======================================================================================== domino-es, seed 002


def dom(seat: int, pips: list[int]) -> dict[str, object]:
    return {"type": "domino", "seat": seat, "pips": pips}


# rule E18: all remaining pips to the winner's pair; the last hand past the target keeps its real total
def test_e18_real_total_past_target() -> None:
    r = replay(D, [dom(1, [20, 0, 5, 3]), dom(0, [0, 40, 30, 20]), dom(2, [0, 10, 0, 15])])
    # 20 + 5 + 3 = 28 to side 1; 40 + 30 + 20 = 90 to side 0; 10 + 15 = 25 -> 90 + 25 = 115 (not 100)
    assert totals(r) == [[0, 28], [90, 28], [115, 28]]
    assert r["games"][0]["winner"] == 0 and r["winner"] == 0 and r["finished"] is True
    assert r["games_won"] == [1, 0]


# rule E18b, E7.3: blocked hand to the lighter pair; equal pair totals score nothing, the lead passes
def test_e18b_block_by_pair_totals_and_tie() -> None:
    r = replay(D, [{"type": "block", "pips": [10, 5, 10, 8]}, {"type": "block", "pips": [10, 6, 4, 8]}])
    # pairs 10 + 10 = 20 vs 5 + 8 = 13: pair 1 lighter, scores 10 + 5 + 10 + 8 = 33
    # pairs 10 + 4 = 14 vs 6 + 8 = 14: tie, 0
    assert points(r) == [[0, 33], [0, 0]]
    # E7.3: leader 0, then 1, then 2 leads next
    assert [h["leader"] for h in hands(r)] == [0, 1] and r["next_leader"] == 2


# rule E15, E16: an annulled hand scores nothing; the lead passes only with loss of the lead
def test_e15_e16_annulled_hands() -> None:
    entries = [{"type": "annulled", "lead_lost": False}, {"type": "annulled", "lead_lost": True}]
    r = replay(D, entries)
    assert points(r) == [[0, 0], [0, 0]]
    # seat 0 leads again after the first, then loses the lead: seat 1 leads next
    assert [h["leader"] for h in hands(r)] == [0, 0] and r["next_leader"] == 1


# rule E20: abandonment: the rivals get what they need to reach the total, the abandoning pair keeps its own
def test_e20_abandonment_points() -> None:
    entries = [dom(0, [0, 30, 0, 30]), dom(1, [15, 0, 15, 0]), {"type": "abandon", "side": 0}]
    r = replay(D, entries)
    # 60-0, 60-30; side 0 abandons: side 1 gets 100 - 30 = 70 -> 60-100, side 1 wins though it was behind
    assert points(r)[-1] == [0, 70]
    assert totals(r)[-1] == [60, 100]
    assert r["winner"] == 1 and r["finished"] is True
    with pytest.raises(EntryError) as exc:
        replay(D, [*entries, dom(0, [0, 1, 0, 1])])
    assert exc.value.index == 3 and exc.value.code == "match-finished"


# rule E7b: the pair that lost game 1 swaps seats for game 2
def test_e7b_loser_of_game_one_swaps() -> None:
    r = replay(D, [dom(1, [60, 0, 50, 0]), dom(0, [0, 1, 0, 1])], {"games_to_win": 2})
    # 110 to side 1: game 1 to side 1; side 0 (seats 0 and 2) lost it and swaps: seating 2,1,0,3
    assert r["games"][0]["winner"] == 1
    assert r["games"][1]["seating"] == [2, 1, 0, 3]


# ======================================================================================== tavla, seed 003


# rule T7a-T7c, T8a: Crawford exactly once, not in the game where the leader reaches length - 1;
# a backgammon overshoot is capped
def test_t7b_crawford_once_and_overshoot_capped() -> None:
    entries = [
        game(0, "gammon", cube=2),  # 2 x 2 = 4: 4-0 (reached in this game, which is not Crawford)
        game(1),  # Crawford game, cube 1 single: 4-1
        game(1, cube=2),  # post-Crawford, cube allowed: 4-3
        game(0, "backgammon", cube=2),  # 3 x 2 = 6: 10-3 on the sheet; 5-3 counts
    ]
    r = replay(B, entries)
    assert [g["crawford"] for g in r["games"]] == [False, True, False, False]
    assert [g["points"] for g in r["games"]] == [[4, 0], [0, 1], [0, 2], [6, 0]]
    assert r["games"][-1]["score"] == [10, 3]
    assert r["score"] == [5, 3] and r["winner"] == 0 and r["finished"] is True
    assert {"games", "score", "winner", "finished"} <= set(r)


def test_t7b_no_second_crawford_when_trailer_reaches_length_minus_one() -> None:
    entries = [
        game(1),  # 0-1
        game(0, "gammon", cube=2),  # 4-1: leader at length - 1
        game(1, "backgammon"),  # Crawford game: 3 x 1 = 3: 4-4
        game(0, cube=2),  # not Crawford again (exactly once): cube 2 allowed: 6-4, 5-4 counts
    ]
    r = replay(B, entries)
    assert [g["crawford"] for g in r["games"]] == [False, False, True, False]
    assert r["score"] == [5, 4] and r["winner"] == 0


def test_t7b_crawford_cube_refused_and_off_by_parameter() -> None:
    with pytest.raises(EntryError) as exc:
        replay(B, [game(0, "gammon", cube=2), game(1, cube=1, dropped=True)])
    assert exc.value.index == 1 and exc.value.code == "crawford-cube"
    r = replay(B, [game(0, "gammon", cube=2), game(1, cube=2)], {"crawford": False})
    assert r["score"] == [4, 2]  # no Crawford rule: 4-0 then 1 x 2 = 2


# rule T7a: a drop scores the cube before the double
def test_t7a_drop_scores_cube_before_double() -> None:
    r = replay(B, [game(1, cube=2, dropped=True)], {"match_length": 7})
    assert r["score"] == [0, 2]  # double 2 -> 4 refused: 2


# rule T9a, T8b, T9d: forfeits and the game-loss penalty
def test_t9a_t8b_t9d_forfeits_and_game_loss() -> None:
    base = [game(0, "gammon"), game(0), game(1, "gammon")]  # 2-0, 3-0, 3-2
    absent = replay(B, [*base, {"type": "forfeit", "winner": 1, "reason": "absent"}])
    assert absent["score"] == [0, 5]  # T9a: length-0
    time = replay(B, [*base, {"type": "forfeit", "winner": 1, "reason": "time"}])
    assert time["score"] == [3, 5]  # T8b: winner to 5, loser keeps 3
    pen = replay(B, [*base, {"type": "forfeit", "winner": 0, "reason": "penalty"}])
    assert pen["score"] == [5, 2]  # T9d match loss: 5, loser keeps 2
    loss = replay(B, [*base, {"type": "game_loss", "loser": 0}])
    assert loss["score"] == [3, 3]  # T9d game loss: one single game at cube 1 to player 1


# ======================================================================================== a referee's model
# An independent referee's reading of RULES.md A and B, written from the rules (not from the engine), to
# compare with the engine on random valid sheets. It covers the two presets only.


class _Referee:
    def __init__(self, club: bool) -> None:
        self.club = club
        self.t = [0, 0]
        self.scored = [False, False]  # GN4 / B8: a side has had a score count in this match
        self.warmup = not club  # G6: tournament only
        self.won = [0, 0]
        self.fresh = True  # the next entry starts a game

    def hand(self, e: dict[str, Any]) -> list[int] | None:
        """The game totals after entry ``e``; None when the match had already ended (must be refused)."""
        if max(self.won) >= 2:  # G4, B2: best of 3
            return None
        if self.fresh:
            self.t, self.fresh = [0, 0], False  # each game starts at 0-0
        kind = e["type"]
        if kind == "redeal":  # G11, G14, B9, B10
            return list(self.t)
        if kind == "penalty":  # G3 stops at 0 (seed 000); B7 may go below 0 (seed 001)
            s = e["side"]
            self.t[s] = self.t[s] - e["points"] if self.club else max(0, self.t[s] - e["points"])
            return list(self.t)
        if kind == "six_doubles":  # B9: that side's total becomes the target
            # the 250 is written on the sheet for that side: a first score of at least 25 (B8), so the
            # side opens without a minimum in the next game
            self.t[e["seat"] % 2] = 250
            self.scored[e["seat"] % 2] = True
            return self._end()
        fines = [0, 0]
        if kind == "out":
            seat, pips = e["seat"], e["pips"]
            side = seat % 2
            opps = {(seat + 1) % 4, (seat + 3) % 4}
            face = sum(pips[o] for o in opps)  # GN1
            d00, d66, last = e["dead"]["0-0"], e["dead"]["6-6"], e["last_tile"]
            if self.club:
                value = face + {"0-0": 50, "6-6": 100}.get(last, 0)  # B6 (Reading): added to the count
                if d00 is not None:
                    fines[d00 % 2] += 25  # B6: fined from the holder's side
                if d66 is not None:
                    fines[d66 % 2] += 50
                mult = 1
            else:
                value = face + (25 if d00 in opps else 0) + (38 if d66 in opps else 0)  # GS3, GS4
                value += {"0-0": 50, "6-6": 200}.get(last, 0)  # GS5, GS6, GS7
                mult = 2 if e["two_ends"] else 1  # GS1/GS2
        else:  # block
            seat, pips = e["seat"], e["pips"]
            duelled = (seat + 3) % 4  # G17, B5
            value = sum(pips) - pips[seat]  # GN2
            if pips[seat] < pips[duelled]:
                side, mult = seat % 2, 1
            elif pips[seat] == pips[duelled] and self.club:
                return list(self.t)  # B5: replayed
            else:
                side, mult = duelled % 2, 2  # GN2, GN7
            dead = e.get("dead") or {}
            if self.club:  # B6 (Reading): a caught double is fined in a blocked hand too (no GS8 in seed 001)
                if dead.get("0-0") is not None:
                    fines[dead["0-0"] % 2] += 25
                if dead.get("6-6") is not None:
                    fines[dead["6-6"] % 2] += 50
        if self.warmup:  # G7
            self.warmup = False
            return list(self.t)
        other = 1 - side
        if self.t[side] > 0:
            need = 0
        elif self.scored[side]:
            need = 0 if self.club else 10  # GN4 (B8: no reopening minimum)
        else:
            need = 25  # GN4, B8
        # GN5: tested on the pure value; B8 (Reading): on the points the hand gives, a lost duel's x2 included
        tested = value * mult if self.club else value
        gain = value * mult if tested >= need else 0
        if gain > 0:
            self.scored[side] = True
            before_self, before_other = self.t[side], self.t[other]
            self.t[side] += gain
            if not self.club and before_self <= before_other < self.t[side] and before_other > 0:
                self.t[other] = 0  # GN6
        for s in (0, 1):
            self.t[s] -= fines[s]
        return self._end()

    def _end(self) -> list[int]:
        totals = list(self.t)
        for s in (0, 1):
            if self.t[s] >= 250:  # GN3
                self.won[s] += 1
                self.fresh = True
        return totals


@st.composite
def _sheet(draw: st.DrawFn) -> tuple[bool, list[dict[str, object]]]:
    club = draw(st.booleans())
    entries: list[dict[str, object]] = []
    for _ in range(draw(st.integers(1, 40))):
        kind = draw(st.sampled_from(["out", "out", "out", "block", "redeal", "penalty", "six"]))
        seat = draw(st.integers(0, 3))
        pips = [draw(st.integers(0, 40)) for _ in range(4)]
        if kind == "out":
            pips[seat] = 0
            last = draw(st.sampled_from([None, None, "0-0", "6-6"]))
            others = [s for s in range(4) if s != seat]
            d00 = None if last == "0-0" else draw(st.sampled_from([None, *others]))
            d66 = None if last == "6-6" else draw(st.sampled_from([None, *others]))
            if d66 is not None:
                pips[d66] = max(pips[d66], 12)
            two = last is None and draw(st.booleans())
            entries.append(out(seat, pips, last, two, d00, d66))
        elif kind == "block":
            if draw(st.booleans()):
                pips[seat] = pips[(seat + 3) % 4]  # a drawn duel now and then
            entry = block(seat, pips)
            d00 = draw(st.sampled_from([None, None, 0, 1, 2, 3]))
            d66 = draw(st.sampled_from([None, None, 0, 1, 2, 3]))
            if d00 is not None or d66 is not None:  # B6: who holds a caught double in the blocked hand
                if d66 is not None:
                    pips[d66] = max(pips[d66], 12)  # the entry holds this list: its pips follow
                entry["dead"] = {"0-0": d00, "6-6": d66}
            entries.append(entry)
        elif kind == "redeal":
            entries.append(REDEAL)
        elif kind == "penalty":
            entries.append(penalty(seat % 2, draw(st.integers(0, 40))))
        elif club:
            entries.append({"type": "six_doubles", "seat": seat})
    return club, entries


@settings(max_examples=200, deadline=None)
@given(_sheet())
def test_engine_agrees_with_referee_model(sheet: tuple[bool, list[dict[str, object]]]) -> None:
    club, entries = sheet
    ref = _Referee(club)
    expected: list[list[int]] = []
    stop: int | None = None
    for i, e in enumerate(entries):
        after = ref.hand(e)
        if after is None:
            stop = i
            break
        expected.append(after)
    if stop is not None:
        with pytest.raises(EntryError) as exc:
            replay(C if club else T, entries)
        assert exc.value.index == stop and exc.value.code == "match-finished"
        entries = entries[:stop]
    r = replay(C if club else T, entries)
    assert totals(r) == expected
    assert r["games_won"] == ref.won
    assert r["finished"] == (max(ref.won) >= 2)


# CONTRACTS.md §1: an impossible entry raises EntryError and changes nothing
def test_refused_entry_changes_nothing() -> None:
    match = GapleMatch(load_ruleset(T).params)
    for e in (WARMUP, out(0, [0, 20, 0, 10])):
        match.apply_raw(e)
    before = match.state()
    # a dead 6-6 with a holder showing 8 pips (6-6 alone is 12) is impossible
    with pytest.raises(EntryError) as exc:
        match.apply_raw(out(0, [0, 8, 0, 10], d66=1))
    assert exc.value.index == 2 and exc.value.code == "dead-66-pips"
    assert match.state() == before  # still 30-0 after two hands
    match.apply_raw(out(1, [20, 0, 10, 0]))  # the next good entry is entry 2: side 1 opens with 30
    assert match.state().games[0].totals == (30, 30)
    sheet = Sheet.open(B, [game(0, "gammon", cube=2)])  # 4-0: the next game is the Crawford game
    with pytest.raises(EntryError) as exc:
        sheet.append(game(1, cube=2))
    assert exc.value.code == "crawford-cube"
    assert sheet.result["score"] == [4, 0] and len(sheet.entries) == 1


# rule T7a-T7c, T8a and REFERENCES "Backgammon match scoring": a referee's model of a match on random games
@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 9),
    st.lists(
        st.tuples(
            st.integers(0, 1),
            st.sampled_from(["single", "gammon", "backgammon"]),
            st.integers(0, 3),
            st.booleans(),
        ),
        min_size=1,
        max_size=25,
    ),
)
def test_tavla_agrees_with_referee_model(length: int, games: list[tuple[int, str, int, bool]]) -> None:
    score, crawford_done, entries, flags = [0, 0], False, [], []
    for winner, kind, log_cube, drop in games:
        if max(score) >= length:
            break
        # the first game after a player reaches length - 1, once only, has no cube
        crawford = not crawford_done and length > 1 and max(score) == length - 1
        crawford_done = crawford_done or crawford
        cube = 1 if crawford else 2**log_cube
        dropped = drop and not crawford and kind == "single"
        # a drop scores the cube before the double; else cube x 1 / 2 / 3
        score[winner] += cube if dropped else cube * {"single": 1, "gammon": 2, "backgammon": 3}[kind]
        entries.append(game(winner, kind, cube, dropped))
        flags.append(crawford)
    r = replay(B, entries, {"match_length": length})
    assert [g["crawford"] for g in r["games"]] == flags
    assert r["games"][-1]["score"] == score  # the sheet keeps the real total
    assert r["score"] == [min(s, length) for s in score]  # points beyond the length count for nothing
    assert r["finished"] == (max(score) >= length)
    assert r["winner"] == (next(s for s in (0, 1) if score[s] >= length) if r["finished"] else None)
