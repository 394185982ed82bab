"""Rule E6 from the command line (issue 18): a Spanish federation table names its scorer (a player of the
home pair) and its counter (a player of the rival pair); ``result --confirm`` asks for them instead of
writing the operator's name; a wrong player is refused in one line with exit 1 and nothing written; the
captains are named for the act; ``confirm --member`` approves as a named player."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clubdesk.cli.core import main
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import table_sides
from tests.integration.test_night_helpers import make_event, open_db


def cli(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, object, str]:
    code = main(["--db", str(db), "--json", *args])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and out.strip() else None), err


def _domino(tmp_path: Path):  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="domino-es", fmt="round-robin", players=2, per_entrant=2, entry="pair")
    db.close()
    return ev, tmp_path / "night.sqlite3"


def test_result_confirm_names_the_scorer_and_counter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ev, path = _domino(tmp_path)
    e = str(ev)
    assert cli(capsys, path, "pair", e)[0] == 0 and cli(capsys, path, "publish", e)[0] == 0
    score = ["result", e, "--round", "1", "--table", "1", "--score", "1-0", "--points", "100-40", "--confirm"]
    # asked, not filled in with the operator: refused in one line, nothing written
    code, _out, err = cli(capsys, path, *score)
    assert code == 1 and "--scorer" in err and len(err.strip().splitlines()) == 1
    db = open_db(tmp_path)
    try:
        assert reads.get_round(db, ev, 1).tables[0].status == "waiting"
        home, away = table_sides.side_players(db, ev, 1, 1)
    finally:
        db.close()
    # a player of the wrong side is refused, nothing written
    code, _out, err = cli(capsys, path, *score, "--scorer", away[0][0], "--counter", home[0][0])
    assert code == 1 and len(err.strip().splitlines()) == 1
    db = open_db(tmp_path)
    try:
        assert reads.get_round(db, ev, 1).tables[0].status == "waiting"
    finally:
        db.close()
    code, out, err = cli(capsys, path, *score, "--scorer", home[1][0], "--counter", away[0][0])
    assert code == 0, err
    assert out == {"table": 1, "score": [1, 0], "status": "confirmed"}  # CONTRACTS.md §4, unchanged keys
    db = open_db(tmp_path)
    try:
        t = reads.get_round(db, ev, 1).tables[0]
        assert (t.scorer, t.counter) == (home[1][1], away[0][1])  # the players' names are the approvals
    finally:
        db.close()
    # captains for the match act: home and away players, a wrong one refused
    code, out, err = cli(
        capsys,
        path,
        "captains",
        e,
        "--round",
        "1",
        "--table",
        "1",
        "--home",
        home[0][0],
        "--away",
        away[1][0],
    )
    assert code == 0 and out == {"home": home[0][0], "away": away[1][0]}, err
    code, _out, err = cli(capsys, path, "captains", e, "--round", "1", "--table", "1", "--home", away[0][0])
    assert code == 1 and len(err.strip().splitlines()) == 1


def test_confirm_by_member_and_the_referee_scoring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ev, path = _domino(tmp_path)
    e = str(ev)
    assert cli(capsys, path, "pair", e)[0] == 0 and cli(capsys, path, "publish", e)[0] == 0
    assert cli(capsys, path, "result", e, "--round", "1", "--table", "1", "--score", "0-1")[0] == 0
    db = open_db(tmp_path)
    try:
        home, away = table_sides.side_players(db, ev, 1, 1)
    finally:
        db.close()
    code, out, err = cli(
        capsys, path, "confirm", e, "--round", "1", "--table", "1", "--side", "1", "--member", away[1][0]
    )
    assert code == 0 and out["status"] == "pending", err  # type: ignore[index]
    code, _out, err = cli(
        capsys, path, "confirm", e, "--round", "1", "--table", "1", "--side", "0", "--member", away[0][0]
    )
    assert code == 1  # the scorer is a player of the home pair
    code, out, err = cli(
        capsys, path, "confirm", e, "--round", "1", "--table", "1", "--side", "0", "--member", home[0][0]
    )
    assert code == 0 and out["status"] == "confirmed", err  # type: ignore[index]
    # only a referee may score and count himself (E6)
    code, _out, err = cli(
        capsys,
        path,
        "result",
        e,
        "--round",
        "1",
        "--table",
        "1",
        "--score",
        "0-1",
        "--confirm",
        "--reason",
        "again",
        "--scorer",
        home[0][0],
        "--counter",
        away[0][0],
        "--referee-scores",
    )
    assert code == 1 and len(err.strip().splitlines()) == 1
