"""``clubdesk-cli member add|import|list|export|merge`` and ``demo``, each with ``--json`` (CONTRACTS §4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clubdesk.cli import main
from clubdesk.services.members import search
from clubdesk.storage import Database

DATA = Path(__file__).resolve().parent.parent / "data" / "members"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, object, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, (json.loads(out.out) if code == 0 and "--json" in argv else out.out), out.err


def _count(path: Path) -> int:
    db = Database(path)
    try:
        return search.count_members(db)
    finally:
        db.close()


def test_member_add_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "c.sqlite3")
    code, data, _err = _run(
        capsys, "--db", db, "member", "add", "--name", "Şükrü Işık", "--club", "Kadıköy Tavla Kulübü",
        "--city", "İstanbul", "--phone", "+90 532 111 22 33", "--email", "sukru@example.com.tr", "--json",
    )  # fmt: skip
    assert (code, data) == (0, {"number": "1001"})  # the first automatic member number
    code, data, _err = _run(
        capsys, "--db", db, "--json", "member", "add", "--name", "José Muñoz", "--number", "E-77"
    )
    assert (code, data) == (0, {"number": "E-77"})


def test_member_add_refused_exits_1_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "c.sqlite3"
    code, _out, err = _run(
        capsys, "--db", str(db), "member", "add", "--name", "Nur Aini", "--email", "nur@", "--json"
    )
    assert code == 1
    assert err.strip().splitlines() == ["clubdesk-cli: Malformed e-mail address: nur@"]
    assert _count(db) == 0


def test_member_import_json_and_list_without_contact_details(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "c.sqlite3")
    code, data, _err = _run(capsys, "--db", db, "member", "import", str(DATA / "good_utf8.csv"), "--json")
    assert (code, data) == (0, {"imported": 6})
    code, data, _err = _run(capsys, "--db", db, "member", "list", "--json")
    assert code == 0 and isinstance(data, list) and len(data) == 6
    # rule T14: exactly number, name, club, city, rating; no phone, no e-mail
    assert all(list(row) == ["number", "name", "club", "city", "rating"] for row in data)
    first = {"number": "2004", "name": "Begoña Ibáñez", "club": "Peña Dominó Chamberí", "city": "Madrid"}
    assert data[0] == {**first, "rating": 1500.0}
    code, data, _err = _run(capsys, "--db", db, "member", "list", "--search", "sukru", "--json")
    assert [row["name"] for row in data] == ["Şükrü Işık"]  # type: ignore[union-attr,index]


def test_member_import_with_bad_lines_exits_1_names_each_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "c.sqlite3"
    _run(capsys, "--db", str(db), "member", "add", "--name", "Ayu Kartika", "--number", "1001")
    code, out, err = _run(capsys, "--db", str(db), "member", "import", str(DATA / "bad_lines.csv"), "--json")
    assert code == 1 and out == ""
    lines = err.strip().splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == ["line 3", "line 4", "line 5", "line 6", "line 7"]
    assert lines[-1].startswith("clubdesk-cli: The file was not imported")
    assert _count(db) == 1  # unchanged


def test_member_import_dry_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "c.sqlite3"
    args = ["--db", str(db), "member", "import", str(DATA / "good_cp1254.csv"), "--dry-run", "--json"]
    code, data, _err = _run(capsys, *args)
    assert (code, data) == (0, {"imported": 0, "dry_run": True, "would_import": 3})
    assert _count(db) == 0


def test_member_export_and_merge_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "c.sqlite3")
    _run(capsys, "--db", db, "member", "import", str(DATA / "good_utf8.csv"))
    out = tmp_path / "out.csv"
    assert _run(capsys, "--db", db, "member", "export", str(out), "--json")[:2] == (0, {"ok": True})
    assert out.read_bytes().startswith(b"\xef\xbb\xbf")
    assert "Şükrü Işık" in out.read_text(encoding="utf-8-sig")
    assert _run(capsys, "--db", db, "member", "merge", "2001", "2002", "--json")[:2] == (0, {"ok": True})
    code, data, _err = _run(capsys, "--db", db, "member", "list", "--json")
    assert "2002" not in [row["number"] for row in data]  # type: ignore[union-attr,index]
    code, _out, err = _run(capsys, "--db", db, "member", "merge", "2001", "2002")
    assert code == 1 and "already merged" in err


def test_demo_json(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data, _err = _run(capsys, "demo", "--json")
    assert code == 0 and data["members"] == 40  # type: ignore[index]
    first_events = data["events"]  # type: ignore[index]
    assert first_events and all(isinstance(e, int) for e in first_events)
    # the demo database is a separate file; running demo again duplicates neither the club nor its events
    code, data, _err = _run(capsys, "demo", "--json", "--members", "12", "--seed", "5")
    assert (code, data) == (0, {"members": 40, "events": first_events})
    code, data, _err = _run(
        capsys, "--db", str(home / "other-demo.sqlite3"), "demo", "--members", "12", "--json"
    )
    assert code == 0 and data["members"] == 12  # type: ignore[index]
