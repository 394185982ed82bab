"""The member dialog and the tavla sheet refuse what the services refuse at the edge: a bad member number
next to its field, a name with a tab; every bad line of a match record shown with its number."""

from __future__ import annotations

from pathlib import Path

from clubdesk.models import Member
from clubdesk.services.members import search as members_search
from clubdesk.storage import Database
from clubdesk.ui.members.member_dialog import MemberDialog
from clubdesk.ui.night.score_entry.tavla import TavlaEntryForm
from clubdesk.ui.shell.state import DeskState

DATA = Path(__file__).resolve().parents[1] / "data" / "backgammon"


def test_the_dialog_refuses_a_bad_number_and_a_tab_in_the_name(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    dialog = MemberDialog(DeskState(db))
    qtbot.addWidget(dialog)
    dialog.name.setText("Ann\tLee")
    dialog.number.setText("=1+1")
    assert dialog.save() is False
    assert (
        dialog.fields["name"].error.text()
        == "The name must be written on one line, without tabs or line breaks."
    )
    assert dialog.fields["number"].error.text() == (
        "The member number uses Latin letters, the digits 0-9 and the dash (-) only."
    )
    assert members_search.list_members(db, include_inactive=True) == []


def test_the_dialog_keeps_a_number_stored_before_the_rule(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    with db.session() as s:
        s.add(Member(number="A.12", name="Budi Santoso", rating=1500.0, rating_experience=0))
    (member,) = members_search.list_members(db)
    dialog = MemberDialog(DeskState(db), member)
    qtbot.addWidget(dialog)
    dialog.city.setText("Bandung")
    assert dialog.save() is True
    assert members_search.get_member(db, "A.12").city == "Bandung"


def test_the_sheet_shows_every_bad_line_of_a_match_file(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    saved: list[object] = []
    form = TavlaEntryForm(
        "tavla", params={"match_length": 7}, save=saved.append, side_names=("ShowWhite", "JoeBlack")
    )
    qtbot.addWidget(form)
    lines = (DATA / "gibbon_complete.mat").read_bytes().decode().replace("\r\n", "\n").split("\n")
    lines[6] = " hello"
    lines[13] = " world"
    bad = tmp_path / "bad.mat"
    bad.write_text("\n".join(lines))
    assert not form.import_match_file(bad)
    text = form.error.text()
    assert "2 bad lines" in text and "line 7: " in text and "line 14: " in text
    assert saved == [] and form.entries == []
