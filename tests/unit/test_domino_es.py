"""Spanish federation dominoes (seed 002, RULES.md section C): worked examples by hand, bad input, editing.

Seats 0–3 in playing order, side 0 = seats 0 and 2, side 1 = seats 1 and 3 (CONTRACTS.md §1).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubdesk.games import EntryError, replay
from clubdesk.games.domino_es import DominoParams, DominoSheet, replay_domino
from clubdesk.games.ruleset import load_ruleset


def out(seat: int, pips: list[int]) -> dict[str, Any]:
    return {"type": "domino", "seat": seat, "pips": pips}


def block(pips: list[int]) -> dict[str, Any]:
    return {"type": "block", "pips": pips}


def hands(result: dict[str, Any], game: int = 0) -> list[dict[str, Any]]:
    hs: list[dict[str, Any]] = result["games"][game]["hands"]
    return hs


def test_preset_loads_with_contract_defaults() -> None:
    rs = load_ruleset("domino-es")
    assert rs.family == "domino"
    assert rs.params.target == 100 and rs.params.games_to_win == 1


# rule E18: the winner's pair scores all pips left, partner's and opponents'
def test_e18_out_scores_all_remaining_pips_including_partner() -> None:
    # seat 1 goes out; seats 0, 2, 3 hold 10, 20, 30 -> 10 + 0 + 20 + 30 = 60 to side 1 (seat 3: partner)
    r = replay("domino-es", [out(1, [10, 0, 20, 30])])
    assert hands(r)[0]["points"] == [0, 60]
    assert hands(r)[0]["totals"] == [0, 60]
    assert "60" in hands(r)[0]["explanation"]
    assert r["winner"] is None and not r["finished"]


# rule E18: a last hand that passes the agreed total keeps its real total
def test_e18_last_hand_over_target_keeps_real_total() -> None:
    # side 0 scores 60, side 1 10, then side 0 55 more: 60 + 55 = 115 > 100
    entries = [
        out(2, [0, 30, 0, 30]),  # 0+30+0+30 = 60 to side 0
        out(1, [5, 0, 5, 0]),  # 5+0+5+0 = 10 to side 1
        out(0, [0, 25, 0, 30]),  # 0+25+0+30 = 55 to side 0: 60 + 55 = 115, written as 115, not 100
    ]
    r = replay("domino-es", entries)
    assert r["games"][0]["totals"] == [115, 10]
    assert r["games"][0]["winner"] == 0
    assert r["games_won"] == [1, 0] and r["winner"] == 0 and r["finished"]


def test_e18_target_is_a_parameter() -> None:
    # target 50: 60 already wins
    r = replay("domino-es", [out(2, [0, 30, 0, 30])], {"target": 50})
    assert r["finished"] and r["winner"] == 0


# rule E18b (Reading): blocked hand goes to the pair with the lower pip total; it scores all pips
def test_e18b_block_lower_pair_scores_everything() -> None:
    # pair 1 (seats 0+2) = 10 + 10 = 20, pair 2 (seats 1+3) = 5 + 6 = 11 -> pair 2 scores 10+5+10+6 = 31
    r = replay("domino-es", [block([10, 5, 10, 6])])
    assert hands(r)[0]["points"] == [0, 31]
    # pair 1 = 3 + 4 = 7, pair 2 = 9 + 8 = 17 -> pair 1 scores 3+9+4+8 = 24
    r = replay("domino-es", [block([3, 9, 4, 8])])
    assert hands(r)[0]["points"] == [24, 0]


def test_e18b_block_tie_scores_nothing_and_lead_passes() -> None:
    # 10 + 5 = 15 vs 5 + 10 = 15: tie, no points; seat 0 led, the lead passes to seat 1
    r = replay("domino-es", [block([10, 5, 5, 10])])
    assert hands(r)[0]["points"] == [0, 0]
    assert hands(r)[0]["next_leader"] == 1


# rule E7.3: the lead passes to the player on the right of the previous leader
def test_e7_3_lead_rotates_every_hand() -> None:
    entries = [out(0, [0, 1, 1, 1]), out(3, [1, 1, 1, 0]), block([2, 2, 3, 3]), out(1, [1, 0, 1, 1])]
    r = replay("domino-es", entries)
    assert [h["leader"] for h in hands(r)] == [0, 1, 2, 3]
    assert r["next_leader"] == 0  # after seat 3 comes seat 0 again


# rules E15, E16: an annulled hand scores nothing; with loss of the lead the lead passes on
def test_e15_annulled_with_lead_lost_passes_lead() -> None:
    r = replay("domino-es", [{"type": "annulled", "lead_lost": True}])
    h = hands(r)[0]
    assert h["points"] == [0, 0] and h["totals"] == [0, 0]
    assert h["next_leader"] == 1
    assert h["explanation"] == "hand annulled, lead passes to seat 2"  # seat index 1 is printed as seat 2


def test_e16_annulled_without_lead_loss_same_leader() -> None:
    # hand 1 (seat 0 leads) is played; hand 2 is led by seat 1 and annulled without loss of the lead:
    # seat 1 leads the replay
    r = replay("domino-es", [out(0, [0, 3, 0, 4]), {"type": "annulled", "lead_lost": False}])
    assert hands(r)[1]["leader"] == 1 and hands(r)[1]["next_leader"] == 1
    assert hands(r)[1]["points"] == [0, 0] and hands(r)[1]["totals"] == [7, 0]


# rule E20: abandonment: the abandoning pair loses, the rivals get what they need, losers keep their points
def test_e20_abandon() -> None:
    entries = [out(0, [0, 20, 0, 20]), out(1, [30, 0, 40, 0]), {"type": "abandon", "side": 0}]
    # side 0: 40, side 1: 70; side 0 abandons -> side 1 gets 100 - 70 = 30, side 0 keeps 40
    r = replay("domino-es", entries)
    assert hands(r)[2]["points"] == [0, 30]
    assert r["games"][0]["totals"] == [40, 100]
    assert r["games"][0]["winner"] == 1 and r["games"][0]["end"] == "abandoned"
    assert r["winner"] == 1 and r["finished"]


def test_e20_abandon_by_the_leading_pair_still_loses() -> None:
    # side 1 ahead 70-40 abandons: side 0 gets 100 - 40 = 60 and wins although it had fewer points
    entries = [out(0, [0, 20, 0, 20]), out(1, [30, 0, 40, 0]), {"type": "abandon", "side": 1}]
    r = replay("domino-es", entries)
    assert r["games"][0]["totals"] == [100, 70] and r["winner"] == 0


def test_e20_abandon_ends_the_match_only_where_the_ruleset_says() -> None:
    # abandon_ends_match = true (a club's choice): best of 3 (games_to_win 2), the match is lost at once
    r = replay("domino-es", [{"type": "abandon", "side": 1}], {"games_to_win": 2, "abandon_ends_match": True})
    assert r["games_won"] == [2, 0] and r["winner"] == 0 and r["finished"]


def test_e20_abandon_loses_the_game_and_play_goes_on_by_default() -> None:
    # domino-es default (seed 002: the pair loses the game, "partida"): game 1 to pair 1, game 2 is played
    entries = [{"type": "abandon", "side": 1}, out(0, [0, 60, 0, 50])]
    r = replay("domino-es", entries, {"games_to_win": 2})
    assert r["games"][0]["end"] == "abandoned" and r["games"][0]["winner"] == 0
    assert r["games_won"] == [2, 0] and r["winner"] == 0
    r = replay("domino-es", entries[:1], {"games_to_win": 2})
    assert r["games_won"] == [1, 0] and not r["finished"]


# rule E7b: for game 2 the pair that lost game 1 swaps seats
def test_e7b_losing_pair_swaps_seats_in_game_2() -> None:
    win_game_side1 = [out(1, [50, 0, 50, 0])]  # 100 to side 1: side 0 lost game 1
    r = replay("domino-es", [*win_game_side1, out(0, [0, 1, 0, 1])], {"games_to_win": 2})
    assert r["games"][0]["seating"] == [0, 1, 2, 3]
    # side 0's players (seats 0 and 2) swap: seat 0 now holds the game-1 player of seat 2 and vice versa
    assert r["games"][1]["seating"] == [2, 1, 0, 3]
    win_game_side0 = [out(0, [0, 50, 0, 50])]
    r = replay("domino-es", [*win_game_side0, out(0, [0, 1, 0, 1])], {"games_to_win": 2})
    assert r["games"][1]["seating"] == [0, 3, 2, 1]


def test_games_to_a_match() -> None:
    # games_to_win 2: side 1 wins game 1, side 0 wins games 2 and 3
    g = [out(1, [50, 0, 50, 0]), out(0, [0, 50, 0, 50]), out(2, [0, 60, 0, 40])]
    r = replay("domino-es", g, {"games_to_win": 2})
    assert [x["winner"] for x in r["games"]] == [1, 0, 0]
    assert r["games_won"] == [2, 1] and r["winner"] == 0 and r["finished"]
    # each game starts again from 0-0
    assert r["games"][1]["hands"][0]["totals"] == [100, 0]


def test_penalty_stops_at_zero_unless_negative_allowed() -> None:
    entries = [out(0, [0, 5, 0, 5]), {"type": "penalty", "side": 0, "points": 15}]
    # 10 - 15 stops at 0: the penalty takes only 10
    assert hands(replay("domino-es", entries))[1]["points"] == [-10, 0]
    # allowed below 0: 10 - 15 = -5
    assert hands(replay("domino-es", entries, {"allow_negative": True}))[1]["totals"] == [-5, 0]


# ------------------------------------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("entry", "code"),
    [
        (out(1, [70, 0, 0, 0]), "pips-out-of-range"),  # 7 tiles hold at most 69 pips
        (out(1, [-1, 0, 0, 0]), "pips-out-of-range"),
        (block([60, 60, 60, 0]), "pips-out-of-range"),  # 180 > 168, the whole set
        (out(1, [10, 3, 10, 0]), "pips-with-player-out"),
        (out(4, [0, 0, 0, 0]), "unknown-seat"),
        ({"type": "penalty", "side": 2, "points": 5}, "unknown-side"),
        ({"type": "abandon", "side": -1}, "unknown-side"),
        ({"type": "out", "seat": 0, "pips": [0, 0, 0, 0]}, "unknown-type"),  # gaple's type, not domino-es
        ({"type": "six_doubles", "seat": 0}, "unknown-type"),
    ],
)
def test_bad_entry_codes(entry: dict[str, Any], code: str) -> None:
    with pytest.raises(EntryError) as info:
        replay("domino-es", [out(0, [0, 1, 0, 1]), entry])
    assert info.value.index == 1 and info.value.code == code


def test_entry_after_match_end() -> None:
    with pytest.raises(EntryError) as info:
        replay("domino-es", [out(0, [0, 60, 0, 40]), out(1, [1, 0, 1, 0])])
    assert info.value.index == 1 and info.value.code == "match-finished"


# ------------------------------------------------------------------------------------------------ editing


def test_sheet_append_replace_delete_recompute() -> None:
    sheet = DominoSheet(DominoParams()).append(out(0, [0, 10, 0, 10])).append(out(1, [5, 0, 5, 0]))
    assert sheet.result.games[0].totals == (20, 10)
    # correct hand 0: seat 0 went out with 30 + 30 left -> 60, then 10 for side 1
    fixed = sheet.replace(0, out(0, [0, 30, 0, 30]))
    assert fixed.result.games[0].totals == (60, 10)
    assert sheet.result.games[0].totals == (20, 10)  # the old sheet is untouched
    assert fixed.delete(0).result.games[0].totals == (0, 10)


def test_correction_that_ends_match_blames_the_later_entry() -> None:
    sheet = DominoSheet(DominoParams()).append(out(0, [0, 10, 0, 10])).append(out(1, [5, 0, 5, 0]))
    with pytest.raises(EntryError) as info:
        sheet.replace(0, out(0, [0, 60, 0, 40]))  # 100: the match ends at entry 0; entry 1 no longer fits
    assert info.value.index == 1 and info.value.code == "match-finished"
    with pytest.raises(EntryError) as info:
        sheet.append(out(9, [0, 0, 0, 0]))
    assert info.value.index == 2 and info.value.code == "unknown-seat"
    assert len(sheet.entries) == 2  # nothing before it is lost


# ------------------------------------------------------------------------------------------------ properties

_pips = st.integers(0, 20)


@st.composite
def _entry(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["domino", "block", "annulled", "penalty", "abandon"]))
    if kind == "domino":
        seat = draw(st.integers(0, 3))
        pips = [draw(_pips) for _ in range(4)]
        pips[seat] = 0
        return out(seat, pips)
    if kind == "block":
        return block([draw(_pips) for _ in range(4)])
    if kind == "annulled":
        return {"type": "annulled", "lead_lost": draw(st.booleans())}
    if kind == "penalty":
        return {"type": "penalty", "side": draw(st.integers(0, 1)), "points": draw(st.integers(1, 30))}
    return {"type": "abandon", "side": draw(st.integers(0, 1))}


def _valid_prefix(entries: list[dict[str, Any]], params: DominoParams) -> list[dict[str, Any]]:
    """The longest prefix that a sheet accepts (entries after the match end are dropped)."""
    for n in range(len(entries), -1, -1):
        try:
            replay_domino(entries[:n], params)
            return entries[:n]
        except EntryError:
            continue
    return []


_params = st.builds(DominoParams, target=st.sampled_from([50, 100]), games_to_win=st.integers(1, 3))


@settings(max_examples=150, deadline=None)
@given(st.lists(_entry(), max_size=25), _params)
def test_prefix_property(entries: list[dict[str, Any]], params: DominoParams) -> None:
    entries = _valid_prefix(entries, params)
    full = replay_domino(entries, params)
    flat = [(g, h) for g, game in enumerate(full["games"]) for h in game["hands"]]
    for n in range(len(entries)):
        part = replay_domino(entries[:n], params)
        part_flat = [(g, h) for g, game in enumerate(part["games"]) for h in game["hands"]]
        assert part_flat == flat[:n]


@settings(max_examples=150, deadline=None)
@given(st.lists(_entry(), max_size=25), _params)
def test_only_one_side_moves_per_entry(entries: list[dict[str, Any]], params: DominoParams) -> None:
    entries = _valid_prefix(entries, params)
    r = replay_domino(entries, params)
    for game in r["games"]:
        for h in game["hands"]:
            assert 0 in h["points"]


@settings(max_examples=150, deadline=None)
@given(st.lists(_entry(), max_size=40), _params, _entry())
def test_match_ends_once_and_stays_ended(
    entries: list[dict[str, Any]], params: DominoParams, extra: dict[str, Any]
) -> None:
    entries = _valid_prefix(entries, params)
    finished_at = [replay_domino(entries[: n + 1], params)["finished"] for n in range(len(entries))]
    # once finished, always finished: at most the last prefix can be the first finished one
    assert all(finished_at[-1:]) or not any(finished_at)
    assert finished_at.count(True) <= 1
    r = replay_domino(entries, params)
    if r["finished"]:
        assert r["games_won"][r["winner"]] >= params.games_to_win
        with pytest.raises(EntryError) as info:
            replay_domino([*entries, extra], params)
        assert info.value.index == len(entries) and info.value.code == "match-finished"


def test_first_impossible_entry_is_named() -> None:
    # entry 0 ends the match (60 + 40 = 100); entry 1 comes after the end; entry 2 is malformed as well:
    # the sheet names entry 1, the first one that cannot stand
    with pytest.raises(EntryError) as info:
        replay(
            "domino-es", [out(0, [0, 60, 0, 40]), out(1, [1, 0, 1, 0]), {"type": "annulled", "lead_lost": 1}]
        )
    assert info.value.index == 1 and info.value.code == "match-finished"
    with pytest.raises(EntryError) as info:
        replay("domino-es", [{"type": "annulled", "lead_lost": "yes"}])
    assert info.value.code == "bad-flag"


def test_explanations_are_translatable() -> None:
    from clubdesk.i18n import set_language

    set_language("xx")  # pseudo-locale: every translated string is wrapped in ⟦…⟧
    try:
        r = replay("domino-es", [{"type": "annulled", "lead_lost": True}])
    finally:
        set_language("en")
    assert hands(r)[0]["explanation"].startswith("⟦hand annulled")
