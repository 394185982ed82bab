"""Inputs checked at the edge of the register: a member number is Latin letters, digits and dashes (20 at
most, no leading dash), a name holds no control character (U+0000-U+001F, U+007F-U+009F). The check is in
the services, so the member dialog, the CLI and the CSV import refuse alike, and nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from clubdesk.cli.core import main
from clubdesk.models import AuditEntry, Club, Member
from clubdesk.services.kernel.base import Actor, ServiceError
from clubdesk.services.members import csv_io, edit, records, search
from clubdesk.storage import Database

AB = Actor("AB")

BAD_NUMBERS = [
    "=1+1",
    "<script>",
    "../../etc/passwd",
    "-1",
    "-",
    "12 34",
    "1001\t",
    "A_7",
    "1.5",
    "Ç12",
    "١٢٣",  # Arabic-Indic digits
    "A" * 21,
]
BAD_NAMES = [
    "Ann\tLee",
    "Ann\nLee",
    "Ann Lee\n",
    "Ann\rLee",
    "Ann\x00Lee",
    "Ann\x1bLee",
    "Ann\x7fLee",
    "Ann\x85Lee",
    "Ann\x9fLee",
]


def _state(db: Database) -> tuple[list[tuple[str, str]], int, int]:
    with db.session() as s:
        members = [(str(r[0]), str(r[1])) for r in s.execute(select(Member.number, Member.name))]
        clubs = int(s.scalar(select(func.count(Club.id))) or 0)
        audits = int(s.scalar(select(func.count(AuditEntry.id))) or 0)
    return sorted(members), clubs, audits


@pytest.mark.parametrize("number", ["1001", "A7", "TR-34-0012", "a-b-c", "Z" * 20])
def test_good_numbers_are_kept(db: Database, number: str) -> None:
    edit.create_member(db, AB, records.MemberData(name="Dewi Lestari", number=number))
    assert search.get_member(db, number).name == "Dewi Lestari"


@pytest.mark.parametrize("number", BAD_NUMBERS)
def test_a_bad_number_is_refused_on_create_and_nothing_written(db: Database, number: str) -> None:
    edit.create_member(db, AB, records.MemberData(name="Dewi Lestari", number="1001"))
    before = _state(db)
    with pytest.raises(ServiceError) as info:
        edit.create_member(db, AB, records.MemberData(name="Nur Aini", number=number))
    assert info.value.code == "invalid-number"
    assert set(info.value.params["fields"]) == {"number"}
    assert _state(db) == before


@pytest.mark.parametrize("number", BAD_NUMBERS)
def test_a_bad_number_is_refused_on_change_and_nothing_written(db: Database, number: str) -> None:
    edit.create_member(db, AB, records.MemberData(name="Dewi Lestari", number="1001"))
    before = _state(db)
    with pytest.raises(ServiceError) as info:
        edit.update_member(db, AB, "1001", records.MemberData(name="Dewi Lestari", number=number))
    assert info.value.code == "invalid-number"
    assert _state(db) == before


def test_each_number_refusal_says_why() -> None:
    def why(number: str) -> str:
        return records.field_errors(records.MemberData(name="Dewi", number=number))["number"]

    assert why("-1") == "The member number cannot begin with a dash."
    assert why("A" * 21) == "The member number is too long (20 characters at most)."
    assert why("=1+1") == "The member number uses Latin letters, the digits 0-9 and the dash (-) only."


def test_a_number_stored_before_the_rule_stays_editable(db: Database) -> None:
    with db.session() as s:  # a register written by an older ClubDesk
        s.add(Member(number="A.12", name="Budi Santoso", rating=1500.0, rating_experience=0))
    data = records.MemberData(name="Budi Santoso", number="A.12", city="Bandung")
    assert records.field_errors(data, current_number="A.12") == {}
    edit.update_member(db, AB, "A.12", data)
    assert search.get_member(db, "A.12").city == "Bandung"


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_name_with_a_control_character_is_refused_and_nothing_written(db: Database, name: str) -> None:
    edit.create_member(db, AB, records.MemberData(name="Dewi Lestari", number="1001"))
    before = _state(db)
    with pytest.raises(ServiceError) as info:
        edit.create_member(db, AB, records.MemberData(name=name))
    assert info.value.code == "invalid-name"
    with pytest.raises(ServiceError):
        edit.update_member(db, AB, "1001", records.MemberData(name=name, number="1001"))
    assert _state(db) == before


def test_a_tab_or_line_break_is_refused_with_a_clear_message() -> None:
    for name in ("Ann\tLee", "Ann\nLee"):
        errors = records.field_errors(records.MemberData(name=name))
        assert errors == {"name": "The name must be written on one line, without tabs or line breaks."}
    errors = records.field_errors(records.MemberData(name="Ann\x1bLee"))
    assert errors == {"name": "The name contains a control character (U+001B); retype it."}


def test_spaces_are_still_tidied(db: Database) -> None:
    m = edit.create_member(db, AB, records.MemberData(name="  Siti \u00a0 Rahayu ", number=" 77 "))
    assert (m.number, m.name) == ("77", "Siti Rahayu")


def test_csv_rows_with_bad_numbers_and_names_are_reported_with_their_line(db: Database) -> None:
    text = (
        "number,name\n"
        "2001,Budi Santoso\n"
        "'=1+1,Siti Rahayu\n"
        "<script>,José Muñoz\n"
        '2004,"Ann\tLee"\n'
        "../../etc/passwd,Gülşen Yılmaz\n"
        "'-1,Şükrü Işık\n"
        '2007,"Ann\nLee"\n'
    )
    before = _state(db)
    with pytest.raises(ServiceError) as info:
        csv_io.import_members(db, AB, text.encode("utf-8"))
    assert info.value.code == "import-refused"
    lines = [d.split(":", 1)[0] for d in info.value.details]
    assert lines == ["line 3", "line 4", "line 5", "line 6", "line 7", "line 8"]
    assert "dash" in info.value.details[4]
    assert "one line" in info.value.details[5]
    assert _state(db) == before


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["member", "add", "--name", "Ali Veli", "--number", "-1"], "dash"),
        (["member", "add", "--name", "Ali Veli", "--number", "../../etc/passwd"], "dash (-) only"),
        (["member", "add", "--name", "Ali\tVeli"], "one line"),
        (["member", "edit", "1001", "--new-number", "<script>"], "dash (-) only"),
    ],
)
def test_the_cli_refuses_on_one_line_and_writes_nothing(
    tmp_path: Path, argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "club.sqlite3"
    db = Database(path)
    edit.create_member(db, AB, records.MemberData(name="Dewi Lestari", number="1001"))
    before = _state(db)
    db.close()
    capsys.readouterr()
    assert main(["--db", str(path), *argv]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0], err
    db = Database(path)
    try:
        assert _state(db) == before
    finally:
        db.close()
