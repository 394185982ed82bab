"""The club's register: CSV import (good file, each bad line, each encoding), search, merge (T2a), export,
privacy of public lists (T14). CSV files are in tests/data/members/ (written for these tests)."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import Column, ForeignKey, Integer, String, Table, func, insert, select

from clubdesk.models import AuditEntry, Base, Club, Member
from clubdesk.services.kernel.base import Actor, ServiceError
from clubdesk.services.members import csv_io, edit, merge, records, search
from clubdesk.storage import Database
from clubdesk.text import fold

DATA = Path(__file__).resolve().parent.parent / "data" / "members"
AB = Actor("AB")


def _counts(db: Database) -> tuple[int, int, int]:
    with db.session() as s:
        return (
            int(s.scalar(select(func.count(Member.id))) or 0),
            int(s.scalar(select(func.count(Club.id))) or 0),
            int(s.scalar(select(func.count(AuditEntry.id))) or 0),
        )


def _names(db: Database) -> list[str]:
    return [m.name for m in search.list_members(db, include_inactive=True)]


# --------------------------------------------------------------------------- import


def test_good_file_with_turkish_spanish_and_indonesian_names(db: Database) -> None:
    preview = csv_io.import_members(db, AB, DATA / "good_utf8.csv")
    assert preview.encoding == "utf-8"
    assert sorted(_names(db), key=fold) == [
        "Begoña Ibáñez",
        "Budi Santoso",
        "Gülşen Yılmaz",
        "José Muñoz",
        "Siti Rahayu",
        "Şükrü Işık",
    ]
    sukru = search.get_member(db, "2001")
    assert (sukru.club, sukru.city, sukru.gender, sukru.birth_year) == (
        "Kadıköy Tavla Kulübü",
        "İstanbul",
        "m",
        1971,
    )
    assert sukru.rating == 1612.5
    assert sukru.phone == "+90 532 111 22 33" and sukru.email == "sukru@example.com.tr"
    assert search.get_member(db, "2002").rating == 1500.0  # blank rating: newcomers start at 1500 (rule T12c)
    assert search.get_member(db, "2006").club == ""
    # three clubs named in the file were created
    assert [c.name for c in edit.list_clubs(db)] == [
        "Gaple Garuda Jakarta",
        "Kadıköy Tavla Kulübü",
        "Peña Dominó Chamberí",
    ]
    with db.session() as s:
        actions = list(s.scalars(select(AuditEntry.action)))
    assert "member.import" in actions


def test_bad_lines_each_reported_with_line_number_and_nothing_written(db: Database) -> None:
    edit.create_member(db, AB, records.MemberData(name="Ayu Kartika", number="1001"))
    before = _counts(db)
    with pytest.raises(ServiceError) as info:
        csv_io.import_members(db, AB, DATA / "bad_lines.csv")
    assert info.value.code == "import-refused"
    # lines 2 and 8 are fine; the header is line 1
    assert info.value.details == [
        "line 3: the name is missing",
        "line 4: member number 3001 appears twice in the file (also line 2)",
        "line 5: member number 1001 is already in the register (Ayu Kartika)",
        "line 6: malformed phone number: 12-34",
        "line 7: malformed e-mail address: dewi.example.co.id",
    ]
    assert "5 bad lines" in info.value.message
    assert _counts(db) == before  # all or nothing: no member, no club, no audit row
    assert _names(db) == ["Ayu Kartika"]


def test_preview_lists_additions_and_bad_lines_without_writing(db: Database) -> None:
    edit.create_member(db, AB, records.MemberData(name="Ayu Kartika", number="1001"))
    before = _counts(db)
    preview = csv_io.preview_import(db, DATA / "bad_lines.csv")
    assert [d.name for d in preview.additions] == ["Hakan Erdoğan", "Joko Purnomo"]
    assert [b.line for b in preview.bad_lines] == [3, 4, 5, 6, 7]
    assert not preview.ok
    assert _counts(db) == before


def test_unknown_column_is_refused(db: Database) -> None:
    with pytest.raises(ServiceError) as info:
        csv_io.import_members(db, AB, DATA / "unknown_column.csv")
    assert info.value.details == ["line 1: unknown column “shoe size”"]
    assert _counts(db) == (0, 0, 0)


def test_dry_run_checks_and_writes_nothing(db: Database) -> None:
    preview = csv_io.import_members(db, AB, DATA / "good_utf8.csv", dry_run=True)
    assert len(preview.additions) == 6
    assert _counts(db) == (0, 0, 0)


def test_missing_numbers_get_the_next_free_ones(db: Database) -> None:
    edit.create_member(db, AB, records.MemberData(name="Ayu Kartika", number="1007"))
    csv_io.import_members(db, AB, DATA / "good_utf8_bom.csv")
    # the highest numeric number is 1007, so the file's two members get 1008 and 1009 in file order
    assert search.get_member(db, "1008").name == "İpek Kılıç"
    assert search.get_member(db, "1009").name == "Álvaro Núñez"


@pytest.mark.parametrize(
    ("file", "encoding", "names", "cities"),
    [
        ("good_utf8.csv", "utf-8", ["Şükrü Işık", "José Muñoz", "Budi Santoso"], ["İstanbul", "Madrid"]),
        ("good_utf8_bom.csv", "utf-8-sig", ["İpek Kılıç", "Álvaro Núñez"], ["İstanbul", "Madrid"]),
        (
            "good_cp1254.csv",
            "cp1254",
            ["Ayşe Doğan", "Oğuz Işıklı", "Muñoz Güler"],
            ["İstanbul", "Ağrı", "İzmir"],
        ),
        ("good_cp1252.csv", "cp1252", ["José Muñoz", "Lucía Ibáñez", "Íñigo Gómez"], ["Málaga", "Córdoba"]),
    ],
)
def test_each_encoding_is_read_with_accents_intact(
    db: Database, file: str, encoding: str, names: list[str], cities: list[str]
) -> None:
    preview = csv_io.import_members(db, AB, DATA / file)
    assert preview.encoding == encoding
    stored = search.list_members(db)
    assert set(names) <= {m.name for m in stored}
    assert set(cities) <= {m.city for m in stored}


@pytest.mark.parametrize(
    ("file", "lines"),
    [
        ("unreadable_utf16.csv", [1]),  # UTF-16: NUL bytes
        ("unreadable_bytes.csv", [3]),  # byte 0x81 is defined neither in Windows-1254 nor in 1252
        ("mixed_utf8.csv", [3]),  # UTF-8 file with one Windows-1252 line
    ],
)
def test_unreadable_encoding_is_refused(db: Database, file: str, lines: list[int]) -> None:
    with pytest.raises(ServiceError) as info:
        csv_io.import_members(db, AB, DATA / file)
    assert [d.split(":")[0] for d in info.value.details] == [f"line {n}" for n in lines]
    assert all("unreadable encoding" in d for d in info.value.details)
    assert _counts(db) == (0, 0, 0)


def test_windows_1254_vs_1252_by_the_six_bytes_that_differ(db: Database) -> None:
    # 0xFD is "ı" in 1254 and "ý" in 1252; 0xF1 is "ñ" in both
    assert csv_io.decode_csv(b"name\r\nI\xfe\xfdk\r\n")[:2] == ("name\r\nIşık\r\n", "cp1254")
    assert csv_io.decode_csv(b"name\r\nMu\xf1oz\r\n")[:2] == ("name\r\nMuñoz\r\n", "cp1252")


# --------------------------------------------------------------------------- search, edit, deactivate


def test_search_ignores_case_and_accents(db: Database) -> None:
    csv_io.import_members(db, AB, DATA / "good_utf8.csv")
    edit.create_member(db, AB, records.MemberData(name="İpek Kılıç", city="İzmir"))

    def found(q: str) -> list[str]:
        return [m.name for m in search.list_members(db, q)]

    assert found("sukru") == ["Şükrü Işık"]
    assert found("munoz") == ["José Muñoz"]
    assert found("ISIK") == ["Şükrü Işık"]
    assert found("ipek kilic") == ["İpek Kılıç"]
    assert found("ŞÜKRÜ") == ["Şükrü Işık"]
    assert found("izmir") == ["İpek Kılıç"]  # city
    assert found("chamberi") == ["Begoña Ibáñez", "José Muñoz"]  # club, sorted by name
    assert found("532") == []  # never by phone (rule T14)
    assert found("example") == []  # never by e-mail (rule T14)


def test_invalid_email_is_refused_next_to_its_field_and_nothing_written(db: Database) -> None:
    with pytest.raises(ServiceError) as info:
        edit.create_member(db, AB, records.MemberData(name="Dewi Lestari", email="dewi@"))
    assert info.value.params["fields"] == {"email": "Malformed e-mail address: dewi@"}
    assert _counts(db) == (0, 0, 0)


def test_duplicate_number_is_refused(db: Database) -> None:
    edit.create_member(db, AB, records.MemberData(name="Dewi Lestari", number="77"))
    with pytest.raises(ServiceError) as info:
        edit.create_member(db, AB, records.MemberData(name="Nur Aini", number="77"))
    assert info.value.code == "duplicate-number"
    assert _names(db) == ["Dewi Lestari"]


def test_edit_and_deactivate_are_audited(db: Database) -> None:
    m = edit.create_member(db, AB, records.MemberData(name="Oğuz Kaya"))
    edit.update_member(
        db, AB, m.number, records.MemberData(name="Oğuz Kaya", city="Ankara", club="Ankara Tavla")
    )
    assert search.get_member(db, m.number).city == "Ankara"
    edit.deactivate_member(db, AB, m.number)
    assert search.list_members(db) == []
    assert search.get_member(db, m.number).active is False  # kept, not deleted
    with db.session() as s:
        actions = list(s.scalars(select(AuditEntry.action).order_by(AuditEntry.id)))
    # the first audited write of a club file begins the log signed with the club's key (not a server's)
    assert (actions[0] == "audit.keyed") != db.is_server
    assert [a for a in actions if a != "audit.keyed"] == [
        "member.create",
        "club.create",
        "member.change",
        "member.deactivate",
    ]


# --------------------------------------------------------------------------- merge (rule T2a)


def test_merge_moves_history_of_every_table_pointing_at_members(db: Database) -> None:
    """rule T2a: one player, one ID; all history moves to the kept member. A table of a later issue is
    simulated by adding it to Base.metadata: merge finds it without being told."""
    results = Table(
        "test_results_t2a",
        Base.metadata,
        Column("id", Integer, primary_key=True),
        Column("member_id", ForeignKey("members.id")),
        Column("opponent_id", ForeignKey("members.id"), nullable=True),
        Column("score", String(10)),
    )
    try:
        results.create(db.engine)
        keep = edit.create_member(
            db, AB, records.MemberData(name="Şükrü Işık", number="1001", phone="+90 532 111 22 33")
        )
        drop = edit.create_member(
            db,
            AB,
            records.MemberData(
                name="Sukru Isik", number="1040", email="sukru@example.com.tr", city="İstanbul"
            ),
        )
        other = edit.create_member(db, AB, records.MemberData(name="José Muñoz", number="1002"))
        with db.session() as s:
            s.execute(
                insert(results),
                [
                    {"member_id": keep.id, "opponent_id": other.id, "score": "7-3"},
                    {"member_id": drop.id, "opponent_id": other.id, "score": "2-7"},
                    {"member_id": other.id, "opponent_id": drop.id, "score": "7-2"},
                ],
            )
        preview = merge.merge_preview(db, "1001", "1040")
        assert ("test_results_t2a.member_id", 1, 1) in preview.history
        assert preview.result.email == "sukru@example.com.tr"  # the kept record's blank filled from the other
        result = merge.merge_members(db, AB, "1001", "1040")
        assert result.moved == {"test_results_t2a.member_id": 1, "test_results_t2a.opponent_id": 1}
        with db.session() as s:
            rows = s.execute(select(results.c.member_id, results.c.opponent_id).order_by(results.c.id)).all()
        assert [tuple(r) for r in rows] == [(keep.id, other.id), (keep.id, other.id), (other.id, keep.id)]
    finally:
        Base.metadata.remove(results)
    kept = search.get_member(db, "1001")
    assert (kept.phone, kept.email, kept.city) == ("+90 532 111 22 33", "sukru@example.com.tr", "İstanbul")
    dropped = search.get_member(db, "1040", follow_merged=False)
    assert dropped.active is False and dropped.merged_into == "1001"  # marked, not deleted
    assert search.get_member(db, "1040").number == "1001"  # the old number leads to the kept member
    assert [m.number for m in search.public_list(db)] == [
        "1002",
        "1001",
    ]  # José, Şükrü (sorted by folded name)
    with db.session() as s:
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "member.merge")).one()
    assert entry.entity_id == "1001" and "1040" in (entry.after or "")


def test_merge_refusals_write_nothing(db: Database) -> None:
    edit.create_member(db, AB, records.MemberData(name="A", number="1"))
    edit.create_member(db, AB, records.MemberData(name="B", number="2"))
    edit.create_member(db, AB, records.MemberData(name="C", number="3"))
    merge.merge_members(db, AB, "1", "2")
    before = _counts(db)
    for keep, drop, code in [
        ("1", "1", "merge-same"),
        ("1", "9", "unknown-member"),
        ("3", "2", "member-merged"),
    ]:
        with pytest.raises(ServiceError) as info:
            merge.merge_members(db, AB, keep, drop)
        assert info.value.code == code
    assert _counts(db) == before


# --------------------------------------------------------------------------- export and privacy


def test_export_is_utf8_with_bom_and_reimports(db: Database, tmp_path: Path) -> None:
    csv_io.import_members(db, AB, DATA / "good_utf8.csv")
    out = tmp_path / "register.csv"
    assert csv_io.export_csv(db, AB, out) == 6
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM tells Excel it is UTF-8
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert rows[0] == list(csv_io.COLUMNS)
    sukru = next(r for r in rows if r[1] == "Şükrü Işık")
    assert (
        sukru[csv_io.COLUMNS.index("phone")] == "'+90 532 111 22 33"
    )  # shown as text, not a formula, in Excel
    other = Database(tmp_path / "other.sqlite3")
    try:
        csv_io.import_members(other, AB, out)
        assert [replace(m, id=0) for m in search.list_members(other)] == [
            replace(m, id=0) for m in search.list_members(db)
        ]
    finally:
        other.close()


def test_public_list_shows_no_phone_or_email(db: Database) -> None:
    csv_io.import_members(db, AB, DATA / "good_utf8.csv")
    rows = [m.as_json() for m in search.public_list(db)]
    # rule T14: name, club, city (and ranking) are public; phone and e-mail are not
    assert all(set(r) == {"number", "name", "club", "city", "rating"} for r in rows)
    assert {
        "number": "2001",
        "name": "Şükrü Işık",
        "club": "Kadıköy Tavla Kulübü",
        "city": "İstanbul",
        "rating": 1612.5,
    } in rows
    assert "532" not in repr(rows) and "@" not in repr(rows)


def test_clubs_create_rename_and_refuse_duplicates(db: Database) -> None:
    club = edit.save_club(db, AB, "Beşiktaş Oyun Kulübü", "İstanbul")
    with pytest.raises(ServiceError) as info:
        edit.save_club(db, AB, "besiktas oyun kulubu")  # same name once folded
    assert info.value.code == "duplicate-club"
    edit.save_club(db, AB, "Beşiktaş Tavla Kulübü", "İstanbul", club_id=club.id)
    assert [(c.name, c.city) for c in edit.list_clubs(db)] == [("Beşiktaş Tavla Kulübü", "İstanbul")]
