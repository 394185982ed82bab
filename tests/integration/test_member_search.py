"""The register read a page at a time in SQL (issue 22, migration 0015_member_search): the stored sort keys
keep the language's alphabet (issue 17), pages joined are the whole list, the trigram index and the walk
along the sort index find what the folded search always found, and a keystroke reads through indexes."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from clubdesk.cli import main
from clubdesk.i18n import language_context
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.services.members import edit, records
from clubdesk.services.members import search as members_search
from clubdesk.storage import Database, is_server
from clubdesk.storage.migrate import upgrade
from clubdesk.text import matches

DESK = Actor("Desk", Role.SECRETARY)
NAMES = ["Dora", "Çelik", "Cem", "İnce", "Işık", "Irmak", "Ocaña", "Ñañez", "Nuzzo", "Celik"]


def _add(db: Database, name: str, number: str = "", club: str = "", city: str = "") -> None:
    edit.create_member(db, DESK, records.MemberData(name=name, number=number, club=club, city=city))


def _pages(db: Database, search: str, size: int, lang: str = "en") -> list[records.MemberInfo]:
    out: list[records.MemberInfo] = []
    after = None
    with language_context(lang):
        while True:
            page = members_search.member_page(db, search, limit=size, after=after)
            out += page.rows
            assert len(page.rows) <= size
            if not page.more:
                return out
            after = page.after


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        # issue 17's alphabets, written out: Turkish C < Ç, ı (I) < i (İ) (Ñ is an accented N); Spanish
        # N < Ñ < O; English and Indonesian: accents count after the letters
        ("tr", ["Celik", "Cem", "Çelik", "Dora", "Irmak", "Işık", "İnce", "Ñañez", "Nuzzo", "Ocaña"]),
        ("es", ["Celik", "Çelik", "Cem", "Dora", "İnce", "Irmak", "Işık", "Nuzzo", "Ñañez", "Ocaña"]),
        ("en", ["Celik", "Çelik", "Cem", "Dora", "İnce", "Irmak", "Işık", "Ñañez", "Nuzzo", "Ocaña"]),
    ],
)
def test_the_stored_keys_keep_each_languages_alphabet_page_by_page(
    db: Database, lang: str, expected: list[str]
) -> None:
    for name in NAMES:
        _add(db, name)
    with language_context(lang):
        assert [m.name for m in members_search.list_members(db)] == expected
    for size in (1, 3, 10):
        assert [m.name for m in _pages(db, "", size, lang)] == expected


def test_same_names_are_ordered_by_number_across_pages(db: Database) -> None:
    for number in ("30", "10", "20"):
        _add(db, "Ahmet Kaya", number)
    _add(db, "Ahmet Kaya", "15")
    assert [m.number for m in _pages(db, "kaya", 1)] == ["10", "15", "20", "30"]


def _register(db: Database, n: int) -> None:
    rng = random.Random(5)
    first = ["Ahmet", "Budi", "Şükrü", "Lucía", "Ömer"]
    last = ["Yılmaz", "Santoso", "García", "Işık", "Muñoz"]
    edit.save_club(db, DESK, "Kadıköy Tavla Kulübü")
    for i in range(n):
        _add(
            db,
            f"{rng.choice(first)} {rng.choice(last)}",
            f"M{i:04d}",
            club="Kadıköy Tavla Kulübü" if i % 7 == 0 else "",
            city=rng.choice(["Bandung", "İzmir", "Sevilla"]),
        )


SEARCHES = ["a", "ah", "ahm", "ahmet", "YILMAZ", "m001", "m0042", "izmir", "kadikoy", "ahmet yil", "zzz", ""]


def test_the_indexed_search_finds_what_the_folded_search_found(db: Database) -> None:
    """One register of 150 members, each search in turn (they only read it)."""
    _register(db, 150)
    everyone = members_search.list_members(db)
    assert len(everyone) == 150
    for search in SEARCHES:
        # what the register search has always meant: every word in the folded number, name, club or city
        expected = [m.number for m in everyone if matches(search, m.number, m.name, m.club, m.city)]
        assert [m.number for m in members_search.list_members(db, search)] == expected, search
        for size in (4, 60, 500):  # small pages walk the sort index, large ones sort what the index found
            assert [m.number for m in _pages(db, search, size)] == expected, (search, size)
        assert members_search.count_matching(db, search) == len(expected), search


def test_a_renamed_or_new_member_is_found_and_placed_at_once(db: Database) -> None:
    for name in ("Budi Santoso", "Dewi Wijaya", "Siti Hidayat"):
        _add(db, name)
    number = members_search.list_members(db, "dewi")[0].number
    current = members_search.get_member(db, number)
    edit.update_member(
        db, DESK, number, records.MemberData(**{**current.data().__dict__, "name": "Agus Wijaya"})
    )
    assert members_search.list_members(db, "dewi") == []
    assert [m.name for m in members_search.list_members(db, "agus")] == ["Agus Wijaya"]
    assert [m.name for m in members_search.list_members(db)] == [
        "Agus Wijaya",
        "Budi Santoso",
        "Siti Hidayat",
    ]
    _add(db, "Çağla Hidayat")
    assert [m.name for m in members_search.list_members(db, "hidayat")] == ["Çağla Hidayat", "Siti Hidayat"]
    edit.deactivate_member(db, DESK, number)
    assert members_search.list_members(db, "wijaya") == []
    assert [m.name for m in members_search.list_members(db, "wijaya", include_inactive=True)] == [
        "Agus Wijaya"
    ]


def _plans(db: Database, search: str) -> list[str]:
    """EXPLAIN QUERY PLAN of the register SELECTs that one page of ``search`` runs."""
    seen: list[tuple[str, Any]] = []

    def hook(_conn: Any, _cursor: Any, statement: str, params: Any, _context: Any, _many: bool) -> None:
        if statement.lstrip().startswith("SELECT members.id, members.number"):
            seen.append((statement, params))

    event.listen(db.engine, "before_cursor_execute", hook)
    try:
        members_search.member_page(db, search, limit=20)
    finally:
        event.remove(db.engine, "before_cursor_execute", hook)
    with db.engine.connect() as conn:
        return [
            " | ".join(str(r[-1]) for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql, params))
            for sql, params in seen
        ]


def test_a_keystroke_reads_through_the_sort_index_or_the_trigram_index(db: Database) -> None:
    if is_server(db.engine):
        pytest.skip("the query plans checked are SQLite's")
    _register(db, 150)
    (common,) = _plans(db, "a")  # most members: walk the sort index until a page is found
    assert "ix_members_sort_key" in common and "TEMP B-TREE" not in common, common
    (rare,) = _plans(db, "m0042")  # one member: the trigram index finds it
    assert "member_search" in rare and "SCAN members" not in rare, rare
    with language_context("tr"):
        (turkish,) = _plans(db, "")
    assert "ix_members_sort_key_tr" in turkish and "TEMP B-TREE" not in turkish, turkish


def test_members_of_an_older_database_get_their_keys_in_the_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    upgrade(path, "0013_table_entry")
    con = sqlite3.connect(path)
    for i, (name, city) in enumerate(
        [("Şükrü Işık", "İzmir"), ("Cem Kaya", "Bursa"), ("Çınar Öz", "Ankara")]
    ):
        con.execute(
            "INSERT INTO members (number, licence, name, city, rating, rating_experience, phone, email, "
            "notes, active, created_at, search_text) "
            "VALUES (?, '', ?, ?, 1500, 0, '', '', '', 1, '2025-01-01', ?)",
            (str(100 + i), name, city, f"{100 + i} {name.lower()} {city.lower()}"),
        )
    con.commit()
    con.close()
    db = Database(path, backups_dir=tmp_path / "backups")
    try:
        with language_context("tr"):
            assert [m.name for m in members_search.list_members(db)] == ["Cem Kaya", "Çınar Öz", "Şükrü Işık"]
        edit.update_member(db, DESK, "101", records.MemberData(name="Cem Kayalı", number="101", city="Bursa"))
        assert [m.number for m in members_search.list_members(db, "kayal")] == [
            "101"
        ]  # the trigram index follows
        assert [m.number for m in _pages(db, "bursa", 1)] == ["101"]
    finally:
        db.close()


def test_cli_member_list_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "c.sqlite3")
    for name in ("Dewi Wijaya", "Budi Santoso", "Ahmet Kaya"):
        assert main(["--db", path, "member", "add", "--name", name]) == 0
    capsys.readouterr()
    assert main(["--db", path, "--json", "member", "list"]) == 0
    everyone = json.loads(capsys.readouterr().out)
    assert [m["name"] for m in everyone] == ["Ahmet Kaya", "Budi Santoso", "Dewi Wijaya"]
    assert main(["--db", path, "--json", "member", "list", "--limit", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == everyone[:2]
    assert main(["--db", path, "member", "list", "--limit", "0"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["clubdesk-cli: --limit must be 1 or more."]  # one line on stderr


def test_the_migration_matches_the_models(tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from clubdesk.models import Base

    db = Database(tmp_path / "club.sqlite3", backups_dir=None)
    try:
        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        # the sort keys' columns and indexes agree; the FTS5 index ``member_search`` and its shadow tables are
        # SQLite's storage of a virtual table (no model: PostgreSQL has none), the only tables the models lack
        fts = [d for d in diff if d[0] == "remove_table" and d[1].name.startswith("member_search")]
        assert {d[1].name for d in fts} == {
            "member_search",
            "member_search_config",
            "member_search_data",
            "member_search_docsize",
            "member_search_idx",
        }
        assert [d for d in diff if d not in fts and "sort_key" in repr(d)] == []
        assert "sort_key_tr" in {c.name for c in Base.metadata.tables["members"].columns}
    finally:
        db.close()
