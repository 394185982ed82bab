"""Issue 21: the Night settings tab of the Events section sets what ``night-config`` sets (read back by the
services), shows a running event's result-altering settings read-only with the reason, copies an event for
next week ("New event from…", Ctrl+Shift+N) without its entrants, puts this week's night first, and says
what to do first when there is nothing to show."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from sqlalchemy import func, select

from clubdesk.models.event import Entrant
from clubdesk.services.discipline import appeals
from clubdesk.services.events import events
from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.night.data import settings
from clubdesk.services.night.play import rounds
from clubdesk.services.night.ranking import standings
from clubdesk.ui.events.events_view import EventsSection
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_night_helpers import DESK, make_event, open_db


def _section(qtbot, db, event_id: int | None = None, active=None) -> EventsSection:  # type: ignore[no-untyped-def]
    section = EventsSection(DeskState(db, DESK))
    if active is not None:
        active(section)
    else:
        qtbot.addWidget(section)
    if event_id is not None:
        row = next(i for i, e in enumerate(section.model.rows) if e.id == event_id)
        section.table.selectRow(row)
        section.tabs.setCurrentWidget(section.settings)
    return section


def _pick(lst, code: str) -> None:  # type: ignore[no-untyped-def]
    for i in range(lst.count()):
        if lst.item(i).data(Qt.ItemDataRole.UserRole) == code:
            lst.setCurrentRow(i)
            return
    raise AssertionError(code)


def test_settings_set_in_the_screen_are_what_the_services_read(qtbot, tmp_path: Path, active) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[5])
    section = _section(qtbot, db, ev, active)
    st = section.settings
    assert st.event_id == ev and st.stack.currentIndex() == 1
    picker = st.tiebreaks
    assert picker.use_preset.isChecked() and picker.codes() == ["PTS", "IAV", "GAV", "BH"]  # rule T12b preset
    picker.use_preset.setChecked(False)
    # keyboard: Enter adds the highlighted code, Delete removes one, Ctrl+Up moves one up
    picker.available.setFocus()
    _pick(picker.available, "SB")
    qtbot.keyClick(picker.available, Qt.Key.Key_Return)
    assert picker.codes() == ["PTS", "IAV", "GAV", "BH", "SB"]
    _pick(picker.chosen, "GAV")
    qtbot.keyClick(picker.chosen, Qt.Key.Key_Delete)
    _pick(picker.chosen, "SB")
    qtbot.keyClick(picker.chosen, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)
    assert picker.codes() == ["PTS", "IAV", "SB", "BH"]
    _pick(picker.chosen, "PTS")
    qtbot.keyClick(picker.chosen, Qt.Key.Key_Delete)  # points stay first
    assert picker.codes()[0] == "PTS"
    assert "Sonneborn-Berger" in picker.explanation.text() or "points" in picker.explanation.text()
    st.result_mode.setCurrentIndex(st.result_mode.findData("score"))
    st.call_minutes.setValue(15)
    st.requested_bye.setCurrentIndex(st.requested_bye.findData("half-bye"))
    st.season.setText("2026")
    st.coefficient_class.setText("regional")
    st.base_points.setText("100, 70, 50")
    st.coefficients.setText("local=1, regional=1.5")
    st.best_of.setValue(4)
    st.appeal.setValue(20)
    assert "unsaved" in st.title.text() and st.save_button.isEnabled()
    qtbot.keyClick(section, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # Ctrl+S saves this tab
    assert "saved" in st.message.text(), st.message.text()
    got = settings.night_settings(db, ev)
    assert (got["tiebreaks"], got["result_mode"], got["call_minutes"], got["requested_bye"]) == (
        "PTS,IAV,SB,BH",
        "score",
        15,
        "half-bye",
    )
    assert json.loads(got["season_scale"]) == {
        "base_points": [100, 70, 50],
        "coefficients": {"local": 100, "regional": 150},
        "best_of": 4,
    }
    info = events.get_event(db, ev)
    assert (info.season, info.coefficient_class) == ("2026", "regional")
    assert section.editor.season.text() == "2026"  # the Event tab follows

    assert appeals.appeal_window(db) == 20  # rule T10: the club's appeal window
    assert standings.event_standings(db, ev).codes == (
        "PTS",
        "IAV",
        "SB",
        "BH",
    )  # the standings use the order
    assert "unsaved" not in st.title.text()
    db.close()


def test_a_bad_value_is_shown_next_to_its_field_and_nothing_is_written(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[5])
    stored = settings.night_settings(db, ev)
    st = _section(qtbot, db, ev).settings
    st.call_minutes.setValue(30)
    st.base_points.setText("100,70")
    st.coefficients.setText("local")  # no factor
    assert not st.save()
    assert "class=factor" in st.fields["coefficients"].error.text()
    st.coefficients.setText("local=1")
    st.coefficient_class.setText("national")  # rule T12d: the scale must know the event's class
    assert not st.save()
    assert "national" in st.fields["coefficient_class"].error.text()
    assert settings.night_settings(db, ev) == stored  # not even the waiting time was written
    db.close()


def test_a_running_event_shows_its_locked_settings_with_the_reason(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="lives", players=4, match_lengths=[3])
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    st = _section(qtbot, db, ev).settings
    assert st.locked_reason.isVisibleTo(st) and "running" in st.locked_reason.text()
    assert not st.tiebreaks.isEnabled() and not st.lives.isEnabled() and not st.requested_bye.isEnabled()
    assert "running" in st.fields["lives"].toolTip()
    # what does not change results already played stays editable, and saves
    assert st.call_minutes.isEnabled() and st.result_mode.isEnabled() and not st.season.isReadOnly()
    st.call_minutes.setValue(12)
    assert st.save() and settings.night_settings(db, ev)["call_minutes"] == 12
    # the service refuses the locked ones too
    with pytest.raises(ServiceError) as err:
        settings.configure(db, DESK, ev, lives=5)
    assert err.value.code == "setting-locked"
    db.close()


def test_new_event_from_copies_settings_and_prize_plan_but_no_entrants(  # type: ignore[no-untyped-def]
    qtbot, tmp_path: Path, active, monkeypatch
) -> None:
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[5])
    plan = {"places": [{"place": 1, "fixed": 5000}, {"place": 2, "fixed": 2500}]}
    settings.configure(db, DESK, ev, tiebreaks="PTS,BH", call_minutes=20, prize_plan=plan)
    section = _section(qtbot, db, ev, active)
    section.tabs.setCurrentWidget(section.editor)
    asked: list[str] = []

    def ask(info):  # type: ignore[no-untyped-def]
        asked.append(info.name)
        return dt.date(2026, 12, 8), "Next Tuesday"

    monkeypatch.setattr(section, "ask_copy", ask)
    qtbot.keyClick(
        section, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert asked == ["Test night"]
    new = section.editor.event_id
    assert new is not None and new != ev
    assert "no entrants" in section.editor.message.text()
    info = events.get_event(db, new)
    assert (info.name, info.starts_on, info.registered) == ("Next Tuesday", dt.date(2026, 12, 8), 0)
    got = settings.night_settings(db, new)
    assert (got["tiebreaks"], got["call_minutes"]) == ("PTS,BH", 20)
    assert json.loads(got["prize_plan"]) == plan
    assert section.settings.event_id == new and "1." in section.settings.prizes.text()
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(Entrant).where(Entrant.event_id == new)) == 0
    # the copy is this week's? No: its date is next week's; the dialog's default is the same weekday
    from clubdesk.ui.events.events_view import CopyEventDialog

    dialog = CopyEventDialog(events.get_event(db, new))
    qtbot.addWidget(dialog)
    assert dialog.values() == (dt.date(2026, 12, 15), "Next Tuesday")
    db.close()


def test_this_weeks_night_comes_first_marked(qtbot, db) -> None:  # type: ignore[no-untyped-def]
    today = dt.date.today()
    old = events.create_event(
        db,
        DESK,
        events.EventData(
            name="Last week", ruleset="tavla", format="swiss", starts_on=today - dt.timedelta(days=7)
        ),
    )
    now = events.create_event(
        db, DESK, events.EventData(name="Tonight", ruleset="tavla", format="swiss", starts_on=today)
    )
    events.create_event(db, DESK, events.EventData(name="Undated", ruleset="tavla", format="swiss"))
    section = _section(qtbot, db)
    first = section.model.rows[0]
    assert first.id == now.id
    assert "this week" in section.model.data(section.model.index(0, 1))
    assert "this week" not in next(
        section.model.data(section.model.index(i, 1))
        for i, e in enumerate(section.model.rows)
        if e.id == old.id
    )
    section.week_first.setChecked(False)  # the usual order: newest first
    assert section.model.rows[0].name == "Undated"


def test_empty_states_say_what_to_do_first(qtbot, db) -> None:  # type: ignore[no-untyped-def]
    section = _section(qtbot, db)
    section.show()
    assert section.empty.isVisible() and "Ctrl+N" in section.empty.text()
    assert not section.copy_button.isEnabled()
    section.tabs.setCurrentWidget(section.settings)
    assert section.settings.stack.currentWidget() is section.settings.empty
    assert "Choose an event" in section.settings.empty.text()
    section.editor.name.setText("Cup")
    section.editor.ruleset.setCurrentText("tavla")
    assert section.editor.save()
    assert not section.empty.isVisible()
    assert section.settings.event_id == section.editor.event_id  # the saved event's night, at once
