"""Single and double elimination (rules T4a, T4b, T4c, T4d, T12a; REFERENCES.md)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubdesk.pairing import Entrant, bracket_order, verify_pairing
from clubdesk.pairing.bracket import Bracket
from clubdesk.pairing.elimination import double_elimination, single_elimination


def field(n: int, clubs: dict[int, str] | None = None) -> list[Entrant]:
    """p1..pn with p1 the highest rating, so seeding by rating gives seed k = pk."""
    clubs = clubs or {}
    return [Entrant(f"p{k}", rating=3000 - k, club=clubs.get(k)) for k in range(1, n + 1)]


def play_out(b: Bracket, rng: random.Random) -> tuple[Bracket, list[tuple[str, str, str]]]:
    """Play every ready match with a random winner; returns the bracket and (match, a, b) played."""
    log: list[tuple[str, str, str]] = []
    while b.ready():
        for m in b.ready():
            a, c = b.sides(m.id)
            assert a is not None and c is not None
            log.append((m.id, a, c))
            b = b.record(m.id, rng.choice([a, c]))
    return b, log


def test_bracket_order_published() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]  # CONTRACTS.md
    # REFERENCES.md: 16 is 1-16, 8-9, 4-13, 5-12, 2-15, 7-10, 3-14, 6-11
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    with pytest.raises(ValueError):
        bracket_order(6)


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_bracket_order_structure(size: int) -> None:
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    for i in range(0, size, 2):  # round 1: seed s meets seed size+1-s
        assert order[i] + order[i + 1] == size + 1
    # seeds 1..2^j sit in different sections of size/2^j: the best can only meet in the last rounds
    for j in range(1, size.bit_length()):
        sections = [order[i : i + (size >> j)] for i in range(0, size, size >> j)]
        tops = [min(sec) for sec in sections]
        assert sorted(tops) == list(range(1, 2**j + 1))


@pytest.mark.parametrize("n", range(2, 65))
def test_byes_go_to_top_seeds(n: int) -> None:
    # rule T4c: N entrants in a bracket of P: seeds 1..P-N get byes (seed 003 rule 4)
    b = single_elimination(field(n))
    size = 1 << (n - 1).bit_length()
    byes = sorted(int(m.sources[0].ref) for m in b.matches if m.round == 1 and b.status(m.id) == "walkover")
    assert byes == list(range(1, size - n + 1))
    assert len([m for m in b.matches if m.round == 1 and b.status(m.id) == "ready"]) == n - size // 2


def test_six_entrants_hand_worked() -> None:
    # 6 in a bracket of 8: byes to seeds 1 and 2; round 1 is 4-5 and 3-6 (slots 1,8,4,5,2,7,3,6)
    b = single_elimination(field(6))
    assert b.ready_pairs() == [("p4", "p5"), ("p3", "p6")]
    assert b.sides("W2-1") == ("p1", None)  # p1 waits for the winner of 4-5
    b = b.record("W1-2", "p5").record("W1-4", "p3")
    assert b.ready_pairs() == [("p1", "p5"), ("p2", "p3")]
    b = b.record("W2-1", "p1").record("W2-2", "p3")
    assert b.ready_pairs() == [("p1", "p3")]
    b = b.record("W3-1", "p3")
    # rule T12a: champion p3, final loser p1, semi-final losers share 3-4, round-1 losers (2 of them) 5-6
    assert b.champion() == "p3"
    assert b.places() == {
        "p3": (1, 1), "p1": (2, 2), "p5": (3, 4), "p2": (3, 4), "p4": (5, 6), "p6": (5, 6),
    }  # fmt: skip


def test_third_place_match() -> None:
    b = single_elimination(field(8), third_place=True)
    rng = random.Random(1)
    b, log = play_out(b, rng)
    assert len(log) == 8  # 7 + the 3rd-place match
    places = sorted(b.places().values())
    # 1, 2, 3, 4 each alone; quarter-final losers share 5-8 (T12a)
    assert places == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 8), (5, 8), (5, 8), (5, 8)]
    assert b.places()[b.winner("3P") or ""] == (3, 3)


def test_seeding_by_lot_is_reproducible() -> None:
    # rule T4a: a random draw reproducible from its seed
    a = single_elimination(field(12), seeding="random", seed=5)
    assert a.seeds == single_elimination(field(12), seeding="random", seed=5).seeds
    assert any(single_elimination(field(12), seeding="random", seed=s).seeds != a.seeds for s in range(6, 10))
    # by rating: seed k is the k-th best
    assert single_elimination(field(12)).seeds[:12] == tuple(f"p{k}" for k in range(1, 13))


def test_club_protection_swaps_within_tier() -> None:
    # rule T4b: seeds 4 and 5 meet in round 1 (4+5 = 8+1) and are both from club X.
    # Seed 5 is in the tier of seeds 5-8; the first swap that removes the clash is with seed 6,
    # so round 1 becomes 1-8, 4-6, 2-7, 3-5.
    ents = field(8, {4: "X", 5: "X"})
    plain = single_elimination(ents)
    assert ("p4", "p5") in plain.ready_pairs()
    b = single_elimination(ents, club_protection=True)
    assert b.ready_pairs() == [("p1", "p8"), ("p4", "p6"), ("p2", "p7"), ("p3", "p5")]
    assert verify_pairing(ents, b.ready_pairs(), club_protection=True) == []
    assert any("Club protection" in line for line in b.explain("W1-2"))


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(min_value=4, max_value=32),
    nclubs=st.integers(min_value=2, max_value=6),
    seed=st.integers(0, 10**6),
)
def test_club_protection_never_worse(n: int, nclubs: int, seed: int) -> None:
    rng = random.Random(seed)
    ents = [
        Entrant(f"e{i}", rating=rng.randint(1000, 2000), club=f"c{rng.randrange(nclubs)}") for i in range(n)
    ]
    plain = single_elimination(ents, seed=seed)
    prot = single_elimination(ents, seed=seed, club_protection=True)
    bad_plain = len(verify_pairing(ents, plain.ready_pairs(), club_protection=True))
    bad_prot = len(verify_pairing(ents, prot.ready_pairs(), club_protection=True))
    assert bad_prot <= bad_plain
    # swaps stay within a seed tier (1 | 2 | 3-4 | 5-8 | ...), so the byes stay with the top seeds
    for a, c, _club in prot.swaps:
        assert (a - 1).bit_length() == (c - 1).bit_length()


@settings(max_examples=100, deadline=None)
@given(n=st.integers(min_value=2, max_value=64), seed=st.integers(0, 10**6), third=st.booleans())
def test_single_elimination_every_round_passes_checker(n: int, seed: int, third: bool) -> None:
    ents = field(n)
    b = single_elimination(ents, seeding="random", seed=seed, third_place=third)
    rng = random.Random(seed)
    opponents: dict[str, set[str]] = {e.id: set() for e in ents}
    while b.ready():
        batch = b.ready_pairs()
        playing = {x for p in batch for x in p}
        round_ents = [Entrant(i, opponents=frozenset(opponents[i])) for i in playing]
        assert verify_pairing(round_ents, batch) == []
        for m in b.ready():
            a, c = b.sides(m.id)
            assert a is not None and c is not None
            opponents[a].add(c)
            opponents[c].add(a)
            b = b.record(m.id, rng.choice([a, c]))
    assert b.finished
    assert len(b.played()) == n - 1 + (1 if third and n >= 4 else 0)
    places = b.places()
    assert len(places) == n
    # T12a: shared ranges tile 1..n exactly
    spans = sorted(set(places.values()))
    assert spans[0][0] == 1 and spans[-1][1] == n
    for (_a, hi), (lo, _b) in zip(spans, spans[1:], strict=False):
        assert lo == hi + 1
    for lo, hi in spans:
        assert sum(1 for v in places.values() if v == (lo, hi)) == hi - lo + 1


def drop_in_rounds(b: Bracket) -> set[str]:
    """Losers'-bracket rounds before its final in which winners'-bracket losers come in (even rounds)."""
    last = max(m.round for m in b.matches if m.bracket == "L")
    return {f"L{r}" for r in range(2, last, 2)} | {"L1"}


@pytest.mark.parametrize("n", [8, 16, 32])
@pytest.mark.parametrize("reset", [True, False])
def test_double_elimination_match_count_and_no_early_rematch(n: int, reset: bool) -> None:
    # rule T4d: 2N-2 matches, or 2N-1 when the grand final is reset
    for seed in range(40):
        b = double_elimination(field(n), reset=reset)
        b, log = play_out(b, random.Random(seed))
        gf_reset = reset and b.winner("GF") != b.winner(f"W{(n - 1).bit_length()}-1")
        assert len(log) == 2 * n - 2 + (1 if gf_reset else 0)
        met: set[frozenset[str]] = set()
        early = drop_in_rounds(b)
        for mid, a, c in log:
            if mid.split("-")[0] in early:
                assert frozenset((a, c)) not in met, (seed, mid, a, c)
            met.add(frozenset((a, c)))
        # out after two losses (T4d): everyone but the champion lost twice, except the final's loser
        # if the final was not reset
        losses: dict[str, int] = {}
        for mid, a, c in log:
            w = b.winner(mid)
            lo = c if w == a else a
            losses[lo] = losses.get(lo, 0) + 1
        champ = b.champion()
        assert champ is not None and losses.get(champ, 0) <= 1
        wb_champ = b.winner(f"W{(n - 1).bit_length()}-1")
        one_loss_out = not reset and champ != wb_champ  # no reset: the WB winner is out after one loss
        assert sorted(v for k, v in losses.items() if k != champ) == [1] * one_loss_out + [2] * (
            n - 1 - one_loss_out
        )


def test_double_elimination_8_structure() -> None:
    b = double_elimination(field(8))
    ids = [m.id for m in b.matches]
    # WB 4+2+1, LB rounds 2+2+1+1, GF, GF2 (REFERENCES.md: losers' bracket 2(k-1) = 4 rounds)
    assert ids == ["W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "W2-2", "W3-1",
                   "L1-1", "L1-2", "L2-1", "L2-2", "L3-1", "L4-1", "GF", "GF2"]  # fmt: skip
    # the loser of W2-1 (from the top half) drops into L2-2, facing the survivor of the bottom half's
    # round-1 losers, whom he cannot have beaten
    assert [s.describe() for s in b.match("L2-2").sources] == ["winner of L1-2", "loser of W2-1"]
    assert [s.describe() for s in b.match("L4-1").sources] == ["winner of L3-1", "loser of W3-1"]
    assert [s.describe() for s in b.match("GF2").sources] == ["winner of GF", "loser of GF"]


def test_reset_only_when_losers_side_wins_gf() -> None:
    b = double_elimination(field(2))
    b = b.record("W1-1", "p1")
    assert b.ready_pairs() == [("p1", "p2")]  # GF: WB winner vs LB winner
    won = b.record("GF", "p1")
    assert won.status("GF2") == "void" and won.champion() == "p1"
    assert won.places() == {"p1": (1, 1), "p2": (2, 2)}
    lost = b.record("GF", "p2")
    assert lost.ready_pairs() == [("p2", "p1")] and lost.champion() is None
    assert lost.record("GF2", "p1").champion() == "p1"


@settings(max_examples=60, deadline=None)
@given(n=st.integers(min_value=2, max_value=40), seed=st.integers(0, 10**6), reset=st.booleans())
def test_double_elimination_any_field(n: int, seed: int, reset: bool) -> None:
    b = double_elimination(field(n), seeding="random", seed=seed, reset=reset)
    rng = random.Random(seed)
    n_played = 0
    while b.ready():
        batch = b.ready_pairs()
        ents = [Entrant(x) for p in batch for x in p]
        assert verify_pairing(ents, batch) == []
        for m in b.ready():
            a, c = b.sides(m.id)
            assert a is not None and c is not None
            b = b.record(m.id, rng.choice([a, c]))
            n_played += 1
    assert b.finished and b.champion() is not None
    assert n_played in (2 * n - 2, 2 * n - 1)
    places = b.places()
    assert len(places) == n and places[b.champion() or ""] == (1, 1)


def test_plain_data_round_trip() -> None:
    b = double_elimination(field(6, {1: "A", 8: "A"}), club_protection=True)
    b = b.record(b.ready()[0].id, b.ready_pairs()[0][0])
    data = json.loads(json.dumps(b.to_data()))
    again = Bracket.from_data(data)
    assert again == b and again.ready_pairs() == b.ready_pairs()


def test_explanations() -> None:
    b = single_elimination(field(6))
    assert any("bye" in line for line in b.explain("W1-1"))  # seed 1 meets the bye, seed 8
    assert b.explain("W1-2")[0].startswith("Seed 4 (p4)")
    assert "tier of seeds 3–4" in b.explain("W1-2")[0]
    assert b.explain("W2-1") == ["winner of W1-1", "winner of W1-2"]


def test_too_small_field() -> None:
    with pytest.raises(ValueError):
        single_elimination(field(1))
