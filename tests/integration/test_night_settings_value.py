"""The night settings reach the screens as a typed value (``NightSettings``): the prize plan (T13) and the
season scale (T12d) come read, never as stored JSON text; what a form sends back is only what changed."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sqlalchemy import update

from clubdesk.models.round import EventNight
from clubdesk.services.night.data import settings
from clubdesk.standings.prizes import PrizePlan
from clubdesk.standings.season import SeasonScale
from tests.integration.test_night_helpers import DESK, make_event, open_db

PLAN = {"pool_rate": 8000, "places": [{"place": 1, "fixed": 0, "pool_share": 6000, "items": []}]}
SCALE = {"base_points": [100, 70, 50], "coefficients": {"local": 100, "regional": 150}, "best_of": 3}


def test_the_stored_settings_read_as_typed_values_and_go_back_as_configure_takes_them(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3)
    fresh = settings.load_night_settings(db, ev)  # not configured yet: the defaults, nothing written
    assert fresh.prize_plan is None and fresh.season_scale is None and fresh.tiebreaks == ""
    deadline = datetime(2026, 12, 31, 20, 0)
    settings.configure(
        db,
        DESK,
        ev,
        prize_plan=PLAN,
        season_scale=SCALE,
        tiebreaks="PTS,BH",
        call_minutes=15,
        deadline=deadline,
        season="2026",
        coefficient_class="local",
    )
    got = settings.load_night_settings(db, ev)
    assert isinstance(got.prize_plan, PrizePlan) and isinstance(got.season_scale, SeasonScale)
    assert got.prize_plan.pool_rate == 8000 and [p.pool_share for p in got.prize_plan.places] == [6000]
    assert got.season_scale.base_points == (100, 70, 50) and got.season_scale.best_of == 3
    assert (got.tiebreaks, got.call_minutes, got.deadline, got.season) == ("PTS,BH", 15, deadline, "2026")
    stored = got.to_stored()
    assert stored["prize_plan"] == PLAN and stored["season_scale"] == SCALE
    # the same values as the dict night-config shows
    plain = settings.night_settings(db, ev)
    assert {k: v for k, v in stored.items() if k not in ("prize_plan", "season_scale")} == {
        k: v for k, v in plain.items() if k not in ("prize_plan", "season_scale")
    }
    # written back unchanged, nothing is a change; a changed field is the only one sent
    assert got.changed(stored) == {}
    assert got.changed({**stored, "call_minutes": 20, "season": " 2026 "}) == {"call_minutes": 20}
    assert got.changed({"season_scale": {**SCALE, "best_of": 2}}) == {"season_scale": {**SCALE, "best_of": 2}}
    assert got.changed({"season_scale": {"base_points": "x"}}) == {"season_scale": {"base_points": "x"}}
    settings.configure(db, DESK, ev, **stored)  # round trip: configure takes it as it is
    assert settings.load_night_settings(db, ev) == got


def test_stored_text_that_is_not_a_plan_reads_as_none(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3)
    settings.configure(db, DESK, ev, call_minutes=12)
    with db.session() as s:
        s.execute(
            update(EventNight).where(EventNight.event_id == ev).values(prize_plan="{oops", season_scale="[]")
        )
    got = settings.load_night_settings(db, ev)
    assert got.prize_plan is None and got.season_scale is None and got.call_minutes == 12
