"""Hypothesis properties of the standings (issue 8): a permutation of the entrants, independent of
the entrants' names, and a later tie-break never reorders entrants an earlier one separated."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from clubdesk.standings import (
    CHESS_SCHEME,
    TIEBREAK_CODES,
    Format,
    MatchKind,
    MatchResult,
    Unplayed,
    event_from_matches,
    standings,
    tiebreak_values,
)


@st.composite
def events(draw: st.DrawFn) -> tuple[list[str], list[MatchResult], set[str], Format]:
    n = draw(st.integers(2, 9))
    rounds = draw(st.integers(1, 5))
    seed = draw(st.integers(0, 10**6))
    rnd = random.Random(seed)
    ids = [f"p{i}" for i in range(n)]
    matches: list[MatchResult] = []
    for r in range(1, rounds + 1):
        order = ids[:]
        rnd.shuffle(order)
        if len(order) % 2:
            kind = rnd.choice([MatchKind.BYE, MatchKind.HALF_BYE, MatchKind.ZERO_BYE])
            matches.append(MatchResult(r, order.pop(), None, kind=kind))
        for a, b in zip(order[::2], order[1::2], strict=True):
            sa, sb = rnd.choice([(1, 0), (0, 1), (1, 1)])
            kind = MatchKind.FORFEIT if sa != sb and rnd.random() < 0.1 else MatchKind.PLAYED
            matches.append(MatchResult(r, a, b, sa, sb, kind=kind))
    dq = {i for i in ids if rnd.random() < 0.1}
    fmt = draw(st.sampled_from([Format.SWISS, Format.ROUND_ROBIN]))
    return ids, matches, dq, fmt


codes_st = st.lists(st.sampled_from(TIEBREAK_CODES[1:]), max_size=5, unique=True).map(lambda c: ("PTS", *c))


@settings(max_examples=150, deadline=None)
@given(events(), codes_st)
def test_standings_are_a_permutation_of_the_ranked(ev: tuple, codes: tuple[str, ...]) -> None:
    ids, matches, dq, fmt = ev
    event = event_from_matches(ids, matches, CHESS_SCHEME, fmt=fmt, disqualified=dq)
    rows = standings(event, codes).rows
    assert sorted(r.entrant for r in rows) == sorted(set(ids) - dq)
    # ranks start at 1 and a shared rank is the first place of its tie
    for i, r in enumerate(rows):
        assert r.rank == (rows[i - 1].rank if i and rows[i - 1].rank == r.rank else i + 1)


@settings(max_examples=150, deadline=None)
@given(events(), codes_st)
def test_renaming_entrants_changes_no_value(ev: tuple, codes: tuple[str, ...]) -> None:
    ids, matches, dq, fmt = ev
    new = {e: f"zz-{e[::-1]}" for e in ids}
    renamed = [
        MatchResult(m.round, new[m.a], new[m.b] if m.b else None, m.score_a, m.score_b, kind=m.kind)
        for m in matches
    ]
    a = standings(event_from_matches(ids, matches, CHESS_SCHEME, fmt=fmt, disqualified=dq), codes)
    b = standings(
        event_from_matches(
            [new[e] for e in ids], renamed, CHESS_SCHEME, fmt=fmt, disqualified={new[e] for e in dq}
        ),
        codes,
    )
    got_a = {new[r.entrant]: (r.rank, r.tiebreaks, r.playoff) for r in a.rows}
    got_b = {r.entrant: (r.rank, r.tiebreaks, r.playoff) for r in b.rows}
    assert got_a == got_b


@settings(max_examples=150, deadline=None)
@given(events(), codes_st)
def test_later_tiebreak_never_reorders_separated_entrants(ev: tuple, codes: tuple[str, ...]) -> None:
    ids, matches, dq, fmt = ev
    event = event_from_matches(ids, matches, CHESS_SCHEME, fmt=fmt, disqualified=dq)
    prev = {r.entrant: r.rank for r in standings(event, codes[:1]).rows}
    for k in range(2, len(codes) + 1):
        cur = {r.entrant: r.rank for r in standings(event, codes[:k]).rows}
        for x in prev:
            for y in prev:
                if prev[x] < prev[y]:
                    assert cur[x] < cur[y], (codes[:k], x, y)
        prev = cur


# ------------------------------------------------------------------ rule T12b: bh_unplayed = none (issue 29)


@settings(max_examples=150, deadline=None)
@given(events())
def test_plain_sum_buchholz_is_the_sum_of_the_real_opponents_points(ev: tuple) -> None:
    # rule T12b (seed 003 §4, §8, §12): with bh_unplayed = none, BH = the real points of every scheduled
    # opponent: a forfeit's opponent counts like any opponent (the forfeit is on the record as length–0);
    # a bye adds nothing
    ids, matches, dq, fmt = ev
    event = event_from_matches(ids, matches, CHESS_SCHEME, fmt=fmt, disqualified=dq)
    pts = {e: Fraction(0) for e in ids}
    for m in matches:
        if m.b is None:
            pts[m.a] += {MatchKind.BYE: 1, MatchKind.HALF_BYE: Fraction(1, 2)}.get(m.kind, 0)
        elif m.score_a == m.score_b:
            pts[m.a] += Fraction(1, 2)
            pts[m.b] += Fraction(1, 2)
        else:
            pts[m.a if m.score_a > m.score_b else m.b] += 1
    expected = {e: Fraction(0) for e in ids}
    for m in matches:
        if m.b is not None and m.kind in (MatchKind.PLAYED, MatchKind.FORFEIT):
            expected[m.a] += pts[m.b]
            expected[m.b] += pts[m.a]
    got = tiebreak_values(event, ["BH"], unplayed=Unplayed.NONE)
    assert {e: Fraction(v["BH"]) for e, v in got.items()} == expected


@settings(max_examples=150, deadline=None)
@given(events(), codes_st)
def test_plain_sum_standings_are_still_a_permutation(ev: tuple, codes: tuple[str, ...]) -> None:
    ids, matches, dq, fmt = ev
    event = event_from_matches(ids, matches, CHESS_SCHEME, fmt=fmt, disqualified=dq)
    rows = standings(event, codes, unplayed=Unplayed.NONE).rows
    assert sorted(r.entrant for r in rows) == sorted(set(ids) - dq)
