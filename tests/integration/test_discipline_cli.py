"""Discipline on the command line (CONTRACTS.md §4): incident, penalty, appeal, appeal-decide, disqualify,
with --json; refusals exit 1 with one line, wrong usage exits 2; the audit command and its CSV (issue 13)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from clubdesk.cli import main
from clubdesk.storage import Database
from tests.integration.test_discipline_service import make_event, member_of, start_round


class Cli:
    def __init__(self, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.db = db
        self.capsys = capsys

    def run(self, *args: str) -> tuple[int, str, str]:
        try:
            code = main(["--db", str(self.db), "--json", *args])
        except SystemExit as exc:  # wrong usage: argparse exits 2
            code = int(exc.code or 0)
        out = self.capsys.readouterr()
        return code, out.out, out.err

    def ok(self, *args: str) -> Any:
        code, out, err = self.run(*args)
        assert code == 0, err
        return json.loads(out)

    def refused(self, *args: str) -> str:
        code, _out, err = self.run(*args)
        assert code == 1
        lines = err.strip().splitlines()
        return lines[-1]


@pytest.fixture
def night(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    path = tmp_path / "club.sqlite3"
    db = Database(path, backups_dir=tmp_path / "b")
    eid, ids = make_event(db, "domino-es", "round-robin", 4, per=2)
    rv = start_round(db, eid)
    numbers = {e: member_of(db, e) for e in ids}
    db.close()
    monkeypatch.setenv("CLUBDESK_ACTOR", "Ana")
    monkeypatch.setenv("CLUBDESK_ROLE", "referee")
    return Cli(path, capsys), eid, rv, numbers


def test_incident_json_and_e19_counter(night) -> None:  # type: ignore[no-untyped-def]
    cli, eid, rv, numbers = night
    player = numbers[rv.tables[0].sides[0]]
    first = cli.ok(
        "incident",
        str(eid),
        "--round",
        "1",
        "--table",
        "1",
        "--kind",
        "dropped-tiles",
        "--text",
        "3-3 fell",
        "--player",
        player,
        "--hand",
        "2",
        "--decision",
        "reshuffle",
    )
    assert first == {"incident": 1}
    cli.ok(
        "incident",
        str(eid),
        "--round",
        "1",
        "--table",
        "1",
        "--kind",
        "dropped-tiles",
        "--text",
        "again",
        "--player",
        player,
    )
    # text output names the count (rule E19)
    code, out, _err = cli.run(
        "incident",
        str(eid),
        "--round",
        "1",
        "--table",
        "1",
        "--kind",
        "dropped-tiles",
        "--text",
        "third",
        "--player",
        player,
    )
    assert code == 0 and json.loads(out) == {"incident": 3}
    code = main(
        [
            "--db",
            str(cli.db),
            "incident",
            str(eid),
            "--round",
            "1",
            "--table",
            "1",
            "--kind",
            "dropped-tiles",
            "--text",
            "fourth",
            "--player",
            player,
        ]
    )
    assert code == 0
    assert "4th time by this pair in this game" in cli.capsys.readouterr().out


def test_incident_on_a_missing_table_is_refused(night) -> None:  # type: ignore[no-untyped-def]
    cli, eid, _rv, _numbers = night
    line = cli.refused("incident", str(eid), "--round", "1", "--table", "9", "--kind", "talk", "--text", "x")
    assert line == f"clubdesk-cli: Round 1 of event {eid} has no table 9."


def test_penalty_and_referee_only(night, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    cli, eid, _rv, _numbers = night
    assert cli.ok(
        "penalty",
        str(eid),
        "--round",
        "1",
        "--table",
        "1",
        "--side",
        "b",
        "--kind",
        "fine",
        "--points",
        "20",
        "--reason",
        "wrong play",
    ) == {"penalty": 1}
    monkeypatch.setenv("CLUBDESK_ROLE", "secretary")
    line = cli.refused(
        "penalty",
        str(eid),
        "--round",
        "1",
        "--table",
        "1",
        "--side",
        "0",
        "--kind",
        "warning",
        "--reason",
        "x",
    )
    assert "Only a referee" in line
    code, _out, _err = cli.run(
        "penalty",
        str(eid),
        "--round",
        "1",
        "--table",
        "1",
        "--side",
        "c",
        "--kind",
        "warning",
        "--reason",
        "x",
    )
    assert code == 2  # wrong usage: no side "c"


def test_appeal_fee_refunded_when_upheld(night) -> None:  # type: ignore[no-untyped-def]
    cli, eid, rv, _numbers = night
    by_a, by_b = rv.tables[0].sides
    a = cli.ok(
        "appeal",
        str(eid),
        "--round",
        "1",
        "--table",
        "1",
        "--by",
        str(by_a),
        "--fee",
        "5",
        "--text",
        "signals",
    )
    b = cli.ok(
        "appeal", str(eid), "--round", "1", "--table", "1", "--by", str(by_b), "--fee", "5", "--text", "count"
    )
    # rule G16: 5 EUR back when upheld, nothing when rejected
    assert cli.ok("appeal-decide", str(a["appeal"]), "--upheld", "--reasons", "seen") == {
        "appeal": a["appeal"],
        "refund": 5,
    }
    assert cli.ok("appeal-decide", str(b["appeal"]), "--rejected", "--reasons", "not seen") == {
        "appeal": b["appeal"],
        "refund": 0,
    }
    code, _out, _err = cli.run("appeal-decide", str(a["appeal"]), "--upheld", "--rejected", "--reasons", "x")
    assert code == 2


def test_disqualify_and_audit_csv(night, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli, eid, rv, _numbers = night
    entrant = rv.tables[0].sides[0]
    assert cli.ok("disqualify", str(eid), str(entrant), "--reason", "betting") == {"ok": True}
    line = cli.refused("disqualify", str(eid), str(entrant), "--reason", "again")
    assert "already disqualified" in line
    rows = cli.ok("audit", "--event", str(eid), "--table", "1")
    assert {r["action"] for r in rows} >= {"forfeit"}
    out = tmp_path / "audit.csv"
    result = cli.ok("audit", "--event", str(eid), "--person", "Ana", "--csv", str(out))
    with out.open(encoding="utf-8-sig", newline="") as fh:
        lines = list(csv.reader(fh))
    assert result["rows"] == len(lines) - 1 >= 2
    assert {line[3] for line in lines[1:]} >= {"disqualify", "penalty.add"}


def test_a_second_appeal_after_the_decision_is_refused_and_the_referee_reopens(night) -> None:  # type: ignore[no-untyped-def]
    # rules G16, T10: the decision is final; a second appeal on the table and subject is refused in one line
    cli, eid, rv, _numbers = night
    by_a, _by_b = rv.tables[0].sides
    table = ("--round", "1", "--table", "1")
    a = cli.ok("appeal", str(eid), *table, "--by", str(by_a), "--text", "count")
    cli.ok("appeal-decide", str(a["appeal"]), "--rejected", "--reasons", "recounted")
    line = cli.refused("appeal", str(eid), *table, "--by", str(by_a), "--text", "count again")
    assert f"Appeal {a['appeal']}" in line and "rejected" in line and "recounted" in line
    assert cli.ok("appeal", str(eid), *table, "--by", str(by_a), "--text", "noise", "--subject", "conduct")
    assert "reason" in cli.run("appeal-reopen", str(a["appeal"]))[2]  # --reason is required (usage, exit 2)
    assert cli.ok("appeal-reopen", str(a["appeal"]), "--reason", "sheet found") == {
        "appeal": a["appeal"],
        "status": "open",
    }
    assert (
        cli.ok("appeal-decide", str(a["appeal"]), "--upheld", "--reasons", "sheet shows it")["appeal"]
        == a["appeal"]
    )
