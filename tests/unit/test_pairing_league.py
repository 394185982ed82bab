"""Open league with a deadline (rule BC3, T4f)."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubdesk.pairing import Entrant, verify_pairing
from clubdesk.pairing.league import OpenLeague, Outcome


def test_all_pairings_of_a_round_robin() -> None:
    # rule BC3/T4f: 5 pairs -> C(5,2) = 10 matches, each pair once; double -> 20, sides reversed
    lg = OpenLeague.create(["a", "b", "c", "d", "e"])
    assert len(lg.matches) == 10
    assert {frozenset((m.home, m.away)) for m in lg.matches} == {
        frozenset(p) for p in combinations("abcde", 2)
    }
    dbl = OpenLeague.create(["a", "b", "c", "d"], double=True)
    assert len(dbl.matches) == 12
    firsts = {(m.home, m.away) for m in dbl.matches if m.cycle == 1}
    seconds = {(m.away, m.home) for m in dbl.matches if m.cycle == 2}
    assert firsts == seconds


def test_pending_per_entrant_and_any_order() -> None:
    lg = OpenLeague.create(["a", "b", "c", "d"])
    assert len(lg.pending("a")) == 3
    # play the last scheduled match first: any order is fine (BC3)
    last = lg.matches[-1]
    lg = lg.record(last.id, last.home)
    assert len(lg.pending()) == 5
    assert len(lg.pending(last.home)) == 2 and len(lg.pending(last.away)) == 2
    with pytest.raises(ValueError):
        lg.record(last.id, last.home)  # already played


def test_playable_only_when_both_free() -> None:
    lg = OpenLeague.create(["a", "b", "c", "d"])
    free = lg.playable(busy={"a"})
    assert free and all("a" not in (m.home, m.away) for m in free)
    # with a and b busy only c-d remains
    assert [{m.home, m.away} for m in lg.playable(busy={"a", "b"})] == [{"c", "d"}]


def test_deadline_both_lose_or_wo() -> None:
    lg = OpenLeague.create(["a", "b", "c"])  # 3 matches: a-b, a-c, b-c in some order
    ab = next(m for m in lg.matches if {m.home, m.away} == {"a", "b"})
    ac = next(m for m in lg.matches if {m.home, m.away} == {"a", "c"})
    bc = next(m for m in lg.matches if {m.home, m.away} == {"b", "c"})
    lg = lg.record(ab.id, "a")
    # deadline: secretary names c at fault for a-c; b-c nobody named -> lost by both (BC3)
    closed = lg.close({ac.id: "c"})
    res = {r.match_id: r for r in closed.results}
    assert res[ac.id].outcome is Outcome.WO and res[ac.id].winner == "a"
    assert res[bc.id].outcome is Outcome.BOTH_LOST and res[bc.id].winner is None
    assert closed.pending() == [] and closed.playable() == []
    with pytest.raises(ValueError):
        closed.record(bc.id, "b")
    assert "lost by both" in closed.explain(bc.id)
    with pytest.raises(ValueError):
        lg.close({ab.id: "a"})  # a-b was played, nothing to forfeit


def test_round_trip_plain_data() -> None:
    lg = OpenLeague.create([f"p{i}" for i in range(6)], seed=3)
    lg = lg.record(lg.matches[0].id, lg.matches[0].away)
    again = OpenLeague.from_data(json.loads(json.dumps(lg.to_data())))
    assert again == lg


@settings(max_examples=60, deadline=None)
@given(n=st.integers(min_value=5, max_value=13), seed=st.integers(0, 10**6), double=st.booleans())
def test_suggested_sessions_pass_checker_until_done(n: int, seed: int, double: bool) -> None:
    ids = [f"e{i}" for i in range(n)]
    lg = OpenLeague.create(ids, seed=seed, double=double)
    rng = random.Random(seed)
    met: dict[str, set[str]] = {i: set() for i in ids}
    sessions = 0
    while lg.pending():
        busy = {i for i in ids if rng.random() < 0.3}
        batch = lg.suggest(busy)
        if not batch:
            busy = set()
            batch = lg.suggest()
        assert batch
        playing = [x for p in batch for x in p]
        assert not set(playing) & busy
        ents = [Entrant(i, opponents=frozenset(met[i]) if not double else frozenset()) for i in playing]
        assert verify_pairing(ents, batch) == []
        for a, b in batch:
            m = next(m for m in lg.pending(a) if {m.home, m.away} == {a, b})
            lg = lg.record(m.id, rng.choice([a, b]))
            met[a].add(b)
            met[b].add(a)
        sessions += 1
    assert len(lg.results) == (2 if double else 1) * n * (n - 1) // 2
