"""Season points, season table, Super Final list and starting lives (rules T12d, T9c, T4g, T12a).

Season points are integers in hundredths (1450 = 14.50 points). All expected values worked by hand.
"""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubdesk.standings.season import (
    LivesBand,
    LivesTable,
    Placing,
    SeasonError,
    SeasonEvent,
    SeasonScale,
    SeasonTiebreak,
    Tier,
    event_scores,
    place_points,
    season_standings,
    starting_lives,
    super_final_invitations,
)

BASE = (25, 20, 16, 13, 10, 8, 6, 4)
COEF = {"local": 100, "regional": 150, "national": 200, "major": 300}  # x1, x1.5, x2, x3
SCALE = SeasonScale(BASE, COEF)


# --- rule T12d: base points x coefficient, shared places share the average ----------------------------------


def test_single_places_times_coefficient() -> None:
    # rule T12d: 1st at a Major: 25 x 3 = 75.00; 2nd at a Regional: 20 x 1.5 = 30.00
    assert place_points(SCALE, Tier.MAJOR, 1, 1) == 7500
    assert place_points(SCALE, Tier.REGIONAL, 2, 2) == 3000


def test_shared_places_share_the_average() -> None:
    # rule T12d + T12a: places 3-4 at a Local: (16 + 13) / 2 = 14.50
    assert place_points(SCALE, Tier.LOCAL, 3, 4) == 1450
    # places 5-8 at a Major: (10 + 8 + 6 + 4) / 4 x 3 = 7 x 3 = 21.00
    assert place_points(SCALE, Tier.MAJOR, 5, 8) == 2100
    # places 2-4 at a Local: (20 + 16 + 13) / 3 = 16.333... -> 16.33 (rounded to the hundredth)
    assert place_points(SCALE, Tier.LOCAL, 2, 4) == 1633
    # places 2-4 at a Regional: 49 x 1.5 / 3 = 24.50 exactly
    assert place_points(SCALE, Tier.REGIONAL, 2, 4) == 2450


def test_half_hundredth_rounds_up() -> None:
    # x1.25 coefficient, places 3-4: (16 + 13) x 1.25 / 2 = 18.125 -> 18.13
    scale = SeasonScale(BASE, {"club": 125})
    assert place_points(scale, "club", 3, 4) == 1813


def test_places_beyond_the_table_are_worth_nothing() -> None:
    # rule T12d: 9th gets 0; places 8-9 shared: (4 + 0) / 2 = 2.00
    assert place_points(SCALE, Tier.LOCAL, 9, 9) == 0
    assert place_points(SCALE, Tier.LOCAL, 8, 9) == 200
    assert place_points(SCALE, Tier.LOCAL, 9, 16) == 0


def test_unknown_tier_is_refused() -> None:
    with pytest.raises(SeasonError) as err:
        place_points(SCALE, "galactic", 1, 1)
    assert err.value.code == "unknown-tier"


def test_disqualified_gets_no_points() -> None:
    # rule T9c: disqualified on 1st place of a Local gets 0, the others keep their places' points
    ev = SeasonEvent(
        "E",
        "local",
        date(2025, 1, 1),
        (Placing("x", 1, disqualified=True), Placing("y", 2), Placing("z", 3)),
    )
    got = {s.entrant: s.points for s in event_scores(ev, SCALE)}
    assert got == {"x": 0, "y": 2000, "z": 1600}


# --- a season of three events ----------------------------------------------------------------------------

E1 = SeasonEvent(
    "E1",
    "local",
    date(2025, 1, 10),
    (Placing("A", 1), Placing("B", 2), Placing("C", 3, 4), Placing("D", 3, 4, order=1), Placing("E", 5)),
)
E2 = SeasonEvent(
    "E2",
    "regional",
    date(2025, 2, 10),
    (
        Placing("B", 1),
        Placing("C", 2),
        Placing("A", 3),
        Placing("D", 4, disqualified=True),
        Placing("E", 5),
    ),
)
E3 = SeasonEvent(
    "E3",
    "major",
    date(2025, 3, 10),
    (Placing("C", 1, 2), Placing("A", 1, 2, order=1), Placing("B", 3), Placing("E", 4)),
)
# Points by hand (hundredths):
# E1 local  x1  : A 25 -> 2500, B 20 -> 2000, C and D share 3-4: (16+13)/2 = 14.5 -> 1450, E 10 -> 1000
# E2 regional x1.5: B 25 -> 3750, C 20 -> 3000, A 16 -> 2400, D disqualified -> 0 (not counted), E 10 -> 1500
# E3 major  x3  : C and A share 1-2: (25+20)/2 x 3 = 67.5 -> 6750 each, B 16 x 3 -> 4800, E 13 x 3 -> 3900
# All results: A 2500+2400+6750 = 11650, C 1450+3000+6750 = 11200, B 2000+3750+4800 = 10550,
#              E 1000+1500+3900 = 6400, D 1450


def test_season_table_all_results() -> None:
    # rule T12d
    rows = season_standings([E1, E2, E3], SCALE)
    assert [(r.rank, r.entrant, r.points) for r in rows] == [
        (1, "A", 11650),
        (2, "C", 11200),
        (3, "B", 10550),
        (4, "E", 6400),
        (5, "D", 1450),
    ]
    assert all(r.decided_by == "SP" for r in rows[1:])
    d = rows[4]
    # rule T9c: D's disqualification is shown but the event counts neither as played nor as a result
    assert d.disqualified_in == ("E2",) and d.events_played == 1


def test_season_table_best_two_of_three() -> None:
    # rule T12d, best 2 of M: A 6750+2500 = 9250 (drops E2's 2400), C 6750+3000 = 9750 (drops 1450),
    # B 4800+3750 = 8550, E 3900+1500 = 5400, D 1450
    rows = season_standings([E3, E1, E2], SeasonScale(BASE, COEF, best_of=2))
    assert [(r.entrant, r.points) for r in rows] == [
        ("C", 9750),
        ("A", 9250),
        ("B", 8550),
        ("E", 5400),
        ("D", 1450),
    ]
    a = rows[1]
    assert [s.event_id for s in a.counted] == ["E3", "E1"]
    assert [(s.event_id, s.points) for s in a.dropped] == [("E2", 2400)]


# --- season tie-breaks: more events counted, best single result, then a seeded lot --------------------------

TB_BASE = (30, 20, 10)
TB_EVENTS = [
    SeasonEvent("T1", "local", date(2025, 4, 1), (Placing("X", 1), Placing("Y", 2), Placing("Z", 3))),
    SeasonEvent(
        "T2",
        "local",
        date(2025, 5, 1),
        (Placing("W", 1, disqualified=True), Placing("Z", 2), Placing("Y", 3)),
    ),
]
# X: 30 (one event); Y: 20 + 10 = 30 (two); Z: 10 + 20 = 30 (two); W disqualified: 0


def test_more_events_counted_then_lot() -> None:
    rows = season_standings(TB_EVENTS, SeasonScale(TB_BASE, {"local": 100}, seed=7))
    assert [r.points for r in rows] == [3000, 3000, 3000, 0]
    assert {rows[0].entrant, rows[1].entrant} == {"Y", "Z"}  # two results each, best 20 then 10: a lot
    assert rows[1].decided_by == "LOT"
    assert rows[2].entrant == "X" and rows[2].decided_by == "EVENTS"
    assert rows[3].entrant == "W" and rows[3].decided_by == "SP"


def test_best_single_result_first_when_chosen() -> None:
    scale = SeasonScale(TB_BASE, {"local": 100}, tiebreaks=(SeasonTiebreak.BEST, SeasonTiebreak.EVENTS))
    rows = season_standings(TB_EVENTS, scale)
    assert rows[0].entrant == "X"  # best single result 30 beats 20
    assert rows[1].decided_by == "BEST"
    assert rows[2].decided_by == "LOT"


def test_the_lot_is_reproducible_and_really_a_lot() -> None:
    def first(seed: int) -> str:
        return season_standings(TB_EVENTS, SeasonScale(TB_BASE, {"local": 100}, seed=seed))[0].entrant

    assert first(3) == first(3)
    assert {first(s) for s in range(30)} == {"Y", "Z"}


# --- Super Final and starting lives ---


def test_super_final_top_k_and_declines() -> None:
    # rule T12d: the season's top 3 are A, C, B; when C declines, E (4th) moves up
    rows = season_standings([E1, E2, E3], SCALE)
    assert [r.entrant for r in super_final_invitations(rows, 3)] == ["A", "C", "B"]
    assert [r.entrant for r in super_final_invitations(rows, 3, declined={"C"})] == ["A", "B", "E"]


def test_no_points_no_invitation() -> None:
    rows = season_standings(TB_EVENTS, SeasonScale(TB_BASE, {"local": 100}))
    assert "W" not in [r.entrant for r in super_final_invitations(rows, 10)]


def test_starting_lives_by_season_rank() -> None:
    # rule T4g: rank 1 -> 3 lives, ranks 2-3 -> 2, others 1.
    # Finalists A (1st), B (3rd), E (4th) after C declined
    rows = season_standings([E1, E2, E3], SCALE)
    finalists = super_final_invitations(rows, 3, declined={"C"})
    table = LivesTable((LivesBand(1, 1, 3), LivesBand(2, 3, 2)), default_lives=1)
    assert starting_lives(finalists, table) == {"A": 3, "B": 2, "E": 1}
    # by position among the finalists instead: A 1st -> 3, B 2nd -> 2, E 3rd -> 2
    by_pos = LivesTable(table.bands, default_lives=1, by_final_position=True)
    assert starting_lives(finalists, by_pos) == {"A": 3, "B": 2, "E": 2}


def test_overlapping_lives_bands_are_refused() -> None:
    with pytest.raises(SeasonError) as err:
        LivesTable((LivesBand(1, 2, 3), LivesBand(2, 4, 2)))
    assert err.value.code == "overlapping-lives-bands"


# --- properties ---


@settings(max_examples=150, deadline=None)
@given(
    base=st.lists(st.integers(0, 100), min_size=1, max_size=12).map(
        lambda xs: tuple(sorted(xs, reverse=True))
    ),
    coef=st.integers(0, 500),
    a=st.integers(1, 14),
    width=st.integers(0, 6),
)
def test_a_shared_group_gets_the_places_points_up_to_rounding(
    base: tuple[int, ...], coef: int, a: int, width: int
) -> None:
    # rule T12d: n entrants sharing places a..a+n-1 get together what those places are worth, within
    # half a hundredth each
    scale = SeasonScale(base, {"t": coef})
    b = a + width
    n = b - a + 1
    whole = sum((base[p - 1] if p <= len(base) else 0) for p in range(a, b + 1)) * coef
    each = place_points(scale, "t", a, b)
    assert abs(each * n - whole) * 2 <= n


@settings(max_examples=100, deadline=None)
@given(
    field=st.lists(st.sampled_from("ABCDEFGH"), min_size=1, max_size=8, unique=True),
    seed=st.integers(0, 10**6),
    best=st.one_of(st.none(), st.integers(1, 3)),
)
def test_season_table_is_ordered_and_complete(field: list[str], seed: int, best: int | None) -> None:
    events = []
    for k in range(3):
        order = field[k:] + field[:k]
        events.append(
            SeasonEvent(
                f"e{k}", "local", date(2025, 1, 1 + k), tuple(Placing(e, i + 1) for i, e in enumerate(order))
            )
        )
    rows = season_standings(events, SeasonScale(BASE, COEF, best_of=best, seed=seed))
    assert sorted(r.entrant for r in rows) == sorted(field)
    assert [r.rank for r in rows] == list(range(1, len(field) + 1))
    assert all(x.points >= y.points for x, y in zip(rows, rows[1:], strict=False))
    if best is not None:
        assert all(len(r.counted) <= best for r in rows)
