"""FIBS ratings (rule T12c), checked against the worked examples of REFERENCES.md "FIBS rating"."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubdesk.standings import fibs_update
from clubdesk.standings.ratings import (
    INITIAL_RATING,
    KRule,
    RatedMatch,
    RatingBook,
    RatingError,
    RatingState,
    k_factor,
    rate_matches,
    rating_history,
)

D0 = date(2025, 1, 1)


# --- rule T12c: the three worked examples of REFERENCES.md -------------------------------------------------


def test_higher_rated_wins_five_point_match() -> None:
    # rule T12c: D = 100, n = 5: 10^(100*sqrt5/2000) = 10^0.1118 = 1.2936, P_upset = 1/2.2936 = 0.4360;
    # 4*sqrt5*0.4360 = 8.9443*0.4360 = 3.8996
    w, lo = fibs_update(1600, 1500, 5)
    assert w == pytest.approx(1600 + 3.8996, abs=1e-4)
    assert lo == pytest.approx(1500 - 3.8996, abs=1e-4)


def test_lower_rated_wins_five_point_match() -> None:
    # rule T12c: the upset pays 1 - 0.4360 = 0.5640; 8.9443*0.5640 = 5.0446
    w, lo = fibs_update(1500, 1600, 5)
    assert w == pytest.approx(1500 + 5.0446, abs=1e-4)
    assert lo == pytest.approx(1600 - 5.0446, abs=1e-4)


def test_equal_ratings_each_player_his_own_k() -> None:
    # rule T12c: D = 0 so P = 1/2; winner 4*5*sqrt7*0.5 = 10*2.64575 = 26.4575; loser 4*1*sqrt7*0.5 = 5.2915
    w, lo = fibs_update(1500, 1500, 7, winner_k=5.0, loser_k=1.0)
    assert w == pytest.approx(1526.4575, abs=1e-4)
    assert lo == pytest.approx(1494.7085, abs=1e-4)


def test_longer_match_moves_ratings_more_for_an_upset_less_for_a_favourite() -> None:
    # rule T12c: match length counts. Favourite 1800 v 1500: at n=1 P_upset = 1/(10^0.15+1) = 0.4146,
    # gain 4*1*0.4146 = 1.658; at n=25, 10^(300*5/2000)=10^0.75=5.623, P_upset=0.1510, gain 4*5*0.1510=3.02
    w1, _ = fibs_update(1800, 1500, 1)
    w25, _ = fibs_update(1800, 1500, 25)
    assert w1 - 1800 == pytest.approx(1.658, abs=1e-3)
    assert w25 - 1800 == pytest.approx(3.020, abs=1e-3)


def test_zero_length_match_is_refused() -> None:
    with pytest.raises(RatingError) as err:
        fibs_update(1500, 1500, 0)
    assert err.value.code == "bad-match-length"


# --- rule T12c: the newcomer boost -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("m", "k"),
    [
        (0, 5.0),  # newcomer: 5 - 0
        (15, 3.0),  # 5 - 4*15/30 = 3
        (29, 5 - 4 * 29 / 30),  # last provisional match: 1.1333
        (30, 1.0),  # from the 30th finished match on: 1
        (200, 1.0),
    ],
)
def test_default_k_counts_matches(m: int, k: float) -> None:
    # rule T12c: K = max(1, 5 - 4*m/30), the first 30 matches are provisional
    assert k_factor(m) == pytest.approx(k)


def test_fibs_experience_rule_is_an_option() -> None:
    # rule T12c: FIBS K = max(1, 5 - experience/100): 0 -> 5, 250 -> 2.5, 400 and more -> 1
    assert k_factor(3, 0, KRule.EXPERIENCE) == 5.0
    assert k_factor(3, 250, KRule.EXPERIENCE) == 2.5
    assert k_factor(3, 400, KRule.EXPERIENCE) == 1.0
    assert k_factor(3, 900, KRule.EXPERIENCE) == 1.0


def test_two_newcomers_history_by_hand() -> None:
    # rule T12c: both start at 1500 with K = 5.
    # Match 1 (5 points), A wins: P = 1/2, step 4*sqrt5*0.5 = 4.47214,
    # A 1500 + 5*4.47214 = 1522.3607, B 1477.6393.
    # Match 2 (3 points), B wins: D = 44.7214, 10^(44.7214*1.73205/2000) = 10^0.038730 = 1.093278,
    # P_upset = 0.477720; B was lower so P = 0.522280; K = 5 - 4*1/30 = 4.866667 for both;
    # step 4*1.73205*0.522280 = 3.618461; K*step = 17.60984: A 1504.7508, B 1495.2492.
    ms = [
        RatedMatch("m1", D0, "A", "B", 5),
        RatedMatch("m2", D0 + timedelta(days=7), "B", "A", 3),
    ]
    hist_a = rating_history("A", ms)
    assert [c.match_id for c in hist_a] == ["m1", "m2"]
    assert hist_a[0].before == INITIAL_RATING
    assert hist_a[0].after == pytest.approx(1522.3607, abs=1e-4)
    assert hist_a[1].k == pytest.approx(4.866667, abs=1e-6)
    assert hist_a[1].after == pytest.approx(1504.7508, abs=1e-4)
    assert hist_a[1].won is False
    book = rate_matches(ms)
    assert book.rating("B") == pytest.approx(1495.2492, abs=1e-4)
    assert book.state("B").matches == 2 and book.state("B").experience == 8
    assert book.state("B").provisional


def test_forfeit_changes_no_rating() -> None:
    # rule T9a with T12c (our reading): a forfeit is not played, so it is not rated and adds no experience
    book = rate_matches([RatedMatch("f", D0, "A", "B", 7, forfeit=True)])
    assert book.rating("A") == INITIAL_RATING and book.rating("B") == INITIAL_RATING
    assert book.state("A").matches == 0


def test_established_players_start_from_their_ratings() -> None:
    # rule T12c: both past the boost (K = 1), 1600 beats 1500 in 5 points: +-3.8996 as the worked example
    init = {"A": RatingState(1600.0, 40, 300), "B": RatingState(1500.0, 35, 250)}
    book = rate_matches([RatedMatch("m", D0, "A", "B", 5)], init)
    assert book.rating("A") == pytest.approx(1603.8996, abs=1e-4)
    assert book.rating("B") == pytest.approx(1496.1004, abs=1e-4)


def test_an_older_match_entered_late_needs_a_recompute() -> None:
    book = RatingBook()
    book.apply(RatedMatch("m2", D0 + timedelta(days=1), "A", "B", 5))
    with pytest.raises(RatingError) as err:
        book.apply(RatedMatch("m1", D0, "B", "A", 5))
    assert err.value.code == "out-of-order"


# --- rule T12c: recompute after a correction == incremental -------------------------------------------------

players = st.sampled_from(["ali", "budi", "can", "deniz", "eko", "fatma"])
match_st = st.tuples(
    players, players, st.sampled_from([1, 3, 5, 7, 9, 11]), st.integers(0, 20), st.booleans()
)


def _matches(raw: list[tuple[str, str, int, int, bool]]) -> list[RatedMatch]:
    out = []
    for i, (w, lo, n, day, forfeit) in enumerate(raw):
        if w != lo:
            out.append(RatedMatch(f"m{i}", D0 + timedelta(days=day), w, lo, n, sequence=i, forfeit=forfeit))
    return out


@settings(max_examples=150, deadline=None)
@given(raw=st.lists(match_st, max_size=40), shuffle_seed=st.integers(0, 1000), fix=st.integers(0, 39))
def test_full_recompute_equals_incremental_after_a_correction(
    raw: list[tuple[str, str, int, int, bool]], shuffle_seed: int, fix: int
) -> None:
    # rule T12c: a correction (winner and loser swapped on one match) followed by a full recompute, in
    # any input order, gives exactly the ratings the incremental updates give when the corrected results
    # come in date order
    ms = _matches(raw)
    if ms:
        i = fix % len(ms)
        m = ms[i]
        ms[i] = RatedMatch(m.match_id, m.played_on, m.loser, m.winner, m.match_length, m.sequence, m.forfeit)
    incremental = RatingBook()
    for m in sorted(ms, key=lambda m: (m.played_on, m.sequence)):
        incremental.apply(m)
    shuffled = list(ms)
    random.Random(shuffle_seed).shuffle(shuffled)
    recomputed = rate_matches(shuffled)
    assert recomputed.states == incremental.states  # exact float equality
    assert recomputed.changes == incremental.changes


@settings(max_examples=100, deadline=None)
@given(raw=st.lists(match_st, max_size=30))
def test_ratings_are_zero_sum_when_everyone_has_the_same_k(
    raw: list[tuple[str, str, int, int, bool]],
) -> None:
    # rule T12c: with K = 1 for both, the winner gains exactly what the loser loses
    book = rate_matches(_matches(raw), rule=KRule.NONE)
    total = sum(s.rating for s in book.states.values())
    assert total == pytest.approx(INITIAL_RATING * len(book.states), abs=1e-6)
