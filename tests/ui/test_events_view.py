"""The events screen: create an event in the editor, see it in the list; a refusal next to its field."""

from __future__ import annotations

from clubdesk.services.base import Actor
from clubdesk.services.events import list_events
from clubdesk.ui.events_view import EventsSection
from clubdesk.ui.state import DeskState

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


def test_the_editor_shows_the_readings_and_switches_an_old_event(qtbot, db) -> None:  # type: ignore[no-untyped-def]
    # issue 29: an event upgraded with the old readings shows them, previews the switch and saves it
    import json

    from clubdesk.models.event import Event
    from clubdesk.services import readings as RD
    from clubdesk.services.events import EventData, create_event

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
    assert all(r.is_preset for r in RD.event_readings(db, info.id))
    assert not ed.readings_button.isEnabled()
    assert ed.save()  # saving the form afterwards keeps the new readings
    with db.session() as s:
        assert json.loads(s.get(Event, info.id).ruleset_overrides) == {}
