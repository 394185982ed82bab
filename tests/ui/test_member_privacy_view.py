"""The members' privacy rights on the Members screen: the consent in the member dialog, the copy of
everything held, the erasure and the clearing of contacts of members long inactive."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel
from PySide6.QtWidgets import QDialogButtonBox

from clubdesk.models.base import utcnow
from clubdesk.models.member import Member
from clubdesk.services.kernel.base import Actor
from clubdesk.services.members import edit, records
from clubdesk.services.members import search as members_search
from clubdesk.storage import Database
from clubdesk.ui.members.member_dialog import MemberDialog
from clubdesk.ui.members.register_view import MembersSection
from clubdesk.ui.shell.state import DeskState

DESK = Actor("Desk")


def _section(qtbot, db: Database) -> MembersSection:  # type: ignore[no-untyped-def]
    section = MembersSection(DeskState(db))
    qtbot.addWidget(section)
    section.resize(900, 600)
    section.show()
    return section


def _select(section: MembersSection, row: int) -> None:
    view = section.members.view
    view.selectionModel().select(
        section.members.proxy.index(row, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )


def test_the_dialog_sets_initials_only(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    info = edit.create_member(db, DESK, records.MemberData(name="Ayşe Yılmaz", club="Kadıköy"))
    dialog = MemberDialog(DeskState(db), members_search.get_member(db, info.number))
    qtbot.addWidget(dialog)
    assert dialog.public_name.currentData() == "full"  # his full name is shown until he chooses otherwise
    dialog.public_name.setCurrentIndex(dialog.public_name.findData("initials"))
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert members_search.get_member(db, info.number).public_name == "initials"


def test_export_erase_and_clear_from_the_members_screen(qtbot, db: Database, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    info = edit.create_member(db, DESK, records.MemberData(name="Ayşe Yılmaz", phone="+90 555 123 4567"))
    old = edit.create_member(db, DESK, records.MemberData(name="Zeki Eski", email="zeki@example.org"))
    section = _section(qtbot, db)
    _select(section, 0)
    section.members.personal_data(str(tmp_path))
    held = json.loads((tmp_path / f"member-{info.number}.json").read_text(encoding="utf-8"))
    assert held["contact"][0]["phone"] == "+90 555 123 4567"
    assert (tmp_path / f"member-{info.number}.pdf").is_file()
    assert str(tmp_path) in section.members.count.text()
    section.members.erase(confirmed=True)
    erased = members_search.get_member(db, info.number)
    assert (erased.name, erased.phone) == (f"Member {info.number}", "")
    assert f"Member {info.number}" in section.members.count.text()
    with db.session() as s:  # (the test arranges a member last seen six years ago)
        s.query(Member).filter(Member.number == old.number).update(
            {"created_at": utcnow() - timedelta(days=2200)}
        )
    section.members.clear_inactive(5, confirmed=True)
    assert members_search.get_member(db, old.number).email == ""
    assert old.number in section.members.count.text()
