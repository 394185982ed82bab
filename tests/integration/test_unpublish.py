"""Rule T10: the referee may take back (unpublish) a published round while none of its tables has an entry
or a result and its start time has not passed; the earlier round's results unlock and can be corrected.
After that, the earlier round stays locked (issue 19)."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from clubdesk.models.audit import AuditEntry
from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import results, rounds
from tests.integration.test_night_helpers import DESK, REF, make_event, open_db

pytestmark = pytest.mark.usefixtures("both_backends")  # issue 25: SQLite and the club server

CALL = datetime(2026, 5, 1, 19, 0)


def _two_rounds(tmp_path: Path, start: datetime | None = None):  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[3])
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev, call_at=CALL)
    for t in (1, 2):
        results.set_score(db, DESK, ev, 1, t, (3, 1), None, confirm=True)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev, call_at=CALL + timedelta(hours=1), start_at=start)
    return db, ev


def test_unpublish_then_correct_the_earlier_round(tmp_path: Path) -> None:
    db, ev = _two_rounds(tmp_path)
    # publishing round 2 locked round 1 (T10): a correction needs the referee's override
    with pytest.raises(ServiceError) as err:
        results.set_score(db, DESK, ev, 1, 1, (1, 3), None, confirm=True, reason="typo")
    assert err.value.code in ("locked", "referee-only")
    with pytest.raises(ServiceError) as err:
        rounds.unpublish_round(db, DESK, ev, "wrong result in round 1")
    assert err.value.code == "referee-only"
    with pytest.raises(ServiceError) as err:
        rounds.unpublish_round(db, REF, ev, "  ")
    assert err.value.code == "reason-required"
    rv = rounds.unpublish_round(db, REF, ev, "table 1 of round 1 was entered the wrong way round").round
    assert rv.status == "proposed" and rv.call_at is None
    assert [t.locked for t in reads.get_round(db, ev, 1).tables] == [False, False]
    res = results.set_score(db, DESK, ev, 1, 1, (1, 3), None, confirm=True, reason="sides swapped").table
    assert res.as_json()["score"] == [1, 3]
    with db.session() as s:
        row = s.scalars(select(AuditEntry).where(AuditEntry.action == "unpublish")).one()
        assert row.reason and "wrong way round" in row.reason and row.round_no == 2
    # the round is proposed again: thrown away and paired again, or published as it is
    assert rounds.discard_round(db, DESK, ev).number == 2
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev, call_at=CALL + timedelta(hours=1))
    assert all(t.locked for t in reads.get_round(db, ev, 1).tables)


def test_unpublish_refused_once_a_table_of_the_round_has_an_entry(tmp_path: Path) -> None:
    db, ev = _two_rounds(tmp_path)
    results.add_entry(
        db, DESK, ev, 2, 1, {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}
    )
    with pytest.raises(ServiceError) as err:
        rounds.unpublish_round(db, REF, ev, "too late")
    assert err.value.code == "round-started"
    assert all(t.locked for t in reads.get_round(db, ev, 1).tables)  # round 1 stays locked


def test_unpublish_refused_once_the_start_time_has_passed(tmp_path: Path) -> None:
    start = CALL + timedelta(hours=1, minutes=10)
    db, ev = _two_rounds(tmp_path, start=start)
    with pytest.raises(ServiceError) as err:
        rounds.unpublish_round(db, REF, ev, "too late", now=start)
    assert err.value.code == "round-started" and "20:10" in err.value.message
    rv = rounds.unpublish_round(
        db, REF, ev, "one minute before the start", now=start - timedelta(minutes=1)
    ).round
    assert rv.status == "proposed"


def test_unpublish_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from clubdesk.cli.core import main

    db, ev = _two_rounds(tmp_path)
    db.close()
    path = db.location  # the file, or the club server's URL (issue 25)
    capsys.readouterr()
    assert main(["--db", str(path), "--json", "unpublish", str(ev), "--reason", "x"]) == 1
    assert len(capsys.readouterr().err.strip().splitlines()) == 1  # the secretary is refused, one line
    monkeypatch.setenv("CLUBDESK_ROLE", "referee")
    assert main(["--db", str(path), "--json", "unpublish", str(ev), "--reason", "wrong pairing"]) == 0
    assert json.loads(capsys.readouterr().out) == {"round": 2, "status": "proposed"}
