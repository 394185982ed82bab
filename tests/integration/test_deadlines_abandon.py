"""Forfeit deadlines at the minute boundaries (rule G15: gaple, before the match start; rule T3b: tavla,
after the table call), a notice of lateness (G15: the referee decides), and an abandonment in a domino-es
team encounter (rule E20: the game is lost, the encounter goes on unless the ruleset says otherwise)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from clubdesk.models.audit import AuditEntry
from clubdesk.models.event import Event
from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.night.data import reads, settings
from clubdesk.services.night.play import forfeits, results, rounds
from clubdesk.services.publishing import documents, header, match_act
from tests.integration.test_night_helpers import DESK, REF, make_event, open_db

pytestmark = pytest.mark.usefixtures("both_backends")  # issue 25: SQLite and the club server

CALL = datetime(2026, 5, 1, 19, 0)
START = datetime(2026, 5, 1, 19, 30)


def _night(tmp_path: Path, ruleset: str, **kw: object):  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    if ruleset == "tavla":
        ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=2, match_lengths=[3])
    else:
        ev, _ids = make_event(db, ruleset=ruleset, fmt="swiss", players=4, rounds=2)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev, call_at=CALL, **kw)  # type: ignore[arg-type]
    return db, ev


def test_g15_gaple_walkover_possible_from_ten_minutes_before_the_start(tmp_path: Path) -> None:
    db, ev = _night(tmp_path, "gaple-tournament", start_at=START)
    rv = reads.get_round(db, ev, 1)
    # rule G15: present at the latest 10 minutes before the start (19:30) -> 19:20, not 19:30 + 10
    assert (rv.forfeit_due, rv.forfeit_rule) == (START - timedelta(minutes=10), "G15")
    with pytest.raises(ServiceError) as err:
        forfeits.forfeit(db, REF, ev, 1, 1, 1, now=datetime(2026, 5, 1, 19, 19, 59))
    assert err.value.code == "too-early" and "19:20" in err.value.message and "G15" in err.value.message
    res = forfeits.forfeit(db, REF, ev, 1, 1, 1, now=datetime(2026, 5, 1, 19, 20)).table
    assert res.as_json()["status"] == "confirmed"  # the walkover at 19:20 sharp


def test_g15_without_a_start_time_the_call_is_the_start(tmp_path: Path) -> None:
    db, ev = _night(tmp_path, "gaple-tournament")
    assert reads.get_round(db, ev, 1).forfeit_due == CALL - timedelta(minutes=10)
    # at the start (the call) an absent side can be forfeited
    assert forfeits.forfeit(db, REF, ev, 1, 1, 0, now=CALL).table.as_json()["status"] == "confirmed"


def test_t3b_tavla_forfeit_possible_from_ten_minutes_after_the_call(tmp_path: Path) -> None:
    db, ev = _night(tmp_path, "tavla", start_at=START)
    rv = reads.get_round(db, ev, 1)
    assert (rv.forfeit_due, rv.forfeit_rule) == (CALL + timedelta(minutes=10), "T3b")
    with pytest.raises(ServiceError) as err:
        forfeits.forfeit(db, REF, ev, 1, 1, 1, now=datetime(2026, 5, 1, 19, 9, 59))
    assert err.value.code == "too-early" and "19:10" in err.value.message and "T3b" in err.value.message
    res = forfeits.forfeit(db, REF, ev, 1, 1, 1, now=datetime(2026, 5, 1, 19, 10)).table
    assert res.as_json()["score"] == [3, 0]  # rule T9a: match length-0


def test_forfeit_deadline_is_a_ruleset_parameter(tmp_path: Path) -> None:
    # a club overriding tavla's forfeit_from to "start": the deadline is then 10 minutes before the start
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=2, match_lengths=[3])
    with db.session() as s:
        e = s.get(Event, ev)
        assert e is not None
        e.ruleset_overrides = json.dumps({"forfeit_from": "start"})
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev, call_at=CALL, start_at=START)
    assert reads.get_round(db, ev, 1).forfeit_due == START - timedelta(minutes=10)


def test_g15_notice_of_lateness_suspends_the_walkover_and_the_referee_decides(tmp_path: Path) -> None:
    db, ev = _night(tmp_path, "gaple-tournament", start_at=START)
    forfeits.late_notice(db, DESK, ev, 1, 1, 1, "Budi (captain, by phone)", now=datetime(2026, 5, 1, 19, 15))
    late = datetime(2026, 5, 1, 19, 25)
    with pytest.raises(ServiceError) as err:
        forfeits.forfeit(db, REF, ev, 1, 1, 1, now=late)
    assert err.value.code == "late-notice" and "Budi" in err.value.message and "19:15" in err.value.message
    # the other side has given no notice: its walkover stays automatic
    with pytest.raises(ServiceError) as err:
        forfeits.decide_late_notice(db, DESK, ev, 1, 1, walkover=True, reason="not here")
    assert err.value.code == "referee-only"
    forfeits.decide_late_notice(db, REF, ev, 1, 1, walkover=False, reason="traffic, arriving 19:40")
    assert reads.get_round(db, ev, 1).tables[0].status == "waiting"
    res = forfeits.decide_late_notice(db, REF, ev, 1, 1, walkover=True, reason="still absent at 19:45").table
    assert res.as_json()["status"] == "confirmed"
    with db.session() as s:
        acts = [a.action for a in s.scalars(select(AuditEntry).order_by(AuditEntry.id))]
    assert "late-notice" in acts and acts.count("late-decision") == 2


def _encounter(tmp_path: Path, overrides: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="domino-es", fmt="round-robin", players=2, per_entrant=4, entry="team")
    if overrides:
        with db.session() as s:
            e = s.get(Event, ev)
            assert e is not None
            e.ruleset_overrides = json.dumps(overrides)
    settings.configure(db, DESK, ev, encounter_games=2)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    return db, ev


D0 = {"type": "domino", "seat": 0, "pips": [0, 30, 20, 25]}  # side 0 scores 75 (E18)


def test_e20_abandonment_loses_the_game_and_the_encounter_goes_on(tmp_path: Path) -> None:
    db, ev = _encounter(tmp_path)
    results.add_entry(db, DESK, ev, 1, 1, D0, game_no=1)
    results.add_entry(db, DESK, ev, 1, 1, {"type": "abandon", "side": 1}, game_no=1)
    t = reads.get_round(db, ev, 1).tables[0]
    assert t.score == (1, 0) and t.status == "in_play"  # game 1 lost by side 1; game 2 still to play
    results.add_entry(db, DESK, ev, 1, 1, {"type": "domino", "seat": 1, "pips": [30, 0, 40, 30]}, game_no=2)
    assert reads.get_round(db, ev, 1).tables[0].score == (1, 1)  # side 1 wins game 2: the encounter is 1-1
    # the act says which (E20): the game is lost, play goes on

    act = match_act.incident_act_data(db, ev, 1, 1)
    e20 = [i for i in act.incidents if "E20" in i.kind]
    assert len(e20) == 1 and "abandons game 1" in e20[0].text and "play goes on" in e20[0].text
    # and the score sheet, read back from the PDF
    from pypdf import PdfReader

    out = tmp_path / "sheet.pdf"
    documents.generate(db, header.ReportRequest("score-sheets", ev, 1, 1), out)
    text = " ".join((pg.extract_text() or "") for pg in PdfReader(out).pages)
    assert "abandonment, E20: the pair loses the game" in " ".join(text.split())


def test_e20_abandonment_ends_the_encounter_where_the_ruleset_says_so(tmp_path: Path) -> None:
    db, ev = _encounter(tmp_path, {"abandon_ends_match": True})
    results.add_entry(db, DESK, ev, 1, 1, {"type": "abandon", "side": 1}, game_no=1)
    t = reads.get_round(db, ev, 1).tables[0]
    assert t.score == (2, 0) and t.status == "pending"
    with pytest.raises(ServiceError) as err:
        results.add_entry(db, DESK, ev, 1, 1, D0, game_no=2)
    assert "E20" in err.value.message

    act = match_act.incident_act_data(db, ev, 1, 1)
    assert [i.text for i in act.incidents if "E20" in i.kind][0].endswith("the pair loses the match")


def test_upgrade_keeps_old_domino_es_events_ending_the_encounter_on_abandonment(tmp_path: Path) -> None:
    # rule E20: the preset's default changed; events made before keep the old reading as an override
    import sqlite3

    from clubdesk.storage import Database
    from clubdesk.storage.migrate import upgrade

    path = tmp_path / "old.sqlite3"
    db = Database(path, backups_dir=tmp_path / "b")
    ev, _ids = make_event(db, ruleset="domino-es", fmt="round-robin", players=2, per_entrant=2, entry="pair")
    other, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=2, rounds=1, name="tavla")
    db.close()
    _downgrade(path, "0005_discipline")  # the events as a database before this migration holds them
    upgrade(path)
    con = sqlite3.connect(path)
    rows = dict(con.execute("SELECT id, ruleset_overrides FROM events").fetchall())
    con.close()
    assert json.loads(rows[ev]) == {"abandon_ends_match": True}
    # the tavla event is not touched by this backfill (issue 29's keeps its FIDE Buchholz reading)
    assert "abandon_ends_match" not in json.loads(rows[other] or "{}")


def _downgrade(path: Path, revision: str) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from clubdesk.storage.revisions import MIGRATIONS_DIR

    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, revision)
    engine.dispose()


def test_the_call_defaults_to_the_publication_plus_the_call_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the sides get the night's call notice to come to their tables before anyone can be forfeited
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="gaple-tournament", fmt="swiss", players=4, rounds=3)
    settings.configure(db, DESK, ev, call_minutes=15)
    monkeypatch.setattr(rounds, "local_now", lambda: CALL)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    assert reads.get_round(db, ev, 1).call_at == CALL + timedelta(minutes=15)
    # never after the match start (G15): round 1 played by walkovers, round 2 starts 5 minutes on
    for t in reads.get_round(db, ev, 1).tables:
        forfeits.forfeit(db, REF, ev, 1, t.table, 1, now=CALL + timedelta(hours=1))
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev, start_at=CALL + timedelta(minutes=5))
    assert reads.get_round(db, ev, 2).call_at == CALL + timedelta(minutes=5)
