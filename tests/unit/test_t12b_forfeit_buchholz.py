"""Rule T12b (RULES.md, Reading): in the tavla preset's Buchholz (bh_unplayed = none) a forfeit's scheduled
opponent counts like any opponent, with his real score; a bye adds nothing. FIDE's dummy-opponent reading
stays the other setting, and the one of TRF files.

Four players, two Swiss rounds, a win = 1 point: round 1 A beats B, C wins by forfeit against D (absent);
round 2 C beats A, D beats B. Points: A 1, B 0, C 2, D 1.
"""

from __future__ import annotations

from fractions import Fraction

from clubdesk.games import load_ruleset
from clubdesk.standings import (
    CHESS_SCHEME,
    Format,
    MatchKind,
    MatchResult,
    Unplayed,
    event_from_matches,
    tiebreak_values,
)

MATCHES = [
    MatchResult(1, "A", "B", 1, 0),
    MatchResult(1, "C", "D", 1, 0, kind=MatchKind.FORFEIT),
    MatchResult(2, "C", "A", 1, 0),
    MatchResult(2, "D", "B", 1, 0),
    MatchResult(2, "E", None, kind=MatchKind.BYE),
]


def buchholz(unplayed: Unplayed) -> dict[str, Fraction]:
    event = event_from_matches(["A", "B", "C", "D", "E"], MATCHES, CHESS_SCHEME, fmt=Format.SWISS)
    return {e: Fraction(v["BH"]) for e, v in tiebreak_values(event, ["BH"], unplayed=unplayed).items()}


def test_t12b_a_forfeits_scheduled_opponent_counts_in_the_tavla_buchholz() -> None:
    bh = buchholz(Unplayed.NONE)
    # C: D (1, the opponent who did not come) + A (1) = 2; D: C (2, who won the forfeit) + B (0) = 2
    assert bh["C"] == 2 and bh["D"] == 2
    assert bh["A"] == 0 + 2 and bh["B"] == 1 + 1
    assert bh["E"] == 0  # a bye adds nothing (no dummy opponent)


def test_t12b_the_tavla_preset_reads_it_so_and_fide_keeps_its_dummy() -> None:
    assert load_ruleset("tavla").params.bh_unplayed == "none"  # the tavla preset (seed 003)
    fide = buchholz(Unplayed.FIDE)
    # FIDE C.07 (TRF files): the forfeit round counts a dummy with his own score: C 2 + A 1, D 1 + B 0
    assert fide["C"] == 3 and fide["D"] == 1
    assert fide != buchholz(Unplayed.NONE)
