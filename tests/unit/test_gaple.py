"""Gaple scoring, worked by hand from RULES.md sections A and B (one example at least per rule ID).

Seats 0–3 in playing order; side 0 = seats 0 and 2, side 1 = seats 1 and 3 (CONTRACTS.md §1).
"""

from __future__ import annotations

from typing import Any

import pytest

from clubdesk.games import EntryError, replay
from clubdesk.games.gaple import GapleMatch, score_match
from clubdesk.games.gaple_entries import Out
from clubdesk.games.ruleset import load_ruleset
from clubdesk.games.sheet import Sheet

T = "gaple-tournament"
C = "gaple-club"


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


REDEAL: dict[str, object] = {"type": "redeal"}
WARMUP = out(0, [0, 10, 10, 10])  # the tournament's first hand: scores nothing (G6, G7)


def penalty(side: int, points: int) -> dict[str, object]:
    return {"type": "penalty", "side": side, "points": points}


def hands(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [h for g in result["games"] for h in g["hands"]]


def last(result: dict[str, Any]) -> dict[str, Any]:
    return hands(result)[-1]


# ------------------------------------------------------------------------------------------ going out


def test_gn1_going_out_scores_both_opponents_not_partner() -> None:
    # rule GN1: seat 1 goes out; opponents are seats 0 and 2: 20 + 15 = 35; partner seat 3's 30 not counted
    r = replay(T, [WARMUP, out(1, [20, 0, 15, 30])])
    assert last(r)["points"] == [0, 35]
    assert last(r)["totals"] == [0, 35]


def test_gs1_two_ends_doubles_the_whole_value_special_included() -> None:
    # rule GS1/GS2 + GS4: opponents 25 + 12 = 37, dead 6-6 at seat 3: 37 - 12 + 50 = 75; two ends x2 = 150
    r = replay(T, [WARMUP, out(0, [0, 25, 0, 12], two_ends=True, d66=3)])
    assert last(r)["points"] == [150, 0]
    assert last(r)["explanation"] == (
        "opponents 37 + 6-6 dead (50 instead of 12) = 75; two ends ×2 = 150; opens (≥ 25)"
    )


def test_gs1_two_ends_has_no_effect_in_club() -> None:
    # gaple-club: two_ends_mult 1: 30 stays 30
    r = replay(C, [out(0, [0, 15, 0, 15], two_ends=True)])
    assert last(r)["points"] == [30, 0]


def test_gs3_dead_00_in_opponent_hand_is_worth_25() -> None:
    # rule GS3: seat 2 out; opponents 10 + 8 = 18; dead 0-0 at seat 1 counts 25: 18 + 25 = 43
    r = replay(T, [WARMUP, out(2, [0, 10, 0, 8], d00=1)])
    assert last(r)["points"] == [43, 0]


def test_gs3_dead_00_in_partner_hand_counts_nothing() -> None:
    # rule GS3 / GN1: the partner's hand does not count: 18 pure, 43 would open but 18 < 25 does not
    r = replay(T, [WARMUP, out(2, [5, 10, 0, 8], d00=0)])
    assert last(r)["points"] == [0, 0]
    assert last(r)["explanation"].endswith("18 < 25: does not open")


def test_gs4_dead_66_is_worth_50_instead_of_12() -> None:
    # rule GS4: seat 1 out; opponents 20 + 5 = 25 with the 6-6 at seat 0: 25 - 12 + 50 = 63
    r = replay(T, [WARMUP, out(1, [20, 0, 5, 3], d66=0)])
    assert last(r)["points"] == [0, 63]


def test_gs5_out_with_00_adds_50() -> None:
    # rule GS5/GS7: opponents 10 + 20 = 30; last tile 0-0: 30 + 50 = 80
    r = replay(T, [WARMUP, out(0, [0, 10, 4, 20], last="0-0")])
    assert last(r)["points"] == [80, 0]


def test_gs6_out_with_66_adds_200() -> None:
    # rule GS6/GS7: opponents 30; last tile 6-6: 30 + 200 = 230
    r = replay(T, [WARMUP, out(0, [0, 10, 4, 20], last="6-6")])
    assert last(r)["points"] == [230, 0]


def test_b6_out_with_double_adds_to_the_count_in_club() -> None:
    # rule B6 (Reading, out_double_mode = plus): going out with 6-6 adds 100 to the count (30 + 100),
    # with 0-0 adds 50 (30 + 50)
    r = replay(C, [out(0, [0, 10, 4, 20], last="6-6"), out(1, [10, 0, 20, 0], last="0-0")])
    assert [h["points"] for h in hands(r)] == [[130, 0], [0, 80]]


def test_b6_flat_mode_is_still_a_setting() -> None:
    # rule B6: out_double_mode = flat (the reading before issue 29, kept in old events) is worth exactly that
    r = replay(
        C,
        [out(0, [0, 10, 4, 20], last="6-6"), out(1, [10, 0, 20, 0], last="0-0")],
        {"out_double_mode": "flat"},
    )
    assert [h["points"] for h in hands(r)] == [[100, 0], [0, 50]]


def test_seed_001_rule_6_out_with_00_and_40_left_is_90() -> None:
    # rule B6 / seed 001 rule 6: the opponents hold 40 pips; going out with 0-0 gives 40 + 50 = 90
    r = replay(C, [out(0, [0, 25, 0, 15], last="0-0")])
    h = last(r)
    assert h["points"] == [90, 0]
    assert "+50" in h["explanation"] and "= 90" in h["explanation"]


def test_seed_001_rule_6_out_with_66_and_35_left_is_135() -> None:
    # rule B6 / seed 001 rule 6: 35 left, out with 6-6: 35 + 100 = 135
    r = replay(C, [out(1, [20, 0, 15, 0], last="6-6")])
    assert last(r)["points"] == [0, 135]
    assert "+100" in last(r)["explanation"]


def test_out_with_00_is_never_worth_less_than_an_ordinary_finish() -> None:
    # rule B6 (Reading): with 80 left, 0-0 as last tile gives 130, more than the 80 of any other tile
    with_00 = replay(C, [out(0, [0, 40, 0, 40], last="0-0")])
    plain = replay(C, [out(0, [0, 40, 0, 40])])
    assert last(with_00)["points"][0] == 130 > last(plain)["points"][0] == 80


def test_seed_001_rule_8_lost_duel_of_15_opens_with_30() -> None:
    # rule B8 (open_on = won): seat 1 blocks with 10 pips against seat 0's 5: the blocker loses; the count
    # (all hands but the blocker's) is 5 + 4 + 6 = 15, x2 = 30 to side 0, which is at least 25: it opens
    r = replay(C, [block(1, [5, 10, 4, 6])])
    h = last(r)
    assert h["points"] == [30, 0]
    assert h["opened"] is True
    assert "30 won ≥ 25" in h["explanation"]


def test_lost_duel_of_15_does_not_open_under_the_pure_reading() -> None:
    # rule GN4 (open_on = pure, seed 000): the same hand's pure value 15 < 25 scores nothing
    r = replay(C, [block(1, [5, 10, 4, 6])], {"open_on": "pure"})
    assert last(r)["points"] == [0, 0]
    assert last(r)["opened"] is False


def test_b8_won_points_below_25_still_do_not_open() -> None:
    # rule B8: a won duel of 20 (x1) is below 25: no score; the next hand of 26 opens
    r = replay(C, [block(1, [5, 2, 4, 11]), out(0, [0, 20, 0, 6])])
    assert [h["points"] for h in hands(r)] == [[0, 0], [26, 0]]


def test_seed_001_rule_6_caught_66_in_a_blocked_hand_is_fined() -> None:
    # rule B6 (fine_in_block): seat 1 blocks, 10 vs seat 0's 20: blocker wins, count 20 + 12 + 14 = 46
    # to side 1; seat 2 holds the caught 6-6: side 0 is fined 50 (to -50, B7)
    entry = {"type": "block", "seat": 1, "pips": [20, 10, 12, 14], "dead": {"0-0": None, "6-6": 2}}
    r = replay(C, [entry])
    h = last(r)
    assert h["points"] == [-50, 46]
    assert h["fined"] == [50, 0]
    assert "fined 50" in h["explanation"]


def test_caught_double_in_a_blocked_hand_is_not_fined_when_off() -> None:
    # rule B6 with fine_in_block = false (the reading before issue 29): no fine in a blocked hand
    entry = {"type": "block", "seat": 1, "pips": [20, 10, 12, 14], "dead": {"0-0": None, "6-6": 2}}
    r = replay(C, [entry], {"fine_in_block": False})
    assert last(r)["points"] == [0, 46]


def test_tournament_blocked_hand_ignores_dead_doubles() -> None:
    # rule GS8: in seed 000 a blocked hand counts dead doubles at their face value: "dead" changes nothing
    entry = {"type": "block", "seat": 2, "pips": [16, 9, 5, 12], "dead": {"0-0": None, "6-6": 3}}
    assert (
        last(replay(T, [WARMUP, entry]))["points"]
        == last(replay(T, [WARMUP, block(2, [16, 9, 5, 12])]))["points"]
    )


def test_block_dead_66_needs_12_pips() -> None:
    # rule B6: a caught 6-6 is 12 pips of its holder's hand
    entry = {"type": "block", "seat": 1, "pips": [20, 10, 5, 14], "dead": {"0-0": None, "6-6": 2}}
    with pytest.raises(EntryError) as info:
        replay(C, [entry])
    assert info.value.code == "dead-66-pips"


def test_b3_every_hand_flags_00_and_66_leads() -> None:
    # rule B3: the hint stands before every hand of the club preset, not only the first
    m = GapleMatch(load_ruleset(C).params)
    assert m.state().next is not None and m.state().next.barred_leads == ("0-0", "6-6")
    m.apply_raw(out(0, [0, 10, 0, 10]))
    m.apply_raw(block(1, [5, 10, 4, 6]))
    nxt = m.state().next
    assert nxt is not None and nxt.barred_leads == ("0-0", "6-6")
    t = GapleMatch(load_ruleset(T).params)
    assert t.state().next is not None and t.state().next.barred_leads == ()


def test_b6_caught_double_is_fined_from_holder_side() -> None:
    # rule B6: seat 0 out; count at face: 30 + 12 = 42 for side 0; the 6-6 caught at seat 3 fines side 1 50:
    # side 1 goes to 0 - 50 = -50 (negative allowed, B7)
    r = replay(C, [out(0, [0, 30, 0, 12], d66=3)])
    assert last(r)["points"] == [42, -50]
    assert last(r)["totals"] == [42, -50]


def test_b6_caught_00_in_partner_hand_fines_own_side() -> None:
    # rule B6: the side *holding* the caught 0-0 is fined 25, even the side that went out: 40 - 25 = 15
    r = replay(C, [out(0, [0, 20, 3, 20], d00=2)])
    assert last(r)["points"] == [15, 0]
    assert last(r)["totals"] == [15, 0]


# ------------------------------------------------------------------------------------------ blocks


def test_gn2_blocker_wins_duel_scores_count() -> None:
    # rule GN2: seat 2 blocks, duels seat 1: 5 < 9 -> blocker wins; count all but seat 2: 16 + 9 + 12 = 37
    r = replay(T, [WARMUP, block(2, [16, 9, 5, 12])])
    assert last(r)["points"] == [37, 0]


def test_gn2_blocker_loses_duel_pays_double() -> None:
    # rule GN2: seat 2 (5) vs seat 1 (4): blocker loses; count 16 + 4 + 12 = 32, side 1 gets 2 x 32 = 64
    r = replay(T, [WARMUP, block(2, [16, 4, 5, 12])])
    assert last(r)["points"] == [0, 64]


def test_g17_duel_is_against_the_previous_seat() -> None:
    # rule G17: seat 0 blocks; duelled is seat 3 (12), not seat 1 (2): 10 < 12 -> blocker wins;
    # count 2 + 30 + 12 = 44 to side 0
    r = replay(T, [WARMUP, block(0, [10, 2, 30, 12])])
    assert last(r)["points"] == [44, 0]


@pytest.mark.parametrize("blocker", [0, 1, 2, 3])
def test_g5_seats_are_numbered_in_counter_clockwise_playing_order(blocker: int) -> None:
    # rule G5: play goes counter-clockwise and the seats are numbered in playing order, so seat k+1 plays
    # right after seat k and seat 0 right after seat 3. The block duel (G17) goes to the player before the
    # blocker: seat (k + 3) % 4. Blocker 10, the seat before him 12 (blocker wins), the seat after him 5
    # (blocker would lose), his partner 20. Count = 12 + 5 + 20 = 37 >= 25 (GN4), all to the blocker's side.
    pips = [0, 0, 0, 0]
    pips[blocker] = 10
    pips[(blocker + 3) % 4] = 12
    pips[(blocker + 1) % 4] = 5
    pips[(blocker + 2) % 4] = 20
    r = replay(T, [WARMUP, block(blocker, pips)])
    assert last(r)["points"] == ([37, 0] if blocker % 2 == 0 else [0, 37])


def test_gn7_tied_duel_blocker_loses() -> None:
    # rule GN7: seat 1 (14) vs seat 0 (14): tie -> blocker loses; 14 + 20 + 27 = 61; 2 x 61 = 122 to side 0
    r = replay(T, [WARMUP, block(1, [14, 14, 20, 27])])
    assert last(r)["points"] == [122, 0]
    assert "tie → blocker loses; 2 × 61 = 122" in last(r)["explanation"]


def test_b5_tied_duel_replays_in_club() -> None:
    # rule B5: a drawn duel replays the hand: nothing scored, the entry stays on the sheet
    r = replay(C, [block(1, [14, 14, 20, 27])])
    assert last(r)["points"] == [0, 0]
    assert last(r)["kind"] == "replay"


def test_b5_lost_duel_doubles_in_club() -> None:
    # rule B5: seat 1 (20) vs seat 0 (14): blocker loses; count 14 + 20 + 27 = 61; x2 = 122 to side 0
    r = replay(C, [block(1, [14, 20, 20, 27])])
    assert last(r)["points"] == [122, 0]


def test_gs8_block_counts_doubles_at_face_value() -> None:
    # rule GS8: in a block the dead 6-6 is 12 pips, not 50: seat 2 (3) vs seat 1 (12) wins;
    # count 12 + 12 + 20 = 44 (a "dead" mark on a block changes nothing)
    entry = {**block(2, [12, 12, 3, 20]), "dead": {"0-0": None, "6-6": 1}}
    r = replay(T, [WARMUP, entry])
    assert last(r)["points"] == [44, 0]


# ------------------------------------------------------------------------------------------ opening


def test_gn4_first_score_needs_25_pure() -> None:
    # rule GN4: 21 < 25 does not open; 24 does not; 25 does
    r = replay(T, [WARMUP, out(0, [0, 10, 0, 11]), out(0, [0, 12, 0, 12]), out(0, [0, 12, 0, 13])])
    assert [h["points"] for h in hands(r)[1:]] == [[0, 0], [0, 0], [25, 0]]
    assert hands(r)[1]["explanation"] == "opponents 21; 21 < 25: does not open"


def test_gn4_gn6_after_a_burn_10_opens_again() -> None:
    # side 0: 30 (opens); side 1: 40 (opens, overtakes 30 -> side 0 burned to 0, GN6)
    # side 0 then needs 10 pure (GN4): 9 does not count, 10 does
    entries = [
        WARMUP,
        out(0, [0, 15, 0, 15]),
        out(1, [20, 0, 20, 0]),
        out(0, [0, 4, 0, 5]),
        out(0, [0, 5, 0, 5]),
    ]
    r = replay(T, entries)
    assert [h["totals"] for h in hands(r)[1:]] == [[30, 0], [0, 40], [0, 40], [10, 40]]
    assert hands(r)[3]["explanation"].endswith("9 < 10: does not open")


def test_gn4_later_game_needs_10_if_scored_else_25() -> None:
    # target 50: side 0 wins game 1 with 50; in game 2 side 1 (never scored) needs 25: 20 does not open,
    # side 0 (has scored) needs 10: 12 opens
    entries = [WARMUP, out(0, [0, 25, 0, 25]), out(1, [10, 0, 10, 0]), out(0, [0, 6, 0, 6])]
    r = replay(T, entries, {"target": 50})
    assert r["games"][0]["winner"] == 0
    assert [h["points"] for h in r["games"][1]["hands"]] == [[0, 0], [12, 0]]


def test_gn5_first_hand_under_25_is_not_doubled() -> None:
    # rule GN5: two ends with 20 pure: 20 < 25 -> 0 (not 40); 25 pure two ends -> 50
    r = replay(T, [WARMUP, out(0, [0, 10, 0, 10], two_ends=True), out(0, [0, 12, 0, 13], two_ends=True)])
    assert [h["points"] for h in hands(r)[1:]] == [[0, 0], [50, 0]]


def test_gn5_lost_duel_tested_on_pure_count() -> None:
    # rule GN5: seat 2 (6) vs seat 1 (5): lost; count 8 + 5 + 7 = 20 pure < 25: side 1 gets 0, not 40
    r = replay(T, [WARMUP, block(2, [8, 5, 6, 7])])
    assert last(r)["points"] == [0, 0]


def test_b8_club_first_score_25_then_no_minimum() -> None:
    # rule B8: 20 does not open; 30 opens; a penalty of 40 takes side 0 to -10 (B7);
    # at -10 it needs no minimum: 6 counts -> -4
    entries = [out(0, [0, 10, 0, 10]), out(0, [0, 15, 0, 15]), penalty(0, 40), out(0, [0, 3, 0, 3])]
    r = replay(C, entries)
    assert [h["totals"] for h in hands(r)] == [[0, 0], [30, 0], [-10, 0], [-4, 0]]


# ------------------------------------------------------------------------------------------ burn


def test_gn6_level_then_overtaken_is_burned() -> None:
    # rule GN6: 40-40, then side 0 +15 -> 55 > 40: side 1 burned to 0
    entries = [WARMUP, out(0, [0, 20, 0, 20]), out(1, [20, 0, 20, 0]), out(0, [0, 7, 0, 8])]
    r = replay(T, entries)
    assert [h["totals"] for h in hands(r)[1:]] == [[40, 0], [40, 40], [55, 0]]
    assert last(r)["points"] == [15, 0]  # the burn is in the totals, not in the points
    assert last(r)["burned"] == 1
    # sides are numbered 1-2 in words, as on the sheet: side 0 (seats 1, 3) is "side 1"
    assert "side 1 overtakes: side 2 burned to 0" in last(r)["explanation"]


def test_gn6_no_burn_when_scorer_was_already_ahead() -> None:
    # 40-0; side 1 +30 -> 40-30 (no overtaking); side 0 +10 -> 50-30: side 0 was ahead, no burn
    entries = [WARMUP, out(0, [0, 20, 0, 20]), out(1, [15, 0, 15, 0]), out(0, [0, 5, 0, 5])]
    r = replay(T, entries)
    assert last(r)["totals"] == [50, 30]


def test_gn6_no_burn_in_club() -> None:
    # rule B8: seat 001 has no burn: 40-40 then +15 -> 55-40
    entries = [out(0, [0, 20, 0, 20]), out(1, [20, 0, 20, 0]), out(0, [0, 7, 0, 8])]
    assert last(replay(C, entries))["totals"] == [55, 40]


# ------------------------------------------------------------------------------------------ games, match


def test_gn3_game_is_won_on_reaching_250() -> None:
    # rule GN3: 120 + 120 = 240, then +9 = 249 (not yet), then +10 = 259 -> game won
    entries = [WARMUP, out(0, [0, 60, 0, 60]), out(0, [0, 60, 0, 60]), out(0, [0, 4, 0, 5])]
    r = replay(T, entries)
    assert r["games"][0]["totals"] == [249, 0]
    assert r["games"][0]["winner"] is None
    r = replay(T, [*entries, out(0, [0, 5, 0, 5])])
    assert r["games"][0]["totals"] == [259, 0]
    assert r["games"][0]["winner"] == 0
    assert r["games_won"] == [1, 0]
    assert not r["finished"]


def test_g4_b2_match_is_two_games_and_next_game_starts_at_zero() -> None:
    # target 100 in club: game 1: 60, 60 (60-60), side 0 +60 = 120 wins; game 2 starts 0-0: +60, +60 = 120
    entries = [out(0, [0, 30, 0, 30]), out(1, [30, 0, 30, 0]), out(0, [0, 30, 0, 30])]
    entries += [out(0, [0, 30, 0, 30]), out(0, [0, 30, 0, 30])]
    r = replay(C, entries, {"target": 100})
    assert [g["totals"] for g in r["games"]] == [[120, 60], [120, 0]]
    assert r["games"][1]["hands"][0]["totals"] == [60, 0]
    assert r["games_won"] == [2, 0]
    assert r["winner"] == 0
    assert r["finished"] is True


def test_b9_six_doubles_wins_the_game_in_club() -> None:
    # rule B9: 30-0, six doubles for seat 2 (side 0): its total becomes the target 250 (+220)
    r = replay(C, [out(0, [0, 15, 0, 15]), {"type": "six_doubles", "seat": 2}])
    assert last(r)["points"] == [220, 0]
    assert r["games"][0]["winner"] == 0


def test_b9_six_doubles_is_refused_in_tournament() -> None:
    with pytest.raises(EntryError) as info:
        replay(T, [WARMUP, {"type": "six_doubles", "seat": 2}])
    assert (info.value.index, info.value.code) == (1, "not-in-ruleset")


def test_g6_g7_warmup_scores_nothing_and_redeal_does_not_count_as_it() -> None:
    # rules G6, G7, G11: a redeal first; then the warm-up (60 scores nothing); then 60 counts
    r = replay(T, [REDEAL, out(0, [0, 30, 0, 30]), out(0, [0, 30, 0, 30])])
    assert [h["totals"] for h in hands(r)] == [[0, 0], [0, 0], [60, 0]]
    assert hands(r)[1]["warmup"] is True
    # gaple-club has no warm-up: the first hand counts
    assert last(replay(C, [out(0, [0, 30, 0, 30])]))["totals"] == [60, 0]


def test_g11_g14_b10_redeal_scores_nothing_but_stays_on_sheet() -> None:
    # rules G11, G14, B9 (five doubles), B10: a redeal scores 0-0 and keeps its line on the sheet
    r = replay(C, [out(0, [0, 30, 0, 30]), REDEAL, REDEAL])
    assert len(hands(r)) == 3
    assert [h["points"] for h in hands(r)[1:]] == [[0, 0], [0, 0]]
    assert last(r)["totals"] == [60, 0]


def test_g3_deduction_stops_at_zero_in_tournament() -> None:
    # rule G3: 30 - 50 stops at 0 (points -30); side 1 at 0 loses nothing
    r = replay(T, [WARMUP, out(0, [0, 15, 0, 15]), penalty(0, 50), penalty(1, 10)])
    assert [h["points"] for h in hands(r)[2:]] == [[-30, 0], [0, 0]]
    assert last(r)["totals"] == [0, 0]


def test_b7_fine_takes_a_pair_below_zero_in_club() -> None:
    # rule B7: a pair at 0 fined 20 goes to -20
    r = replay(C, [penalty(1, 20)])
    assert last(r)["points"] == [0, -20]
    assert last(r)["totals"] == [0, -20]


# ------------------------------------------------------------------------------------------ what's next


def test_g6_match_opens_with_00_and_warmup() -> None:
    nxt = replay(T, [])["next"]
    assert nxt["opening_tile"] == "0-0"
    assert nxt["warmup"] is True


def test_g9_b4_who_went_out_leads_next() -> None:
    # rules G9 / B4
    assert replay(T, [WARMUP, out(3, [10, 10, 10, 0])])["next"]["leader"] == 3
    assert replay(C, [out(1, [10, 0, 10, 10])])["next"]["leader"] == 1
    # G6: the warm-up's winner leads the next hand
    assert replay(T, [out(2, [10, 10, 0, 10])])["next"]["leader"] == 2


def test_g8_after_a_block_the_block_tile_leads() -> None:
    nxt = replay(T, [WARMUP, block(2, [16, 9, 5, 12])])["next"]
    assert (nxt["leader"], nxt["leader_rule"]) == (None, "G8")


def test_g10_g19_games_score_opens_next_game_and_seats_change() -> None:
    # rule G10: target 50: side 0 wins game 1 -> next opens with 1-0; side 1 wins game 2 -> 1-1;
    # rule G19: opponents change seats after each game
    entries = [WARMUP, out(0, [0, 25, 0, 25])]
    nxt = replay(T, entries, {"target": 50})["next"]
    assert (nxt["opening_tile"], nxt["seat_change"], nxt["game"]) == ("1-0", True, 1)
    entries.append(out(1, [25, 0, 25, 0]))
    nxt = replay(T, entries, {"target": 50})["next"]
    assert (nxt["opening_tile"], nxt["seat_change"]) == ("1-1", True)
    entries.append(out(1, [5, 0, 5, 0]))  # game 3 under way: no seat change pending
    assert replay(T, entries, {"target": 50})["next"]["seat_change"] is False


# ------------------------------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("entry", "code"),
    [
        (out(0, [0, 70, 0, 10]), "pips-out-of-range"),  # 7 tiles hold at most 69
        (out(0, [0, 60, 50, 60]), "pips-out-of-range"),  # 170 > 168
        (out(0, [0, -1, 0, 10]), "pips-out-of-range"),
        (out(0, [3, 10, 0, 10]), "pips-with-player-out"),
        (out(0, [0, 11, 0, 10], d66=1), "dead-66-pips"),
        (out(0, [0, 12, 0, 10], d00=0), "dead-double-out-player"),
        (out(0, [0, 12, 0, 10], last="6-6", two_ends=True), "two-ends-double"),
        (out(0, [0, 12, 0, 10], last="0-0", d00=1), "dead-double-played"),
        (out(4, [0, 12, 0, 10]), "unknown-seat"),
        (block(-1, [1, 2, 3, 4]), "unknown-seat"),
        ({"type": "block", "pips": [1, 2, 3, 4]}, "unknown-seat"),
        (penalty(2, 10), "unknown-side"),
        ({"type": "domino", "seat": 0, "pips": [0, 1, 2, 3]}, "unknown-type"),
        ({"type": "pass"}, "unknown-type"),
        (out(0, [0, 12, 0]), "bad-pips"),
        (penalty(0, -5), "bad-points"),
    ],
)
def test_impossible_entry_is_refused_with_index_and_code(entry: dict[str, object], code: str) -> None:
    good = [WARMUP, out(0, [0, 15, 0, 15])]
    with pytest.raises(EntryError) as info:
        replay(T, [*good, entry])
    assert info.value.index == 2
    assert info.value.code == code
    # nothing before it changes
    assert last(replay(T, good))["totals"] == [30, 0]


def test_entry_after_match_end_is_refused() -> None:
    entries = [out(0, [0, 30, 0, 30]), out(0, [0, 30, 0, 30])]  # target 50: 60, 60 -> 2 games
    with pytest.raises(EntryError) as info:
        replay(C, [*entries, REDEAL], {"target": 50})
    assert (info.value.index, info.value.code) == (2, "match-finished")


def test_refused_entry_leaves_the_match_as_it_was() -> None:
    match = GapleMatch(load_ruleset(C).params)
    match.apply_raw(out(0, [0, 15, 0, 15]))
    before = match.state()
    with pytest.raises(EntryError):
        match.apply_raw(out(1, [10, 0, 10, 70]))
    assert match.state() == before


# ------------------------------------------------------------------------------------------ sheet editing


def _club_match() -> list[dict[str, object]]:
    # club, target 100: [60,0] [60,60] [120,60] game 1; [60,0] [120,0] game 2 -> match 2-0
    return [
        out(0, [0, 30, 0, 30]),
        out(1, [30, 0, 30, 0]),
        out(0, [0, 30, 0, 30]),
        out(0, [0, 30, 0, 30]),
        out(0, [0, 30, 0, 30]),
    ]


def test_sheet_replace_recomputes_later_entries() -> None:
    sheet = Sheet.open(C, _club_match()[:3], {"target": 100})
    # correct hand 0: 60 -> 20 + 20 = 40: totals [40,0] [40,60] [100,60] -> game still won at hand 2
    fixed = sheet.replace(0, out(0, [0, 20, 0, 20]))
    assert [h["totals"] for h in fixed.hands] == [[40, 0], [40, 60], [100, 60]]
    assert [h["totals"] for h in sheet.hands] == [[60, 0], [60, 60], [120, 60]]  # the old sheet is untouched


def test_sheet_correction_that_ends_match_earlier_names_the_later_entry() -> None:
    sheet = Sheet.open(C, _club_match(), {"target": 100})
    assert sheet.result["finished"] is True
    # hand 1 really went to side 0: 120 ends game 1 at hand 1; game 2: 60, 120 ends the match at hand 3;
    # hand 4 now comes after the end of the match
    with pytest.raises(EntryError) as info:
        sheet.replace(1, out(0, [0, 30, 0, 30]))
    assert (info.value.index, info.value.code) == (4, "match-finished")
    assert sheet.result["finished"] is True  # refused: the sheet is as it was


def test_sheet_delete_and_append() -> None:
    sheet = Sheet.open(C, _club_match()[:2], {"target": 100})
    shorter = sheet.delete(0)  # only side 1's 60 remains
    assert [h["totals"] for h in shorter.hands] == [[0, 60]]
    longer = shorter.append(REDEAL)
    assert len(longer.hands) == 2
    with pytest.raises(EntryError) as info:
        sheet.delete(5)
    assert info.value.code == "no-such-entry"


def test_typed_entries_are_validated_too() -> None:
    match = GapleMatch(load_ruleset(C).params)
    with pytest.raises(EntryError) as info:
        match.apply(Out(0, (5, 15, 0, 15)))  # rule GN1: the player who went out holds nothing
    assert info.value.code == "pips-with-player-out"


def test_typed_api_matches_replay() -> None:
    # the same hand through the typed API: GS1 two ends 30 x 2 = 60
    state = score_match([Out(0, (0, 15, 0, 15), two_ends=True)], load_ruleset(C, {"two_ends_mult": 2}).params)
    assert state.games[0].hands[0].points == (60, 0)


def test_explanations_use_seat_names() -> None:
    match = GapleMatch(load_ruleset(T).params, seat_names=["Budi", "Ali", "Sari", "Dewi"])
    match.apply_raw(WARMUP)
    hand = match.apply_raw(block(1, [14, 14, 20, 27]))
    # side 0's first score: 61 pure >= 25 opens (GN4)
    assert hand.explanation == (
        "block: Ali 14 vs Budi 14, tie → blocker loses; 2 × 61 = 122 to Budi and Sari; opens (≥ 25)"
    )


# ------------------------------------------------------------------------------ seats in words, from 1


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        # entry seat 1 = the sheet's seat 2; 70 > 69 pips (the most 7 tiles hold)
        (out(0, [0, 70, 0, 10]), "seat 2 shows 70 pips; a hand holds 0 to 69"),
        # entry seat 0 went out = seat 1 on the sheet
        (out(0, [3, 10, 0, 10]), "seat 1 went out but shows 3 pips"),
        # dead 6-6 held by entry seat 3 = seat 4, which shows 11 < 12 pips
        (out(0, [0, 10, 0, 11], d66=3), "seat 4 holds a dead 6-6 but shows only 11 pips"),
        (out(2, [10, 12, 0, 10], d00=2), "seat 3 went out, so cannot hold a dead 0-0"),
        # an entry's out-of-range seat value is echoed as given, with the 0-3 / 1-4 correspondence
        (
            out(4, [0, 12, 0, 10]),
            "unknown seat 4: an entry numbers the seats 0 to 3 (seats 1 to 4 on the sheet)",
        ),
        (penalty(2, 10), "unknown side 2: an entry numbers the sides 0 and 1 (sides 1 and 2 on the sheet)"),
    ],
)
def test_error_messages_number_seats_from_one(entry: dict[str, object], words: str) -> None:
    with pytest.raises(EntryError) as info:
        replay(T, [entry])
    assert words in info.value.message


def test_error_messages_use_seat_names() -> None:
    match = GapleMatch(load_ruleset(T).params, seat_names=["Budi", "Ali", "Sari", "Dewi"])
    with pytest.raises(EntryError) as info:
        match.apply_raw(out(1, [5, 0, 70, 10]))  # entry seat 2 = Sari holds 70 > 69
    assert info.value.message == "Sari shows 70 pips; a hand holds 0 to 69"
    assert info.value.code == "pips-out-of-range"  # the stable code is unchanged


def test_explanations_number_seats_and_sides_from_one() -> None:
    # rule GN7 + G17: entry seat 1 (the sheet's seat 2) blocks with 14, duels entry seat 0 (seat 1) with 14:
    # tie -> blocker loses; count 14 + 20 + 27 = 61, 2 x 61 = 122 to side 0 = "side 1" (seats 1 and 3)
    r = replay(T, [WARMUP, block(1, [14, 14, 20, 27])])
    assert last(r)["explanation"] == (
        "block: seat 2 14 vs seat 1 14, tie → blocker loses; 2 × 61 = 122 to side 1; opens (≥ 25)"
    )
    # rule B9: six doubles dealt to entry seat 3 = seat 4, of side 1 = "side 2"
    r = replay(C, [{"type": "six_doubles", "seat": 3}])
    assert last(r)["explanation"] == "six doubles dealt to seat 4: side 2 wins the game"
    # rule G3: a warning (0 points) to entry side 1 = "side 2"
    r = replay(T, [penalty(1, 0)])
    assert last(r)["explanation"] == "warning to side 2"
