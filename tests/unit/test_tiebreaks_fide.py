"""Published FIDE tie-break values (CONTRACTS.md §3 codes).

Source: /work/shared/data/tiebreaks/ (copied to tests/data/tiebreaks/): IA Mario Held, "Exercises in
Tie-Breaking" (C.07-2023) as transcribed in OttoMilvang/TieBreakServer, and TieBreakServer's expected
Sonneborn-Berger tables for a Swiss with many unplayed rounds under the 2024 and 2026 rules. Every
value asserted here is the published one; nothing is produced by the code under test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clubdesk.standings import (
    CHESS_SCHEME,
    Format,
    MatchKind,
    MatchResult,
    event_from_matches,
    event_from_trf,
    read_trf,
    tiebreak_values,
    tiebreaks_for_trf,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "tiebreaks"
EXPECTED = json.loads((DATA / "expected_values.json").read_text())
R2024 = EXPECTED["rules_2024_V1"]
R2026 = EXPECTED["rules_2026_V2_changes_only (TEC implementation, not Held's paper)"]
RR = R2024["round_robin (held_round_robin.trf, pre-determined pairings)"]

CODES = ["BH", "BH-C1", "SB", "SB-C1", "PS", "PS-C1", "WIN", "ARO"]


@pytest.fixture(scope="module")
def swiss5() -> dict[str, dict[str, float | int]]:
    return tiebreaks_for_trf(DATA / "held_swiss_5.trf", ["PTS", "DE", *CODES])


def _cases() -> list[tuple[str, str, float]]:
    return [(code, no, value) for code in CODES for no, value in R2024[code].items()]


@pytest.mark.parametrize(("code", "start_no", "published"), _cases())
def test_held_swiss_5_published_value_2024(
    swiss5: dict[str, dict[str, float | int]], code: str, start_no: str, published: float
) -> None:
    assert swiss5[start_no][code] == published


def test_buchholz_dummy_and_withdrawal_by_hand(swiss5: dict[str, dict[str, float | int]]) -> None:
    # David (4): opponents Nick 12, bye (H, round 2), Opal 13, Charline 3, Alyx 1.
    # Nick's Z Z in rounds 4-5 come after his last appearance: counted as draws, 2.0 + 0.5 + 0.5 = 3.0.
    # The bye is a dummy with David's own 3.5. BH = 3.0 + 3.5 + 1.5 + 3.5 + 3.5 = 15.0.
    assert swiss5["4"]["BH"] == 15.0
    # Jessica (9): Alyx 3.5, Lais 1.0 and three unplayed rounds (H, forfeit loss, U) at her own 1.5:
    # BH = 3.5 + 1.0 + 4.5 = 9.0; Cut-1 drops a voluntarily unplayed round (1.5) before Lais (1.0): 7.5.
    assert swiss5["9"]["BH"] == 9.0
    assert swiss5["9"]["BH-C1"] == 7.5
    # Progressive score of Alyx: 1, 1.5, 2, 3, 3.5 -> 11; Cut-1 drops round 1 -> 10.
    assert (swiss5["1"]["PS"], swiss5["1"]["PS-C1"]) == (11.0, 10.0)


def test_sb_cut_prefers_a_vur_not_worth_less_than_the_weakest_opponent() -> None:
    # FIDE C.07 art. 14.1 + 16.5.1 (cut the lowest VUR value when it is not lower than the least
    # significant value). David (4), 2024 rules, SB contributions (opponent score x points):
    # Nick 3.0 x 1 = 3.0, half bye (VUR) dummy 3.5 x 0.5 = 1.75, Opal 1.5 x 1 = 1.5,
    # Charline 3.5 x 0.5 = 1.75, Alyx 3.5 x 0.5 = 1.75 -> SB 9.75.
    # Least significant value: Opal's 1.5; lowest VUR value 1.75 is not lower -> the bye goes:
    # SB-C1 = 9.75 - 1.75 = 8.0 (Held's published answer).
    # 2026 rules: the bye's dummy is min(3.5, 0.5 x 5) = 2.5 -> 1.25 < Opal's 1.5, so Opal goes:
    # SB 9.25 - 1.5 = 7.75 (TieBreakServer's published 2026 value).
    got24 = tiebreaks_for_trf(DATA / "held_swiss_5.trf", ["SB", "SB-C1"])
    got26 = tiebreaks_for_trf(DATA / "held_swiss_5.trf", ["SB", "SB-C1"], rules="2026")
    assert (got24["4"]["SB"], got24["4"]["SB-C1"]) == (9.75, 8.0)
    assert (got26["4"]["SB"], got26["4"]["SB-C1"]) == (9.25, 7.75)


def test_sb_cut_2_reapplies_the_vur_rule() -> None:
    # Art. 16.5.2: each cut applies 16.5.1 again. Player 9 (4.5 points) of the "many unplayed
    # rounds" Swiss, 2024 rules: P2 4.0 x 1 = 4.0, P5 5.0 x 0.5 = 2.5, H (dummy 4.5) x 0.5 = 2.25,
    # P3 (4.0, his trailing H Z H count as draws: 4.5) x 0.5 = 2.25, P6 2.5 x 1 = 2.5,
    # H 2.25, P1 4.0 x 0.5 = 2.0 -> SB 17.75.
    # Cut 1: weakest opponent P6 (2.5, value 2.5) vs lowest VUR 2.25: the VUR is lower -> P6 goes,
    # 15.25. Cut 2: weakest opponent P1 (4.0, value 2.0) vs VUR 2.25, not lower -> a bye goes:
    # 15.25 - 2.25 = 13.00 (the published table; cutting P1 would give 13.25).
    got = tiebreaks_for_trf(DATA / "swiss_with_many_unplayed_rounds.trf", ["SB", "SB-C1", "SB-C2"], "2024")
    assert (got["9"]["SB"], got["9"]["SB-C1"], got["9"]["SB-C2"]) == (17.75, 15.25, 13.0)


def test_round_robin_forfeit_is_no_vur_for_cuts() -> None:
    # Round robin, pre-determined pairings (REFERENCES.md: a forfeit counts against the real
    # opponent), so the art. 16.5.1 VUR exception does not apply to it. Chess points:
    # R1 A-B draw, D beats C; R2 A beats C, D beats B; R3 D wins by forfeit against A, B-C draw.
    # Scores: A 1.5, B 1.0, C 0.5, D 3.0. A's Buchholz: B 1.0 + C 0.5 + D 3.0 = 4.5.
    # Cut-1 drops the least significant value, C's 0.5 -> 4.0 (treating the forfeit as a VUR
    # would drop D's 3.0 instead -> 1.5).
    matches = [
        MatchResult(1, "A", "B", 1, 1),
        MatchResult(1, "C", "D", 0, 2),
        MatchResult(2, "A", "C", 2, 0),
        MatchResult(2, "B", "D", 0, 2),
        MatchResult(3, "A", "D", 0, 2, kind=MatchKind.FORFEIT),
        MatchResult(3, "B", "C", 1, 1),
    ]
    event = event_from_matches("ABCD", matches, CHESS_SCHEME, fmt=Format.ROUND_ROBIN)
    got = tiebreak_values(event, ["PTS", "BH", "BH-C1"])
    assert (got["A"]["PTS"], got["A"]["BH"], got["A"]["BH-C1"]) == (1.5, 4.5, 4.0)


@pytest.mark.parametrize(
    ("key", "file"),
    [
        ("DE_rank_after_PTS_swiss5_ex23", "held_swiss_5.trf"),
        ("DE_rank_after_PTS_swiss5_ex24", "held_swiss_5.trf"),
        ("DE_rank_after_PTS_swiss9_ex25 (held_swiss_9.trf)", "held_swiss_9.trf"),
    ],
)
def test_direct_encounter_ranks(key: str, file: str) -> None:
    got = tiebreaks_for_trf(DATA / file, ["PTS", "DE"])
    for no, rank in R2024[key].items():
        assert got[no]["DE"] == rank, no


def test_round_robin_sb_and_direct_encounter() -> None:
    # In a round robin a forfeit counts against the real opponent: Helene (6) beat Franck (5, 1.5)
    # by forfeit and drew David (4, 1.5): SB = 1.5 + 0.75 = 2.25.
    event = event_from_trf(read_trf(DATA / "held_round_robin.trf"), Format.ROUND_ROBIN)
    got = tiebreak_values(event, ["PTS", "SB", "SB-C1", "DE"])
    for code, key in (("SB", "SB"), ("SB-C1", "SB-C1"), ("DE", "DE_rank_after_PTS")):
        for no, value in RR[key].items():
            assert got[no][code] == value, (code, no)


@pytest.mark.parametrize(
    ("code", "start_no", "published"),
    [(c, n, v) for c in ("BH", "BH-C1", "SB", "SB-C1") for n, v in R2026[c].items()],
)
def test_held_swiss_5_2026_dummy_cap(code: str, start_no: str, published: float) -> None:
    got = tiebreaks_for_trf(DATA / "held_swiss_5.trf", [code], rules="2026")
    assert got[start_no][code] == published


def test_2026_cap_by_hand() -> None:
    # David's half-point bye: dummy = min(own 3.5, 0.5 x 5 rounds = 2.5): BH 15.0 - 1.0 = 14.0.
    # Maria (11) won round 4 by forfeit against Jessica (1.5): dummy = min(2.5, 1.5): 13.5 - 1.0 = 12.5.
    got = tiebreaks_for_trf(DATA / "held_swiss_5.trf", ["BH"], rules="2026")
    assert (got["4"]["BH"], got["11"]["BH"]) == (14.0, 12.5)


def _tsv(rules: str) -> list[tuple[str, str, float]]:
    lines = (DATA / f"swiss_with_many_unplayed_rounds.expected_rules_{rules}.tsv").read_text().splitlines()
    out = []
    for line in lines[1:]:
        f = line.split("\t")
        if len(f) < 6:
            continue
        for code, value in zip(("PTS", "SB", "SB-C1", "SB-C2"), f[2:6], strict=True):
            out.append((f[0], code, float(value)))
    return out


@pytest.mark.parametrize("rules", ["2024", "2026"])
def test_many_unplayed_rounds_sb_tables(rules: str) -> None:
    got = tiebreaks_for_trf(
        DATA / "swiss_with_many_unplayed_rounds.trf", ["PTS", "SB", "SB-C1", "SB-C2"], rules
    )
    wrong = [(no, code, value, got[no][code]) for no, code, value in _tsv(rules) if got[no][code] != value]
    assert wrong == []
