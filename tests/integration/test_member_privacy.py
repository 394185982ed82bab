"""The members' privacy rights (GDPR, KVKK, UU PDP 2022): a consent for public outputs (full name, or
initials and club only) honoured by every public output and not by the table's printed sheets; a copy of
everything held about a member; erasure that keeps results, standings and ratings identical; clearing the
contact data of members long inactive; all of it refused to a scorer."""

from __future__ import annotations

import json
import shutil
import subprocess
import urllib.request
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from sqlalchemy import select, text

from clubdesk.cli.core import main
from clubdesk.models.base import utcnow
from clubdesk.models.member import Member
from clubdesk.models.result import RatingEntry
from clubdesk.services import club as club_service
from clubdesk.services import events, members, night, publishing
from clubdesk.services.kernel import Actor, Role, ServiceError, verify_chain
from clubdesk.services.publishing import documents, header
from clubdesk.storage import Database
from clubdesk.web.server import TableServer
from tests.integration.test_reports_service import DESK, MAIL_MARK, Club, seeded_club

FULL = "Ayşe Yılmaz"  # member 0 of build_club: seed 1, Kadıköy Tavla Kulübü
SHOWN = "A. Y. (Kadıköy Tavla Kulübü)"
SCORER = Actor("Sena", Role.SCORER)


def cli(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, Any, str]:
    try:
        code = main(["--db", str(db), "--json", *args])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and out.strip() else None), err


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reports' club (a finished Swiss with fees paid, a knock-out), closed, copied per test."""
    c = seeded_club(tmp_path_factory, "privacy")
    c.db.close()
    return c.path


@pytest.fixture
def club(built: Path, tmp_path: Path) -> Club:
    path = tmp_path / "club.sqlite3"
    shutil.copy(built, path)
    db = Database(path, backups_dir=None)
    with db.session() as s:
        numbers = [m.number for m in s.scalars(select(Member).order_by(Member.id))]
    swiss, knockout = sorted(e.id for e in events.list_events(db, include_finished=True))
    yield Club(db, path, numbers, swiss, [], knockout)
    db.close()


def initials_for(club: Club, capsys: pytest.CaptureFixture[str]) -> None:
    code, data, err = cli(capsys, club.path, "member", "edit", club.numbers[0], "--public-name", "initials")
    assert code == 0, err
    assert members.get_member(club.db, club.numbers[0]).public_name == "initials"


def html_text(folder: Path) -> str:
    return "\n".join(f.read_text(encoding="utf-8") for f in sorted(folder.rglob("*.html")))


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return str(r.read().decode("utf-8"))


# ------------------------------------------------------------------------------------------ consent
def test_the_public_name_rule() -> None:
    from clubdesk.competition.privacy import public_name, public_side

    assert public_name("Ali Rıza Yılmaz", "Kartal", "full") == "Ali Rıza Yılmaz"
    assert public_name("Ali Rıza Yılmaz", "Kartal", "initials") == "A. R. Y. (Kartal)"
    assert public_name("şükrü öz", "", "initials") == "Ş. Ö."
    pair = [("Ali Veli", "K", "initials"), ("Can Su", "K", "full")]
    assert public_side(pair, "Ali Veli / Can Su") == "A. V. (K) / Can Su"
    assert public_side(pair, "Kartal Kings") == "Kartal Kings"  # a team's own name names no one


def test_consent_is_honoured_by_every_public_output(
    club: Club, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = club.db
    before = publishing.standings(db, club.swiss)
    assert FULL in [r.name for r in before.rows]  # everyone shows his full name until he chooses
    initials_for(club, capsys)
    # the hall's data and the projector
    rv = publishing.round_view(db, club.swiss)
    shown = repr(rv) + repr(publishing.standings(db, club.swiss)) + repr(publishing.hall_data(db, club.swiss))
    shown += repr(publishing.bracket(db, club.knockout)) + repr(publishing.hall_data(db, club.knockout))
    assert FULL not in shown and "Yılmaz" not in shown and SHOWN in shown
    assert "ayse" not in " ".join(n.folded for n in rv.by_name)  # the page's filter finds him by initials
    # the hall pages a phone reads
    srv = TableServer(db, "127.0.0.1", 0)
    srv.start()
    try:
        base = f"http://127.0.0.1:{srv.port}"
        pages = "".join(
            get(base + path)
            for path in (
                f"/hall/{club.swiss}",
                f"/hall/{club.swiss}/standings",
                f"/hall/{club.knockout}/bracket",
            )
        )
    finally:
        srv.stop()
    assert "Yılmaz" not in pages and "A. Y. (Kadıköy Tavla Kulübü)" in pages.replace("&#39;", "'")
    # the static site
    code, data, err = cli(capsys, club.path, "share", "site", "--out", str(tmp_path / "site"))
    assert code == 0, err
    site = html_text(tmp_path / "site")
    assert "Yılmaz" not in site and "A. Y." in site
    # the share images: every kind, read back by OCR where tesseract is installed
    kinds = ("standings", "pairings", "crosstable", "season", "prizes")
    for kind, event in [(k, club.swiss) for k in kinds] + [("bracket", club.knockout)]:
        out = tmp_path / kind
        out.mkdir()
        code, data, err = cli(capsys, club.path, "share", kind, str(event), "--out", str(out))
        assert code == 0, err
        if shutil.which("tesseract"):
            seen = " ".join(
                subprocess.run(
                    ["tesseract", f, "-", "--psm", "6"], capture_output=True, text=True, check=True
                ).stdout
                for f in data["files"]
            )
            folded = seen.lower().replace(" ", "")
            assert "ayse" not in folded and "yilmaz" not in folded and "yılmaz" not in folded, (kind, seen)
            assert "a.y." in folded, (kind, seen)
    # the printed sheets for the table and the organiser's standings keep the full name
    out = tmp_path / "pairings.pdf"
    documents.generate(db, header.ReportRequest("pairings", club.swiss, round=3), out)
    assert FULL in "\n".join(p.extract_text() or "" for p in PdfReader(out).pages)
    assert FULL in [r.name for r in night.event_standings(db, club.swiss).rows]


# ------------------------------------------------------------------------------------------ access
def test_export_holds_his_payments_results_and_contacts(
    club: Club, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, data, err = cli(
        capsys, club.path, "member", "export-personal", club.numbers[0], "--out", str(tmp_path)
    )
    assert code == 0, err
    held = json.loads(Path(data["json"]).read_text(encoding="utf-8"))
    assert held["identity"][0]["name"] == FULL
    assert held["contact"][0]["email"].endswith(MAIL_MARK)
    assert [p["amount"] for p in held["payments"]] == [25000]  # the Swiss fee, TRY 250.00
    swiss = [r for r in held["results"] if r["event"] == "Bahar Kupası"]
    assert len(swiss) == 3 and all(r["score"] for r in swiss)
    assert any(r["event"] == "Kış Eleme" for r in held["results"])
    assert any(a["action"] == "member.create" for a in held["audit"])
    pdf = "\n".join(p.extract_text() or "" for p in PdfReader(data["pdf"]).pages)
    assert FULL in pdf and "Bahar Kupası" in pdf and "250" in pdf and MAIL_MARK in pdf


# ------------------------------------------------------------------------------------------ erasure
def standings_of(db: Database, event: int) -> list[tuple[Any, ...]]:
    return [
        (r.entrant, r.rank, r.points, tuple(r.shown.items())) for r in night.event_standings(db, event).rows
    ]


def ratings_of(db: Database) -> list[tuple[Any, ...]]:
    with db.session() as s:
        rows = s.scalars(select(RatingEntry).order_by(RatingEntry.id))
        return [(r.member_id, r.match_id, r.before, r.after, r.won) for r in rows]


def test_erase_keeps_standings_and_ratings_identical_and_the_log_verifiable(
    club: Club, capsys: pytest.CaptureFixture[str]
) -> None:
    db = club.db
    number = club.numbers[0]
    mine = members.get_member(db, number)
    old = (mine.name, mine.phone, mine.email)
    tables = [standings_of(db, club.swiss), standings_of(db, club.knockout)]
    ratings = ratings_of(db)
    code, data, err = cli(capsys, club.path, "member", "erase", number)
    assert code == 0, err
    assert data["name"] == f"Member {number}" and data["redacted_rows"] >= 1
    after = members.get_member(db, number)
    assert (after.name, after.phone, after.email, after.city, after.birth_year, after.notes) == (
        f"Member {number}",
        "",
        "",
        "",
        None,
        "",
    )
    assert [standings_of(db, club.swiss), standings_of(db, club.knockout)] == tables
    assert ratings_of(db) == ratings
    names = [r.name for r in night.event_standings(db, club.swiss).rows]
    assert f"Member {number}" in names and FULL not in names
    # nothing in the file keeps his name or contacts, and the log still verifies
    with db.session() as s:
        rows = s.execute(text("SELECT before, after FROM audit_log")).all()
    for value in old:
        assert not any(value in (b or "") or value in (a or "") for b, a in rows), value
    report = verify_chain(db)
    assert report.ok, report.message()
    # an erasure is done once
    code, data, err = cli(capsys, club.path, "member", "erase", number)
    assert code == 1 and "erased already" in err


def test_an_edited_redacted_row_is_still_reported(club: Club) -> None:
    db = club.db
    members.erase_member(db, DESK, club.numbers[1])
    with db.session() as s:
        row = s.execute(
            text("SELECT id FROM audit_log WHERE action = 'member.create' ORDER BY id LIMIT 1 OFFSET 1")
        ).scalar()
        s.execute(text('UPDATE audit_log SET after = \'{"name":"Someone"}\' WHERE id = :i'), {"i": row})
    report = verify_chain(db)
    assert not report.ok and report.broken_id == row


# ------------------------------------------------------------------------------------------ clearing
def test_clear_inactive_clears_only_members_long_inactive(
    club: Club, capsys: pytest.CaptureFixture[str]
) -> None:
    db = club.db
    old = members.create_member(
        db, DESK, members.MemberData(name="Eski Üye", phone="+90 555 111 2233", email="e@x.org")
    )
    with db.session() as s:
        m = s.scalars(select(Member).where(Member.number == old.number)).one()
        m.created_at = utcnow() - timedelta(days=365 * 6)
    code, data, err = cli(capsys, club.path, "member", "clear-inactive", "--years", "5", "--dry-run")
    assert code == 0, err
    assert data["members"] == [old.number] and members.get_member(db, old.number).phone
    code, data, err = cli(capsys, club.path, "member", "clear-inactive", "--years", "5")
    assert code == 0, err
    gone = members.get_member(db, old.number)
    assert (gone.phone, gone.email, gone.name) == ("", "", "Eski Üye")
    assert members.get_member(db, club.numbers[2]).phone  # a member who played keeps his
    assert verify_chain(db).ok
    with db.session() as s:
        rows = s.execute(text("SELECT before, after FROM audit_log")).all()
    assert not any("555 111" in (b or "") + (a or "") for b, a in rows)
    code, data, err = cli(capsys, club.path, "member", "clear-inactive", "--years", "0")
    assert code == 1


# ------------------------------------------------------------------------------------------ permissions
def test_a_scorer_is_refused_export_erase_and_clearing(club: Club, tmp_path: Path) -> None:
    db = club.db
    club_service.add_staff(db, DESK, DESK.name, "secretary", "1234")
    with db.session() as s:
        rows = s.execute(text("SELECT count(*) FROM audit_log")).scalar()
    calls = {
        "export": lambda: publishing.export_personal(db, SCORER, club.numbers[0], tmp_path),
        "erase": lambda: members.erase_member(db, SCORER, club.numbers[0]),
        "clear": lambda: members.clear_inactive(db, SCORER, 1),
    }
    for what, call in calls.items():
        with pytest.raises(ServiceError) as info:
            call()
        assert info.value.code == "not-allowed", what
        assert info.value.message.startswith("A scorer may not "), what
    with db.session() as s:
        assert s.execute(text("SELECT count(*) FROM audit_log")).scalar() == rows
    assert members.get_member(db, club.numbers[0]).name == FULL
    assert not list(tmp_path.glob("member-*"))


def test_erase_takes_the_records_merged_into_his_too(club: Club) -> None:
    db = club.db
    dup = members.create_member(db, DESK, members.MemberData(name="Ayşe Yilmaz", phone="+90 555 000 1111"))
    members.merge_members(db, DESK, club.numbers[0], dup.number)
    members.erase_member(db, DESK, club.numbers[0])
    gone = members.get_member(db, dup.number, follow_merged=False)
    assert (gone.name, gone.phone) == (f"Member {dup.number}", "")
    with db.session() as s:
        rows = s.execute(text("SELECT before, after FROM audit_log")).all()
    assert not any("Yilmaz" in (b or "") + (a or "") or "000 1111" in (b or "") + (a or "") for b, a in rows)
    assert verify_chain(db).ok
