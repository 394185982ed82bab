"""One event in use for the whole window: chosen once, shown in the status bar, followed by every section
that works on an event; Open the desk opens that event; every selector names and orders the events alike; a
language switch keeps it."""

from __future__ import annotations

from datetime import date, timedelta

from PySide6.QtWidgets import QComboBox

from clubdesk.services import events
from clubdesk.services.kernel import Actor
from clubdesk.ui.publishing.projector import open_projector
from clubdesk.ui.widgets.event_choice import EventChoice, event_choice_text

SELECTORS = {  # the sections that work on an event, and their selector's object name
    "desk": "deskEvent",
    "rounds": "event",
    "standings": "event",
    "discipline": "disciplineEvent",
    "reports": "reportEvent",
}


def _choice(window, key: str) -> EventChoice:  # type: ignore[no-untyped-def]
    window.show_section(key)
    box = window.current_page().findChild(QComboBox, SELECTORS[key])
    assert isinstance(box, EventChoice), key
    return box


def _three_events(window) -> list[int]:  # type: ignore[no-untyped-def]
    """Three events of the demo club: two gaple nights and a tavla cup (different games, statuses, dates)."""
    infos = events.events_in_order(window.state.db)
    gaple = [e.id for e in infos if e.ruleset.startswith("gaple")][:2]
    cup = next(e.id for e in infos if e.name == "Kadıköy Tavla Kupası")
    return [*gaple, cup]


def _shows(window, key: str, event_id: int) -> bool:  # type: ignore[no-untyped-def]
    return _choice(window, key).event_id() == event_id


def test_the_event_chosen_once_is_the_one_every_section_shows(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    state = window.state
    for chosen in _three_events(window):
        # chosen in the Standings selector, like a secretary would
        box = _choice(window, "standings")
        box.setCurrentIndex(box.findData(chosen))
        info = events.get_event(state.db, chosen)
        assert state.event_in_use == chosen
        assert window.event_in_use.isVisible()
        assert info.name in window.event_in_use.text()  # the status bar names it
        for key in SELECTORS:
            assert _shows(window, key, chosen), key
        rounds = window.current_page() if window.current_section() == "rounds" else window.pages["rounds"]
        assert rounds.current_event().id == chosen
        assert rounds._share_target()[0] == chosen  # Share… shares this event's pairings
        window.show_section("standings")
        assert window.pages["standings"]._share_target()[0] == chosen
        window.show_section("season")  # the event's season, with its line selected
        season = window.pages["season"]
        assert season.season_box.currentData() == info.season
        selected = season.events.selectionModel().selectedRows()
        assert [season.events_model.rows[i.row()].id for i in selected] == [chosen]
        # the projector shows it, and follows a choice made later at the desk
        control = open_projector(window, ask_screen=False)
        assert control is not None
        assert control.event_box.event_id() == chosen == control.projector.event_id
        control.projector.close()
        control.close()


def test_a_choice_in_one_section_is_followed_by_the_sections_already_built(window) -> None:  # type: ignore[no-untyped-def]
    first, second, third = _three_events(window)
    for key in SELECTORS:  # every section built, each on the event in use
        _choice(window, key)
    rounds = _choice(window, "rounds")
    rounds.setCurrentIndex(rounds.findData(third))
    for key in SELECTORS:
        assert _shows(window, key, third), key
    desk = _choice(window, "desk")
    desk.setCurrentIndex(desk.findData(second))
    assert all(_shows(window, key, second) for key in SELECTORS)
    assert window.pages["rounds"].current_event().id == second


def test_open_the_desk_opens_the_event_of_the_editor(window) -> None:  # type: ignore[no-untyped-def]
    first, _second, cup = _three_events(window)
    desk = _choice(window, "desk")  # the desk built on another event first
    desk.setCurrentIndex(desk.findData(first))
    window.show_section("events")
    section = window.pages["events"]
    section.refresh(select=cup)
    assert section.editor.event_id == cup
    section.editor.open_desk.click()
    assert window.current_section() == "desk"
    page = window.pages["desk"]
    assert page.event_id() == cup
    assert page.event_info().name == "Kadıköy Tavla Kupası"
    assert window.state.event_in_use == cup
    assert "Kadıköy Tavla Kupası" in window.event_in_use.text()


def test_every_selector_names_and_orders_the_events_alike(window) -> None:  # type: ignore[no-untyped-def]
    expected = [event_choice_text(e) for e in events.events_in_order(window.state.db)]
    texts = {}
    for key in SELECTORS:
        box = _choice(window, key)
        texts[key] = [box.itemText(i) for i in range(box.count())]
    control = open_projector(window, ask_screen=False)
    assert control is not None
    texts["projector"] = [control.event_box.itemText(i) for i in range(control.event_box.count())]
    control.projector.close()
    control.close()
    assert all(found == expected for found in texts.values()), texts
    # in play first, then upcoming, then finished; with the game and the date
    groups = [events.event_group(e, date.today()) for e in events.events_in_order(window.state.db)]
    assert groups == sorted(groups)
    assert "Kadıköy Tavla Kupası · Tavla" in " ".join(expected)


def test_a_language_switch_keeps_the_event_in_use(window) -> None:  # type: ignore[no-untyped-def]
    _first, second, _cup = _three_events(window)
    reports = _choice(window, "reports")
    reports.setCurrentIndex(reports.findData(second))
    window.set_language("es")
    try:
        assert window.state.event_in_use == second
        for key in SELECTORS:
            assert _shows(window, key, second), key
        assert "Competición en uso" in window.event_in_use.text()
    finally:
        window.set_language("en")


def test_the_order_tonight_upcoming_finished(db) -> None:  # type: ignore[no-untyped-def]
    actor = Actor("Sekreter")
    today = date(2026, 12, 4)

    def make(name: str, day: date | None, status: str | None = None) -> int:
        ev = events.create_event(
            db, actor, events.EventData(name=name, ruleset="gaple-club", format="swiss", starts_on=day)
        )
        if status is not None:  # open → drawn → finished (the allowed steps)
            for step in ("drawn", status):
                events.set_status(db, actor, ev.id, step)
        return ev.id

    later = make("Next month", today + timedelta(days=30))
    old = make("Last month", today - timedelta(days=30), "finished")
    tonight = make("Tonight", today)
    soon = make("Next week", today + timedelta(days=7))
    undated = make("Some day", None)
    older = make("Two months ago", today - timedelta(days=60), "finished")
    drawn = make("Drawn, in play", today - timedelta(days=2), "drawn")
    order = [e.id for e in events.events_in_order(db, today=today)]
    # in play (tonight's date, drawn, running), upcoming soonest first and undated last, finished newest first
    assert order == [tonight, drawn, soon, later, undated, old, older]
