"""Several desks on one database (issue 25), on the SQLite file and on the club server (PostgreSQL).

The three concurrency tests of the issue run with real separate processes (two desks): hands entered at
once on different tables lose nothing; two desks correcting the same table: one is refused, naming who
changed it and when; two desks publishing the same round: it is published once. Then the server's own
parts: moving a club (db copy) with its checksums, pg_dump backups, NOTIFY for live refresh, the refusals.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from clubdesk.models import AuditEntry
from clubdesk.models.result import ResultEntry
from clubdesk.models.round import Round
from clubdesk.services.club import safety
from clubdesk.services.club.db_copy import verify_same
from clubdesk.services.desk import lists, registration
from clubdesk.services.events import events
from clubdesk.services.kernel.audit_verify import verify_chain
from clubdesk.services.kernel.base import Actor, Role, ServiceError
from clubdesk.services.members.edit import create_member
from clubdesk.services.members.records import MemberData
from clubdesk.services.money import prize_payments
from clubdesk.services.night.data import reads, settings
from clubdesk.services.night.play import forfeits, results
from clubdesk.services.night.play import rounds as play_rounds
from clubdesk.storage import Database, DatabaseError
from tests.conftest import BACKENDS, DbMaker
from tests.integration.test_night_helpers import DESK, make_event
from tests.waits import READY_S, ended, release_when_ready, with_faulthandler

SRC = str(Path(__file__).resolve().parents[2] / "src")
ROOT = str(Path(__file__).resolve().parents[2])
GAME = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}
server_only = pytest.mark.skipif("postgresql" not in BACKENDS, reason="no test server (CLUBDESK_TEST_PG_URL)")


def _desks(code: str, args: list[list[str]]) -> list[tuple[int, str, str]]:
    """Run one process per desk with ``code`` (``sys.argv[1:]`` = its args); they start together when
    the go-file appears, once every one is waiting for it. Returns (exit code, stdout, stderr) of each."""
    env = with_faulthandler(dict(os.environ, PYTHONPATH=os.pathsep.join([SRC, ROOT])))
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(code), *a],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for a in args
    ]
    release_when_ready(procs, Path(args[0][0]))
    outs = [ended(p, 240, "the go-file") for p in procs]
    return [(p.returncode, o, e) for p, (o, e) in zip(procs, outs, strict=True)]


def _published_round(db: Database, players: int = 4) -> tuple[int, reads.RoundView]:
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=players, rounds=3, match_lengths=[25])
    play_rounds.propose_round(db, DESK, ev)
    return ev, play_rounds.publish_round(db, DESK, ev).round


WAIT = """
import os, sys, time
from pathlib import Path
from clubdesk.storage import Database
from clubdesk.services.night.play import results, rounds
from clubdesk.services.kernel.base import Actor, Role, ServiceError
from clubdesk.storage import Database
from clubdesk.services.night.play import results, rounds
from clubdesk.services.kernel.base import Actor, Role, ServiceError
go, target, who = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
db = Database(target, backups_dir=go.parent / "b")
go.with_name(f"{go.name}.{os.getpid()}.ready").touch()
while not go.exists():
    time.sleep(0.002)
"""


def test_two_desks_entering_hands_on_different_tables_lose_nothing(make_db: DbMaker, tmp_path: Path) -> None:
    target = make_db.url_or_path("club")
    db = Database(target, backups_dir=tmp_path / "b")
    ev, rv = _published_round(db)
    t1, t2 = (t.table for t in rv.tables[:2])
    db.close()
    hands = 12
    code = (
        WAIT
        + f"""
table = int(sys.argv[4])
for k in range({hands}):
    results.add_entry(db, Actor(who), {ev}, 1, table, {{**{GAME!r}, "winner": k % 2}})
db.close()
print("done")
"""
    )
    go = str(tmp_path / "go")
    outs = _desks(code, [[go, target, "Desk A", str(t1)], [go, target, "Desk B", str(t2)]])
    assert [o[0] for o in outs] == [0, 0], [o[2] for o in outs]
    db = Database(target, backups_dir=tmp_path / "b")
    try:
        for t in (t1, t2):
            games = results.table_entries(db, ev, 1, t)
            assert len(games[1]) == hands  # every hand of both desks is there, in its order
            assert [g["winner"] for g in games[1]] == [k % 2 for k in range(hands)]
        view = reads.get_round(db, ev, 1)
        assert {t.table: t.score for t in view.tables}[t1] == (hands // 2, hands // 2)
        with db.session() as s:
            assert s.scalar(select(func.count()).select_from(ResultEntry)) == 2 * hands
        assert verify_chain(db).ok  # the audit chain stayed one chain (its head is serialised)
    finally:
        db.close()


def test_two_desks_correcting_the_same_table_one_is_refused_with_who_and_when(db: Database) -> None:
    ev, rv = _published_round(db)
    table = rv.tables[0]
    results.set_score(db, DESK, ev, 1, table.table, (3, 1))
    # both desks show the table at the same version
    seen = {t.table: t for t in reads.get_round(db, ev, 1).tables}[table.table]
    ayse, budi = Actor("Ayşe", Role.SECRETARY), Actor("Budi", Role.SECRETARY)
    results.set_score(db, ayse, ev, 1, table.table, (4, 1), expected_version=seen.version)
    with pytest.raises(ServiceError) as refused:
        results.set_score(db, budi, ev, 1, table.table, (1, 4), expected_version=seen.version)
    assert refused.value.code == "changed-elsewhere"
    assert "Ayşe" in refused.value.message and f"Table {table.table}" in refused.value.message
    now = {t.table: t for t in reads.get_round(db, ev, 1).tables}[table.table]
    assert now.score == (4, 1)  # Ayşe's correction stands; Budi's screen reloads it
    assert now.version > seen.version
    # the same for a whole sheet
    with pytest.raises(ServiceError):
        results.replace_entries(db, budi, ev, 1, table.table, {1: [GAME]}, expected_version=seen.version)
    results.replace_entries(db, budi, ev, 1, table.table, {1: [GAME]}, expected_version=now.version)


def test_confirm_referee_and_forfeit_are_refused_on_a_table_changed_elsewhere(db: Database) -> None:
    """Issue 25: an approval, a referee's decision or a forfeit given from a desk that shows an older state
    of the table is refused, naming who changed it, and changes nothing (rules G13, T8c, T3b)."""
    ev, rv = _published_round(db)
    table = rv.tables[0].table
    results.set_score(db, DESK, ev, 1, table, (25, 3))
    seen = {t.table: t for t in reads.get_round(db, ev, 1).tables}[table]
    ayse = Actor("Ayşe", Role.SECRETARY)
    referee = Actor("Rıza", Role.REFEREE)
    results.set_score(db, ayse, ev, 1, table, (3, 25), expected_version=seen.version)  # another desk corrects
    for call in (
        lambda: results.confirm(db, DESK, ev, 1, table, 0, "AB", expected_version=seen.version),
        lambda: results.referee_decision(
            db, referee, ev, 1, table, approve=True, expected_version=seen.version
        ),
        lambda: forfeits.forfeit(
            db, referee, ev, 1, table, 1, override="absent", expected_version=seen.version
        ),
    ):
        with pytest.raises(ServiceError) as refused:
            call()
        assert refused.value.code == "changed-elsewhere" and "Ayşe" in refused.value.message
    now = {t.table: t for t in reads.get_round(db, ev, 1).tables}[table]
    assert now.score == (3, 25) and now.status != "confirmed" and now.kind != "forfeit"
    # with the version it shows now, the desk approves what it has seen
    results.confirm(db, DESK, ev, 1, table, 0, "AB", expected_version=now.version)
    results.confirm(db, DESK, ev, 1, table, 1, "CD")
    assert {t.table: t for t in reads.get_round(db, ev, 1).tables}[table].status == "confirmed"


def test_two_desks_correcting_at_the_same_moment_one_wins(make_db: DbMaker, tmp_path: Path) -> None:
    target = make_db.url_or_path("club")
    db = Database(target, backups_dir=tmp_path / "b")
    ev, rv = _published_round(db)
    table = rv.tables[0].table
    results.set_score(db, DESK, ev, 1, table, (2, 2))
    version = {t.table: t for t in reads.get_round(db, ev, 1).tables}[table].version
    db.close()
    code = (
        WAIT
        + f"""
score = tuple(int(x) for x in sys.argv[4].split("-"))
try:
    results.set_score(db, Actor(who), {ev}, 1, {table}, score, expected_version={version})
    print("saved")
except ServiceError as exc:
    print(exc.code + "|" + exc.message)
db.close()
"""
    )
    go = str(tmp_path / "go")
    outs = _desks(code, [[go, target, "Desk A", "5-2"], [go, target, "Desk B", "2-5"]])
    assert [o[0] for o in outs] == [0, 0], [o[2] for o in outs]
    lines = sorted(o[1].strip() for o in outs)
    assert lines[1] == "saved", lines
    assert lines[0].startswith("changed-elsewhere|") and "Desk " in lines[0]
    db = Database(target, backups_dir=tmp_path / "b")
    try:
        score = {t.table: t for t in reads.get_round(db, ev, 1).tables}[table].score
        winner = "Desk A" if score == (5, 2) else "Desk B"
        assert score in ((5, 2), (2, 5)) and winner in lines[0]  # the refusal names the desk that won
    finally:
        db.close()


def test_two_desks_publishing_the_same_round_publish_it_once(make_db: DbMaker, tmp_path: Path) -> None:
    target = make_db.url_or_path("club")
    db = Database(target, backups_dir=tmp_path / "b")
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=6, rounds=3, match_lengths=[3])
    play_rounds.propose_round(db, DESK, ev)
    db.close()
    code = (
        WAIT
        + f"""
try:
    rounds.publish_round(db, Actor(who), {ev})
    print("published")
except ServiceError as exc:
    print(exc.code)
db.close()
"""
    )
    go = str(tmp_path / "go")
    outs = _desks(code, [[go, target, "Desk A"], [go, target, "Desk B"]])
    assert [o[0] for o in outs] == [0, 0], [o[2] for o in outs]
    assert sorted(o[1].strip() for o in outs) == ["no-proposed-round", "published"]
    db = Database(target, backups_dir=tmp_path / "b")
    try:
        with db.session() as s:
            rounds = list(s.scalars(select(Round).where(Round.event_id == ev)))
            publishes = s.scalar(
                select(func.count()).select_from(AuditEntry).where(AuditEntry.action.like("%publish%"))
            )
        assert [(r.number, r.status) for r in rounds] == [(1, "published")]
        assert publishes == 1
    finally:
        db.close()


# ------------------------------------------------------------------------------ moving a club (db copy)
@server_only
def test_db_copy_file_to_server_and_back_keeps_every_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from clubdesk.cli.core import main
    from clubdesk.services.kernel.audit_verify import verify_chain
    from clubdesk.services.night.play import results
    from tests.conftest import DbMaker as Maker

    club = tmp_path / "club.sqlite3"
    db = Database(club, backups_dir=tmp_path / "b")
    ev, rv = _published_round(db)
    results.add_entry(db, DESK, ev, 1, rv.tables[0].table, GAME)
    db.close()
    maker = Maker("postgresql", tmp_path, _FakeRequest())  # type: ignore[arg-type]
    try:
        server = maker.url_or_path(empty=True)
        Database(server).close()  # an empty server database, migrated
        assert main(["--json", "db", "copy", str(club), server]) == 0
        report = json.loads(capsys.readouterr().out)
        by_table = {t["table"]: t for t in report["tables"]}
        assert all(t["ok"] for t in report["tables"])
        assert by_table["result_entries"]["rows"] == 1 and by_table["matches"]["rows"] == len(rv.tables)
        back = tmp_path / "home.sqlite3"
        assert main(["db", "copy", server, str(back)]) == 0
        out = capsys.readouterr().out
        assert "result_entries" in out and "ok" in out
        a, b = Database(club), Database(back)
        try:
            # the same rows, table by table, but for the audit log: each copy is written in both logs
            assert [t for t, _x, _y in verify_same(a, b)] == ["audit_log"]
            assert verify_chain(a).ok and verify_chain(b).ok
            with a.session() as sa, b.session() as sb:
                out_of_club = sa.scalars(
                    select(AuditEntry.action).where(AuditEntry.action.like("database.copy%"))
                ).all()
                into_back = sb.scalars(
                    select(AuditEntry.action).where(AuditEntry.action.like("database.copy%"))
                ).all()
            assert out_of_club == ["database.copy-out"]  # the club file: a whole copy was taken
            # the home file carries the server's history (copied in from the club file), then its own
            # copy-in; the server's copy-out is written after the copy, so only the server has it
            assert into_back == ["database.copy-in", "database.copy-in"]
        finally:
            a.close()
            b.close()
        # a non-empty destination is refused, one line, nothing changed
        assert main(["db", "copy", str(club), server]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "already holds club data" in err[0]
        # the server goes on numbering after the copied rows
        s = Database(server)
        try:
            results.add_entry(s, DESK, ev, 1, rv.tables[0].table, GAME)
            assert len(results.table_entries(s, ev, 1, rv.tables[0].table)[1]) == 2
        finally:
            s.close()
    finally:
        maker.cleanup()


class _FakeRequest:
    def getfixturevalue(self, name: str) -> str:
        raise AssertionError("only empty databases here")


# ------------------------------------------------------------------------------ the server's own parts
@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """Databases on the test server only (these tests are about the server's own parts)."""
    maker = DbMaker("postgresql", tmp_path, request)
    yield maker
    maker.cleanup()


@server_only
def test_server_backup_uses_pg_dump_and_says_so_without_it(
    server: DbMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    db = server()
    ev, _rv = _published_round(db)
    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump not installed")
    # twelve older dumps of today: the backup rotates them like the file's (the last 10 kept)
    from datetime import datetime, timedelta

    from clubdesk.storage.backup import BACKUP_STAMP, KEEP_LAST

    dumps = tmp_path / "dumps"
    dumps.mkdir()
    start = datetime.now() - timedelta(minutes=30)
    for k in range(12):
        (
            dumps / f"{db.name}-{(start + timedelta(minutes=k)).strftime(BACKUP_STAMP)}-auto.pgdump"
        ).write_bytes(b"x")
    info = safety.backup(db, DESK, folder=dumps)
    assert info.file.suffix == ".pgdump" and info.bytes > 0 and info.integrity == "ok"
    kept = sorted(dumps.glob("*.pgdump"))
    # the automatic dumps rotate (the last 10 kept); this manual backup is kept apart from them
    assert len(kept) == KEEP_LAST + 1 and info.file in kept
    assert len([k for k in kept if k.name.endswith("-auto.pgdump")]) == KEEP_LAST
    listed = subprocess.run(["pg_restore", "--list", str(info.file)], capture_output=True, text=True)
    assert "TABLE DATA public matches" in listed.stdout
    assert info.revision == db.revision()
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    with pytest.raises(DatabaseError) as refused:
        safety.backup(db, DESK, folder=tmp_path / "dumps")
    assert refused.value.code == "no-pg-dump" and "pg_dump is not installed" in str(refused.value)
    with pytest.raises(DatabaseError):
        safety.restore(db, DESK, info.file)  # the administrator restores a server, not a desk


@server_only
def test_another_desks_change_is_announced_within_a_second(server: DbMaker) -> None:
    from clubdesk.storage import listen_changes

    target = server.url_or_path("club")
    desk_a, desk_b = Database(target), Database(target)
    try:
        ev, rv = _published_round(desk_a)
        conn = listen_changes(desk_b)
        with conn:
            results.add_entry(desk_a, DESK, ev, 1, rv.tables[0].table, GAME)
            payloads = []
            for note in conn.notifies(timeout=READY_S):  # how soon is benchmarks/' business
                payloads.append(note.payload)
                if str(ev) in payloads:
                    break
            assert str(ev) in payloads
    finally:
        desk_a.close()
        desk_b.close()


@server_only
def test_an_unreachable_server_is_one_clear_refusal(tmp_path: Path) -> None:
    url = f"postgresql+psycopg://clubdesk@/nowhere?host={tmp_path}"
    with pytest.raises(DatabaseError) as refused:
        Database(url)
    assert refused.value.code == "unreachable"
    assert "cannot be reached" in str(refused.value) and len(str(refused.value).splitlines()) == 1


@server_only
def test_a_foreign_server_database_is_left_alone(tmp_path: Path) -> None:
    from sqlalchemy import create_engine

    maker = DbMaker("postgresql", tmp_path, _FakeRequest())  # type: ignore[arg-type]
    try:
        url = maker.url_or_path(empty=True)
        engine = create_engine(url)
        with engine.begin() as c:
            c.exec_driver_sql("CREATE TABLE invoices (id int)")
        engine.dispose()
        with pytest.raises(DatabaseError) as refused:
            Database(url)
        assert refused.value.code == "foreign-database"
    finally:
        maker.cleanup()


def _slowed(monkeypatch: pytest.MonkeyPatch, module: object, name: str, seconds: float = 0.4) -> None:
    """Widen the window between a desk's check and its write: without serialisation both desks pass."""
    original = getattr(module, name)

    def slow(*args: object, **kwargs: object) -> object:
        out = original(*args, **kwargs)
        time.sleep(seconds)
        return out

    monkeypatch.setattr(module, name, slow)


def _at_once(*calls: object) -> list[str]:
    import threading

    outcome: list[str] = []

    def run(fn: object) -> None:
        try:
            fn()  # type: ignore[operator]
            outcome.append("ok")
        except ServiceError as exc:
            outcome.append(exc.code)

    threads = [threading.Thread(target=run, args=(c,)) for c in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return sorted(outcome)


def test_the_last_place_is_given_once_even_in_the_same_instant(
    make_db: DbMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    target = make_db.url_or_path("club")
    a = Database(target, backups_dir=tmp_path / "b")
    b = Database(target, backups_dir=tmp_path / "b")
    try:
        n0, n1, n2 = (create_member(a, DESK, MemberData(name=f"Player {k}")).number for k in range(3))
        ev = events.create_event(
            a, DESK, events.EventData(name="Last place", ruleset="tavla", format="swiss", capacity=2)
        )
        registration.register(a, DESK, ev.id, n0)  # one place left
        _slowed(monkeypatch, registration, "has_room")
        out = _at_once(
            lambda: registration.register(a, DESK, ev.id, n1),
            lambda: registration.register(b, DESK, ev.id, n2),
        )
        assert out == ["ok", "ok"]
        statuses = sorted(r.status for r in lists.entrants(a, ev.id))
        assert statuses.count("registered") == 2 and len(statuses) == 3  # the last place once; one waits
    finally:
        a.close()
        b.close()


def test_a_round_is_published_once_even_in_the_same_instant(
    make_db: DbMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = make_db.url_or_path("club")
    a = Database(target, backups_dir=tmp_path / "b")
    b = Database(target, backups_dir=tmp_path / "b")
    try:
        ev, _ids = make_event(a, ruleset="tavla", fmt="swiss", players=6, rounds=3, match_lengths=[3])
        play_rounds.propose_round(a, DESK, ev)
        _slowed(monkeypatch, play_rounds, "rounds_of")
        out = _at_once(
            lambda: play_rounds.publish_round(a, DESK, ev), lambda: play_rounds.publish_round(b, DESK, ev)
        )
        assert out == ["no-proposed-round", "ok"]
        with a.session() as s:
            publishes = s.scalar(
                select(func.count()).select_from(AuditEntry).where(AuditEntry.action == "publish")
            )
        assert publishes == 1
    finally:
        a.close()
        b.close()


@server_only
def test_two_desks_opening_a_new_server_database_at_once_migrate_it_once(
    server: DbMaker, tmp_path: Path
) -> None:
    target = server.url_or_path(empty=True)
    code = (
        WAIT.replace('db = Database(target, backups_dir=go.parent / "b")\n', "")
        + """
db = Database(target, backups_dir=go.parent / "b")
print(db.revision())
db.close()
"""
    )
    go = str(tmp_path / "go")
    outs = _desks(code, [[go, target, "Desk A"], [go, target, "Desk B"]])
    assert [o[0] for o in outs] == [0, 0], [o[2] for o in outs]
    from clubdesk.storage.revisions import head_revision

    assert [o[1].strip() for o in outs] == [head_revision()] * 2  # the second waited for the first
    db = Database(target)
    try:
        with db.engine.connect() as c:
            assert c.exec_driver_sql("SELECT count(*) FROM alembic_version").scalar() == 1
    finally:
        db.close()


def test_a_prize_is_paid_once_even_in_the_same_instant(
    make_db: DbMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule T13e (never paid twice) across two desks: both read "unpaid" at once unless the payment holds
    the event's lock (issue 25); the second desk is told it was paid."""
    from clubdesk.services.night.play import results
    from clubdesk.services.night.play import rounds as play_rounds

    target = make_db.url_or_path("club")
    a = Database(target, backups_dir=tmp_path / "b")
    b = Database(target, backups_dir=tmp_path / "b")
    try:
        ev, _ids = make_event(a, ruleset="tavla", fmt="swiss", players=4, rounds=2, match_lengths=[3])
        settings.configure(a, DESK, ev, prize_plan={"places": [{"place": 1, "fixed": 5000}]})
        for _rno in range(2):
            rv = play_rounds.propose_round(a, DESK, ev, seed=1)
            play_rounds.publish_round(a, DESK, ev)
            for t in rv.tables:
                results.set_score(a, DESK, ev, rv.round, t.table, (3, 1), confirm=True)
        _slowed(monkeypatch, play_rounds, "entrant_names")
        out = _at_once(
            lambda: prize_payments.pay_prize(a, DESK, ev, 1, "cash"),
            lambda: prize_payments.pay_prize(b, DESK, ev, 1, "card"),
        )
        assert out == ["already-paid", "ok"]
        with a.session() as s:
            paid = s.scalar(
                select(func.count()).select_from(AuditEntry).where(AuditEntry.action == "prize-paid")
            )
        assert paid == 1
    finally:
        a.close()
        b.close()
