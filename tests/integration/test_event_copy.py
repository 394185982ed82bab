"""Issue 21: next week's night from this week's ("New event from…", ``clubdesk-cli event-copy``), and the
night settings the services refuse: unknown or repeated tie-break codes (T12b), values out of range, and a
change that would alter results already played once the event runs (nothing written, the field named)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from sqlalchemy import func, select

from clubdesk.cli.core import main
from clubdesk.models.audit import AuditEntry
from clubdesk.models.event import Entrant
from clubdesk.models.money import Payment
from clubdesk.models.round import Round
from clubdesk.services.events import events, language
from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.night.data import settings as data_settings
from clubdesk.services.night.play import rounds
from tests.integration.test_night_helpers import DESK, make_event, open_db

pytestmark = pytest.mark.usefixtures("both_backends")

PLAN = {"pool_rate": 8000, "places": [{"place": 1, "pool_share": 6000}, {"place": 2, "pool_share": 4000}]}
SCALE = {"base_points": [100, 70, 50], "coefficients": {"local": 100}}


def _weekly(db):  # type: ignore[no-untyped-def]
    """A Tuesday tavla night (2026-12-01, 19:30) with entrants, a payment, its night settings and a plan."""
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[5, 7])
    info = events.get_event(db, ev)
    data = info.data()
    events.update_event(
        db,
        DESK,
        ev,
        events.EventData(
            **{
                **data.__dict__,
                "name": "Tuesday Tavla",
                "starts_on": dt.date(2026, 12, 1),
                "start_at": dt.datetime(2026, 12, 1, 19, 30),
                "registration_closes_at": dt.datetime(2026, 12, 1, 19, 0),
                "fee": 1500,
                "season": "2026",
                "coefficient_class": "local",
            }
        ),
    )
    data_settings.configure(
        db,
        DESK,
        ev,
        tiebreaks="PTS,BH,GAV",
        call_minutes=15,
        requested_bye="half-bye",
        prize_plan=PLAN,
        season_scale=SCALE,
    )
    data_settings.request_bye(db, DESK, ev, ids[0])  # a request of this week's night: not copied
    language.set_event_language(db, DESK, ev, "tr")
    with db.session() as s:
        s.add(Payment(entrant_id=ids[1], amount=1500, currency="EUR", method="cash", recorded_by="t"))
    return ev, ids


def test_copy_takes_settings_night_and_prize_plan_but_no_entrants(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = _weekly(db)
    new = events.copy_event(db, DESK, ev)
    # same weekday next week, the times of day kept
    assert new.starts_on == dt.date(2026, 12, 8) and new.starts_on.weekday() == 1
    assert new.start_at == dt.datetime(2026, 12, 8, 19, 30)
    assert new.registration_closes_at == dt.datetime(2026, 12, 8, 19, 0)
    assert (new.name, new.ruleset, new.format, new.rounds, new.match_lengths) == (
        "Tuesday Tavla",
        "tavla",
        "swiss",
        3,
        (5, 7),
    )
    assert (new.fee, new.season, new.coefficient_class, new.status) == (1500, "2026", "local", "open")
    old, got = data_settings.night_settings(db, ev), data_settings.night_settings(db, new.id)
    for key in ("tiebreaks", "call_minutes", "requested_bye", "lives", "result_mode", "season"):
        assert got[key] == old[key], key
    assert got["tiebreaks"] == "PTS,BH,GAV" and got["requested_bye"] == "half-bye"
    assert json.loads(got["prize_plan"]) == PLAN and json.loads(got["season_scale"]) == SCALE
    assert language.event_language(db, new.id) == "tr"
    assert data_settings.requested_byes(db, new.id) == {}  # this week's bye request stays this week's
    with db.session() as s:  # no entrants, payments or rounds
        assert s.scalar(select(func.count()).select_from(Entrant).where(Entrant.event_id == new.id)) == 0
        assert s.scalar(select(func.count()).select_from(Round).where(Round.event_id == new.id)) == 0
        paid = s.scalar(
            select(func.count())
            .select_from(Payment)
            .join(Entrant, Entrant.id == Payment.entrant_id)
            .where(Entrant.event_id == new.id)
        )
        assert paid == 0
        row = s.scalars(
            select(AuditEntry).where(AuditEntry.action == "event.create", AuditEntry.event_id == new.id)
        ).one()
        assert json.loads(row.after or "{}")["copied_from"] == ev and row.actor_name == DESK.name
    # a given date and name; a date of another weekday is taken as given
    other = events.copy_event(db, DESK, ev, starts_on=dt.date(2026, 12, 10), name="Thursday Tavla")
    assert (other.name, other.starts_on, other.start_at) == (
        "Thursday Tavla",
        dt.date(2026, 12, 10),
        dt.datetime(2026, 12, 10, 19, 30),
    )
    db.close()


def test_copy_of_an_unknown_event_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = _weekly(db)
    before = len(events.list_events(db))
    with pytest.raises(ServiceError):
        events.copy_event(db, DESK, 999)
    with pytest.raises(ServiceError) as err:  # a bad name is refused like a new event's
        events.copy_event(db, DESK, ev, name="x" * 200)
    assert err.value.params["field"] == "name"
    assert len(events.list_events(db)) == before
    db.close()


def test_night_settings_refused_with_the_field_and_nothing_written(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=2, match_lengths=[3])
    stored = data_settings.night_settings(db, ev)
    cases = [
        ({"tiebreaks": "PTS,XYZ"}, "tiebreaks"),  # rule T12b: a code the standings know
        ({"tiebreaks": "PTS,BH,bh"}, "tiebreaks"),  # listed twice
        ({"lives": 0}, "lives"),  # rule T4g
        ({"call_minutes": 500}, "call_minutes"),
        ({"season_scale": SCALE, "coefficient_class": "regional"}, "coefficient_class"),  # rule T12d
        ({"season_scale": {"base_points": [-1], "coefficients": {"local": 1}}}, "season_scale"),
        ({"prize_plan": {"places": [{"place": 1}, {"place": 1}]}}, "prize_plan"),
    ]
    for settings, field in cases:
        with pytest.raises(ServiceError) as err:
            data_settings.configure(db, DESK, ev, **{"result_mode": "score", **settings})
        assert err.value.params.get("field") == field, settings
    assert data_settings.night_settings(db, ev) == stored
    got = data_settings.configure(
        db, DESK, ev, tiebreaks="pts, iav ,bh", coefficient_class="local", season="S1"
    )
    assert got["tiebreaks"] == "PTS,IAV,BH" and (got["season"], got["coefficient_class"]) == ("S1", "local")
    assert (events.get_event(db, ev).season, events.get_event(db, ev).coefficient_class) == ("S1", "local")
    db.close()


def test_a_running_event_refuses_what_would_change_its_results(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=2, match_lengths=[3])
    data_settings.configure(db, DESK, ev, tiebreaks="PTS,BH")
    assert data_settings.setting_locks(db, ev) == {}
    rounds.propose_round(db, DESK, ev)
    assert data_settings.setting_locks(db, ev) == {}  # a proposed round can still be thrown away
    rounds.publish_round(db, DESK, ev)
    locks = data_settings.setting_locks(db, ev)
    assert set(locks) == {"tiebreaks", "lives", "encounter_games", "requested_bye"}
    stored = data_settings.night_settings(db, ev)
    for settings in ({"tiebreaks": "PTS,SB"}, {"lives": 3}, {"requested_bye": "full-bye"}):
        with pytest.raises(ServiceError) as err:
            data_settings.configure(db, DESK, ev, call_minutes=25, **settings)
        assert err.value.code == "setting-locked" and err.value.params["field"] in settings
        assert "running" in err.value.message
    assert data_settings.night_settings(db, ev) == stored  # nothing written, not even the waiting time
    # the same values, and what does not change results, are still taken
    got = data_settings.configure(db, DESK, ev, tiebreaks="PTS,BH", call_minutes=25, result_mode="score")
    assert (got["call_minutes"], got["result_mode"]) == (25, "score")
    db.close()


def cli(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> tuple[int, object, str]:
    code = main(["--db", db, "--json", *args])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and out.strip() else None), err


def test_event_copy_command(tmp_path: Path, capsys: pytest.CaptureFixture[str], make_db) -> None:  # type: ignore[no-untyped-def]
    path = make_db.url_or_path("copy")
    from clubdesk.storage import Database

    db = Database(path, backups_dir=tmp_path / "b")
    ev, _ids = _weekly(db)
    db.close()
    code, out, err = cli(capsys, path, "event-copy", str(ev))
    assert code == 0, err
    assert out["copied_from"] == ev and out["starts_on"] == "2026-12-08"  # type: ignore[index]
    assert out["name"] == "Tuesday Tavla" and out["registered"] == 0  # type: ignore[index]
    code, out2, err = cli(capsys, path, "event-copy", str(ev), "--date", "2026-12-15", "--name", "Cup")
    assert code == 0 and out2["starts_on"] == "2026-12-15" and out2["name"] == "Cup", err  # type: ignore[index]
    # a bad event id, a name too long: one line, exit 1, nothing written
    for bad in (["event-copy", "999"], ["event-copy", str(ev), "--name", "x" * 200]):
        code, _o, err = cli(capsys, path, *bad)
        assert code == 1 and err.count("\n") == 1, (bad, err)
    db = Database(path, backups_dir=tmp_path / "b")
    assert len(events.list_events(db)) == 3
    copied = data_settings.night_settings(db, out["id"])  # type: ignore[index]
    assert copied["tiebreaks"] == "PTS,BH,GAV" and json.loads(copied["prize_plan"]) == PLAN
    db.close()
