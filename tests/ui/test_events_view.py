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
