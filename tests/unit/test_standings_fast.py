"""The standings' fast path (issue 22) against straightforward reference computations on random events.

``event_from_rows`` builds the engine's input from stored tables in one pass, and the calculator sums
the head-to-head differences (IAV, GAV) and the plain Buchholz once per entrant. Here the same events are
built the plain way (one record per side and round, from ``PointsScheme.points_for``, sorted by round;
rule BC3's both-lost tables as a forfeit loss each) and the values summed game by game; they must agree
exactly, and so must the whole standings table (rules T12b, BC3, T9c).
"""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from clubdesk.standings import (
    TIEBREAK_CODES,
    EventData,
    Format,
    Kind,
    PointsScheme,
    RoundRecord,
    Rules,
    TiebreakCalculator,
    Unplayed,
    standings,
)
from clubdesk.standings.records import MatchRow, event_from_rows
from clubdesk.standings.summed import SUMMED_CODES, pair_sums_from_rows, summed_calculator
from clubdesk.standings.table import standings_with

BYES = {"bye": Kind.BYE, "zero-bye": Kind.ZERO_BYE, "half-bye": Kind.HALF_BYE, "full-bye": Kind.FULL_BYE}


def reference(entrants: list[str], rows: list[MatchRow], scheme: PointsScheme, fmt: Format) -> EventData:
    """One record per side, game by game, sorted by round (stable): the plain reading of stored tables."""
    recs: dict[str, list[RoundRecord]] = {e: [] for e in entrants}
    late: dict[str, list[RoundRecord]] = {e: [] for e in entrants}
    rounds = 0
    for rnd, a, b, kind, sa, sb, pa, pb, _w, _ref in rows:
        if kind in BYES:
            recs[a].append(RoundRecord(rnd, BYES[kind], scheme.points_for(BYES[kind])))
        elif b is None:
            continue
        elif kind == "both-lost":  # rule BC3: lost by both, a forfeit loss each
            late[a].append(RoundRecord(rnd, Kind.FORFEIT_LOSS, scheme.forfeit_loss, b))
            late[b].append(RoundRecord(rnd, Kind.FORFEIT_LOSS, scheme.forfeit_loss, a))
        else:
            fa = sa if pa is None else pa
            fb = sb if pb is None else pb
            out = (sa > sb) - (sa < sb)
            if kind == "forfeit":
                ka, kb = (
                    (Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS)
                    if out > 0
                    else (Kind.FORFEIT_LOSS, Kind.FORFEIT_WIN)
                )
                pts_a, pts_b = scheme.points_for(ka), scheme.points_for(kb)
            else:
                ka = kb = Kind.PLAYED
                pts_a, pts_b = scheme.points_for(ka, out), scheme.points_for(kb, -out)
            recs[a].append(RoundRecord(rnd, ka, pts_a, b, fa, fb))
            recs[b].append(RoundRecord(rnd, kb, pts_b, a, fb, fa))
        rounds = max(rounds, rnd)
    records = {
        e: tuple(sorted(sorted(recs[e], key=lambda r: r.round) + late[e], key=lambda r: r.round))
        for e in entrants
    }
    return EventData(tuple(entrants), records, scheme, fmt, rounds)


@st.composite
def stored_events(draw: st.DrawFn) -> tuple[list[str], list[MatchRow], PointsScheme, Format]:
    n = draw(st.integers(2, 10))
    n_rounds = draw(st.integers(1, 6))
    rng = random.Random(draw(st.integers(0, 10**6)))
    ids = [f"e{i}" for i in range(n)]
    rows: list[MatchRow] = []
    for r in range(1, n_rounds + 1):
        order = ids[:]
        rng.shuffle(order)
        if len(order) % 2:
            rows.append((r, order.pop(), None, rng.choice(list(BYES)), 0, 0, None, None, None, ""))
        for a, b in zip(order[::2], order[1::2], strict=True):
            kind = rng.choice(["played"] * 6 + ["forfeit", "both-lost"])
            sa, sb = rng.choice([(5, 2), (1, 5), (3, 3), (5, 0)])
            if kind == "forfeit" and sa == sb:
                sa = sb + 1
            pts = (rng.randint(0, 90), rng.randint(0, 90)) if rng.random() < 0.3 else (None, None)
            rows.append((r, a, b, kind, sa, sb, pts[0], pts[1], None, ""))
    if draw(st.booleans()):
        rng.shuffle(rows)  # stored tables need not come in round order
    scheme = draw(st.sampled_from([PointsScheme(), PointsScheme(win=2, draw=1, scale=2), PointsScheme(3, 1)]))
    fmt = draw(st.sampled_from([Format.SWISS, Format.ROUND_ROBIN]))
    return ids, rows, scheme, fmt


@settings(max_examples=200, deadline=None)
@given(stored_events())
def test_one_pass_input_equals_the_plain_reading(ev: tuple) -> None:
    ids, rows, scheme, fmt = ev
    fast = event_from_rows(ids, rows, scheme, fmt=fmt)
    ref = reference(ids, rows, scheme, fmt)
    assert fast.records == ref.records
    assert fast.rounds == ref.rounds


@settings(max_examples=200, deadline=None)
@given(stored_events(), st.sampled_from(list(Unplayed)), st.sampled_from(list(Rules)), st.data())
def test_summed_values_equal_game_by_game_sums(
    ev: tuple, unplayed: Unplayed, rules: Rules, data: st.DataObject
) -> None:
    # rule T12b: IAV among a group and GAV over all games, the Buchholz of the opponents' points
    ids, rows, scheme, fmt = ev
    event = event_from_rows(ids, rows, scheme, fmt=fmt)
    calc = TiebreakCalculator(event, rules, unplayed)
    ref = reference(ids, rows, scheme, fmt)
    gav = {e: sum(r.score_for - r.score_against for r in ref.records[e] if r.opponent) for e in ids}
    assert calc.values("GAV") == gav
    group = data.draw(st.sets(st.sampled_from(ids), min_size=1))
    assert calc.iav(group) == {
        e: sum(r.score_for - r.score_against for r in ref.records[e] if r.opponent in group) for e in group
    }
    # Buchholz without a cut: the same contributions the cut variants start from, summed
    plain = TiebreakCalculator(ref, rules, unplayed)
    contrib = plain._contributions()
    assert calc.values("BH") == {e: Fraction(sum(c[1] for c in contrib[e]), 2) for e in ids}
    if unplayed is Unplayed.NONE:  # seed 003's plain sum: every scheduled opponent's real points (T12b)
        pts = {e: sum(r.points for r in ref.records[e]) for e in ids}
        scheduled = (Kind.PLAYED, Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS)  # a forfeit's opponent counts too
        assert calc.values("BH") == {
            e: Fraction(sum(pts[r.opponent] for r in ref.records[e] if r.kind in scheduled and r.opponent))
            for e in ids
        }


@settings(max_examples=150, deadline=None)
@given(stored_events(), st.lists(st.sampled_from(TIEBREAK_CODES[1:]), max_size=4, unique=True))
def test_whole_table_equals_the_plain_reading(ev: tuple, codes: list[str]) -> None:
    ids, rows, scheme, fmt = ev
    tb = ("PTS", *codes)
    fast = standings(event_from_rows(ids, rows, scheme, fmt=fmt), tb)
    ref = standings(reference(ids, rows, scheme, fmt), tb)
    assert fast == ref


@settings(max_examples=200, deadline=None)
@given(
    stored_events(),
    st.lists(st.sampled_from(sorted(SUMMED_CODES - {"PTS"})), max_size=4, unique=True),
    st.sampled_from(list(Unplayed)),
    st.data(),
)
def test_pair_sums_give_the_game_by_game_table(
    ev: tuple, codes: list[str], unplayed: Unplayed, data: st.DataObject
) -> None:
    # issue 22: the database sums the plain played games per pair; points, IAV, GAV, BH and wins from
    # those sums (and the other tables one by one) equal the game-by-game table (rules T12b, BC3)
    ids, rows, scheme, fmt = ev
    dq = data.draw(st.sets(st.sampled_from(ids), max_size=2))
    tb = ("PTS", *codes)
    sums, rest = pair_sums_from_rows(rows)
    others = event_from_rows(ids, rest, scheme, fmt=fmt)
    calc = summed_calculator(ids, sums, others, tb, unplayed=unplayed)
    assert calc is not None  # one table per entrant and round: nothing it cannot be sure of
    fast = standings_with(calc, ids, tb, scale=scheme.scale, disqualified=dq)
    event = event_from_rows(ids, rows, scheme, fmt=fmt, disqualified=dq)
    assert fast == standings(event, tb, unplayed=unplayed)
    full = TiebreakCalculator(event, unplayed=unplayed)
    for c in ("PTS", "GAV", "BH", "WIN"):
        assert calc.values(c) == full.values(c)
    assert summed_calculator(ids, sums, others, ("PTS", "SB")) is None  # a code it does not sum


def test_a_withdrawal_after_the_last_game_counts_as_draws_for_the_opponents() -> None:
    # rule T9b / FIDE C.07 16.3: b plays rounds 1-2 and withdraws (zero-point byes in rounds 3-4);
    # for a's Buchholz b counts 1 (his win) + 2 x half a win = 2 points, whether the games come summed
    rows: list[MatchRow] = [
        (1, "a", "b", "played", 0, 1, None, None, None, ""),
        (1, "c", "d", "played", 1, 0, None, None, None, ""),
        (2, "a", "c", "played", 1, 0, None, None, None, ""),
        (2, "b", "d", "played", 0, 1, None, None, None, ""),
        (3, "b", None, "zero-bye", 0, 0, None, None, None, ""),
        (4, "b", None, "zero-bye", 0, 0, None, None, None, ""),
    ]
    ids = ["a", "b", "c", "d"]
    sums, rest = pair_sums_from_rows(rows)
    calc = summed_calculator(ids, sums, event_from_rows(ids, rest), ("PTS", "BH"))
    assert calc is not None
    assert calc.values("BH")["a"] == 2 + 1  # b: 1 + 2 x 1/2; c: 1
    assert calc.values("BH") == TiebreakCalculator(event_from_rows(ids, rows)).values("BH")
