"""The events screen: create an event in the editor, see it in the list; a refusal next to its field."""

from __future__ import annotations

from clubdesk.services.events import list_events
from clubdesk.services.events.events import EventData, create_event
from clubdesk.services.kernel.base import Actor
from clubdesk.services.night.play import readings, rounds
from clubdesk.ui.events.events_view import EventsSection
from clubdesk.ui.shell.state import DeskState

ACTOR = Actor("Sekreter")


def test_create_an_event_in_the_editor(qtbot, db) -> None:  # type: ignore[no-untyped-def]
    section = EventsSection(DeskState(db, ACTOR))
    qtbot.addWidget(section)
    ed = section.editor
    qtbot.keyClicks(ed.name, "Gaple Night 201")
    ed.ruleset.setCurrentText("gaple-club")
    ed.format.setCurrentText("single-elimination")
    ed.entry_type.setCurrentIndex(ed.entry_type.findData("pair"))
    ed.target.setValue(201)
    ed.currency.setText("IDR")
    ed.fee.setText("5000")
    ed.fee_per.setCurrentIndex(ed.fee_per.findData("person"))  # rule BC4
    assert ed.save()
    (ev,) = list_events(db)
    assert (ev.name, ev.overrides, ev.fee, ev.currency, ev.fee_per) == (
        "Gaple Night 201",
        {"target": 201},
        5000,
        "IDR",
        "person",
    )
    assert section.model.rows[0].id == ev.id


def test_bad_fee_shown_next_to_the_field_and_nothing_saved(qtbot, db) -> None:  # type: ignore[no-untyped-def]
    section = EventsSection(DeskState(db, ACTOR))
    qtbot.addWidget(section)
    ed = section.editor
    ed.name.setText("Cup")
    ed.ruleset.setCurrentText("tavla")
    ed.fee.setText("12.345")  # EUR has two decimals
    assert not ed.save()
    assert "decimals" in ed.fields["fee"].error.text()
    ed.fee.setText("-5")
    assert not ed.save()
    assert ed.fields["fee"].error.text()
    assert list_events(db) == []


def _two_events(db):  # type: ignore[no-untyped-def]

    a = create_event(db, ACTOR, EventData(name="Spring Cup", ruleset="tavla", format="swiss"))
    b = create_event(db, ACTOR, EventData(name="Summer Cup", ruleset="tavla", format="swiss"))
    return a, b


def test_editor_asks_before_discarding_a_new_event_being_typed(qtbot, db, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QMessageBox

    a, b = _two_events(db)
    section = EventsSection(DeskState(db, ACTOR))
    qtbot.addWidget(section)
    ed = section.editor
    section.new_event()
    qtbot.keyClicks(ed.name, "Autumn Cup")
    assert "unsaved" in ed.title.text()
    answers: list[str] = []

    def answer(which):  # type: ignore[no-untyped-def]
        def ask() -> QMessageBox.StandardButton:
            answers.append(which.name)
            return which

        return ask

    # the list selection moves: asked, Cancel keeps the event being typed
    monkeypatch.setattr(ed, "ask_discard", answer(QMessageBox.StandardButton.Cancel))
    row = next(i for i, e in enumerate(section.model.rows) if e.id == a.id)
    section.table.selectRow(row)
    assert answers == ["Cancel"]
    assert ed.name.text() == "Autumn Cup" and ed.event_id is None
    assert not section.table.selectionModel().selectedRows()
    # Save saves it first, then the chosen event opens
    monkeypatch.setattr(ed, "ask_discard", answer(QMessageBox.StandardButton.Save))
    section.table.selectRow(row)
    assert "Autumn Cup" in [e.name for e in list_events(db)]
    assert ed.event_id == a.id and ed.name.text() == "Spring Cup"
    # an edit discarded on purpose is gone, and nothing is asked when nothing changed
    ed.name.setText("Spring Cup 2")
    monkeypatch.setattr(ed, "ask_discard", answer(QMessageBox.StandardButton.Discard))
    section.new_event()
    assert ed.event_id is None and ed.name.text() == ""
    assert "Spring Cup 2" not in [e.name for e in list_events(db)]
    n = len(answers)
    section.new_event()
    assert len(answers) == n


def test_title_and_buttons_follow_the_saved_state(qtbot, db) -> None:  # type: ignore[no-untyped-def]
    section = EventsSection(DeskState(db, ACTOR))
    qtbot.addWidget(section)
    ed = section.editor
    assert ed.title.text() == "New event" and not ed.status_button.isEnabled()
    ed.name.setText("Winter Cup")
    ed.ruleset.setCurrentText("tavla")
    assert ed.save()
    # after saving: the title is the event's, no unsaved changes, its status can be set
    assert ed.title.text() == "Winter Cup"
    assert ed.status_button.isEnabled() and not ed.save_button.isEnabled()
    ed.venue.setText("Kadıköy")
    assert ed.title.text() == "Winter Cup — unsaved changes" and ed.save_button.isEnabled()


def test_a_running_event_is_read_only_with_the_reason(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.integration.test_night_helpers import DESK, make_event, open_db

    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=2, match_lengths=[3])
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    section = EventsSection(DeskState(db, ACTOR))
    qtbot.addWidget(section)
    row = next(i for i, e in enumerate(section.model.rows) if e.id == ev)
    section.table.selectRow(row)
    ed = section.editor
    assert ed.event_id == ev
    # the fields the services refuse to change once the draw is made are read-only, and the form says why
    assert not ed.ruleset.isEnabled() and not ed.format.isEnabled()
    assert ed.fee.isReadOnly() and ed.currency.isReadOnly()
    assert ed.locked_reason.isVisibleTo(ed) and "draw is made" in ed.locked_reason.text()
    # what may still change stays editable
    assert not ed.venue.isReadOnly() and ed.capacity.isEnabled()


def test_the_editor_shows_the_readings_and_switches_an_old_event(qtbot, db) -> None:  # type: ignore[no-untyped-def]
    # issue 29: an event upgraded with the old readings shows them, previews the switch and saves it
    import json

    from clubdesk.models.event import Event
    from clubdesk.services.events.events import EventData, create_event

    info = create_event(db, ACTOR, EventData(name="Liga", ruleset="gaple-club", format="round-robin"))
    with db.session() as s:
        ev = s.get(Event, info.id)
        ev.ruleset_overrides = json.dumps(
            {"open_on": "pure", "fine_in_block": False, "out_double_mode": "flat"}
        )
    section = EventsSection(DeskState(db, ACTOR))
    qtbot.addWidget(section)
    section.refresh(select=info.id)
    ed = section.editor
    text = ed.readings.text()
    assert "(B8): pure value (before any x2) · preset: points won (after a lost duel's x2)" in text
    assert "(G3): yes" in text  # rule G3: the club preset's floor (a score may go below 0) shown
    assert ed.readings_button.isEnabled()
    preview = ed.readings_preview()
    assert preview is not None and set(preview.changes) == {"open_on", "fine_in_block", "out_double_mode"}
    assert ed.apply_readings()
    assert all(r.is_preset for r in readings.event_readings(db, info.id))
    assert not ed.readings_button.isEnabled()
    assert ed.save()  # saving the form afterwards keeps the new readings
    with db.session() as s:
        assert json.loads(s.get(Event, info.id).ruleset_overrides) == {}
