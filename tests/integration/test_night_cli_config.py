"""A secretary runs a 6-player tavla knockout from ``clubdesk-cli`` with a prize plan and a season scale set
by ``night-config`` (T12d, T13b, T13c); mistakes are refused in one line with exit 1 and nothing written;
a referee's override that would rewrite an already published bracket match is refused (T10)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from clubdesk.cli.core import main
from tests.integration.test_night_helpers import make_event, open_db


def cli(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, object, str]:
    code = main(["--db", str(db), "--json", *args])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and out.strip() else None), err


def test_knockout_with_prizes_and_season_points_from_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="single-elimination", players=6)
    from clubdesk.models.event import Event
    from clubdesk.models.money import Payment

    with db.session() as s:
        s.get(Event, ev).coefficient_class = "regional"  # type: ignore[union-attr]
        for e in ids:  # 6 x 20.00 EUR collected
            s.add(Payment(entrant_id=e, amount=2000, currency="EUR", method="cash", recorded_by="t"))
    db.close()
    path = tmp_path / "night.sqlite3"
    e = str(ev)
    # mistakes first: shares over 100 %, a class the scale does not know, one option without the other
    for bad in (
        ["--prize-shares", "60,50"],
        ["--season-points", "100,70", "--coefficient", "local=1"],
        ["--season-points", "100,70"],
        ["--prize-plan", "{not json"],
    ):
        code, _o, err = cli(capsys, path, "night-config", e, *bad)
        assert code == 1 and err.count("\n") == 1, (bad, err)
    db = open_db(tmp_path)
    from clubdesk.services.night.data import reads

    with db.session() as s:  # nothing was written
        n = reads.night(s, reads.get_event(s, ev))
        assert (n.prize_plan, n.season_scale) == ("{}", "{}")
    db.close()
    code, out, err = cli(
        capsys,
        path,
        "night-config",
        e,
        "--prize-pool",
        "80",
        "--prize-shares",
        "50,30,20",
        "--season-points",
        "100,70,50,40,30,20",
        "--coefficient",
        "regional=1.5",
    )
    assert code == 0, err
    assert json.loads(out["prize_plan"])["pool_rate"] == 8000  # type: ignore[index]
    assert json.loads(out["season_scale"])["coefficients"] == {"regional": 150}  # type: ignore[index]
    seed = {x: k + 1 for k, x in enumerate(ids)}
    locked_checked = False
    for r in (1, 2, 3):
        code, rnd, err = cli(capsys, path, "pair", e)
        assert code == 0, err
        assert cli(capsys, path, "publish", e)[0] == 0
        for t in rnd["tables"]:  # type: ignore[index]
            a, b = t["sides"]
            score = "5-2" if seed[a] < seed[b] else "2-5"  # the better seed wins
            code, _o, err = cli(
                capsys,
                path,
                "result",
                e,
                "--round",
                str(r),
                "--table",
                str(t["table"]),
                "--score",
                score,
                "--confirm",
            )
            assert code == 0, err
        if r == 2 and not locked_checked:
            # round 2 is published: round 1 is locked (T10); a referee may override, but not so as to
            # change who plays an already published match of the bracket
            monkeypatch.setenv("CLUBDESK_ROLE", "referee")
            code, _o, err = cli(
                capsys, path, "result", e, "--round", "1", "--table", "1", "--score", "0-5", "--override", "x"
            )
            assert code == 1 and "round 2 table" in err and err.count("\n") == 1
            monkeypatch.delenv("CLUBDESK_ROLE")
            locked_checked = True
    code, places, err = cli(capsys, path, "places", e)
    assert code == 0, err
    got = {seed[p["entrant"]]: p for p in places}  # type: ignore[union-attr]
    # T12a: 6 in a bracket of 8 (byes to seeds 1, 2): 1, 2, 3-4, 5-6
    assert {k: tuple(v["place"]) for k, v in got.items()} == {
        1: (1, 1),
        2: (2, 2),
        3: (3, 4),
        4: (3, 4),
        5: (5, 6),
        6: (5, 6),
    }
    # T12d: 100 x 1.5 = 150, 70 x 1.5 = 105, (50+40)/2 x 1.5 = 67.5, (30+20)/2 x 1.5 = 37.5
    assert [got[k]["season_points"] for k in range(1, 7)] == [150, 105, 67.5, 67.5, 37.5, 37.5]
    # T13b/T13c: pool 12000 x 80 % = 9600: 4800, 2880, and 1920 shared by places 3-4: 960 each
    assert [sum(p["amount"] for p in got[k]["prizes"]) for k in range(1, 7)] == [4800, 2880, 960, 960, 0, 0]
    assert os.environ.get("CLUBDESK_ROLE") is None
