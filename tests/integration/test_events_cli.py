"""``clubdesk-cli`` event and desk commands with ``--json`` (CONTRACTS.md §4): a tavla night from the first
entry to the check-in desk, amounts in major units on the command line and in minor units in storage."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from clubdesk.cli import main
from clubdesk.services.kernel import DESK_CLOCK


class Cli:
    def __init__(self, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.db = db
        self.capsys = capsys

    def ok(self, *args: str) -> Any:
        code = main(["--db", str(self.db), "--json", *args])
        captured = self.capsys.readouterr()
        assert code == 0, captured.err
        return json.loads(captured.out)

    def refused(self, *args: str) -> str:
        code = main(["--db", str(self.db), "--json", *args])
        captured = self.capsys.readouterr()
        assert code == 1
        assert captured.out == ""
        lines = captured.err.strip().splitlines()
        assert len(lines) == 1
        return lines[0]


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    c = Cli(tmp_path / "club.sqlite3", capsys)
    for name, phone in [
        ("Şükrü Işık", "+90 532 123 45 67"),
        ("Ayşe Yılmaz", ""),
        ("Can Öz", ""),
        ("Deniz Ak", ""),
    ]:
        c.ok("member", "add", "--name", name, "--phone", phone)
    return c


def test_a_tavla_night_from_entry_to_checkin(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    # The payment and the refund are stamped with the desk's clock; pinned to one evening (and the cash box
    # asked for that day) so that a run across midnight cannot split them over two days.
    evening = datetime(2025, 3, 1, 19, 0)
    monkeypatch.setattr(DESK_CLOCK, "now", lambda: evening)
    ev = cli.ok(
        "event",
        "create",
        "--name",
        "Tavla Kupası",
        "--ruleset",
        "tavla",
        "--format",
        "swiss",
        "--rounds",
        "5",
        "--match-length",
        "5",
        "--capacity",
        "2",
        "--fee",
        "12.50",
        "--currency",
        "EUR",
    )
    eid = str(ev["id"])
    a = cli.ok("register", eid, "1001")
    b = cli.ok("register", eid, "1002")
    c = cli.ok("register", eid, "1003")
    assert (a["status"], a["waitlist_position"]) == ("registered", None)
    assert (c["status"], c["waitlist_position"]) == ("waitlisted", 1)
    assert len(a["code"]) == 6
    pay = cli.ok("pay", eid, str(a["entrant"]), "--amount", "12.50", "--method", "cash")
    assert isinstance(pay["payment"], int)
    # rule T2d: full refund before the close (default 100 %); rule T2c: the waiting entrant moves up
    w = cli.ok("withdraw", eid, str(a["entrant"]))
    assert w == {"refund": 12.5, "promoted": c["entrant"]}
    rows = cli.ok("entrants", eid)
    by_id = {r["entrant"]: r for r in rows}
    assert {k: by_id[c["entrant"]][k] for k in ("status", "waitlist_position", "paid", "checked_in")} == {
        "status": "registered",
        "waitlist_position": None,
        "paid": 0,
        "checked_in": False,
    }
    assert by_id[a["entrant"]]["paid"] == 0  # 12.50 paid - 12.50 refunded
    got = cli.ok("checkin", eid, f"CLUBDESK:CHECKIN:{eid}:{b['code']}")
    assert got == {
        "entrant": b["entrant"],
        "name": "Ayşe Yılmaz",
        "status": "registered",
        "joins_from_round": None,
        "owed": 12.5,
    }
    assert cli.ok("entrants", eid)[0]["checked_in"] is True
    box = cli.ok("cashbox", "--event", eid, "--date", "2025-03-01")
    assert box["lines"] == [
        {"currency": "EUR", "method": "cash", "received": 12.5, "refunded": 12.5, "net": 0, "count": 2}
    ]
    outbox = cli.ok("outbox")
    assert [m["member"] for m in outbox] == ["1003"]


def test_checkin_by_phone_and_number(cli: Cli) -> None:
    eid = str(cli.ok("event", "create", "--name", "Cup", "--ruleset", "tavla", "--format", "swiss")["id"])
    a = cli.ok("register", eid, "1001")
    b = cli.ok("register", eid, "1002")
    assert cli.ok("checkin", eid, "0532 123 45 67")["entrant"] == a["entrant"]
    assert cli.ok("checkin", eid, "1002")["entrant"] == b["entrant"]


def test_checkin_by_name(cli: Cli) -> None:
    eid = str(cli.ok("event", "create", "--name", "Cup", "--ruleset", "tavla", "--format", "swiss")["id"])
    a = cli.ok("register", eid, "1002")
    for name in ("Mehmet Kaya", "Mehmet Öz"):
        number = cli.ok("member", "add", "--name", name)["number"]
        cli.ok("register", eid, number)
    got = cli.ok("checkin", eid, "ayse yilmaz")
    assert (got["entrant"], got["name"]) == (a["entrant"], "Ayşe Yılmaz")
    refusal = cli.refused("checkin", eid, "Mehmet")
    assert "Mehmet Kaya" in refusal and "Mehmet Öz" in refusal
    assert cli.ok("checkin", eid, "MEHMET OZ")["name"] == "Mehmet Öz"
    assert "Nobody" in cli.refused("checkin", eid, "Zeynep")


def test_pair_registration_and_event_with_target_override(cli: Cli) -> None:
    ev = cli.ok(
        "event",
        "create",
        "--name",
        "Gaple 201",
        "--ruleset",
        "gaple-club",
        "--format",
        "single-elimination",
        "--target",
        "201",
        "--entry",
        "pair",
        "--fee",
        "5000",
        "--currency",
        "IDR",
        "--fee-per",
        "person",
    )
    shown = cli.ok("event", "show", str(ev["id"]))
    assert shown["overrides"] == {"target": 201}
    assert shown["fee"] == 5000
    reg = cli.ok("register", str(ev["id"]), "1001", "--partner", "1002")
    # rule BC4: Rp 5,000 per person, two persons -> Rp 10,000 owed
    assert cli.ok("entrants", str(ev["id"]))[0]["owed"] == 10000
    assert reg["status"] == "registered"


def test_cli_refusals_are_one_line_and_exit_1(cli: Cli) -> None:
    eid = str(
        cli.ok("event", "create", "--name", "Cup", "--ruleset", "tavla", "--format", "swiss", "--fee", "25")[
            "id"
        ]
    )
    a = cli.ok("register", eid, "1001")
    assert "already entered" in cli.refused("register", eid, "1001")
    assert "more than" in cli.refused(
        "pay", eid, str(a["entrant"]), "--amount", "1000000", "--method", "cash"
    )
    assert "positive" in cli.refused("pay", eid, str(a["entrant"]), "--amount", "-5", "--method", "cash")
    assert "decimals" in cli.refused("pay", eid, str(a["entrant"]), "--amount", "12.505", "--method", "cash")
    assert "Nobody" in cli.refused("checkin", eid, "QQQQQQ")
    cli.ok("checkin", eid, "1001")
    assert "already checked in" in cli.refused("checkin", eid, "1001")
    assert "Cannot refund" in cli.refused("refund", eid, str(a["entrant"]), "--amount", "1")
    assert "target" in cli.refused(
        "event", "create", "--name", "X", "--ruleset", "tavla", "--format", "swiss", "--target", "201"
    )
    assert "format" in cli.refused(
        "event", "create", "--name", "X", "--ruleset", "tavla", "--format", "knockout"
    )
    assert cli.ok("entrants", eid)[0]["paid"] == 0
