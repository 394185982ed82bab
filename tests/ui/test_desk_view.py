"""The registration desk on screen: a scanner-style check-in and registering and paying from the desk."""

from __future__ import annotations

from datetime import datetime

import pytest
from PySide6.QtCore import QDate, Qt

from clubdesk.services.desk import lists, registration
from clubdesk.services.desk.name_lookup import member_choices
from clubdesk.services.events import status
from clubdesk.services.events.events import EventData, create_event
from clubdesk.services.kernel import DESK_CLOCK
from clubdesk.services.kernel.base import Actor
from clubdesk.services.members.edit import create_member
from clubdesk.services.members.records import MemberData
from clubdesk.ui.desk.desk_view import DeskSection
from clubdesk.ui.shell.state import DeskState

ACTOR = Actor("Sekreter")


def _club(db):  # type: ignore[no-untyped-def]
    for number, name in [("1001", "Şükrü Işık"), ("1002", "Ayşe Yılmaz"), ("1003", "José Muñoz")]:
        create_member(db, ACTOR, MemberData(name=name, number=number))
    return create_event(
        db,
        ACTOR,
        EventData(name="Tavla Kupası", ruleset="tavla", format="swiss", fee=2500, currency="EUR", capacity=2),
    )


def test_scanner_checkin_types_payload_and_enter(qtbot, db) -> None:  # type: ignore[no-untyped-def]
    # rule T3a: the QR payload of the receipt, typed by the scanner, then Enter
    ev = _club(db)
    reg = registration.register(db, ACTOR, ev.id, "1002")
    section = DeskSection(DeskState(db, ACTOR))
    qtbot.addWidget(section)
    section.tabs.setCurrentWidget(section.checkin_view)
    field = section.checkin_view.field
    qtbot.keyClicks(field, f"CLUBDESK:CHECKIN:{ev.id}:{reg.code}")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert "Ayşe Yılmaz" in section.checkin_view.result.text()
    assert field.text() == ""  # ready for the next scan
    assert lists.entrant(db, ev.id, reg.entrant).checked_in
    # the same code again is refused, shown in the big label
    qtbot.keyClicks(field, reg.code)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert section.checkin_view.result.text() == "Not checked in"
    assert "already checked in" in section.checkin_view.detail.text()


def test_register_and_pay_from_the_desk(qtbot, db, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    ev = _club(db)
    # The desk stamps a payment with the wall clock and the cash box shows the day picked when it opened:
    # both are pinned to the same evening, so a run across midnight cannot put the payment on another day.
    evening = datetime(2025, 3, 1, 20, 0)
    monkeypatch.setattr(DESK_CLOCK, "now", lambda: evening)
    section = DeskSection(DeskState(db, ACTOR))
    qtbot.addWidget(section)
    section.cashbox_view.date.setDate(QDate(2025, 3, 1))
    view = section.entrants_view
    qtbot.keyClicks(view.number, "1001")
    qtbot.keyClick(view.number, Qt.Key.Key_Return)
    rows = lists.entrants(db, ev.id)
    assert [(r.name, r.status) for r in rows] == [("Şükrü Işık", "registered")]
    assert view.selected() is not None and view.selected().entrant == rows[0].entrant
    assert view.amount.text() == "25.00"  # the amount owed, proposed
    view.amount.setText("25")
    view.method.setCurrentIndex(view.method.findData("card"))
    qtbot.keyClick(view.amount, Qt.Key.Key_Return)
    row = lists.entrant(db, ev.id, rows[0].entrant)
    assert (row.paid, row.owed) == (2500, 0)
    assert "Receipt" in view.message.text()
    # the cash box of that evening took the payment in at once: 25.00 by card
    lines = section.cashbox_view.lines_model.rows
    assert [(line.method, line.received, line.refunded) for line in lines] == [("card", 2500, 0)]


def test_full_event_shown_as_waiting_and_a_refusal_next_to_the_form(qtbot, db) -> None:  # type: ignore[no-untyped-def]
    ev = _club(db)
    registration.register(db, ACTOR, ev.id, "1001")
    registration.register(db, ACTOR, ev.id, "1002")
    section = DeskSection(DeskState(db, ACTOR))
    qtbot.addWidget(section)
    view = section.entrants_view
    qtbot.keyClicks(view.number, "1003")
    qtbot.keyClick(view.number, Qt.Key.Key_Return)
    assert "waiting list at position 1" in view.message.text()
    qtbot.keyClicks(view.number, "1003")
    qtbot.keyClick(view.number, Qt.Key.Key_Return)
    assert "already entered" in view.message.text()
    assert len(lists.entrants(db, ev.id)) == 3


def test_an_amount_with_too_many_decimals_is_refused_next_to_the_form(qtbot, db) -> None:  # type: ignore[no-untyped-def]
    ev = _club(db)
    section = DeskSection(DeskState(db, ACTOR))
    qtbot.addWidget(section)
    view = section.entrants_view
    qtbot.keyClicks(view.number, "1001")
    qtbot.keyClick(view.number, Qt.Key.Key_Return)
    entrant = lists.entrants(db, ev.id)[0].entrant
    view.amount.setText("12.505")  # EUR has two decimals: 12.505 is not an amount, nothing is rounded
    qtbot.keyClick(view.amount, Qt.Key.Key_Return)
    assert view.message.text() == "EUR amounts have at most 2 decimals: 12.505"
    assert lists.entrant(db, ev.id, entrant).paid == 0


def test_name_completion_finds_sukru_from_sukru_and_registers_him(qtbot, active, db) -> None:  # type: ignore[no-untyped-def]
    """Issue 20, item 5: a member is asked for by name; "sukru" (no accents, lower case) offers Şükrü Işık,
    as the register's search does, and choosing him registers member 1001."""
    ev = _club(db)
    section = DeskSection(DeskState(db, ACTOR))
    active(section)
    view = section.entrants_view
    view.number.setFocus()
    qtbot.keyClicks(view.number, "sukru")
    offered = view.number.choices()
    assert len(offered) == 1 and offered[0].startswith("Şükrü Işık") and "1001" in offered[0]
    assert view.number.completer_.popup().isVisible()
    view.number.choose(offered[0])
    assert view.number.text().startswith("Şükrü Işık") and view.number.value() == "1001"
    view.register()
    assert [(r.name, r.members) for r in lists.entrants(db, ev.id)] == [("Şükrü Işık", ("1001",))]
    # and the check-in screen finds him by name among the event's entrants
    section.tabs.setCurrentWidget(section.checkin_view)
    field = section.checkin_view.field
    field.setFocus()
    qtbot.keyClicks(field, "ISIK")
    (label,) = field.choices()
    field.choose(label)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert "Şükrü Işık" in section.checkin_view.result.text()
    assert lists.entrants(db, ev.id)[0].checked_in


def test_checkin_by_a_typed_name_and_a_choice_between_two(qtbot, active, db) -> None:  # type: ignore[no-untyped-def]
    """Issue 36, item 7: a name typed without accents or capitals and Enter checks in; a name two entrants
    answer to is refused naming both, and both are offered to choose from."""
    ev = _club(db)
    create_member(db, ACTOR, MemberData(name="Mehmet Kaya", number="2001"))
    create_member(db, ACTOR, MemberData(name="Mehmet Öz", number="2002"))
    for number in ("1002", "2001", "2002"):
        registration.register(db, ACTOR, ev.id, number)  # the third waits (capacity 2): present all the same
    section = DeskSection(DeskState(db, ACTOR))
    active(section)
    section.tabs.setCurrentWidget(section.checkin_view)
    view = section.checkin_view
    view.field.setFocus()
    qtbot.keyClicks(view.field, "ayse yilmaz")
    qtbot.keyClick(view.field, Qt.Key.Key_Return)
    assert "Ayşe Yılmaz" in view.result.text()
    assert view.field.text() == ""
    qtbot.keyClicks(view.field, "MEHMET")
    qtbot.keyClick(view.field, Qt.Key.Key_Return)
    assert view.result.text() == "Not checked in"
    assert "Mehmet Kaya" in view.detail.text() and "Mehmet Öz" in view.detail.text()
    assert view.field.text() == "MEHMET"
    offered = view.field.choices()
    assert [label.split(" — ")[0] for label in offered] == ["Mehmet Kaya", "Mehmet Öz"]
    assert view.field.completer_.popup().isVisible()
    view.field.choose(offered[1])
    qtbot.keyClick(view.field, Qt.Key.Key_Return)
    assert "Mehmet Öz" in view.result.text()
    checked = {r.name for r in lists.entrants(db, ev.id) if r.checked_in}
    assert checked == {"Ayşe Yılmaz", "Mehmet Öz"}


def test_a_member_number_typed_still_works(qtbot, db) -> None:  # type: ignore[no-untyped-def]

    _club(db)
    # a number offers no list (it is used as typed); "jose munoz" finds José Muñoz by both words
    assert [c.key for c in member_choices(db, "jose munoz")] == ["1003"]
    section = DeskSection(DeskState(db, ACTOR))
    qtbot.addWidget(section)
    qtbot.keyClicks(section.entrants_view.number, "1002")
    assert section.entrants_view.number.choices() == []
    assert section.entrants_view.number.value() == "1002"


def test_pairs_drawn_by_lot_from_the_entrants_screen(qtbot, db) -> None:  # type: ignore[no-untyped-def]
    # rule B1: a pair league's partners drawn by lot once (issue 19)
    numbers = [f"20{k:02d}" for k in range(1, 7)]
    for n in numbers:
        create_member(db, ACTOR, MemberData(name=f"Pemain {n}", number=n))
    ev = create_event(
        db, ACTOR, EventData(name="Liga Gaple", ruleset="gaple-club", format="round-robin", entry_type="pair")
    )
    from clubdesk.services.desk import lists, registration

    status.set_status(db, ACTOR, ev.id, "open")
    for a, b in (("2001", "2002"), ("2003", "2004"), ("2005", "2006")):
        registration.register(db, ACTOR, ev.id, a, partner=b)
    section = DeskSection(DeskState(db, ACTOR))
    qtbot.addWidget(section)
    view = section.entrants_view
    section.event_combo.setCurrentIndex(section.event_combo.findData(ev.id))
    view.refresh()
    assert not view.pairs_draw_button.isHidden()
    assert view.draw_pairs(11)
    assert "drawn by lot (seed 11)" in view.message.text()
    names = [r.name for r in lists.entrants(db, ev.id)]
    assert sorted(x for n in names for x in n.split(" / ")) == sorted(f"Pemain {n}" for n in numbers)
    assert not view.draw_pairs(12)  # once only
    assert "once" in view.message.text()


def test_enter_on_the_partner_suggestion_picks_it_and_registers_nothing(qtbot, active, db) -> None:  # type: ignore[no-untyped-def]
    """Enter on the list of names picks the name: the half-typed "budi" is never sent as a member number
    ("No member with number budi"); the next Enter registers the pair."""
    create_member(db, ACTOR, MemberData(name="Budi Santoso", number="3001"))
    create_member(db, ACTOR, MemberData(name="Agus Wijaya", number="3002"))
    create_member(db, ACTOR, MemberData(name="Budi Hartono", number="3003"))
    ev = create_event(
        db, ACTOR, EventData(name="Gaple", ruleset="gaple-club", format="swiss", entry_type="pair")
    )
    section = DeskSection(DeskState(db, ACTOR))
    active(section)
    view = section.entrants_view
    view.number.setFocus()
    qtbot.keyClicks(view.number, "3002")
    view.partner.setFocus()
    qtbot.keyClicks(view.partner, "budi s")
    popup = view.partner.completer_.popup()
    assert popup.isVisible() and len(view.partner.choices()) == 1
    qtbot.keyClick(popup, Qt.Key.Key_Return)  # the list has the keyboard while it is shown
    assert view.partner.text().startswith("Budi Santoso") and view.partner.value() == "3001"
    assert lists.entrants(db, ev.id) == [] and "budi" not in view.message.text()
    # two Budis: Enter highlights the first, the next Enter picks it
    view.partner.clear()
    qtbot.keyClicks(view.partner, "budi")
    assert popup.isVisible() and len(view.partner.choices()) == 2
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert popup.isVisible() and view.partner.text() == "budi" and lists.entrants(db, ev.id) == []
    first = view.partner.choices()[0]
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert not popup.isVisible() and view.partner.text() == first
    partner = view.partner.value()
    assert partner in ("3001", "3003")
    qtbot.keyClick(view.partner, Qt.Key.Key_Return)  # now Enter registers the pair
    (row,) = lists.entrants(db, ev.id)
    assert set(row.members) == {"3002", partner}
