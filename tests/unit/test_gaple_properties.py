"""Properties of gaple sheets over random valid entries (issue 4, "Tests")."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubdesk.games import EntryError, replay
from clubdesk.games.gaple import GapleMatch
from clubdesk.games.ruleset import load_ruleset

RULESETS = ["gaple-tournament", "gaple-club"]


@st.composite
def out_entries(draw: st.DrawFn) -> dict[str, object]:
    seat = draw(st.integers(0, 3))
    pips = [draw(st.integers(0, 40)) for _ in range(4)]
    pips[seat] = 0
    last = draw(st.sampled_from([None, None, None, "0-0", "6-6"]))
    two_ends = False if last is not None else draw(st.booleans())
    others = [s for s in range(4) if s != seat]
    d00 = None if last == "0-0" else draw(st.sampled_from([None, None, *others]))
    d66 = None if last == "6-6" else draw(st.sampled_from([None, None, *others]))
    if d66 is not None:
        pips[d66] = max(pips[d66], 12)
    return {
        "type": "out",
        "seat": seat,
        "pips": pips,
        "last_tile": last,
        "two_ends": two_ends,
        "dead": {"0-0": d00, "6-6": d66},
    }


@st.composite
def block_entries(draw: st.DrawFn) -> dict[str, object]:
    """A blocked hand, sometimes with a caught 0-0 / 6-6 named (rule B6, fine_in_block)."""
    seat = draw(st.integers(0, 3))
    pips = [draw(st.integers(0, 40)) for _ in range(4)]
    d00 = draw(st.sampled_from([None, None, 0, 1, 2, 3]))
    d66 = draw(st.sampled_from([None, None, 0, 1, 2, 3]))
    if d66 is not None:
        pips[d66] = max(pips[d66], 12)
    return {"type": "block", "seat": seat, "pips": pips, "dead": {"0-0": d00, "6-6": d66}}


def entries_for(ruleset: str) -> st.SearchStrategy[dict[str, object]]:
    choices: list[st.SearchStrategy[dict[str, object]]] = [
        out_entries(),
        out_entries(),
        st.builds(
            lambda s, p: {"type": "block", "seat": s, "pips": p},
            st.integers(0, 3),
            st.lists(st.integers(0, 40), min_size=4, max_size=4),
        ),
        block_entries(),
        st.just({"type": "redeal"}),
        st.builds(
            lambda x, n: {"type": "penalty", "side": x, "points": n}, st.integers(0, 1), st.integers(0, 60)
        ),
    ]
    if ruleset == "gaple-club":
        choices.append(st.builds(lambda s: {"type": "six_doubles", "seat": s}, st.integers(0, 3)))
    return st.one_of(choices)


@st.composite
def sheets(draw: st.DrawFn) -> tuple[str, dict[str, object], list[dict[str, object]]]:
    """A ruleset, overrides and a valid sheet (stopping where the match ends)."""
    ruleset = draw(st.sampled_from(RULESETS))
    params: dict[str, object] = {"target": draw(st.sampled_from([50, 100, 250]))}
    match = GapleMatch(load_ruleset(ruleset, params).params)
    entries: list[dict[str, object]] = []
    for entry in draw(st.lists(entries_for(ruleset), max_size=40)):
        if match.finished:
            break
        match.apply_raw(entry)
        entries.append(entry)
    return ruleset, params, entries


def flat(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [h for g in result["games"] for h in g["hands"]]


@settings(max_examples=150, deadline=None)
@given(sheets(), st.data())
def test_prefix_of_entries_gives_prefix_of_result(sheet: Any, data: st.DataObject) -> None:
    ruleset, params, entries = sheet
    full = replay(ruleset, entries, params)
    k = data.draw(st.integers(0, len(entries)))
    part = replay(ruleset, entries[:k], params)
    assert flat(part) == flat(full)[:k]
    assert len(flat(full)) == len(entries)  # one hands element per entry
    for g_part, g_full in zip(part["games"], full["games"], strict=False):
        if g_part["winner"] is not None:
            assert g_part == g_full  # a finished game never changes afterwards


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_only_one_side_gains_in_a_hand(sheet: Any) -> None:
    ruleset, params, entries = sheet
    for hand in flat(replay(ruleset, entries, params)):
        assert not (hand["points"][0] > 0 and hand["points"][1] > 0)


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_totals_change_only_through_entries(sheet: Any) -> None:
    # each total = previous total + points, except a side burned to 0 (GN6); a game starts at 0-0
    ruleset, params, entries = sheet
    result = replay(ruleset, entries, params)
    for game in result["games"]:
        prev = [0, 0]
        for hand in game["hands"]:
            for side in (0, 1):
                if hand["burned"] == side:
                    assert hand["totals"][side] == 0
                else:
                    assert hand["totals"][side] == prev[side] + hand["points"][side]
            prev = hand["totals"]
        assert game["totals"] == prev
    if not load_ruleset(ruleset, params).params.allow_negative:
        assert all(t >= 0 for h in flat(result) for t in h["totals"])


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_match_ends_once_and_stays_ended(sheet: Any) -> None:
    ruleset, params, entries = sheet
    finished = [replay(ruleset, entries[:k], params)["finished"] for k in range(len(entries) + 1)]
    assert finished == sorted(finished)  # False ... False True ... True
    result = replay(ruleset, entries, params)
    if result["finished"]:
        assert finished.count(True) == 1  # the sheet stops at the entry that ended the match
        assert result["games_won"][result["winner"]] == 2
        with pytest.raises(EntryError) as info:
            replay(ruleset, [*entries, {"type": "redeal"}], params)
        assert (info.value.index, info.value.code) == (len(entries), "match-finished")
    else:
        assert result["winner"] is None


# ----------------------------------------------------------------------------- issue 29 readings (B6, B8)


@settings(max_examples=200, deadline=None)
@given(block_entries())
def test_b6_a_blocked_hand_fines_exactly_the_caught_doubles(entry: dict[str, object]) -> None:
    # rule B6 (fine_in_block): the same blocked hand with its caught doubles named differs from the hand
    # without them by exactly 25 per 0-0 and 50 per 6-6, taken from the holder's side
    plain = {k: v for k, v in entry.items() if k != "dead"}
    with_dead = flat(replay("gaple-club", [entry]))[0]["points"]
    without = flat(replay("gaple-club", [plain]))[0]["points"]
    dead = entry["dead"]
    assert isinstance(dead, dict)
    fines = [0, 0]
    if with_dead != [0, 0] or without != [0, 0]:  # a drawn duel is replayed (B5): nothing at all
        if dead["0-0"] is not None:
            fines[dead["0-0"] % 2] += 25
        if dead["6-6"] is not None:
            fines[dead["6-6"] % 2] += 50
    assert with_dead == [without[0] - fines[0], without[1] - fines[1]]
    # with fine_in_block off (the old reading), the caught doubles change nothing
    assert flat(replay("gaple-club", [entry], {"fine_in_block": False}))[0]["points"] == without


@settings(max_examples=200, deadline=None)
@given(st.one_of(out_entries(), block_entries()))
def test_b8_won_opens_whenever_pure_opens(entry: dict[str, object]) -> None:
    # rule B8 vs GN4: the points won are never less than the pure value, so a first hand that opens on its
    # pure value also opens on its points won, with the same points
    won = flat(replay("gaple-club", [entry]))[0]
    pure = flat(replay("gaple-club", [entry], {"open_on": "pure"}))[0]
    if pure["opened"]:
        assert won["opened"] and won["points"] == pure["points"]
    scorer_gain = [max(p, 0) for p in won["points"]]
    assert sum(scorer_gain) >= sum(max(p, 0) for p in pure["points"])


@settings(max_examples=200, deadline=None)
@given(out_entries(), st.sampled_from(["0-0", "6-6"]))
def test_b6_going_out_with_a_double_adds_its_value(entry: dict[str, object], tile: str) -> None:
    # rule B6 (out_double_mode = plus): the same finish with 0-0 / 6-6 as last tile gives 50 / 100 more
    plain = {**entry, "last_tile": None, "two_ends": False, "dead": {"0-0": None, "6-6": None}}
    doubled = {**plain, "last_tile": tile}
    base = flat(replay("gaple-club", [plain]))[0]
    more = flat(replay("gaple-club", [doubled]))[0]
    scorer = int(str(entry["seat"])) % 2
    bonus = 50 if tile == "0-0" else 100
    if base["opened"]:
        assert more["points"][scorer] == base["points"][scorer] + bonus
    assert more["points"][scorer] >= base["points"][scorer]
