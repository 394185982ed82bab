"""Data safety (issue 23): backups while others write, restore, safe opening, atomic upgrades under kill -9,
serialised check-then-write across processes, a busy database, and the tamper-evident audit log."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from clubdesk.cli.core import main as cli
from clubdesk.services.club import audit_log, safety, settings
from clubdesk.services.desk import lists, registration
from clubdesk.services.events import events
from clubdesk.services.kernel.audit_verify import verify_chain
from clubdesk.services.kernel.base import Actor
from clubdesk.services.members import edit, records
from clubdesk.storage import Database, DatabaseError, current_revision, known_revisions
from clubdesk.storage.backup import backup_time, rotate_backups
from clubdesk.storage.migrate import upgrade
from clubdesk.storage.revisions import head_revision
from tests.forks import Forks
from tests.waits import READY_S, ready_files, release_when_ready

ME = Actor("AB")


def _count(path: Path, sql: str) -> int:
    con = sqlite3.connect(path)
    try:
        return int(con.execute(sql).fetchone()[0])
    finally:
        con.close()


# ----------------------------------------------------------------------------- backups and restore


def test_backup_while_another_process_writes_holds_every_acknowledged_row(
    tmp_path: Path, forks: Forks
) -> None:
    path = tmp_path / "club.sqlite3"
    Database(path).close()
    acked = tmp_path / "acked.txt"
    writer = forks.run(
        f"""
        import os
        from pathlib import Path
        from clubdesk.storage import Database
        from clubdesk.services.club import settings
        from clubdesk.services.kernel.base import Actor
        db = Database(Path({str(path)!r}))
        tmp = Path({str(acked)!r} + ".tmp")
        for i in range(400):
            settings.put(db, Actor("W"), f"k{{i}}", i)
            tmp.write_text(str(i + 1))
            os.replace(tmp, {str(acked)!r})   # acknowledged: the commit returned
        db.close()
        """
    )
    db = Database(path)
    copies = []
    try:
        while writer.poll() is None:
            before = int(acked.read_text()) if acked.exists() and acked.read_text() else 0
            info = safety.backup(db, ME, folder=tmp_path / "copies")
            # read the copy at once: rotation keeps only the last ten of the day
            stored = _count(info.file, "SELECT count(*) FROM settings WHERE key LIKE 'k%'")
            copies.append((before, stored, info))
            time.sleep(0.02)
    finally:
        _out, err = writer.communicate(READY_S)
        db.close()
    assert writer.returncode == 0, err
    assert len(copies) >= 3
    for before, stored, info in copies:
        assert info.integrity == "ok"
        assert stored >= before, f"{info.file.name} misses acknowledged rows: {stored} < {before}"
    assert all(info.file.stat().st_mode & 0o777 == 0o600 for info in (c[2] for c in copies[-5:]))


def test_cli_backup_json_and_restore_of_a_good_backup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "club.sqlite3"
    db = Database(path)
    settings.put(db, ME, "club.name", "Kadıköy Tavla Kulübü")
    db.close()
    assert cli(["--db", str(path), "backup", "--to", str(tmp_path / "bk"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (
        out["integrity"] == "ok"
        and Path(out["file"]).exists()
        and out["bytes"] == Path(out["file"]).stat().st_size
    )
    db = Database(path)
    settings.put(db, ME, "club.name", "Changed after the backup")
    db.close()
    assert cli(["--db", str(path), "restore", out["file"], "--json"]) == 0
    restored = json.loads(capsys.readouterr().out)
    db = Database(path)
    try:
        assert settings.get(db, "club.name") == "Kadıköy Tavla Kulübü"
        kept = Path(restored["previous_kept_as"])
        assert kept.exists()
        con = sqlite3.connect(kept)
        value = con.execute("SELECT value FROM settings WHERE key='club.name'").fetchone()[0]
        con.close()
        assert json.loads(value) == "Changed after the backup"  # the database as it was before the restore
        assert verify_chain(db).ok
    finally:
        db.close()


@pytest.mark.parametrize("kind", ["text", "empty", "foreign", "newer"])
def test_restore_refuses_what_is_not_a_sound_clubdesk_database(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "club.sqlite3"
    db = Database(path)
    settings.put(db, ME, "club.name", "Club A")
    db.close()
    bad = tmp_path / f"{kind}.sqlite3"
    if kind == "text":
        bad.write_text("not a database\n" * 100)
    elif kind == "empty":
        bad.write_bytes(b"")
    elif kind == "foreign":
        con = sqlite3.connect(bad)
        con.execute("CREATE TABLE recipes(name TEXT)")
        con.commit()
        con.close()
    else:
        Database(bad).close()
        con = sqlite3.connect(bad)
        con.execute("UPDATE alembic_version SET version_num='9999_future'")
        con.commit()
        con.close()
    before = _count(path, "SELECT count(*) FROM audit_log")
    assert cli(["--db", str(path), "restore", str(bad)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(bad) in err[0]
    db = Database(path)
    try:
        assert settings.get(db, "club.name") == "Club A"
    finally:
        db.close()
    assert _count(path, "SELECT count(*) FROM audit_log") == before


def test_rotation_keeps_last_ten_one_per_day_and_one_per_month(tmp_path: Path) -> None:
    from datetime import datetime, timedelta

    folder = tmp_path / "backups"
    folder.mkdir()
    now = datetime(2026, 12, 1, 21, 0, 0)
    made = []
    for hours in range(0, 24 * 70, 6):  # every 6 hours for 70 days
        t = now - timedelta(hours=hours)
        p = folder / f"club-{t.strftime('%Y%m%d-%H%M%S')}-auto.sqlite3"
        p.write_bytes(b"x")
        made.append(t)
    (folder / "club-before-0008_safety-from-0005_discipline.sqlite3").write_bytes(b"x")
    rotate_backups(folder, "club", now=now)
    kept = sorted(backup_time(p, "club") for p in folder.glob("club-2*.sqlite3"))  # type: ignore[type-var]
    newest = sorted(made, reverse=True)
    assert set(newest[:10]) <= set(kept)  # the last ten
    days = {t.date() for t in kept}
    assert all(
        (now - timedelta(days=d)).date() in days for d in range(30)
    )  # one for each of the last 30 days
    assert {t.strftime("%Y%m") for t in kept} == {t.strftime("%Y%m") for t in made}  # one per month
    assert len(kept) < len(made)
    assert (folder / "club-before-0008_safety-from-0005_discipline.sqlite3").exists()


# ----------------------------------------------------------------------------- opening safely


def test_empty_damaged_and_foreign_files_are_refused_and_left_untouched(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    with pytest.raises(DatabaseError) as info:
        Database(empty)
    assert info.value.code == "empty-file" and empty.stat().st_size == 0

    foreign = tmp_path / "foreign.sqlite3"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE recipes(name TEXT)")
    con.execute("INSERT INTO recipes VALUES ('soup')")
    con.commit()
    con.close()
    before = foreign.read_bytes()
    with pytest.raises(DatabaseError) as info:
        Database(foreign)
    assert info.value.code == "foreign-database"
    assert foreign.read_bytes() == before
    assert not (tmp_path / "foreign.sqlite3-wal").exists()

    damaged = tmp_path / "damaged.sqlite3"
    db = Database(damaged)
    for i in range(300):
        settings.put(db, ME, f"key{i}", "x" * 200)
    db.close()
    con = sqlite3.connect(damaged)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(damaged.read_bytes())
    page = 4096
    for offset in range(page * 3, min(len(data), page * 12), page):  # scribble over b-tree pages
        data[offset + 8 : offset + 200] = os.urandom(192)
    damaged.write_bytes(bytes(data))
    before = damaged.read_bytes()
    with pytest.raises(DatabaseError) as info:
        Database(damaged)
    assert info.value.code in ("damaged", "not-a-database")
    assert damaged.read_bytes() == before


def test_db_in_a_missing_folder_is_refused_and_no_folder_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "no" / "such" / "club.sqlite3"
    assert cli(["--db", str(target), "info"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "does not exist" in err[0]
    assert not (tmp_path / "no").exists()


def test_new_database_and_its_backups_are_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    db = Database(path)
    info = safety.backup(db, ME)
    db.close()
    assert path.stat().st_mode & 0o777 == 0o600
    assert info.file.stat().st_mode & 0o777 == 0o600


def test_unclean_shutdown_runs_the_full_check(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    Database(path)  # never closed: the sidecar stays, as after a crash
    again = Database(path)
    assert again.unclean_shutdown
    again.close()
    third = Database(path)
    assert not third.unclean_shutdown
    third.close()


# ----------------------------------------------------------------------------- atomic upgrades


def _old_database(path: Path) -> None:
    """A database at the first revision holding data, as an old ClubDesk left it."""
    upgrade(path, known_revisions()[0])
    con = sqlite3.connect(path)
    con.execute("INSERT INTO settings(key, value) VALUES ('club.name', '\"Old Club\"')")
    con.commit()
    con.close()


OPEN = """
    import sys, time
    from pathlib import Path
    from clubdesk.storage import Database
    start = time.perf_counter()
    Database(Path(sys.argv[1]), backups_dir=Path(sys.argv[2])).close()
    print(time.perf_counter() - start)
    """


def _kill_at_random_moments(
    forks: Forks,
    argv: Callable[[str], list[str]],
    outcome: Callable[[str], str],
    *,
    seed: int,
    attempts: int,
    wanted: set[str],
    span: float = 1.5,
) -> Counter[str]:
    """Open a database (``OPEN`` with ``argv(name)``) in a fresh process per attempt and kill -9 it at a
    random moment across ``span`` times the opening's real duration (measured by one opening that is not
    killed, in a process forked as the attempts are), so each kill lands in the work itself or just after it,
    not in Python's imports, and the kills are spread over the whole span. ``outcome(name)`` checks what the
    kill left and names it; the attempts go on (up to three times as many, the duration measured again each
    time, as a loaded machine slows) until every ``wanted`` outcome is seen: the kills did land before and
    after the point that matters."""
    rng = random.Random(seed)
    seen: Counter[str] = Counter()

    def duration(name: str) -> float:
        proc = forks.run(OPEN, *argv(name))
        out, err = proc.communicate(READY_S)
        assert proc.returncode == 0, err
        return float(out)

    # one moment in each of ``attempts`` equal slices of the span, in a random order: spread over all of it
    moments = [(slice_ + rng.random()) / attempts for slice_ in range(attempts)]
    rng.shuffle(moments)
    took = duration("measured")
    attempt = 0
    while attempt < attempts or (not wanted <= set(seen) and attempt < 3 * attempts):
        if attempt >= attempts:
            took = duration(f"measured{attempt}")
        proc = forks.run(OPEN, *argv(f"a{attempt}"))
        time.sleep((moments[attempt] if attempt < attempts else rng.random()) * span * took)
        proc.kill()
        proc.wait(READY_S)
        seen[outcome(f"a{attempt}")] += 1
        attempt += 1
    assert wanted <= set(seen), f"the kills never found {wanted - set(seen)}: {dict(seen)}"
    return seen


def test_kill_during_upgrade_leaves_old_or_new_schema_and_one_backup(tmp_path: Path, forks: Forks) -> None:
    backups = tmp_path / "backups"
    old = tmp_path / "old.sqlite3"
    _old_database(old)

    def argv(name: str) -> list[str]:
        path = tmp_path / f"{name}.sqlite3"
        shutil.copy(old, path)  # as _old_database makes it: the same bytes, owner-only
        return [str(path), str(backups)]

    def outcome(name: str) -> str:
        path = tmp_path / f"{name}.sqlite3"
        rev = current_revision(path)
        assert rev in (known_revisions()[0], head_revision()), rev  # never half
        db = Database(path, backups_dir=backups)  # always opens again, and finishes the upgrade
        try:
            assert settings.get(db, "club.name") == "Old Club"
        finally:
            db.close()
        assert current_revision(path) == head_revision()
        copies = list(backups.glob(f"{name}-before-*.sqlite3"))
        assert len(copies) == 1  # one backup per revision, not per try
        assert not list(backups.glob(f"{name}-*.part"))
        return "old" if rev == known_revisions()[0] else "new"

    _kill_at_random_moments(forks, argv, outcome, seed=23, attempts=16, wanted={"old", "new"})


def test_kill_during_creation_leaves_no_half_database(tmp_path: Path, forks: Forks) -> None:
    def argv(name: str) -> list[str]:
        return [str(tmp_path / f"{name}.sqlite3"), str(tmp_path / "backups")]

    def outcome(name: str) -> str:
        path = tmp_path / f"{name}.sqlite3"
        made = path.exists()
        assert not made or current_revision(path) == head_revision()
        Database(path).close()  # opens (or is created) without "table already exists"
        assert current_revision(path) == head_revision()
        return "made" if made else "none"

    # the file appears only as the last step of the work: twice its duration puts as many kills after it
    _kill_at_random_moments(forks, argv, outcome, seed=7, attempts=16, wanted={"none", "made"}, span=2.0)


def test_two_processes_opening_an_old_database_at_once_both_succeed(tmp_path: Path, forks: Forks) -> None:
    path = tmp_path / "old.sqlite3"
    _old_database(path)
    code = f"""
        from pathlib import Path
        from clubdesk.storage import Database
        from clubdesk.services.club import settings
        db = Database(Path({str(path)!r}), backups_dir=Path({str(tmp_path / "bk")!r}))
        print(settings.get(db, "club.name"))
        db.close()
        """
    procs = [forks.run(code) for _ in range(3)]
    outs = [p.communicate(READY_S) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [e for _o, e in outs]
    assert [o.strip() for o, _e in outs] == ["Old Club"] * 3
    assert len(list((tmp_path / "bk").glob("*.sqlite3"))) == 1


# ----------------------------------------------------------------------------- serialised writes


def test_racing_registrations_never_overbook(tmp_path: Path, forks: Forks) -> None:

    path = tmp_path / "club.sqlite3"
    db = Database(path)
    numbers = [edit.create_member(db, ME, records.MemberData(name=f"Oyuncu {i}")).number for i in range(12)]
    ev = events.create_event(
        db, ME, events.EventData(name="Race night", ruleset="tavla", format="swiss", capacity=4)
    )
    db.close()
    go = tmp_path / "go"
    code = """
        import os, sys, time
        from pathlib import Path
        from clubdesk.storage import Database
        from clubdesk.services import desk
        from clubdesk.services.kernel.base import Actor
        db = Database(Path(sys.argv[1]))
        go = Path(sys.argv[2])
        go.with_name(f"{go.name}.{os.getpid()}.ready").touch()
        while not go.exists():
            time.sleep(0.001)
        from clubdesk.storage import DatabaseError
        for attempt in range(10):  # "busy at another desk; try again": the desk presses again
            try:
                r = desk.register(db, Actor("D" + sys.argv[3]), int(sys.argv[4]), sys.argv[3])
                break
            except DatabaseError as exc:
                if exc.code != "busy" or attempt == 9:
                    raise
        print(r.status)
        db.close()
        """
    procs = [forks.run(code, str(path), str(go), n, str(ev.id)) for n in numbers]
    release_when_ready(procs, go)
    outs = [p.communicate(READY_S) for p in procs]
    assert all(p.returncode == 0 for p in procs), [e for _o, e in outs]
    db = Database(path)
    try:
        rows = lists.entrants(db, ev.id)
        registered = [r for r in rows if r.status == "registered"]
        assert len(registered) == 4  # capacity 4: no overbooking whatever the timing
        assert len(rows) == len(numbers)
    finally:
        db.close()


def _race(tmp_path: Path, forks: Forks, path: Path, argvs: list[list[str]]) -> list[tuple[int, str]]:
    """Fork one CLI process per argv, release them at the same instant, return (exit code, stderr) each."""
    go = tmp_path / "go-cli"
    go.unlink(missing_ok=True)
    for old in ready_files(go):
        old.unlink()
    code = """
        import os, sys, time
        from pathlib import Path
        from clubdesk.cli.core import main
        go = Path(sys.argv[1])
        go.with_name(f"{go.name}.{os.getpid()}.ready").touch()
        while not go.exists():
            time.sleep(0.001)
        sys.exit(main(sys.argv[2:]))
        """
    procs = [forks.run(code, str(go), "--db", str(path), *argv) for argv in argvs]
    release_when_ready(procs, go)
    outs = [p.communicate(READY_S) for p in procs]
    return [(p.wait(), err) for p, (_out, err) in zip(procs, outs, strict=True)]


def test_racing_payments_never_overpay_and_one_member_number_is_never_given_twice(
    tmp_path: Path, forks: Forks
) -> None:

    path = tmp_path / "club.sqlite3"
    db = Database(path)
    m = edit.create_member(db, ME, records.MemberData(name="Ayşe Çelik"))
    ev = events.create_event(
        db, ME, events.EventData(name="Kupa", ruleset="tavla", format="swiss", fee=25000, currency="TRY")
    )
    entrant = registration.register(db, ME, ev.id, m.number).entrant
    db.close()
    pays = _race(
        tmp_path, forks, path, [["pay", str(ev.id), str(entrant), "--amount", "250", "--method", "cash"]] * 8
    )
    assert sorted(code for code, _e in pays) == [0] + [1] * 7, pays
    assert all("Traceback" not in e for _c, e in pays)
    assert _count(path, "SELECT sum(amount) FROM payments") == 25000  # paid once, never more than owed

    adds = _race(
        tmp_path,
        forks,
        path,
        [["member", "add", "--name", f"Kişi {i}", "--number", "5000"] for i in range(8)],
    )
    assert sorted(code for code, _e in adds) == [0] + [1] * 7, adds
    assert all("Traceback" not in e and len(e.strip().splitlines()) == 1 for c, e in adds if c == 1)
    assert _count(path, "SELECT count(*) FROM members WHERE number = '5000'") == 1


def test_a_lock_held_too_long_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "club.sqlite3"
    Database(path).close()
    monkeypatch.setattr("clubdesk.storage.sqlite.BUSY_TIMEOUT_MS", 200)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        code = cli(["--db", str(path), "member", "add", "--name", "Şükrü Işık"])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["clubdesk-cli: The database is busy at another desk; try again."]
    assert _count(path, "SELECT count(*) FROM members") == 0


# ----------------------------------------------------------------------------- tamper-evident audit


def _club_with_history(path: Path) -> None:
    db = Database(path)
    for i in range(6):
        settings.put(db, ME, f"key{i}", i)
    db.close()


def test_audit_chain_reports_an_outside_edit_and_a_deletion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "club.sqlite3"
    _club_with_history(path)
    assert cli(["--db", str(path), "audit", "--verify", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["rows"] == 7  # 6 settings and the row where the keyed log begins

    con = sqlite3.connect(path)
    con.execute("UPDATE audit_log SET after = '99' WHERE id = 3")
    con.commit()
    con.close()
    assert cli(["--db", str(path), "audit", "--verify"]) == 1
    err = capsys.readouterr().err
    assert "row 3" in err and "edited" in err

    path2 = tmp_path / "club2.sqlite3"
    _club_with_history(path2)
    con = sqlite3.connect(path2)
    con.execute("DELETE FROM audit_log WHERE id = 4")
    con.commit()
    con.close()
    db = Database(path2)
    try:
        report2 = verify_chain(db)
    finally:
        db.close()
    assert not report2.ok and report2.broken_id == 5  # the row after the deleted one no longer links


def test_backup_records_the_chain_head(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    _club_with_history(path)
    db = Database(path)
    try:
        head = verify_chain(db).head
        info = safety.backup(db, ME)
    finally:
        db.close()
    assert head is not None and info.audit_head == head


def test_upgrade_chains_the_existing_audit_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    upgrade(path, "0005_discipline")
    con = sqlite3.connect(path)
    for i in range(5):
        con.execute(
            "INSERT INTO audit_log(at, actor_name, actor_role, action, entity, entity_id, after) "
            "VALUES (?, 'AB', 'secretary', 'settings.change', 'setting', ?, ?)",
            (f"2026-11-0{i + 1} 20:00:00.000000", f"k{i}", json.dumps(i)),
        )
    con.commit()
    con.close()
    db = Database(path, backups_dir=tmp_path / "bk")
    try:
        settings.put(db, ME, "after.upgrade", 1)
        report = verify_chain(db)
    finally:
        db.close()
    assert report.ok and report.rows == 7  # + the row where the log began to be signed with the key


def test_audit_csv_cells_are_formula_safe(tmp_path: Path) -> None:
    import csv

    from clubdesk.services.club import settings

    path = tmp_path / "club.sqlite3"
    db = Database(path)
    try:
        settings.put(db, ME, '=HYPERLINK("http://x","click")', 1)  # lands in the entity id column
        out = tmp_path / "audit.csv"
        audit_log.export_audit_csv(db, out)
    finally:
        db.close()
    with out.open(encoding="utf-8-sig", newline="") as fh:
        cells = [cell for row in csv.reader(fh) for cell in row]
    assert '\'=HYPERLINK("http://x","click")' in cells  # shown as text, not run
    assert not any(cell[:1] in ("=", "+", "-", "@") for cell in cells)
