"""Discipline rules as plain values: catalog, E19 counter, penalty → engine entry, appeal window (issue 13).

Expected values are worked out by hand from RULES.md and CONTRACTS.md §1; the engine entries are replayed
through ``clubdesk.games.replay`` so that the test checks what a referee sees on the sheet.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubdesk.competition import discipline
from clubdesk.competition.discipline import CountedIncident, DisciplineRuleError, IncidentKind
from clubdesk.games import replay

# ------------------------------------------------------------------------------------------------ catalog


def _rules(family: str) -> set[str]:
    return {r for k in discipline.incident_kinds(family) for r in k.rules}


def test_domino_catalog_covers_chapter_iii() -> None:
    # rules E8–E17, E19, E20: every breach the Spanish chapter III asks to be written in the act has a kind
    assert {"E8", "E9", "E10", "E11", "E12", "E13", "E14", "E15", "E16", "E17", "E19", "E20"} <= _rules(
        "domino"
    )


def test_gaple_and_tavla_catalogs() -> None:
    assert "G2" in _rules("gaple")  # rule G2: comments or signals
    assert {"T1", "T11", "T3b"} <= _rules("tavla")  # rules T1, T11: conduct, betting, devices, spectators
    # rule T1: betting → the offender is removed, so the only decision offered is disqualification
    betting = discipline.find_kind("tavla", "betting")
    assert betting.decisions == ("disqualification",)


def test_every_family_has_the_common_kind_and_no_duplicate_keys() -> None:
    for family in discipline.FAMILIES:
        keys = [k.key for k in discipline.incident_kinds(family)]
        assert "other" in keys
        assert len(keys) == len(set(keys))


def test_club_kinds_come_after_the_rulesets_and_cannot_shadow_them() -> None:
    mine = IncidentKind(key="club-noise", label="Noise from the bar", club=True)
    clash = IncidentKind(key="talk", label="Our own talk", club=True)
    kinds = discipline.incident_kinds("domino", [mine, clash])
    assert kinds[-1] == mine
    assert discipline.find_kind("domino", "talk", [clash]).rules == ("E12",)  # the ruleset's kind wins
    assert discipline.find_kind("domino", "club-noise", [mine]).label == "Noise from the bar"


def test_unknown_kind_is_refused_with_the_known_ones() -> None:
    with pytest.raises(DisciplineRuleError) as err:
        discipline.find_kind("gaple", "false-pass")  # E16 is Spanish, not gaple
    assert err.value.code == "unknown-incident-kind"
    assert "signals" in err.value.message


def test_incident_decision_must_fit_the_kind() -> None:
    # rules E15, E16: annul, replay from the breach, or nothing
    false_think = discipline.find_kind("domino", "false-think")
    discipline.check_incident_decision(false_think, "replay-from-breach")
    discipline.check_incident_decision(false_think, "")  # not decided yet
    with pytest.raises(DisciplineRuleError) as err:
        discipline.check_incident_decision(false_think, "award-leader")
    assert err.value.code == "decision-not-allowed"


def test_club_kind_key_is_stable_and_plain() -> None:
    assert discipline.club_kind_key("Ruido en la barra") == "club-ruido-en-la-barra"
    assert discipline.club_kind_key("Işık açık!") == "club-isik-acik"


def test_family_of_presets() -> None:
    assert discipline.family_of("gaple-tournament") == "gaple"
    assert discipline.family_of("gaple-club") == "gaple"
    assert discipline.family_of("domino-es") == "domino"
    assert discipline.family_of("tavla") == "tavla"


# -------------------------------------------------------------------------------------------- E19 counter


def test_e19_counter_counts_per_pair_and_per_game() -> None:
    # rule E19: a pair dropping tiles more than twice in a game is noted with the count
    dropped = discipline.find_kind("domino", "dropped-tiles")
    history = [
        CountedIncident("dropped-tiles", 0, 1),
        CountedIncident("dropped-tiles", 1, 1),  # the other pair
        CountedIncident("talk", 0, 1),  # another kind
        CountedIncident("dropped-tiles", 0, 2),  # another game
        CountedIncident("dropped-tiles", 0, 1),
    ]
    # pair 0, game 1: two earlier dropped-tiles incidents → this is the 3rd
    n = discipline.occurrence(history, "dropped-tiles", 0, 1)
    assert n == 3
    assert discipline.counter_text(dropped, n) == (
        "Dropped tiles, 3rd time by this pair in this game (more than 2 times)"
    )
    assert discipline.occurrence(history, "dropped-tiles", 1, 1) == 2
    assert discipline.counter_text(dropped, 2) == "Dropped tiles, 2nd time by this pair in this game"
    assert discipline.occurrence(history, "dropped-tiles", 1, 2) == 1
    assert discipline.counter_text(discipline.find_kind("domino", "talk"), 3) == ""  # not a counted kind


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (22, "22nd"),
        (101, "101st"),
        (111, "111th"),
    ],
)
def test_ordinal(n: int, text: str) -> None:
    assert discipline.ordinal(n) == text


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["dropped-tiles", "talk"]), st.integers(0, 1), st.integers(1, 2))))
def test_e19_counter_is_one_more_than_the_matching_past(items: list[tuple[str, int, int]]) -> None:
    history = [CountedIncident(k, s, g) for k, s, g in items]
    n = discipline.occurrence(history, "dropped-tiles", 0, 1)
    assert n == 1 + items.count(("dropped-tiles", 0, 1))


# ------------------------------------------------------------------------------- decision → engine entry


def _apply(
    ruleset: str, sheet: list[dict[str, object]], effect: discipline.PenaltyEffect
) -> dict[str, object]:
    assert effect.entry is not None
    return replay(ruleset, [*sheet, effect.entry])


def test_fine_b7_goes_below_zero_in_the_club_league() -> None:
    # rule B7: a wrong play is fined 20; a pair at 0 goes to -20 (gaple-club allows negative totals)
    effect = discipline.penalty_effect("gaple", "fine", 0, points=20)
    assert effect.entry == {"type": "penalty", "side": 0, "points": 20}
    result = _apply("gaple-club", [], effect)
    assert result["games"][0]["totals"] == [-20, 0]  # type: ignore[index]


def test_deduction_g3_stops_at_zero_in_the_tournament() -> None:
    # rule G3 with the tournament reading: a deduction stops at 0 → 0 - 30 stays 0
    result = _apply("gaple-tournament", [], discipline.penalty_effect("gaple", "deduction", 1, points=30))
    assert result["games"][0]["totals"] == [0, 0]  # type: ignore[index]


def test_annul_hand_e15_loses_the_lead_only_when_the_offender_led() -> None:
    # rules E15, E16, E7.3: seat 0 (side 0) leads hand 1; annulled with loss of the lead → seat 1 leads
    assert (
        discipline.offender_led(0, 0) and not discipline.offender_led(0, 1) and discipline.offender_led(3, 1)
    )
    led = discipline.penalty_effect("domino", "annul-hand", 0, offender_led=discipline.offender_led(0, 0))
    assert led.entry == {"type": "annulled", "lead_lost": True}
    assert _apply("domino-es", [], led)["next_leader"] == 1
    not_led = discipline.penalty_effect("domino", "annul-hand", 1, offender_led=discipline.offender_led(0, 1))
    assert _apply("domino-es", [], not_led)["next_leader"] == 0  # seat 0 leads again
    # the annulled hand scores nothing
    assert _apply("domino-es", [], led)["games"][0]["totals"] == [0, 0]  # type: ignore[index]


def test_gaple_annulled_hand_scores_nothing_and_stays_on_the_sheet() -> None:
    effect = discipline.penalty_effect("gaple", "annul-hand", 0)
    assert effect.entry == {"type": "redeal"}
    result = _apply("gaple-club", [], effect)
    assert len(result["games"][0]["hands"]) == 1  # type: ignore[index]
    assert result["games"][0]["totals"] == [0, 0]  # type: ignore[index]


SHEET_40_25 = [
    {"type": "domino", "seat": 0, "pips": [0, 10, 20, 10]},  # rule E18: pair 1 scores 10+20+10 = 40
    {"type": "domino", "seat": 1, "pips": [10, 0, 10, 5]},  # pair 2 scores 10+10+5 = 25
]


def test_e20_award_leader_gives_the_game_to_the_pair_ahead() -> None:
    # rule E20: totals 40–25, the pair ahead (side 0) wins; the rivals get what they need: 100-40 = 60
    effect = discipline.penalty_effect("domino", "award-leader", 1, totals=(40, 25))
    assert effect.entry == {"type": "abandon", "side": 1}
    result = _apply("domino-es", SHEET_40_25, effect)
    assert result["games"][0]["totals"] == [100, 25]  # type: ignore[index]
    assert result["winner"] == 0


def test_e20_award_leader_refused_when_level() -> None:
    with pytest.raises(DisciplineRuleError) as err:
        discipline.penalty_effect("domino", "award-leader", 0, totals=(30, 30))
    assert err.value.code == "no-pair-ahead"


def test_e20_other_decisions() -> None:
    assert discipline.penalty_effect("domino", "resume", 0) == discipline.PenaltyEffect()  # sheet unchanged
    assert discipline.penalty_effect("domino", "validate", 0).action == "validate"
    replayed = discipline.penalty_effect("domino", "replay", 0)
    # the interrupted hand scores nothing and the same seat leads it again: 40–25 stays, seat 2 still leads
    result = _apply("domino-es", SHEET_40_25, replayed)
    assert result["games"][0]["totals"] == [40, 25]  # type: ignore[index]


def test_tavla_game_loss_is_one_single_game_at_the_cube() -> None:
    # rule T9d (Reading): player 1 (side 0) penalised with the cube on 2 → player 2 wins 1 x 2 = 2 points
    effect = discipline.penalty_effect("tavla", "game-loss", 0, cube=2)
    assert effect.entry == {"type": "game_loss", "loser": 0, "cube": 2}
    assert _apply("tavla", [], effect)["score"] == [0, 2]


def test_tavla_match_loss_is_a_penalty_forfeit() -> None:
    # rule T9d (Reading): 2–0 up after a gammon, player 1 loses the match: player 2 to 5, player 1 keeps 2
    sheet: list[dict[str, object]] = [
        {"type": "game", "winner": 0, "kind": "gammon", "cube": 1, "dropped": False}
    ]
    result = _apply("tavla", sheet, discipline.penalty_effect("tavla", "match-loss", 0))
    assert result["score"] == [2, 5]
    assert result["winner"] == 1


def test_domino_match_loss_and_game_loss_are_an_abandonment() -> None:
    # rule E20: the abandoning pair loses, the rivals reach the total, the losers keep their points
    result = _apply("domino-es", SHEET_40_25, discipline.penalty_effect("domino", "match-loss", 0))
    assert result["games"][0]["totals"] == [40, 100]  # type: ignore[index]  # 25 + 75 = 100
    assert result["winner"] == 1


def test_match_actions() -> None:
    assert discipline.penalty_effect("gaple", "forfeit", 0).action == "forfeit"  # rule G15: walkover
    assert discipline.penalty_effect("tavla", "forfeit", 1).action == "forfeit"  # rule T3b
    assert discipline.penalty_effect("gaple", "match-loss", 0).action == "forfeit"
    assert discipline.penalty_effect("tavla", "disqualification", 0).action == "disqualify"  # rule T9c
    assert (
        discipline.penalty_effect("gaple", "warning", 0) == discipline.PenaltyEffect()
    )  # rule G3: recorded only


@pytest.mark.parametrize(
    ("family", "kind", "points", "code"),
    [
        ("tavla", "fine", 20, "penalty-not-for-game"),  # no points to fine in a backgammon match
        ("gaple", "game-loss", None, "penalty-not-for-game"),
        ("gaple", "award-leader", None, "penalty-not-for-game"),  # E20 is the Spanish chapter
        ("gaple", "fine", None, "points-required"),
        ("domino", "deduction", 0, "points-required"),
        ("domino", "warning", 5, "points-not-used"),
        ("domino", "yellow-card", None, "unknown-penalty-kind"),
    ],
)
def test_penalties_that_do_not_fit_are_refused(family: str, kind: str, points: int | None, code: str) -> None:
    with pytest.raises(DisciplineRuleError) as err:
        discipline.penalty_effect(family, kind, 0, points=points)
    assert err.value.code == code


# ---------------------------------------------------------------------------------------- appeal window

END = datetime(2025, 3, 14, 20, 0, 0)


def test_appeal_in_time_up_to_the_15th_minute() -> None:
    # rule T10: within 15 minutes of the match's end: 20:00 + 15 min = 20:15:00, still in time
    timing = discipline.appeal_timing(datetime(2025, 3, 14, 20, 15, 0), END)
    assert timing.in_time and timing.deadline == datetime(2025, 3, 14, 20, 15, 0)


def test_late_appeal() -> None:
    assert discipline.appeal_timing(datetime(2025, 3, 14, 20, 15, 1), END) == discipline.AppealTiming(
        False, datetime(2025, 3, 14, 20, 15), 1
    )  # one second late counts as a started minute
    assert discipline.appeal_timing(datetime(2025, 3, 14, 20, 31), END).late_minutes == 16  # 20:31 - 20:15


def test_appeal_window_is_a_parameter_and_open_matches_are_always_in_time() -> None:
    assert discipline.appeal_timing(datetime(2025, 3, 14, 20, 29), END, minutes=30).in_time
    assert discipline.appeal_timing(datetime(2030, 1, 1), None).in_time


def test_fee_refunded_only_when_upheld() -> None:
    # rule G16: a protest costs US$5 (500 cents): refunded if upheld, kept if rejected
    assert discipline.appeal_refund(500, upheld=True) == 500
    assert discipline.appeal_refund(500, upheld=False) == 0


@pytest.mark.parametrize(("text", "side"), [("0", 0), ("a", 0), ("A", 0), ("1", 1), ("b", 1), (" B ", 1)])
def test_parse_side(text: str, side: int) -> None:
    assert discipline.parse_side(text) == side


def test_parse_side_refuses_others() -> None:
    with pytest.raises(DisciplineRuleError):
        discipline.parse_side("2")


@pytest.mark.parametrize(("lang", "text"), [("id", "ke-3"), ("es", "3.ª"), ("tr", "3."), ("en", "3rd")])
def test_ordinal_in_each_language(lang: str, text: str) -> None:
    # rule E19: the act's "3rd time by this pair" reads right in every language, not "3rd kez"
    from clubdesk import i18n

    i18n.set_language(lang)
    try:
        assert discipline.ordinal(3) == text
    finally:
        i18n.set_language("en")
