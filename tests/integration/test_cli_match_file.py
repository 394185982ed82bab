"""``clubdesk-cli match-file FILE --json`` and ``result ... --match-file FILE`` (issue 19) on real match
records (``tests/data/backgammon``, sources in its README)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from clubdesk.cli.core import main
from clubdesk.models.result import Match, ResultEntry
from tests.integration.test_night_helpers import make_event, open_db

DATA = Path(__file__).resolve().parents[1] / "data"
GIBBON = DATA / "backgammon" / "gibbon_complete.mat"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, object, str]:
    code = main(["--json", *args])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and out.strip() else None), err


def test_match_file_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(
        capsys, "match-file", str(DATA / "backgammon" / "charlot1-charlot2_7p_2025-11-08-2305.mat")
    )
    assert code == 0, err
    # read from the file: headers 0-0, 0-2, 2-2, 6-2; the last game a backgammon in the Crawford game
    assert out == {
        "players": ["charlot1", "charlot2"],
        "length": 7,
        "games": [
            {"start": [0, 0], "winner": 1, "points": 2, "cube": 2, "crawford": False},
            {"start": [0, 2], "winner": 0, "points": 2, "cube": 2, "crawford": False},
            {"start": [2, 2], "winner": 0, "points": 4, "cube": 2, "crawford": False},
            {"start": [6, 2], "winner": 0, "points": 3, "cube": 1, "crawford": True},
        ],
        "score": [7, 2],
        "finished": True,
    }


@pytest.mark.parametrize("name", ["tiebreaks/held_swiss_5.trf", "members/good_utf8.csv", "nope.mat"])
def test_match_file_refuses_other_files_with_one_line(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out, err = cli(capsys, "match-file", str(DATA / name))
    assert code == 1 and out is None
    assert len(err.strip().splitlines()) == 1


@pytest.fixture()
def tavla(tmp_path: Path) -> tuple[Path, int]:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[7])
    db.close()
    path = tmp_path / "night.sqlite3"
    assert main(["--db", str(path), "--json", "pair", str(ev)]) == 0
    assert main(["--db", str(path), "--json", "publish", str(ev)]) == 0
    return path, ev


def test_result_from_match_file_saves_the_games_as_entries(
    capsys: pytest.CaptureFixture[str], tavla: tuple[Path, int]
) -> None:
    path, ev = tavla
    capsys.readouterr()
    args = ["--db", str(path), "result", str(ev), "--round", "1", "--table", "1", "--match-file", str(GIBBON)]
    code, out, err = cli(capsys, *args)
    assert code == 0, err
    assert out == {"table": 1, "score": [7, 5], "status": "pending"}
    code, out, err = cli(capsys, *args[:-2], "--match-file", str(GIBBON), "--swap-sides", "--reason", "sides")
    assert code == 0, err
    assert out == {"table": 1, "score": [5, 7], "status": "pending"}
    db = open_db(path.parent)
    with db.session() as s:
        m = s.scalars(select(Match).where(Match.table_no == 1)).first()
        assert m is not None
        rows = list(s.scalars(select(ResultEntry).where(ResultEntry.match_id == m.id)))
        assert len(rows) == 9  # nine games in the record
    db.close()


def test_result_from_a_match_file_that_does_not_fit_is_refused_nothing_written(
    capsys: pytest.CaptureFixture[str], tavla: tuple[Path, int], tmp_path: Path
) -> None:
    path, ev = tavla
    capsys.readouterr()
    one_point = DATA / "backgammon" / "gnubg_roll_then_resign_1p.mat"
    mid = tmp_path / "mid.mat"
    text = GIBBON.read_bytes().decode().replace("\r\n", "\n")
    mid.write_text("7 point match\n\n" + text[text.index(" Game 3") :])
    before = path.read_bytes()
    for f, words in [
        (one_point, "1-point"),
        (mid, "2-1"),
        (DATA / "tiebreaks" / "held_swiss_5.trf", "line 1"),
    ]:
        code, out, err = cli(
            capsys,
            "--db",
            str(path),
            "result",
            str(ev),
            "--round",
            "1",
            "--table",
            "2",
            "--match-file",
            str(f),
        )
        assert code == 1 and words in err and len(err.strip().splitlines()) == 1, err
    assert before
    db = open_db(path.parent)
    with db.session() as s:
        m = s.scalars(select(Match).where(Match.table_no == 2)).first()
        assert m is not None and m.status == "waiting"
        assert not list(s.scalars(select(ResultEntry).where(ResultEntry.match_id == m.id)))
    db.close()


def test_a_match_file_with_two_bad_lines_names_both_and_stores_nothing(
    capsys: pytest.CaptureFixture[str], tavla: tuple[Path, int], tmp_path: Path
) -> None:
    path, ev = tavla
    capsys.readouterr()
    lines = GIBBON.read_bytes().decode().replace("\r\n", "\n").split("\n")
    lines[6] = "  3) 52: 25/23 23/18             13: 8/7 6/3  Wnis 1 point"  # line 7: a typo
    lines[13] = "<script>alert(1)</script>"  # line 14, inside game 2
    bad = tmp_path / "bad.mat"
    bad.write_text("\n".join(lines))
    args = ["--db", str(path), "result", str(ev), "--round", "1", "--table", "1", "--match-file", str(bad)]
    code, out, err = cli(capsys, *args)
    assert code == 1 and out is None
    shown = err.strip().splitlines()
    assert [x.split(":", 1)[0] for x in shown[:2]] == ["line 7", "line 14"], err
    assert "2 bad lines; nothing was saved" in shown[-1]
    db = open_db(path.parent)
    with db.session() as s:
        m = s.scalars(select(Match).where(Match.table_no == 1)).first()
        assert m is not None and m.status == "waiting"
        assert not list(s.scalars(select(ResultEntry).where(ResultEntry.match_id == m.id)))
    db.close()
