"""Tavla (backgammon) matches (seed 003, RULES.md section D; REFERENCES.md "Backgammon match scoring").

Real matches: tests/data/backgammon/*.mat, copied from /work/shared/data/backgammon/ (source:
kevung/gnubgparser, test/), Jellyfish .mat records written by backgammon software.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubdesk.games import EntryError, replay
from clubdesk.games.ruleset import load_ruleset
from clubdesk.games.tavla import TavlaParams, TavlaSheet, capped_score, clock_text, replay_tavla
from clubdesk.games.tavla_mat import parse_mat

DATA = Path(__file__).resolve().parent.parent / "data" / "backgammon"


def game(winner: int, kind: str = "single", cube: int = 1, dropped: bool = False) -> dict[str, Any]:
    return {"type": "game", "winner": winner, "kind": kind, "cube": cube, "dropped": dropped}


def test_preset_loads_with_contract_defaults() -> None:
    rs = load_ruleset("tavla")
    assert rs.family == "tavla"
    assert rs.params.match_length == 5 and rs.params.crawford is True


# rule T7a: the cube; a dropped double loses at the current value (before the double)
def test_t7a_taken_cube_and_dropped_double() -> None:
    r = replay("tavla", [game(0, cube=4), game(1, cube=2, dropped=True)], {"match_length": 11})
    # taken at 4, single: 1 x 4 = 4; double from 2 to 4 dropped: 2 (the cube before the double)
    assert [g["points"] for g in r["games"]] == [[4, 0], [0, 2]]
    assert r["score"] == [4, 2]
    assert "cube 2 before the double = 2" in r["games"][1]["explanation"]


def test_t7a_first_double_dropped_scores_one() -> None:
    r = replay("tavla", [game(1, cube=1, dropped=True)])
    assert r["games"][0]["points"] == [0, 1]


# rule T7c: gammon x2, backgammon x3, also undoubled (no Jacoby)
def test_t7c_gammon_and_backgammon_multipliers() -> None:
    r = replay("tavla", [game(0, "gammon"), game(1, "backgammon", cube=2)], {"match_length": 11})
    # undoubled gammon: 2 x 1 = 2; backgammon at cube 2: 3 x 2 = 6
    assert [g["points"] for g in r["games"]] == [[2, 0], [0, 6]]
    assert r["games"][0]["explanation"].endswith("gammon x cube 1 = 2")


def test_t7c_explanation_gammon_times_cube() -> None:
    r = replay("tavla", [game(0, "gammon", cube=2)])
    assert "gammon x cube 2 = 4" in r["games"][0]["explanation"]


# rule T7b: Crawford: the game after a player reaches length - 1 has no cube, exactly once
def test_t7b_crawford_game_once() -> None:
    # 5-point match: 4-0 after a doubled gammon (2 x 2 = 4) -> game 2 is Crawford; 4-1; game 3 not Crawford
    entries = [game(0, "gammon", cube=2), game(1), game(1, cube=2)]
    r = replay("tavla", entries)
    assert [g["crawford"] for g in r["games"]] == [False, True, False]
    assert r["games"][1]["explanation"].startswith("Crawford game: no cube")
    # 4-1, then post-Crawford single at cube 2: 4-3
    assert r["score"] == [4, 3] and not r["finished"]
    assert r["crawford_next"] is False


def test_t7b_crawford_next_flag_for_the_sheet() -> None:
    r = replay("tavla", [game(0, cube=4)])  # 4-0 in a 5-point match: the next game is Crawford
    assert r["crawford_next"] is True


@pytest.mark.parametrize(
    "bad", [game(1, cube=2), game(1, cube=1, dropped=True), {"type": "game_loss", "loser": 0, "cube": 2}]
)
def test_t7b_cube_or_drop_in_crawford_game_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(EntryError) as info:
        replay("tavla", [game(0, cube=4), bad])
    assert info.value.index == 1 and info.value.code == "crawford-cube"


def test_t7b_crawford_off() -> None:
    r = replay("tavla", [game(0, cube=4), game(1, cube=2)], {"crawford": False})
    assert [g["crawford"] for g in r["games"]] == [False, False] and r["score"] == [4, 2]


# rule T8a: matches to N points
def test_t8a_match_length_parameter() -> None:
    entries = [game(0, "gammon", cube=2), game(0)]  # 4 + 1 = 5
    assert replay("tavla", entries)["finished"] is True  # 5 points: done
    r = replay("tavla", entries, {"match_length": 7})
    assert r["finished"] is False and r["score"] == [5, 0]


# REFERENCES "Backgammon match scoring": points beyond the match length count for nothing
def test_overshoot_is_capped_for_the_result_but_kept_on_the_sheet() -> None:
    # 5-point match at 3-0, then a gammon at cube 2: 3 + 4 = 7 on the sheet, 5 counts
    r = replay("tavla", [game(0, cube=2, dropped=True), game(0, cube=1), game(0, "gammon", cube=2)])
    assert r["games"][-1]["score"] == [7, 0]
    assert r["real_score"] == [7, 0] and r["score"] == [5, 0]
    assert r["winner"] == 0 and r["finished"]
    assert capped_score((7, 3), 5) == (5, 3)


# rule T8b: a player out of time loses the match: the winner goes to the length, the loser keeps his points
def test_t8b_time_forfeit() -> None:
    entries = [game(1, cube=2), game(0, cube=1), {"type": "forfeit", "winner": 0, "reason": "time"}]
    r = replay("tavla", entries)
    # 1-2, then player 2 runs out of time: 5-2
    assert r["score"] == [5, 2] and r["winner"] == 0 and r["finished"]
    assert r["games"][-1]["points"] == [4, 0]


def test_t8b_clock_on_the_sheet() -> None:
    assert clock_text(TavlaParams()) == "No clock"
    # 2 min per point, 5-point match -> 10 min per player, 12 s delay
    assert clock_text(TavlaParams(clock_minutes_per_point=2, clock_delay_seconds=12)) == (
        "Clock: 10 min per player + 12 s delay per move"
    )


# rule T9a: forfeit is match length - 0
def test_t9a_forfeit_length_zero() -> None:
    r = replay("tavla", [{"type": "forfeit", "winner": 1, "reason": "absent"}], {"match_length": 7})
    assert r["score"] == [0, 7] and r["winner"] == 1 and r["finished"]


# rule T9d (Reading): a game loss = a single game to the opponent at the current cube; match loss = forfeit
def test_t9d_game_loss() -> None:
    r = replay("tavla", [{"type": "game_loss", "loser": 0}, {"type": "game_loss", "loser": 0, "cube": 2}])
    # 1 (no cube turned) then 2 (cube at 2): 0-3
    assert [g["points"] for g in r["games"]] == [[0, 1], [0, 2]] and r["score"] == [0, 3]


def test_t9d_match_loss_penalty() -> None:
    r = replay("tavla", [game(1, "gammon"), {"type": "forfeit", "winner": 0, "reason": "penalty"}])
    # 0-2, player 2 gets a match loss: 5-2, he keeps his 2
    assert r["score"] == [5, 2] and r["winner"] == 0


# ------------------------------------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("entry", "code"),
    [
        (game(0, cube=3), "cube-not-power-of-two"),
        (game(0, cube=0), "cube-not-power-of-two"),
        (game(0, cube=128), "cube-out-of-range"),
        (game(0, "gammon", cube=2, dropped=True), "drop-with-gammon"),
        (game(2), "unknown-side"),
        ({"type": "game_loss", "loser": 5}, "unknown-side"),
        (game(0, "triple"), "unknown-kind"),
        ({"type": "forfeit", "winner": 0, "reason": "rain"}, "unknown-reason"),
        ({"type": "domino", "seat": 0, "pips": [0, 0, 0, 0]}, "unknown-type"),
    ],
)
def test_bad_entry_codes(entry: dict[str, Any], code: str) -> None:
    with pytest.raises(EntryError) as info:
        replay("tavla", [game(1), entry])
    assert info.value.index == 1 and info.value.code == code


def test_entry_after_match_end() -> None:
    with pytest.raises(EntryError) as info:
        replay("tavla", [{"type": "forfeit", "winner": 0, "reason": "absent"}, game(1)])
    assert info.value.index == 1 and info.value.code == "match-finished"


def test_sheet_editing() -> None:
    sheet = TavlaSheet(TavlaParams()).append(game(0)).append(game(1, cube=2))
    assert sheet.result.score == (1, 2)
    fixed = sheet.replace(0, game(0, "gammon"))  # undoubled gammon 2, then 2 for player 2: 2-2
    assert fixed.result.score == (2, 2) and not fixed.result.crawford_next
    assert fixed.delete(1).result.score == (2, 0)
    with pytest.raises(EntryError) as info:
        fixed.delete(5)
    assert info.value.code == "no-such-entry"
    with pytest.raises(EntryError) as info:
        # 4-0 makes entry 1 the Crawford game, where cube 2 is refused: the later entry is named
        sheet.replace(0, game(0, cube=4))
    assert info.value.index == 1 and info.value.code == "crawford-cube"
    assert sheet.result.score == (1, 2)  # the old sheet is untouched


# ---------------------------------------------------------------------------------------------- real matches

# charlot1-charlot2_7p_2025-11-08-2305.mat, transcribed by hand from the record:
#   game 1: charlot2 doubles to 2, charlot1 takes; charlot2 "Wins 2 points"       -> single x 2 = 2     0-2
#   game 2: charlot2 doubles to 2 (taken), charlot1 redoubles to 4, charlot2 drops -> 2 (cube before)  2-2
#   game 3: charlot1 doubles to 2 (taken), "Wins 4 points"                         -> gammon x 2 = 4    6-2
#   game 4: charlot1 at 6 = 7 - 1: Crawford game, no cube, "Wins 3 points"         -> backgammon 3      9-2
CHARLOT_1 = [
    game(1, "single", 2),
    game(0, "single", 2, dropped=True),
    game(0, "gammon", 2),
    game(0, "backgammon", 1),
]

# gnubg_selfplay_drops_7p.mat, transcribed by hand:
#   game 1: charlot1 doubles to 2, charlot2 drops -> 1 to charlot1                    1-0
#   game 2: charlot2 doubles to 2, charlot1 drops -> 1 to charlot2                    1-1
#   game 3: charlot2 doubles to 2 (taken), wins 2 -> single x 2                       1-3
#   game 4: charlot1 doubles to 2 (taken), charlot2 redoubles to 4, charlot1 drops -> 2   1-5
#   game 5: charlot1 doubles to 2 (taken), wins 2                                    3-5
#   game 6: charlot1 doubles to 2 (taken), charlot2 wins 2                            3-7
# charlot2 never stood at 6 before winning: this match has no Crawford game.
DROPS = [
    game(0, "single", 1, dropped=True),
    game(1, "single", 1, dropped=True),
    game(1, "single", 2),
    game(1, "single", 2, dropped=True),
    game(0, "single", 2),
    game(1, "single", 2),
]


def test_real_match_with_crawford_backgammon() -> None:
    r = replay("tavla", CHARLOT_1, {"match_length": 7})
    assert [g["score"] for g in r["games"]] == [[0, 2], [2, 2], [6, 2], [9, 2]]
    assert [g["crawford"] for g in r["games"]] == [False, False, False, True]
    assert r["games"][1]["points"] == [2, 0]  # the drop is worth the cube before the double
    assert r["real_score"] == [9, 2] and r["score"] == [7, 2]  # the backgammon overshoots 7: capped
    assert r["winner"] == 0 and r["finished"]


def test_real_match_with_drops() -> None:
    r = replay("tavla", DROPS, {"match_length": 7})
    assert [g["score"] for g in r["games"]] == [[1, 0], [1, 1], [1, 3], [1, 5], [3, 5], [3, 7]]
    assert [g["points"] for g in r["games"]][:2] == [[1, 0], [0, 1]]  # drops at cube 1 worth 1
    assert r["games"][3]["points"] == [0, 2]  # redouble to 4 dropped: worth 2
    assert not any(g["crawford"] for g in r["games"])
    assert r["score"] == [3, 7] and r["winner"] == 1 and r["finished"]


@pytest.mark.parametrize(
    ("name", "transcribed"),
    [("charlot1-charlot2_7p_2025-11-08-2305.mat", CHARLOT_1), ("gnubg_selfplay_drops_7p.mat", DROPS)],
)
def test_mat_reader_matches_hand_transcription_and_file_scores(
    name: str, transcribed: list[dict[str, Any]]
) -> None:
    rec = parse_mat((DATA / name).read_text(encoding="utf-8"))
    assert rec.match_length == 7 and rec.players == ("charlot1", "charlot2")
    assert list(rec.entries) == transcribed
    # the score the record writes above each game equals the engine's score before that game
    r = replay("tavla", list(rec.entries), {"match_length": rec.match_length})
    before = [(0, 0)] + [tuple(g["score"]) for g in r["games"][:-1]]
    assert before == list(rec.start_scores)


# ------------------------------------------------------------------------------------------------ properties


@st.composite
def _entry(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["game", "game", "game", "game_loss", "forfeit"]))
    if kind == "game":
        dropped = draw(st.booleans())
        k = "single" if dropped else draw(st.sampled_from(["single", "gammon", "backgammon"]))
        return game(draw(st.integers(0, 1)), k, draw(st.sampled_from([1, 1, 1, 2, 4])), dropped)
    if kind == "game_loss":
        return {"type": "game_loss", "loser": draw(st.integers(0, 1)), "cube": draw(st.sampled_from([1, 2]))}
    reason = draw(st.sampled_from(["absent", "time", "penalty"]))
    return {"type": "forfeit", "winner": draw(st.integers(0, 1)), "reason": reason}


def _accepted(entries: list[dict[str, Any]], params: TavlaParams) -> list[dict[str, Any]]:
    """Build a sheet entry by entry, skipping what the sheet refuses (cube in Crawford, after the end)."""
    sheet = TavlaSheet(params)
    for e in entries:
        try:
            sheet = sheet.append(e)
        except EntryError:
            continue
    return list(sheet.entries)


_params = st.builds(TavlaParams, match_length=st.sampled_from([1, 3, 5, 7]), crawford=st.booleans())


@settings(max_examples=150, deadline=None)
@given(st.lists(_entry(), max_size=20), _params)
def test_prefix_property(entries: list[dict[str, Any]], params: TavlaParams) -> None:
    entries = _accepted(entries, params)
    full = replay_tavla(entries, params)
    for n in range(len(entries)):
        assert replay_tavla(entries[:n], params)["games"] == full["games"][:n]


@settings(max_examples=150, deadline=None)
@given(st.lists(_entry(), max_size=20), _params)
def test_one_side_gains_and_crawford_at_most_once(entries: list[dict[str, Any]], params: TavlaParams) -> None:
    entries = _accepted(entries, params)
    r = replay_tavla(entries, params)
    for e, g in zip(entries, r["games"], strict=True):
        if e["type"] != "forfeit" or e["reason"] != "absent":  # T9a resets the loser to 0
            assert min(g["points"]) == 0
    assert sum(g["crawford"] for g in r["games"]) <= 1
    assert max(r["score"]) <= params.match_length


@settings(max_examples=150, deadline=None)
@given(st.lists(_entry(), max_size=30), _params, _entry())
def test_match_ends_once_and_stays_ended(
    entries: list[dict[str, Any]], params: TavlaParams, extra: dict[str, Any]
) -> None:
    entries = _accepted(entries, params)
    finished = [replay_tavla(entries[: n + 1], params)["finished"] for n in range(len(entries))]
    assert finished.count(True) <= 1 and (not any(finished) or finished[-1])
    r = replay_tavla(entries, params)
    if r["finished"]:
        assert r["score"][r["winner"]] == params.match_length
        with pytest.raises(EntryError) as info:
            replay_tavla([*entries, extra], params)
        assert info.value.index == len(entries) and info.value.code == "match-finished"


def test_explanations_are_translatable() -> None:
    from clubdesk.i18n import set_language

    set_language("xx")  # pseudo-locale: every translated string is wrapped in ⟦…⟧
    try:
        r = replay("tavla", [game(0, cube=4), game(0, "gammon")])
    finally:
        set_language("en")
    text = r["games"][1]["explanation"]
    assert text.startswith("⟦Crawford game") and "⟦gammon⟧" in text
