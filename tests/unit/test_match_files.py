"""Backgammon match records written by backgammon software (issue 19, rule T7; REFERENCES.md
"Backgammon match scoring").

Files (``tests/data/backgammon``, sources in its README): two gnubg exports and a 1-point resignation
(kevung/gnubgparser, test/), a 7-point match from the Gibbon FIBS client (gitGNU/gnu_gibbon,
src/complete.mat). The independent reading is the file itself: the score each game's header writes, and
for Gibbon's file the games as read by hand below; the engine (``replay``), not the reader, recomputes
the running score from the saved entries.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clubdesk.games import replay
from clubdesk.games.tavla_mat import MatError, parse_mat

DATA = Path(__file__).resolve().parents[1] / "data" / "backgammon"
FILES = [
    "charlot1-charlot2_7p_2025-11-08-2305.mat",
    "gnubg_selfplay_drops_7p.mat",
    "gnubg_roll_then_resign_1p.mat",
    "gibbon_complete.mat",
]


def _text(name: str) -> str:
    return (DATA / name).read_bytes().decode("utf-8")


def _headers(text: str) -> list[tuple[int, int]]:
    """Every game's score header as written in the file (independent of the reader)."""
    found = re.findall(r"^\s*\S+ : (\d+)\s+\S+ : (\d+)\s*$", text.replace("\r", ""), re.MULTILINE)
    return [(int(a), int(b)) for a, b in found]


# Gibbon's record read by hand: (start, winner, points, cube, crawford) per game.
GIBBON = [
    ((0, 0), 1, 1, 1, False),  # ShowWhite doubles, JoeBlack drops: 1
    ((0, 1), 0, 2, 2, False),  # ShowWhite's double taken, JoeBlack redoubles to 4, dropped: 2
    ((2, 1), 1, 1, 1, False),  # double dropped
    ((2, 2), 0, 2, 2, False),  # double taken, single at 2
    ((4, 2), 1, 2, 2, False),  # double taken, single at 2
    ((4, 4), 1, 1, 1, False),  # double dropped
    ((4, 5), 0, 1, 1, False),  # played out, single
    ((5, 5), 0, 1, 1, False),  # double dropped
    ((6, 5), 0, 2, 1, True),  # Crawford game: JoeBlack at 6 of 7, a gammon "and the match"
]


@pytest.mark.parametrize("name", FILES)
def test_every_game_starts_at_the_score_the_file_writes(name: str) -> None:
    text = _text(name)
    rec = parse_mat(text)
    assert [g.start for g in rec.games] == _headers(text)
    # the engine, replaying the saved entries from 0-0, reaches each header's score before that game
    r = replay("tavla", list(rec.entries), {"match_length": rec.match_length})
    before = [(0, 0)] + [tuple(g["score"]) for g in r["games"][:-1]]
    assert before == [g.start for g in rec.games]
    assert [g["crawford"] for g in r["games"]] == [g.crawford for g in rec.games]
    assert r["score"] == list(rec.score) and r["finished"] == rec.finished is True


def test_gibbon_record_as_read_by_hand() -> None:
    rec = parse_mat(_text("gibbon_complete.mat"))  # CRLF line ends
    assert rec.players == ("JoeBlack", "ShowWhite") and rec.match_length == 7
    assert [(g.start, g.winner, g.points, g.cube, g.crawford) for g in rec.games] == GIBBON
    assert rec.as_json()["score"] == [7, 5]  # 8-5 on the sheet: capped at the length


def test_record_beginning_mid_match_keeps_its_starting_score() -> None:
    # Gibbon's record without its first two games begins at 2-1 (a resumed match).
    text = _text("gibbon_complete.mat").replace("\r\n", "\n")
    cut = "7 point match\n\n" + text[text.index(" Game 3") :]
    rec = parse_mat(cut)
    js = rec.as_json()
    assert js["games"][0]["start"] == [2, 1]
    assert js["score"] == [7, 5] and js["finished"]
    # rule T7b from the real score: still the game at 6-5, not a game counted from 0-0
    assert [g["crawford"] for g in js["games"]] == [g[4] for g in GIBBON[2:]]
    assert rec.begins_mid_match


def _rename(text: str, left: str, right: str) -> str:
    """The record with other player names, the right-hand name kept at its column."""

    def header(m: re.Match[str]) -> str:
        return f" {left} : {m.group(1)}".ljust(32) + f"{right} : {m.group(2)}"

    return re.sub(r"^ JoeBlack : (\d+)\s+ShowWhite : (\d+)$", header, text, flags=re.MULTILINE)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("jonnyb1169x", "jonnyb1169"),
        ("jonnyb1169", "jonnyb1169x"),
        ("1169jonny", "2nd-Player"),
        ("Ça va", "Øyvind"),
    ],
)
def test_names_are_told_apart_by_column_and_may_hold_any_character(left: str, right: str) -> None:
    text = _rename(_text("gibbon_complete.mat").replace("\r\n", "\n"), left, right)
    rec = parse_mat(text)
    assert rec.players == (left, right)
    assert [(g.start, g.winner, g.points) for g in rec.games] == [(g[0], g[1], g[2]) for g in GIBBON]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("062 8\n001    1  A\n", 1, "N point match"),
        ("\n\n 7 point match\n\n Hello\n", 5, "Game 1"),
        (" 7 point match\n Game 1\n no score here\n", 3, "score line"),
        (" 7 point match\n Game 1\n a : 0      b : 0\n  1) 31: 8/5 6/5\n Wins 5 points\n", 5, "cube 1"),
        (
            " 3 point match\n Game 1\n a : 0      b : 0\n Wins 1 point\n Game 2\n a : 0      b : 1\n",
            6,
            "does not follow",
        ),
    ],
)
def test_a_file_that_is_not_a_match_record_is_refused_with_line_and_reason(
    text: str, line: int, words: str
) -> None:
    with pytest.raises(MatError) as err:
        parse_mat(text)
    assert err.value.line == line and words in err.value.reason


def test_every_bad_line_of_a_game_is_reported_never_skipped() -> None:
    text = _text("gibbon_complete.mat").replace("\r\n", "\n").split("\n")
    text[6] = "  3) 52: 25/23 23/18             13: 8/7 6/3  Wnis 1 point"  # a typo: not a move
    text[13] = " hello"  # a stray line inside game 2
    text[15] = "  2) 14: 11/7 8/7                65: 13/7 6/1 =1+1"
    with pytest.raises(MatError) as err:
        parse_mat("\n".join(text))
    assert [line for line, _reason in err.value.problems] == [7, 14, 16]
    assert (err.value.line, err.value.reason) == err.value.problems[0]
    assert str(err.value).startswith("line 7: not a move") and "line 14: " in str(err.value)


@pytest.mark.parametrize(
    "line",
    [
        "  1) 31: 8/5 6/5                 42: bar/21 off/3",
        "  2) 66: 13/7(2)                 Doubles => 2",
        "  3) 21:                         Doubles => 2\n  4)  Takes                      21:",
        "      Wins 2 points and the match",
    ],
)
def test_the_shapes_writers_use_are_read(line: str) -> None:
    text = " 7 point match\n Game 1\n a : 0      b : 0\n" + line + "\n"
    parse_mat(text)  # no MatError
