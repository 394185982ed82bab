"""The Members screen: the dialog, field errors, the import preview, search, sorting, merging, clubs."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QLineEdit

from clubdesk.services.kernel.base import Actor
from clubdesk.services.members import edit, records
from clubdesk.services.members import search as members_search
from clubdesk.storage import Database
from clubdesk.ui.members.member_dialog import ImportDialog, MemberDialog
from clubdesk.ui.members.merge_dialog import MergeDialog
from clubdesk.ui.members.register_view import MembersSection
from clubdesk.ui.shell.state import DeskState
from tests.waits import READY_MS

DATA = Path(__file__).resolve().parent.parent / "data" / "members"


def _section(qtbot, db: Database) -> MembersSection:  # type: ignore[no-untyped-def]
    section = MembersSection(DeskState(db))
    qtbot.addWidget(section)
    section.resize(900, 600)
    section.show()
    return section


def _table_names(section: MembersSection) -> list[str]:
    proxy = section.members.proxy
    return [proxy.index(r, 1).data() for r in range(proxy.rowCount())]


def test_member_added_through_the_dialog_appears_in_the_table(qtbot, db: Database, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    section = _section(qtbot, db)
    assert _table_names(section) == []

    def exec_filled(dialog: MemberDialog) -> int:  # the user types, then presses Save
        dialog.show()
        dialog.name.setText("Gülşen Yılmaz")  # QTest can only type ASCII keys
        dialog.club.setCurrentText("Kadıköy Tavla Kulübü")
        qtbot.keyClicks(dialog.email, "gulsen@example.com.tr")
        dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
        return dialog.result()

    monkeypatch.setattr(MemberDialog, "exec", exec_filled)
    section.members.add()
    assert _table_names(section) == ["Gülşen Yılmaz"]
    assert section.members.count.text() == "1 member"
    stored = members_search.get_member(db, "1001")
    assert (stored.club, stored.email) == ("Kadıköy Tavla Kulübü", "gulsen@example.com.tr")
    assert [c.name for c in edit.list_clubs(db)] == ["Kadıköy Tavla Kulübü"]


def test_invalid_email_is_refused_next_to_the_field_and_nothing_saved(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    dialog = MemberDialog(DeskState(db))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.name, "Dewi Lestari")
    qtbot.keyClicks(dialog.email, "dewi.example.co.id")
    assert dialog.save() is False
    error = dialog.fields["email"].error
    assert error.isVisible() and error.text() == "Malformed e-mail address: dewi.example.co.id"
    assert not dialog.fields["name"].error.isVisible()
    assert dialog.isVisible()  # the dialog stays open for the fix
    assert members_search.count_members(db) == 0
    dialog.email.setText("dewi@example.co.id")
    assert dialog.save() is True
    assert members_search.count_members(db) == 1


def test_missing_name_is_shown_next_to_the_name(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    dialog = MemberDialog(DeskState(db))
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.save() is False
    assert dialog.fields["name"].error.text() == "The name is missing."
    assert members_search.count_members(db) == 0


def test_import_preview_shows_additions_and_every_bad_line(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    edit.create_member(db, Actor("AB"), records.MemberData(name="Ayu Kartika", number="1001"))
    dialog = ImportDialog(DeskState(db), DATA / "bad_lines.csv")
    qtbot.addWidget(dialog)
    dialog.show()
    bad = [dialog.bad_lines.item(i).text() for i in range(dialog.bad_lines.count())]
    assert bad == [
        "line 3: the name is missing",
        "line 4: member number 3001 appears twice in the file (also line 2)",
        "line 5: member number 1001 is already in the register (Ayu Kartika)",
        "line 6: malformed phone number: 12-34",
        "line 7: malformed e-mail address: dewi.example.co.id",
    ]
    assert [dialog.additions.item(r, 1).text() for r in range(dialog.additions.rowCount())] == [
        "Hakan Erdoğan",
        "Joko Purnomo",
    ]
    assert not dialog.import_button.isEnabled()
    assert members_search.count_members(db) == 1


def test_import_of_a_good_file_through_the_preview(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    section = _section(qtbot, db)
    dialog = ImportDialog(section.state, DATA / "good_cp1254.csv")
    qtbot.addWidget(dialog)
    assert "cp1254" in dialog.summary.text() and "3 members to add" in dialog.summary.text()
    assert dialog.import_button.isEnabled()
    assert dialog.do_import() is True
    section.state.dataChanged.emit("members")
    assert sorted(_table_names(section)) == ["Ayşe Doğan", "Muñoz Güler", "Oğuz Işıklı"]


def test_search_and_sort_in_the_demo_club(qtbot, demo_db: tuple[Database, object]) -> None:  # type: ignore[no-untyped-def]
    db, _result = demo_db
    section = _section(qtbot, db)
    assert len(_table_names(section)) == len(members_search.list_members(db))
    headers = [section.members.model.headerData(c, Qt.Orientation.Horizontal) for c in range(6)]
    assert headers == ["Number", "Name", "Club", "City", "Rating", "Active"]  # rule T14: no phone, no e-mail
    search = section.findChild(QLineEdit, "search")
    qtbot.keyClicks(search, "sukru")
    assert sorted(_table_names(section)) == ["Sukru Isik", "Şükrü Işık"]
    search.clear()
    qtbot.keyClicks(search, "ISIK")
    assert sorted(_table_names(section)) == ["Sukru Isik", "Şükrü Işık"]
    search.clear()
    section.members.view.sortByColumn(4, Qt.SortOrder.DescendingOrder)
    proxy = section.members.proxy
    ratings = [float(proxy.index(r, 4).data()) for r in range(proxy.rowCount())]
    assert ratings == sorted(ratings, reverse=True)


def test_merge_side_by_side_and_merge(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    actor = Actor("AB")
    edit.create_member(
        db, actor, records.MemberData(name="Şükrü Işık", number="1001", phone="+90 532 111 22 33")
    )
    edit.create_member(
        db, actor, records.MemberData(name="Sukru Isik", number="1040", email="sukru@example.com.tr")
    )
    dialog = MergeDialog(DeskState(db), "1001", "1040")
    qtbot.addWidget(dialog)
    rows = {dialog.table.verticalHeaderItem(r).text(): r for r in range(dialog.table.rowCount())}
    name_row = rows["Name"]
    assert [dialog.table.item(name_row, c).text() for c in range(3)] == [
        "Şükrü Işık",
        "Sukru Isik",
        "Şükrü Işık",
    ]
    email_row = rows["E-mail"]
    assert dialog.table.item(email_row, 2).text() == "sukru@example.com.tr"
    assert dialog.do_merge() is True
    assert [m.name for m in members_search.list_members(db)] == ["Şükrü Işık"]


def test_merging_a_member_with_itself_is_refused_in_the_dialog(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    edit.create_member(db, Actor("AB"), records.MemberData(name="Nur Aini", number="5"))
    dialog = MergeDialog(DeskState(db), "5", "5")
    qtbot.addWidget(dialog)
    assert not dialog.merge_button.isEnabled()
    assert dialog.message.text() == "A member cannot be merged with itself."


def test_clubs_tab_lists_clubs_with_member_counts(qtbot, demo_db: tuple[Database, object]) -> None:  # type: ignore[no-untyped-def]
    db, _result = demo_db
    section = _section(qtbot, db)
    section.show()
    section.tabs.setCurrentWidget(section.clubs)  # the clubs are read when their tab is shown (issue 22)
    model = section.clubs.model
    assert model.rowCount() == 4
    total = sum(int(model.index(r, 2).data()) for r in range(4))
    with_club = [m for m in members_search.list_members(db) if m.club]
    assert total == len(with_club)


def test_the_federation_licence_is_a_field_of_the_member_dialog(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    # rule E15: the licence the match act prints, a field of its own beside the club's member number
    dialog = MemberDialog(DeskState(db))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.name, "Jose Munoz")
    qtbot.keyClicks(dialog.licence, "FEDM-2231")
    assert dialog.save() is True
    (member,) = members_search.list_members(db)
    assert member.licence == "FEDM-2231" and member.number != "FEDM-2231"
    again = MemberDialog(DeskState(db), member)
    qtbot.addWidget(again)
    assert again.licence.text() == "FEDM-2231"
    again.licence.setText("x" * 41)
    assert again.save() is False
    assert again.fields["licence"].error.text() == "The licence number is too long (40 characters at most)."


def test_the_register_reads_the_next_page_as_the_view_scrolls(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    # issue 22: a keystroke reads one page; the next one comes when the view reaches the end, and the count
    # of every match comes once the typing pauses
    for i in range(60):
        edit.create_member(
            db, Actor("AB"), records.MemberData(name=f"Ahmet Kaya {i:02d}", number=str(100 + i))
        )
    section = _section(qtbot, db)
    panel = section.members
    panel.model.page = 25
    panel.reload()
    assert panel.proxy.rowCount() == 25
    assert panel.count.text() == "25 members shown, more below"
    qtbot.waitUntil(lambda: panel.count.text() == "60 members (25 shown)", timeout=READY_MS)
    panel.view.scrollToBottom()
    qtbot.waitUntil(lambda: panel.proxy.rowCount() == 50, timeout=READY_MS)
    panel.view.scrollToBottom()
    qtbot.waitUntil(lambda: panel.proxy.rowCount() == 60, timeout=READY_MS)
    assert panel.count.text() == "60 members"
    assert _table_names(section) == [f"Ahmet Kaya {i:02d}" for i in range(60)]
    panel.view.sortByColumn(0, Qt.SortOrder.DescendingOrder)  # another order: the whole register is read
    assert [panel.proxy.index(r, 0).data() for r in range(3)] == ["159", "158", "157"]
    panel.view.sortByColumn(1, Qt.SortOrder.AscendingOrder)
    qtbot.keyClicks(panel.search, "kaya 3")  # 3, 13, 23, 30-39, 43, 53: one page, counted at once
    assert _table_names(section) == [f"Ahmet Kaya {i:02d}" for i in (3, 13, 23, *range(30, 40), 43, 53)]
    assert panel.count.text() == "15 members"
