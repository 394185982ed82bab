"""The cash box of "today" is the desk clock's day (``services/desk.py`` ``_now``), the same clock that stamps
payments and refunds: asked without a date, ``clubdesk-cli cashbox`` shows the evening's money even when the
computer's calendar has moved on (a run near midnight used to read the wall clock and find an empty box)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from clubdesk.cli import main
from clubdesk.services.kernel import DESK_CLOCK


def run(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code = main(["--db", str(db), "--json", *args])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def test_cashbox_without_a_date_is_the_desk_clocks_day(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the desk clock reads 1 March 2025, 19:00, whatever day the test runs on
    evening = datetime(2025, 3, 1, 19, 0)
    monkeypatch.setattr(DESK_CLOCK, "now", lambda: evening)
    db = tmp_path / "club.sqlite3"
    run(db, capsys, "member", "add", "--name", "Ayşe Yılmaz")
    ev = run(
        db,
        capsys,
        "event", "create", "--name", "Tavla Gecesi", "--ruleset", "tavla", "--format", "swiss",
        "--fee", "12.50", "--currency", "EUR",
    )  # fmt: skip
    eid = str(ev["id"])
    a = run(db, capsys, "register", eid, "1001")
    run(db, capsys, "pay", eid, str(a["entrant"]), "--amount", "12.50", "--method", "cash")
    # rule T2d: withdrawing before the close refunds 100 % of the 12.50 paid
    assert run(db, capsys, "withdraw", eid, str(a["entrant"]))["refund"] == 12.5
    box = run(db, capsys, "cashbox", "--event", eid)  # no --date: "today" on the desk clock
    assert box["date"] == "2025-03-01"
    # 12.50 in, 12.50 back out: net 0 from 2 movements
    assert box["lines"] == [
        {"currency": "EUR", "method": "cash", "received": 12.5, "refunded": 12.5, "net": 0, "count": 2}
    ]
    assert box["totals"] == {"EUR": 0}
