"""TRF files written by chess programs, read as FIDE TEC's checker reads them (issue 19).

Expected values: ``tests/data/trf/checker_values.json``, computed once by TieBreakServer's
``tiebreakchecker.py`` (FIDE TEC's reference checker, an independent reading) with the command
stored beside each file's values; the files and their sources: ``tests/data/trf/README.md``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clubdesk.standings import read_trf, tiebreaks_for_trf
from clubdesk.standings.trf import TrfError, event_from_trf, parse_trf

DATA = Path(__file__).resolve().parents[1] / "data"
CHECKER = json.loads((DATA / "trf" / "checker_values.json").read_text())
CODES = ["PTS", "BH", "BH-C1", "SB", "SB-C1", "PS", "PS-C1", "WIN", "ARO"]


def _path(name: str) -> Path:
    p = DATA / "trf" / name
    return p if p.exists() else DATA / "tiebreaks" / name


@pytest.mark.parametrize("name", sorted(CHECKER))
def test_every_value_agrees_with_fide_tec_checker(name: str) -> None:
    entry = CHECKER[name]
    path = _path(name)
    all_rated = all(p.rating for p in read_trf(path).players)
    codes = CODES if all_rated else [c for c in CODES if c != "ARO"]
    ours = tiebreaks_for_trf(path, codes, rules=entry["rules"])
    wrong = [
        (no, code, want, ours[no][code])
        for no, vals in entry["values"].items()
        for code in codes
        if (want := vals[code]) != pytest.approx(ours[no][code])
    ]
    assert not wrong, f"{len(wrong)} values differ from the checker, e.g. {wrong[:5]}"


@pytest.mark.parametrize("name", sorted(CHECKER))
def test_auto_rules_pick_the_checkers_rule_set_from_the_start_date(name: str) -> None:
    from clubdesk.standings.trf import rules_by_date

    assert rules_by_date(read_trf(_path(name))).value == CHECKER[name]["rules"]


def test_blank_trailing_round_is_an_unplayed_zero_round() -> None:
    # 86 of 87 lines stop after round 10; player 14's line has round 11 as "0000 - Z". The blank
    # round 11 is the same unplayed round for everyone: each of them gets a round-11 record.
    t = read_trf(_path("absolute_vs_strong_colour_preference.trf"))
    assert t.complete_rounds == 11
    ev = event_from_trf(t)
    assert all(len(ev.records[e]) == 11 for e in ev.entrants)
    assert {r.kind.value for e in ev.entrants for r in ev.records[e] if r.round == 11} == {"zero-bye"}
    # progressive score runs over all 11 rounds: player 1 (5.5 after round 10, Z in round 11)
    assert (
        tiebreaks_for_trf(_path("absolute_vs_strong_colour_preference.trf"), ["PS"])["1"]["PS"]
        == (CHECKER["absolute_vs_strong_colour_preference.trf"]["values"]["1"]["PS"])
    )


def test_a_round_announced_but_not_written_is_not_played() -> None:
    # bbp_issue_7: XXR 15, 14 rounds written -> standings after round 14 (no zero-bye round 15).
    t = read_trf(_path("bbp_issue_7.trf"))
    assert (t.rounds, t.complete_rounds, t.open_round) == (15, 14, 0)
    assert event_from_trf(t).rounds == 14


def _with_open_round(text: str) -> str:
    """held_swiss_5 with round 6 paired 1-2, 3-4, ... and no result yet (blank result column)."""
    out = []
    for line in text.splitlines():
        if line.startswith("001"):
            no = int(line[4:8])
            opp = no + 1 if no % 2 else no - 1
            line = line.rstrip().ljust(141) + f"{opp:4d} {'w' if no % 2 else 'b'}  "
        out.append(line)
    return "\n".join(out) + "\n"


def test_open_round_is_read_as_not_yet_played() -> None:
    # A round paired but without results (issue 19: it was refused as "a bye (Z) with an opponent"):
    # the standings are those after the last complete round and the open round is reported.
    text = (DATA / "tiebreaks" / "held_swiss_5.trf").read_text()
    before = parse_trf(text)
    t = parse_trf(_with_open_round(text))
    assert (t.open_round, t.complete_rounds) == (6, 5)
    assert t.players[0].rounds[5].pending
    from clubdesk.standings.table import tiebreak_values

    codes = ["PTS", "BH", "SB", "PS"]
    assert tiebreak_values(event_from_trf(t), codes) == tiebreak_values(event_from_trf(before), codes)


def test_open_round_result_on_one_side_only_is_refused() -> None:
    text = _with_open_round((DATA / "tiebreaks" / "held_swiss_5.trf").read_text())
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("001    1"))
    lines[i] = lines[i].rstrip() + " 1"  # player 1 has a result, player 2 (his opponent) none
    with pytest.raises(TrfError) as err:
        parse_trf("\n".join(lines))
    assert "round 6" in err.value.reason


def test_team_tournament_file_is_refused_with_a_clear_message() -> None:
    with pytest.raises(TrfError) as err:
        read_trf(_path("fideteam_nocolor.trf"))
    assert err.value.line == 3  # "082 9": nine teams
    assert "team tournament" in err.value.reason
