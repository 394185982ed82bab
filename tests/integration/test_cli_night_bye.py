"""``clubdesk-cli bye EVENT ENTRANT [--cancel]``: an entrant of a Swiss asks to sit out the next round;
``pair`` leaves him out and gives him a requested bye worth what ``night-config --requested-bye`` says; a
request in a round robin (a fixed schedule) is refused in one line with exit 1 and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clubdesk.cli.core import main
from clubdesk.services.night.data import settings
from tests.integration.test_night_helpers import make_event, open_db


def cli(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, object, str]:
    code = main(["--db", str(db), "--json", *args])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and out.strip() else None), err


def test_requested_bye_in_a_swiss_from_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=5, rounds=3, match_lengths=[3])
    db.close()
    path, e = tmp_path / "night.sqlite3", str(ev)
    code, out, err = cli(capsys, path, "night-config", e, "--requested-bye", "full-bye")
    assert code == 0, err
    assert out["requested_bye"] == "full-bye"  # type: ignore[index]
    # E1 asks for a bye in round 1; E2 asks too, then takes it back
    code, out, err = cli(capsys, path, "bye", e, str(ids[0]))
    assert (code, out) == (0, {"requested_byes": [{"entrant": ids[0], "round": 1}]}), err
    cli(capsys, path, "bye", e, str(ids[1]))
    code, out, err = cli(capsys, path, "bye", e, str(ids[1]), "--cancel")
    assert (code, out) == (0, {"requested_byes": [{"entrant": ids[0], "round": 1}]}), err

    code, rnd, err = cli(capsys, path, "pair", e)
    assert code == 0, err
    tables = rnd["tables"]  # type: ignore[index]
    games = [t for t in tables if t["sides"][1] is not None]
    # 5 entrants less E1 = 4 paired: two games and no pairing bye; E1 is in no game and sits alone
    assert len(games) == 2
    assert ids[0] not in {x for t in games for x in t["sides"]}
    assert [t["sides"] for t in tables if t["sides"][1] is None] == [[ids[0], None]]
    assert ids[1] in {x for t in games for x in t["sides"]}  # the cancelled request: E2 plays
    assert cli(capsys, path, "publish", e)[0] == 0
    for t in games:
        code, _o, err = cli(
            capsys,
            path,
            "result",
            e,
            "--round",
            "1",
            "--table",
            str(t["table"]),
            "--score",
            "3-1",
            "--confirm",
        )
        assert code == 0, err
    code, st, err = cli(capsys, path, "standings", e)
    assert code == 0, err
    points = {r["entrant"]: r["points"] for r in st["rows"]}  # type: ignore[index]
    # a full-bye is worth a win: 1 point (the default zero-bye would give 0); the two winners 1, losers 0
    assert points[ids[0]] == 1
    assert sorted(points.values()) == [0, 0, 1, 1, 1]


def test_requested_bye_refused_in_a_round_robin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="round-robin", players=4)
    db.close()
    path = tmp_path / "night.sqlite3"
    code, out, err = cli(capsys, path, "bye", str(ev), str(ids[0]))
    # a round robin's schedule is fixed: one line that names the formats where a bye can be asked
    assert (code, out) == (1, None)
    assert err.count("\n") == 1 and "Swiss" in err and "round-robin" in err
    db = open_db(tmp_path)
    assert settings.requested_byes(db, ev) == {}  # nothing written
    db.close()
