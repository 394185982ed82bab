"""A 5-round tavla Swiss of 12 run from the command line alone (issue 11), the round lock (T10) and its
referee override, forfeits (T3b, T9a), and bad input refused with nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from clubdesk.cli.core import main
from clubdesk.models.audit import AuditEntry
from clubdesk.models.result import Match
from tests.integration.test_night_helpers import make_event, open_db


def cli(
    capsys: pytest.CaptureFixture[str],
    db: Path,
    *args: str,
    env: dict[str, str] | None = None,
    monkeypatch: pytest.MonkeyPatch | None = None,
) -> tuple[int, object, str]:
    code = main(["--db", str(db), "--json", *args])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and out.strip() else None), err


@pytest.fixture()
def swiss(tmp_path: Path) -> tuple[Path, int, list[int]]:
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=12, rounds=5)
    db.close()
    return tmp_path / "night.sqlite3", ev, ids


def test_five_round_tavla_swiss_of_12(
    capsys: pytest.CaptureFixture[str], swiss: tuple[Path, int, list[int]]
) -> None:
    path, ev, ids = swiss
    met: set[frozenset[int]] = set()
    for r in range(1, 6):
        code, out, err = cli(capsys, path, "pair", str(ev))
        assert code == 0, err
        assert isinstance(out, dict) and out["round"] == r
        tables = out["tables"]
        assert [t["table"] for t in tables] == [1, 2, 3, 4, 5, 6]
        if r == 1:
            # rule T4e: round 1 by rating, top half against bottom half: 1-7, 2-8, ... 6-12
            assert [t["sides"] for t in tables] == [[ids[k], ids[k + 6]] for k in range(6)]
        for t in tables:
            pair = frozenset(t["sides"])
            assert pair not in met  # rule T4e: no two players meet twice
            met.add(pair)
        code, out, err = cli(capsys, path, "publish", str(ev))
        assert (code, out) == (0, {"round": r}), err
        for t in tables:
            # the first-named side (better ranked) wins 5-2; 7-2 is capped at the match length 5 (T8a)
            code, out, err = cli(
                capsys,
                path,
                "result",
                str(ev),
                "--round",
                str(r),
                "--table",
                str(t["table"]),
                "--score",
                "7-2",
                "--confirm",
            )
            assert code == 0, err
            assert out == {"table": t["table"], "score": [5, 2], "status": "confirmed"}
        if r == 1:
            db = open_db(path.parent)
            from clubdesk.services.night.ranking.ratings import rating_history

            # rule T12c: 1500 v 1500, 5 points, both newcomers (K=5): P = 1/(10^0+1) = 0.5,
            # change = 4 * 5 * sqrt(5) * 0.5 = 22.3607
            assert rating_history(db, "N0001")[0]["after"] == pytest.approx(1522.3607, abs=1e-4)
            assert rating_history(db, "N0007")[0]["after"] == pytest.approx(1477.6393, abs=1e-4)
            db.close()
    code, out, err = cli(capsys, path, "standings", str(ev))
    assert code == 0, err
    rows = out["rows"]  # type: ignore[index]
    # 6 wins a round x 5 rounds = 30 points in all; E1 is first-named every round and wins all 5
    assert sum(r["points"] for r in rows) == 30
    assert rows[0]["entrant"] == ids[0] and rows[0]["points"] == 5 and rows[0]["rank"] == 1
    assert set(rows[0]["tiebreaks"]) == {"IAV", "GAV", "BH"}  # rule T12b tie order for tavla
    # GAV of the winner: 5 matches won 5-2 = +3 each -> +15
    assert rows[0]["tiebreaks"]["GAV"] == 15
    # the sixth round does not exist
    code, _out, err = cli(capsys, path, "pair", str(ev))
    assert code == 1 and "finished" in err


def test_round_lock_and_referee_override(
    capsys: pytest.CaptureFixture[str], swiss: tuple[Path, int, list[int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, ev, _ids = swiss
    for r in (1, 2):
        cli(capsys, path, "pair", str(ev))
        cli(capsys, path, "publish", str(ev))
        if r == 1:
            for t in range(1, 7):
                code, _o, err = cli(
                    capsys,
                    path,
                    "result",
                    str(ev),
                    "--round",
                    "1",
                    "--table",
                    str(t),
                    "--score",
                    "5-1",
                    "--confirm",
                )
                assert code == 0, err
    # rule T10: round 2 has started, round 1 no longer changes
    code, _o, err = cli(
        capsys,
        path,
        "result",
        str(ev),
        "--round",
        "1",
        "--table",
        "1",
        "--score",
        "1-5",
        "--confirm",
        "--reason",
        "typo",
    )
    assert code == 1 and "locked" in err
    # the override needs a referee ...
    code, _o, err = cli(
        capsys,
        path,
        "result",
        str(ev),
        "--round",
        "1",
        "--table",
        "1",
        "--score",
        "1-5",
        "--confirm",
        "--override",
        "sheet misread",
    )
    assert code == 1 and "referee" in err.lower()
    monkeypatch.setenv("CLUBDESK_ROLE", "referee")
    monkeypatch.setenv("CLUBDESK_ACTOR", "Ayşe")
    code, out, err = cli(
        capsys,
        path,
        "result",
        str(ev),
        "--round",
        "1",
        "--table",
        "1",
        "--score",
        "1-5",
        "--confirm",
        "--override",
        "sheet misread",
    )
    assert code == 0, err
    assert out == {"table": 1, "score": [1, 5], "status": "confirmed"}
    db = open_db(path.parent)
    with db.session() as s:
        row = s.scalars(select(AuditEntry).where(AuditEntry.action == "override")).one()
        assert (row.event_id, row.round_no, row.table_no, row.reason) == (ev, 1, 1, "sheet misread")
        assert row.actor_name == "Ayşe" and json.loads(row.before or "{}")["score"] == [5, 1]
    db.close()


def test_bad_results_refused_nothing_written(
    capsys: pytest.CaptureFixture[str], swiss: tuple[Path, int, list[int]], tmp_path: Path
) -> None:
    path, ev, _ids = swiss
    cli(capsys, path, "pair", str(ev))
    cli(capsys, path, "publish", str(ev), "--call-time", "2024-05-01T19:00")
    before = path.read_bytes()
    bad = [
        ["--table", "9", "--score", "5-1"],  # no table 9 in a round of 6 tables
        ["--table", "1", "--score", "5-5", "--confirm"],  # both at the match length
        ["--table", "1", "--score", "3-1", "--confirm"],  # neither at the match length, confirming
        ["--table", "1", "--score=-1-5"],  # negative
    ]
    for extra in bad:
        code, _o, err = cli(capsys, path, "result", str(ev), "--round", "1", *extra)
        assert code in (1, 2), (extra, err)
    db = open_db(path.parent)
    with db.session() as s:
        assert all(m.status == "waiting" for m in s.scalars(select(Match)))
    db.close()
    # an incomplete tavla sheet cannot be confirmed: one game of 2 points in a 5-point match
    sheet = tmp_path / "sheet.json"
    sheet.write_text(
        json.dumps([{"type": "game", "winner": 0, "kind": "gammon", "cube": 1, "dropped": False}])
    )
    code, _o, err = cli(
        capsys, path, "result", str(ev), "--round", "1", "--table", "2", "--entries", str(sheet), "--confirm"
    )
    assert code == 1 and "not finished" in err
    assert before  # the file existed before


def test_forfeit_after_the_table_call(
    capsys: pytest.CaptureFixture[str], swiss: tuple[Path, int, list[int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, ev, ids = swiss
    cli(capsys, path, "pair", str(ev))
    # published now: the 10 minutes of rule T3b have not passed
    cli(capsys, path, "publish", str(ev))
    code, _o, err = cli(capsys, path, "result", str(ev), "--round", "1", "--table", "3", "--forfeit", "1")
    assert code == 1 and "T3b" in err
    db = open_db(path.parent)
    with db.session() as s:
        from clubdesk.models.round import Round

        rnd = s.scalars(select(Round)).one()
        from datetime import timedelta

        assert rnd.call_at is not None
        # called 10 minutes after the publication (the night's call notice): 21 minutes back, the 10
        # minutes of rule T3b after the call have passed
        rnd.call_at = rnd.call_at - timedelta(minutes=21)
    db.close()
    code, out, err = cli(capsys, path, "result", str(ev), "--round", "1", "--table", "3", "--forfeit", "1")
    # rule T9a: a forfeit is match length-0 for the present side
    assert code == 0, err
    assert out == {"table": 3, "score": [5, 0], "status": "confirmed"}
