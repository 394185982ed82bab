"""Clear refusals, never a traceback, nothing half-written: a full disk (the club file's own write, a backup,
a new club file, a print, an export), a club file on a read-only medium (it opens for reading), a `--db`
that is a dangling link or a stray empty file, a schema revision that is not ours (not called "newer"
unless it is), no `-wal`/`-shm` beside a refused file, and huge ids on the command line.

A full disk is simulated where the test cannot mount a small tmpfs: SQLite's own SQLITE_FULL through
``max_page_count`` (the real code path of a write), ENOSPC raised at the write of a file; and, where the
test may mount one (root), a real 1 MB tmpfs filled up. A read-only medium is a tmpfs remounted read-only
(root), else a folder and file without write permission."""

from __future__ import annotations

import csv as csv_module
import errno
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clubdesk.cli.core import main as cli
from clubdesk.services.kernel import Actor, Role
from clubdesk.services.members import edit, records
from clubdesk.services.night.play import rounds
from clubdesk.services.publishing import documents
from clubdesk.storage import Database, DatabaseError, migrate
from clubdesk.storage import sqlite as storage_sqlite
from clubdesk.storage.checks import check_file
from clubdesk.storage.revisions import head_revision
from tests.integration.test_night_helpers import DESK, make_event
from tests.integration.test_safety import _count

ME = Actor("AB", Role.SECRETARY)
LEFTOVERS = ("*.part", "*.creating*", ".clubdesk-*", "*-wal", "*-shm", "*-journal")


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for pattern in LEFTOVERS for p in folder.glob(pattern))


def _club(folder: Path, name: str = "club.sqlite3") -> Path:
    """A club file with two members and a published round of a tavla night."""
    path = folder / name
    db = Database(path)
    try:
        edit.create_member(db, ME, records.MemberData(name="Ayşe Çelik"))
        ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=1, match_lengths=[3])
        rounds.propose_round(db, DESK, ev)
        rounds.publish_round(db, DESK, ev)
    finally:
        db.close()
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli(["--lang", "en", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def _one_clear_line(code: int, err: str) -> str:
    assert code == 1, err
    assert "Traceback" not in err, err
    lines = [line for line in err.strip().splitlines() if line.startswith("clubdesk-cli: ")]
    assert len(lines) == 1, err
    return lines[0]


# ----------------------------------------------------------------------------- mounts (root only)


def _mount(folder: Path, options: str) -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True, check=False
    )
    return done.returncode == 0


def _unmount(folder: Path) -> None:
    subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 1 MB tmpfs, where the test may mount one."""
    disk = tmp_path / "small"
    disk.mkdir()
    if not _mount(disk, "size=1m"):
        pytest.skip("no small tmpfs can be mounted here (not root); the simulated tests cover it")
    try:
        yield disk
    finally:
        _unmount(disk)


def _fill(disk: Path, leave: int) -> None:
    """Fill ``disk`` up to ``leave`` free bytes."""
    st = os.statvfs(disk)
    free = st.f_bavail * st.f_frsize
    (disk / "filler").write_bytes(b"\0" * max(0, free - leave))


@pytest.fixture
def read_only_copy(tmp_path: Path) -> Iterator[Any]:
    """``make(*paths)``: copies of the files at ``paths`` on a read-only medium (a tmpfs remounted read-only
    as root; else a folder and files without write permission); returns the copies."""
    medium = tmp_path / "medium"
    medium.mkdir()
    mounted = False

    def make(*paths: Path) -> list[Path]:
        nonlocal mounted
        mounted = os.geteuid() == 0 and _mount(medium, "size=8m")
        copies = [medium / path.name for path in paths]
        for path, copy in zip(paths, copies, strict=True):
            shutil.copy2(path, copy)
        if mounted:
            subprocess.run(["mount", "-o", "remount,ro", str(medium)], check=True, capture_output=True)
        else:
            for copy in copies:
                copy.chmod(0o444)
            medium.chmod(0o555)
            if os.access(copies[0], os.W_OK):  # root, who may write anyway, and no mount to refuse him
                pytest.skip("no read-only medium can be made here")
        return copies

    try:
        yield make
    finally:
        if mounted:
            _unmount(medium)
        else:
            medium.chmod(0o755)


# ----------------------------------------------------------------------------- a full disk


def test_a_write_to_the_club_file_on_a_full_disk_is_refused_and_the_file_stays_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _club(tmp_path)
    pages = _count(path, "PRAGMA page_count")
    real = storage_sqlite.set_pragmas

    def full_disk(dbapi_connection: Any, record: Any) -> None:  # SQLite's own SQLITE_FULL on growth
        real(dbapi_connection, record)
        dbapi_connection.execute(f"PRAGMA max_page_count={pages}")

    monkeypatch.setattr(storage_sqlite, "set_pragmas", full_disk)
    notes = "x" * 200_000  # more than the pages the file has free
    code, _out, err = _run(
        capsys, "--db", str(path), "member", "add", "--name", "Berk Kaya", "--notes", notes
    )
    line = _one_clear_line(code, err)
    assert "The disk is full" in line and str(path) in line
    monkeypatch.undo()
    assert check_file(path, full=True) == head_revision()  # the transaction was rolled back: whole
    assert _count(path, "SELECT count(*) FROM members WHERE name = 'Berk Kaya'") == 0
    assert _count(path, "SELECT count(*) FROM members WHERE name = 'Ayşe Çelik'") == 1


def test_an_upgrade_on_a_full_disk_is_refused_and_the_file_keeps_its_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.sqlite3"
    migrate.upgrade(path, "0013_table_entry")  # an older ClubDesk's file: the upgrade adds tables
    pages = _count(path, "PRAGMA page_count")
    real = storage_sqlite.set_pragmas

    def full_disk(dbapi_connection: Any, record: Any) -> None:
        real(dbapi_connection, record)
        dbapi_connection.execute(f"PRAGMA max_page_count={pages}")

    monkeypatch.setattr(storage_sqlite, "set_pragmas", full_disk)
    code, _out, err = _run(capsys, "--db", str(path), "member", "list")
    line = _one_clear_line(code, err)
    assert "The disk is full" in line and str(path) in line
    monkeypatch.undo()
    assert check_file(path, full=True) == "0013_table_entry"  # the one transaction was rolled back


def test_a_backup_on_a_full_disk_leaves_no_part_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _club(tmp_path)
    folder = tmp_path / "backups"
    real_connect = sqlite3.connect

    class Source:  # the club file's connection: the copy stops half-way on a full disk
        def __init__(self, con: sqlite3.Connection) -> None:
            self.con = con

        def backup(self, target: sqlite3.Connection, **_kw: Any) -> None:
            self.con.backup(target, pages=1, progress=self._full)

        @staticmethod
        def _full(_status: int, remaining: int, _total: int) -> None:
            if remaining:
                raise sqlite3.OperationalError("database or disk is full")

        def close(self) -> None:
            self.con.close()

    def connect(database: Any, *args: Any, **kwargs: Any) -> Any:
        con = real_connect(database, *args, **kwargs)
        return Source(con) if Path(str(database)) == path else con

    monkeypatch.setattr(storage_sqlite.sqlite3, "connect", connect)
    code, _out, err = _run(capsys, "--db", str(path), "backup", "--to", str(folder))
    monkeypatch.undo()
    line = _one_clear_line(code, err)
    assert "The disk is full" in line
    assert list(folder.iterdir()) == []  # no .part, no half backup
    assert _leftovers(tmp_path) == []


def test_a_new_club_file_on_a_full_disk_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = migrate.upgrade

    def half_then_full(path: Path, revision: str = "head") -> None:
        real(path)  # the schema is written, then the disk fills before the file is in place
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(migrate, "upgrade", half_then_full)
    new = tmp_path / "new.sqlite3"
    code, _out, err = _run(capsys, "--db", str(new), "member", "list")
    line = _one_clear_line(code, err)
    assert "The disk is full" in line and str(new) in line
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no club file, no .creating, no -wal


def test_a_print_and_an_export_on_a_full_disk_leave_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _club(tmp_path)
    out = tmp_path / "out"
    out.mkdir()

    def half_pdf(target: Path, *_args: Any) -> int:
        target.write_bytes(b"%PDF-1.4 half")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))

    monkeypatch.setattr(documents, "pairings", half_pdf)
    pdf = out / "pairings.pdf"
    code, _o, err = _run(capsys, "--db", str(path), "report", "pairings", "1", "--out", str(pdf))
    line = _one_clear_line(code, err)
    assert "The disk is full" in line and str(pdf) in line

    real_write = Path.write_bytes

    def half_csv(self: Path, data: bytes) -> int:
        if self.parent == out:
            real_write(self, data[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))
        return real_write(self, data)

    monkeypatch.setattr(Path, "write_bytes", half_csv)
    csv = out / "members.csv"
    code, _o, err = _run(capsys, "--db", str(path), "member", "export", str(csv))
    line = _one_clear_line(code, err)
    assert "The disk is full" in line and str(csv) in line
    monkeypatch.undo()

    real_writer = csv_module.writer

    def filling(handle: Any, *args: Any, **kwargs: Any) -> Any:
        rows = real_writer(handle, *args, **kwargs)

        class Filling:
            written = 0

            def writerow(self, row: Any) -> Any:
                if self.written:  # the header is written, then the disk is full
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                self.written += 1
                return rows.writerow(row)

        return Filling()

    monkeypatch.setattr(csv_module, "writer", filling)
    log = out / "audit.csv"
    code, _o, err = _run(capsys, "--db", str(path), "audit", "--csv", str(log))
    line = _one_clear_line(code, err)
    assert "The disk is full" in line and str(log) in line
    assert list(out.iterdir()) == []  # neither the half files nor their temporary names


def test_a_real_full_disk(small_disk: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 1 MB tmpfs: a new club file, a backup and a print onto it when it is full; then the club file's
    own write when it fills up."""
    path = _club(tmp_path)
    _fill(small_disk, leave=64 * 1024)
    for argv in (
        ["--db", str(small_disk / "new.sqlite3"), "member", "list"],
        ["--db", str(path), "backup", "--to", str(small_disk)],
        ["--db", str(path), "report", "pairings", "1", "--out", str(small_disk / "p.pdf")],
    ):
        code, _o, err = _run(capsys, *argv)
        line = _one_clear_line(code, err)
        assert "The disk is full" in line or "No space left" in line, line
        assert sorted(p.name for p in small_disk.iterdir()) == ["filler"], argv
    (small_disk / "filler").unlink()
    club = small_disk / "club.sqlite3"
    shutil.copy2(path, club)
    _fill(small_disk, leave=96 * 1024)
    for i in range(40):  # until the disk is full
        code, _o, err = _run(
            capsys, "--db", str(club), "member", "add", "--name", f"Kişi {i}", "--notes", "x" * 20_000
        )
        if code:
            break
    line = _one_clear_line(code, err)
    assert "The disk is full" in line, line
    (small_disk / "filler").unlink()
    assert check_file(club, full=True) == head_revision()


# ----------------------------------------------------------------------------- read-only media


def test_a_club_file_on_a_read_only_medium_opens_for_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], read_only_copy: Any
) -> None:
    [copy] = read_only_copy(_club(tmp_path))
    before = copy.read_bytes()
    code, out, err = _run(capsys, "--db", str(copy), "member", "list")
    assert code == 0, err
    assert "Ayşe Çelik" in out
    assert "read-only" in err and "not a ClubDesk database" not in err
    code, out, err = _run(capsys, "--db", str(copy), "standings", "1")
    assert code == 0, err
    pdf = tmp_path / "pairings.pdf"
    code, out, err = _run(capsys, "--db", str(copy), "report", "pairings", "1", "--out", str(pdf))
    assert code == 0, err
    assert pdf.read_bytes().startswith(b"%PDF")
    code, _o, err = _run(capsys, "--db", str(copy), "member", "add", "--name", "Berk Kaya")
    line = _one_clear_line(code, err)
    assert "is read-only" in line and "nothing can be saved" in line
    code, _o, err = _run(
        capsys, "--db", str(copy), "result", "1", "--round", "1", "--table", "1", "--score", "3-0"
    )
    assert "is read-only" in _one_clear_line(code, err)
    backup = tmp_path / "backups"
    code, _o, err = _run(capsys, "--db", str(copy), "backup", "--to", str(backup))
    assert code == 0, err  # a copy out to a writable folder
    [copied] = backup.iterdir()
    code, _o, err = _run(capsys, "--db", str(copy), "restore", str(copied))
    assert "is read-only" in _one_clear_line(code, err)
    assert copy.read_bytes() == before
    assert sorted(p.name for p in copy.parent.iterdir()) == [copy.name]  # nothing beside it
    db = Database(copy)
    try:
        assert db.read_only
    finally:
        db.close()
    new = copy.with_name("new.sqlite3")  # a new club file cannot be made there either
    code, _o, err = _run(capsys, "--db", str(new), "member", "list")
    line = _one_clear_line(code, err)
    assert "is read-only: no club file can be created there" in line
    assert sorted(p.name for p in copy.parent.iterdir()) == [copy.name]


def test_a_read_only_file_that_needs_an_upgrade_or_its_log_is_refused_with_what_to_do(
    tmp_path: Path, read_only_copy: Any
) -> None:
    old = tmp_path / "old.sqlite3"
    migrate.upgrade(old, "0017_standings_stamp")  # a file of the previous ClubDesk
    unfinished = tmp_path / "unfinished.sqlite3"
    Database(unfinished).close()
    con = sqlite3.connect(unfinished)
    con.execute("PRAGMA wal_autocheckpoint=0")
    con.execute("INSERT INTO settings(key, value) VALUES ('x', 'y')")
    con.commit()
    wal = tmp_path / "unfinished.sqlite3-wal"
    shutil.copy2(wal, tmp_path / "kept-wal")  # as a desk killed before its checkpoint left it
    con.close()
    shutil.copy2(tmp_path / "kept-wal", wal)
    copies = read_only_copy(old, unfinished, wal)
    with pytest.raises(DatabaseError) as info:
        Database(copies[0])
    assert info.value.code == "read-only-old" and "Copy it to a writable folder" in str(info.value)
    with pytest.raises(DatabaseError) as info:
        Database(copies[1])
    assert info.value.code == "read-only-unfinished" and "unfinished.sqlite3-wal" in str(info.value)


# ----------------------------------------------------------------------------- what --db names


def test_a_dangling_link_and_a_stray_empty_file_are_refused_and_nothing_is_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "club.sqlite3"
    target = tmp_path / "gone" / "club.sqlite3"
    link.symlink_to(target)
    near = tmp_path / "near.sqlite3"
    near.symlink_to(tmp_path / "missing.sqlite3")  # its folder exists: SQLite would have made the file
    for each in (link, near):
        code, _o, err = _run(capsys, "--db", str(each), "member", "list")
        line = _one_clear_line(code, err)
        assert "does not exist" in line and "nothing was opened or created" in line
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    code, _o, err = _run(capsys, "--db", str(empty), "member", "list")
    assert "empty file" in _one_clear_line(code, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.sqlite3", "empty.sqlite3", "near.sqlite3"]
    assert empty.stat().st_size == 0


# ----------------------------------------------------------------------------- revisions and side files


def _with_revision(tmp_path: Path, revision: str) -> Path:
    path = tmp_path / f"{revision}.sqlite3"
    Database(path).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE alembic_version SET version_num = ?", (revision,))
    con.commit()
    con.close()
    for mark in tmp_path.glob("*.closed"):
        mark.unlink()
    return path


@pytest.mark.parametrize(
    ("revision", "code", "words"),
    [
        ("ae1027a6acf", "unknown-revision", "unknown schema revision ae1027a6acf"),  # another program's id
        ("0017_another_branch", "unknown-revision", "unknown schema revision 0017_another_branch"),
        ("9999_from_the_future", "schema-too-new", "newer ClubDesk"),
    ],
)
def test_an_unknown_revision_is_called_newer_only_when_it_is(
    tmp_path: Path, revision: str, code: str, words: str
) -> None:
    path = _with_revision(tmp_path, revision)
    before = path.read_bytes()
    with pytest.raises(DatabaseError) as info:
        Database(path)
    assert info.value.code == code
    assert words in str(info.value)
    if code == "unknown-revision":
        assert "newer" not in str(info.value)
    assert path.read_bytes() == before


def test_no_side_files_are_left_beside_a_refused_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "refused"
    folder.mkdir()
    foreign = folder / "foreign.sqlite3"
    con = sqlite3.connect(foreign)
    con.execute("PRAGMA journal_mode=WAL")  # another program's WAL file, closed cleanly
    con.execute("CREATE TABLE recipes(name TEXT)")
    con.commit()
    con.close()
    unknown = _with_revision(folder, "ae1027a6acf")
    damaged = _club(folder, "damaged.sqlite3")
    data = bytearray(damaged.read_bytes())
    data[4096 * 3 : 4096 * 3 + 3000] = b"\xff" * 3000
    damaged.write_bytes(bytes(data))
    for mark in folder.glob("*.closed"):
        mark.unlink()
    good = _club(tmp_path)
    listing = sorted(p.name for p in folder.iterdir())
    for refused in (foreign, unknown, damaged):
        before = refused.read_bytes()
        code, _o, err = _run(capsys, "--db", str(refused), "member", "list")
        _one_clear_line(code, err)
        code, _o, err = _run(capsys, "--db", str(good), "restore", str(refused))
        _one_clear_line(code, err)
        assert refused.read_bytes() == before
        assert sorted(p.name for p in folder.iterdir()) == listing, refused


# ----------------------------------------------------------------------------- huge ids


def test_huge_ids_on_the_command_line_are_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _club(tmp_path)
    huge = "9" * 25
    for argv in (
        ["round", huge],
        ["result", huge, "--round", "1", "--table", "1", "--score", "3-0"],
        ["result", "1", "--round", huge, "--table", huge, "--score", "3-0"],
        ["result", "1", "--round", "1", "--table", "1", "--score", "3-0", "--version", huge],
        ["standings", huge],
        ["pay", huge, huge, "--amount", "1", "--method", "cash"],
    ):
        code, _o, err = _run(capsys, "--db", str(path), *argv)
        line = _one_clear_line(code, err)
        assert any(w in line for w in ("too large", "There is no", "nothing was saved")), (argv, line)
    assert _count(path, "SELECT count(*) FROM matches WHERE score_a = 3") == 0
