"""TRF16 import and export (format: /work/shared/data/tiebreaks/TRF-FORMAT.md; files copied to
tests/data/tiebreaks/ from /work/shared/data/tiebreaks/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clubdesk.standings import (
    CHESS_SCHEME,
    Kind,
    MatchKind,
    MatchResult,
    TrfError,
    event_from_matches,
    event_from_trf,
    export_trf,
    parse_trf,
    read_trf,
    tiebreaks_for_trf,
    trf_from_event,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "tiebreaks"


def test_reads_player_lines_by_column() -> None:
    t = read_trf(DATA / "held_swiss_5.trf")
    assert t.rounds == 5 and len(t.players) == 16
    david = next(p for p in t.players if p.start_no == 4)
    assert (david.name, david.rating, david.points) == ("David", 2050, "3.5")
    # round 2 of David: "   0 - H" = half-point bye
    assert (david.rounds[1].opponent, david.rounds[1].result) == (0, "H")
    event = event_from_trf(t)
    assert event.records["4"][1].kind is Kind.HALF_BYE
    assert event.records["4"][1].points == 1  # ½ stored doubled


def test_bare_cr_line_ends_and_column_ruler_accepted() -> None:
    text = (DATA / "held_swiss_5.trf").read_text().replace("\n", "\r")
    assert len(parse_trf(text).players) == 16
    # the TieBreakServer file carries a column ruler and "062 15 (12)"
    assert len(read_trf(DATA / "swiss_with_many_unplayed_rounds.trf").players) == 15


def _lines() -> list[str]:
    return (DATA / "held_swiss_5.trf").read_text().splitlines()


@pytest.mark.parametrize(
    ("line_no", "mutate"),
    [
        (5, lambda s: s[:4] + "  x2" + s[8:]),  # start number not a number
        (6, lambda s: s[:98] + "X" + s[99:]),  # unknown result code in round 1
        (7, lambda s: s[:48] + "21x0" + s[52:]),  # rating not a number
        (8, lambda s: s[:96] + "q" + s[97:]),  # unknown colour
        (9, lambda s: s[:91] + "  99" + s[95:]),  # opponent 99 does not exist
    ],
)
def test_malformed_line_refused_with_its_number(line_no: int, mutate: object) -> None:
    lines = _lines()
    assert lines[line_no - 1].startswith("001")
    lines[line_no - 1] = mutate(lines[line_no - 1])  # type: ignore[operator]
    with pytest.raises(TrfError) as err:
        parse_trf("\n".join(lines))
    assert err.value.line == line_no
    assert f"line {line_no}" in str(err.value)


def test_opponent_must_name_the_player_back() -> None:
    lines = _lines()
    # line 5 is Bruno (2): round 1 opponent 10 -> change to 11 (Maria played Charline in round 1)
    lines[4] = lines[4][:91] + "  11" + lines[4][95:]
    with pytest.raises(TrfError) as err:
        parse_trf("\n".join(lines))
    assert err.value.line == 5


def test_export_reproduces_player_lines_of_a_published_file() -> None:
    text = (DATA / "swiss_with_many_unplayed_rounds.trf").read_text()
    out = export_trf(parse_trf(text))
    want = [line.rstrip() for line in text.splitlines() if line.startswith("001")]
    got = [line for line in out.splitlines() if line.startswith("001")]
    assert got == want


@pytest.mark.parametrize("name", ["held_swiss_5.trf", "held_swiss_9.trf", "held_round_robin.trf"])
def test_export_then_import_is_the_same_tournament(name: str) -> None:
    t = read_trf(DATA / name)
    again = parse_trf(export_trf(t))
    assert again.players == t.players and again.rounds == t.rounds


def test_event_to_trf_and_back_keeps_results_and_tiebreaks(tmp_path: Path) -> None:
    m = MatchResult
    matches = [
        m(1, "a", "b", 1, 0), m(1, "c", None, kind=MatchKind.BYE),
        m(2, "a", "c", 1, 1), m(2, "b", None, kind=MatchKind.HALF_BYE),
        m(3, "b", "c", 1, 0, kind=MatchKind.FORFEIT), m(3, "a", None, kind=MatchKind.ZERO_BYE),
    ]  # fmt: skip
    event = event_from_matches("abc", matches, CHESS_SCHEME)
    path = tmp_path / "x.trf"
    path.write_text(export_trf(trf_from_event(event, names={"a": "Ali", "b": "Budi", "c": "Cem"})))
    t = read_trf(path)
    assert [p.name for p in t.players] == ["Ali", "Budi", "Cem"]
    # Ali: W(b) D(c) Z = 1.5; Budi: L(a) H +(c) = 1.5; Cem: U D(a) -(b) = 1.5
    assert [p.points for p in t.players] == ["1.5", "1.5", "1.5"]
    back = event_from_trf(t)
    assert [r.kind for r in back.records["3"]] == [Kind.BYE, Kind.PLAYED, Kind.FORFEIT_LOSS]
    # Buchholz in the file's scale: Ali = Budi 1.5 + Cem 1.5 (his round-3 forfeit loss after his last
    # played game keeps its real value, 0: it had a scheduled opponent -- FIDE TEC's checker, as
    # REFERENCES.md now says) + dummy (Ali's own 1.5) for his zero bye = 4.5
    assert tiebreaks_for_trf(path, ["PTS", "BH"])["1"] == {"PTS": 1.5, "BH": 4.5}


def test_tiebreaks_json_shape() -> None:
    got = tiebreaks_for_trf(DATA / "held_swiss_5.trf", ["PTS", "BH", "BH-C1", "SB", "PS"])
    assert sorted(got, key=int) == [str(i) for i in range(1, 17)]
    # Bruno (2): 4.0 points; BH published 13.0 (expected_values.json)
    assert got["2"] == {"PTS": 4.0, "BH": 13.0, "BH-C1": 12.0, "SB": 9.5, "PS": 13.0}
    with pytest.raises(ValueError):
        tiebreaks_for_trf(DATA / "held_swiss_5.trf", ["NOPE"])
