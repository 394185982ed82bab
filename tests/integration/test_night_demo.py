"""The demo club's competition nights (issue 11): events of every format with a few rounds played, made
through the services, and ``standings`` works on each of them (services and ``clubdesk-cli``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from clubdesk.cli.core import main
from clubdesk.models.event import Event
from clubdesk.models.result import Match, ResultEntry
from clubdesk.services import demo
from clubdesk.services.night.data import reads
from clubdesk.services.night.ranking import standings
from clubdesk.storage import Database


def test_demo_has_a_running_event_of_every_format(tmp_path: Path, demo_file: Path, demo_result: Any) -> None:
    shutil.copy(demo_file, tmp_path / "demo.sqlite3")  # the run's demo club, filled by fill_demo
    db = Database(tmp_path / "demo.sqlite3")
    with db.session() as s:
        evs = {e.id: e for e in s.scalars(select(Event).where(Event.name.startswith(demo.NIGHT_DEMO_PREFIX)))}
        assert set(evs) <= set(demo_result["events"])
        kinds = {(e.ruleset, e.format, e.entry_type) for e in evs.values()}
        assert kinds == {
            ("tavla", "swiss", "single"),
            ("gaple-club", "round-robin", "pair"),
            ("gaple-tournament", "single-elimination", "pair"),
            ("domino-es", "round-robin", "team"),
            ("tavla", "double-elimination", "single"),
            ("tavla", "lives", "single"),
            ("gaple-club", "open-round-robin", "pair"),
        }
        for e in evs.values():
            ms = list(s.scalars(select(Match).where(Match.event_id == e.id)))
            confirmed = [m for m in ms if m.status == "confirmed"]
            waiting = [m for m in ms if m.status in ("waiting", "in_play", "pending")]
            # a living club: results in, and the latest round still under way
            assert confirmed and waiting, e.name
            assert e.status == "running", e.name
        # the knockout was entered hand by hand (G6, GN1): every confirmed match has its sheet
        ko = next(e for e in evs.values() if e.ruleset == "gaple-tournament")
        for m in s.scalars(select(Match).where(Match.event_id == ko.id, Match.status == "confirmed")):
            assert s.query(ResultEntry).filter(ResultEntry.match_id == m.id).count() >= 6
            assert max(m.score_a, m.score_b) == 2  # best of 3 (G4)
        # the team event: encounters of two games (E7b), seats drawn (E7)
        team = next(e for e in evs.values() if e.entry_type == "team")
        tables = list(s.scalars(select(Match).where(Match.event_id == team.id, Match.side_b.is_not(None))))
        assert all(json.loads(m.seats)["seats"] for m in tables)
        assert all(m.score_a + m.score_b == 2 for m in tables if m.status == "confirmed")
    for ev in evs:
        st = standings.event_standings(db, ev)
        assert st.rows and not st.finished
        assert reads.get_round(db, ev).tables
    # run again: nothing added
    again = demo.fill_demo(db)
    assert again.events == demo_result["events"]
    db.close()


def test_cli_demo_lists_every_event_and_standings_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLUBDESK_HOME", str(tmp_path / "home"))
    assert main(["--json", "demo"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["members"] == 40 and len(out["events"]) >= 7
    for ev in out["events"]:
        code = main(["--json", "--db", str(_demo_path()), "standings", str(ev)])
        text, err = capsys.readouterr()
        assert code == 0, err
        assert "rows" in json.loads(text)


def _demo_path() -> Path:
    from clubdesk import paths

    return Path(paths.demo_db_path())
