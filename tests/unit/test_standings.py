"""Standings, tie-break order, explanations, play-offs, disqualification and elimination places.

Every expected value is worked out by hand in the comments from RULES.md / REFERENCES.md.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from clubdesk.i18n import set_language
from clubdesk.standings import (
    CHESS_SCHEME,
    DEFAULT_TIEBREAKS,
    Format,
    MatchKind,
    MatchResult,
    PointsScheme,
    elimination_places,
    event_from_matches,
    standings,
)

TAVLA = PointsScheme(win=1, loss=0)  # rule T4f: points per win / loss set per league


@pytest.fixture(autouse=True)
def _english() -> None:
    set_language("en")


def tavla_swiss() -> list[MatchResult]:
    # scores are capped tavla match points (5-point matches)
    m = MatchResult
    return [
        m(1, "A", "B", 5, 1), m(1, "C", "D", 5, 2), m(1, "E", "F", 5, 2), m(1, "G", "H", 5, 4),
        m(2, "A", "C", 5, 0), m(2, "E", "G", 5, 3), m(2, "B", "H", 5, 2), m(2, "D", "F", 5, 1),
        m(3, "A", "E", 5, 4), m(3, "C", "G", 5, 1), m(3, "B", "D", 5, 2), m(3, "F", "H", 5, 3),
    ]  # fmt: skip


def test_tavla_swiss_in_t12b_order() -> None:
    # rule T12b: points, head-to-head point difference (IAV), overall point difference (GAV), Buchholz.
    # Points: A WWW 3; B LWW, C WLW, E WWL 2; D LWL, F LLW, G WLL 1; H 0.
    # 2 points {B, C, E}: none met each other, IAV 0 for all. GAV: B -4+3+3 = +2, C +3-5+4 = +2,
    #   E +3+2-1 = +4 -> E; B and C still tied -> BH: B = A 3 + H 0 + D 1 = 4, C = D 1 + A 3 + G 1 = 5.
    # 1 point {D, F, G}: only D-F met (5-1): IAV D +4, G 0, F -4.
    event = event_from_matches("ABCDEFGH", tavla_swiss(), TAVLA)
    assert DEFAULT_TIEBREAKS["tavla"] == ("PTS", "IAV", "GAV", "BH")
    st = standings(event, DEFAULT_TIEBREAKS["tavla"])
    assert st.order() == ["A", "E", "C", "B", "D", "G", "F", "H"]
    assert [r.rank for r in st.rows] == [1, 2, 3, 4, 5, 6, 7, 8]
    row = {r.entrant: r for r in st.rows}
    assert row["C"].tiebreaks["BH"] == 5 and row["B"].tiebreaks["BH"] == 4
    assert row["E"].tiebreaks["GAV"] == 4
    # every place inside a points group explains itself
    lines = [line for ex in st.explanations for line in ex.lines]
    assert lines == [
        "E ahead of C: overall point difference +4 vs +2",
        "C ahead of B: Buchholz 5 vs 4",
        "D ahead of G: point difference among the tied +4 vs 0",
        "G ahead of F: point difference among the tied 0 vs −4",
    ]


def test_names_in_explanations_are_the_callers() -> None:
    event = event_from_matches("ABCDEFGH", tavla_swiss(), TAVLA)
    st = standings(event, ("PTS", "IAV", "GAV", "BH"), names={"C": "Cem", "B": "Budi"})
    assert "Cem ahead of Budi: Buchholz 5 vs 4" in st.explanations[0].lines


def test_three_way_tie_left_by_direct_encounter_goes_to_point_difference() -> None:
    # domino-es preset (PTS, DE, GAV), round robin of four, score = games won.
    m = MatchResult
    matches = [
        m(1, "Ali", "Budi", 2, 0), m(1, "Cem", "Dedi", 2, 1),
        m(2, "Ali", "Cem", 0, 2), m(2, "Budi", "Dedi", 2, 0),
        m(3, "Ali", "Dedi", 2, 1), m(3, "Budi", "Cem", 2, 1),
    ]  # fmt: skip
    # points: Ali W L W = 2, Budi L W W = 2, Cem W W L = 2, Dedi 0.
    # mutual among {Ali, Budi, Cem}: each won once -> 1-1-1, all met: DE leaves them tied.
    # GAV (games): Ali +2 -2 +1 = +1, Budi -2 +2 +1 = +1, Cem +1 +2 -1 = +2 -> Cem | {Ali, Budi}.
    event = event_from_matches(
        ["Ali", "Budi", "Cem", "Dedi"], matches, PointsScheme(), fmt=Format.ROUND_ROBIN
    )
    st = standings(event, DEFAULT_TIEBREAKS["domino-es"])
    assert st.order() == ["Cem", "Ali", "Budi", "Dedi"]
    assert [r.rank for r in st.rows] == [1, 2, 2, 4]
    assert st.explanations[0].lines == (
        "Cem ahead of Ali: overall point difference +2 vs +1",
        "Ali and Budi remain tied after direct encounter, overall point difference",
    )
    assert not st.rows[1].playoff  # the tie is on place 2, which decides nothing by default


def test_two_way_direct_encounter() -> None:
    # Ali and Budi 2 wins each, Ali beat Budi; Cem and Dedi 1 win each, Dedi beat Cem.
    m = MatchResult
    matches = [
        m(1, "Ali", "Budi", 2, 1), m(1, "Cem", "Dedi", 0, 2),
        m(2, "Ali", "Cem", 0, 2), m(2, "Budi", "Dedi", 2, 0),
        m(3, "Ali", "Dedi", 2, 0), m(3, "Budi", "Cem", 2, 0),
    ]  # fmt: skip
    # Ali W L W = 2, Budi L W W = 2, Cem L W L = 1, Dedi W L L = 1.
    event = event_from_matches(
        ["Ali", "Budi", "Cem", "Dedi"], matches, PointsScheme(), fmt=Format.ROUND_ROBIN
    )
    st = standings(event, ("PTS", "DE", "GAV"))
    assert st.order() == ["Ali", "Budi", "Dedi", "Cem"]
    assert st.explanations[0].lines == ("Ali ahead of Budi: direct encounter 1 vs 0",)
    assert st.explanations[1].lines == ("Dedi ahead of Cem: direct encounter 1 vs 0",)


def test_three_way_direct_encounter_explained_pair_by_pair() -> None:
    # Chess Swiss, 3 rounds (win 2, draw 1 stored; shown /2).
    m = MatchResult
    matches = [
        m(1, "A", "B", 1, 0), m(1, "C", "F", 1, 1), m(1, "D", "E", 1, 1),
        m(2, "A", "C", 1, 1), m(2, "B", "E", 1, 0), m(2, "D", "F", 1, 1),
        m(3, "B", "C", 1, 1), m(3, "A", "D", 0, 1), m(3, "E", "F", 0, 1),
    ]  # fmt: skip
    # A W D L = 1.5, B L W D = 1.5, C D D D = 1.5, D D D W = 2.0, F D D W = 2.0, E D L L = 0.5.
    # {D, F}: drew each other -> still tied.  {A, B, C}: all met: A 1 + 0.5 = 1.5, B 0 + 0.5 = 0.5,
    # C 0.5 + 0.5 = 1.0 -> A, C, B.
    event = event_from_matches("ABCDEF", matches, CHESS_SCHEME)
    st = standings(event, ("PTS", "DE"))
    assert st.order() == ["D", "F", "A", "C", "B", "E"]
    assert [r.rank for r in st.rows] == [1, 1, 3, 4, 5, 6]
    assert st.explanations[0].lines == (
        "D and F remain tied after direct encounter; play-off needed for place 1",
    )
    assert st.explanations[1].lines == (
        "A ahead of C: direct encounter 1.5 vs 1",
        "C ahead of B: direct encounter 1 vs 0.5",
    )


def test_three_way_cycle_stays_tied_and_needs_playoff() -> None:
    # rules BC1, BC2 (gaple-club): win 1, loss 0, only points; a tie for first goes to a play-off.
    # Round robin of three: A beat B, B beat C, C beat A -> 1 point each, all first.
    m = MatchResult
    matches = [m(1, "A", "B", 2, 1), m(2, "B", "C", 2, 0), m(3, "C", "A", 2, 1)]
    event = event_from_matches("ABC", matches, PointsScheme(win=1, loss=0), fmt=Format.ROUND_ROBIN)
    assert DEFAULT_TIEBREAKS["gaple-club"] == ("PTS",)
    st = standings(event, DEFAULT_TIEBREAKS["gaple-club"])
    assert [r.rank for r in st.rows] == [1, 1, 1]
    assert all(r.playoff for r in st.rows)
    assert st.explanations[0].lines[0] == "A and B remain tied after points; play-off needed for place 1"
    # with direct encounter the cycle is still a tie: each scored 1 in the mutual games.
    st2 = standings(event, ("PTS", "DE"))
    assert [r.rank for r in st2.rows] == [1, 1, 1]


def test_playoff_only_for_places_that_matter() -> None:
    # A wins everything (first alone); B and C tied for second. Default: only place 1 matters.
    m = MatchResult
    matches = [m(1, "A", "B", 2, 0), m(1, "C", "D", 2, 0), m(2, "A", "C", 2, 0), m(2, "B", "D", 2, 0)]
    event = event_from_matches("ABCD", matches, PointsScheme())
    st = standings(event)
    assert [(r.entrant, r.rank, r.playoff) for r in st.rows] == [
        ("A", 1, False), ("B", 2, False), ("C", 2, False), ("D", 4, False),
    ]  # fmt: skip
    st = standings(event, playoff_places=(1, 2))  # e.g. two places qualify
    assert [r.playoff for r in st.rows] == [False, True, True, False]


def test_disqualified_leaves_ranking_but_counts_for_buchholz() -> None:
    # rule T9c: D is disqualified after winning against A in round 1 and losing to B in round 2.
    m = MatchResult
    matches = [
        m(1, "A", "D", 0, 1), m(1, "B", "C", 1, 0),
        m(2, "A", "C", 1, 0), m(2, "B", "D", 1, 0),
    ]  # fmt: skip
    event = event_from_matches("ABCD", matches, PointsScheme(), disqualified={"D"})
    st = standings(event, ("PTS", "BH"))
    assert st.order() == ["B", "A", "C"]
    # A's Buchholz still holds D's 1 point (REFERENCES: games already played stay): D 1 + C 0 = 1.
    assert st.rows[1].tiebreaks["BH"] == 1


def test_withdrawal_remaining_rounds_count_as_draws_for_opponents() -> None:
    # rule T9b: W withdraws after round 1 (zero-point byes in rounds 2 and 3); A beat W in round 1.
    # For A's Buchholz W's unplayed rounds after his last appearance count as half a win each:
    # W's 0 + 0.5 + 0.5 = 1.0 (stored 2 in chess units).
    m = MatchResult
    matches = [
        m(1, "A", "W", 1, 0), m(1, "B", "C", 1, 0),
        m(2, "W", None, kind=MatchKind.ZERO_BYE), m(2, "A", "B", 1, 1), m(2, "C", None, kind=MatchKind.BYE),
        m(3, "W", None, kind=MatchKind.ZERO_BYE), m(3, "A", "C", 1, 0), m(3, "B", None, kind=MatchKind.BYE),
    ]  # fmt: skip
    event = event_from_matches("ABCW", matches, CHESS_SCHEME)
    st = standings(event, ("PTS", "BH"))
    bh = {r.entrant: r.tiebreaks["BH"] for r in st.rows}
    # A's opponents (stored in chess units: win 2, draw 1):
    #   W: 0 + 1 + 1 = 2 (his two zero-point byes after his last game count as draws);
    #   B: beat C 2, drew A 1, pairing bye 2 = 5 (a pairing bye is not voluntarily unplayed, FIDE C.07
    #      16.3, so B's trailing bye keeps its real value);
    #   C: lost B 0, pairing bye 2, lost A 0 = 2.
    # BH(A) = 2 + 5 + 2 = 9 stored = 4.5 points.
    assert bh["A"] == Fraction(9)


def test_elimination_places_shared_by_round() -> None:
    # rule T12a: single elimination of 8: final lost in round 3, semi-finals out in round 2 share 3-4,
    # quarter-finals out in round 1 share 5-8.
    out = {"W": None, "F": 3, "S1": 2, "S2": 2, "Q1": 1, "Q2": 1, "Q3": 1, "Q4": 1}
    places = {p.entrant: p.label() for p in elimination_places(out)}
    assert places == {
        "W": "1",
        "F": "2",
        "S1": "3–4",
        "S2": "3–4",
        "Q1": "5–8",
        "Q2": "5–8",
        "Q3": "5–8",
        "Q4": "5–8",
    }
    assert DEFAULT_TIEBREAKS["gaple-tournament"] == ()


def test_elimination_places_lives_and_disqualified() -> None:
    # rule T4g / T12a: a lives event stopped with two survivors: more lives left is better; a
    # disqualified player (rule T9c) gets no place and moves nobody down.
    out = {"A": None, "B": None, "C": 4, "D": 2, "E": 2, "X": 3}
    places = {
        p.entrant: p.label() for p in elimination_places(out, lives_left={"A": 1, "B": 2}, disqualified={"X"})
    }
    assert places == {"B": "1", "A": "2", "C": "3", "D": "4–5", "E": "4–5"}


def test_unknown_code_refused() -> None:
    event = event_from_matches("AB", [MatchResult(1, "A", "B", 1, 0)])
    with pytest.raises(ValueError):
        standings(event, ("PTS", "XYZ"))


def test_point_difference_uses_game_points_when_given() -> None:
    # domino-es: the score is games won (decides the match), game points feed GAV.
    # A beat B 2-1 in games, 250-190 in points; B beat C 2-0, 200-80; C beat A 2-1, 240-230.
    # All on 1 win. GAV: A +60 -10 = +50, B -60 +120 = +60, C +10 -120 = -110 -> B, A, C.
    m = MatchResult
    matches = [
        m(1, "A", "B", 2, 1, 250, 190),
        m(2, "B", "C", 2, 0, 200, 80),
        m(3, "C", "A", 2, 1, 240, 230),
    ]
    event = event_from_matches("ABC", matches, PointsScheme(), fmt=Format.ROUND_ROBIN)
    st = standings(event, DEFAULT_TIEBREAKS["domino-es"])
    assert st.order() == ["B", "A", "C"]
    assert st.explanations[0].lines[0] == "B ahead of A: overall point difference +60 vs +50"
    # A ahead of C on the same tie-break: a true minus sign, "vs" between the values
    assert st.explanations[0].lines[1] == "A ahead of C: overall point difference +50 vs \u2212110"


def test_explanations_go_through_translation() -> None:
    set_language("xx")  # pseudo-locale: every translated string is wrapped in ⟦…⟧
    try:
        event = event_from_matches("ABCDEFGH", tavla_swiss(), TAVLA)
        line = standings(event, DEFAULT_TIEBREAKS["tavla"]).explanations[0].lines[0]
        assert line.startswith("⟦") and "⟦overall point difference⟧" in line
    finally:
        set_language("en")
