"""The federation's hub on PostgreSQL (its own schema and Alembic chain): two club files sign and export
their nights, the hub imports them; the same file twice is stored once; a corrected export moves exactly the
places it changed; a file with one hand changed, a row removed, another club's signature or an unknown key
is refused and nothing is stored; identity conflicts land in the queue (T2a)."""

from __future__ import annotations

import datetime as dt
import json
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from clubdesk.cli.core import main as cli
from clubdesk.federation import eventfile
from clubdesk.models import Event as EventRow
from clubdesk.services import federation
from clubdesk.services.kernel import Actor, Role, ServiceError
from clubdesk.services.night.play import results
from clubdesk.services.publishing import season_ranking
from clubdesk.storage import Database
from clubdesk.storage.hub import Hub, HubEvent, HubPlacing, HubVersion, init_hub, open_hub
from tests.conftest import BACKENDS, _pg_admin, _pg_url
from tests.federation_helpers import DESK, tavla_night
from tests.waits import Processes, wait_for

REF = Actor("Referee", Role.REFEREE)
pytestmark = pytest.mark.skipif("postgresql" not in BACKENDS, reason="no test server (CLUBDESK_TEST_PG_URL)")

IZMIR = [
    ("I1", "Ali Kaya", "TR-001"),
    ("I2", "Berk Can", "TR-002"),
    ("I3", "Cem Ak", "TR-003"),
    ("I4", "Ece Su", ""),
]
ANKARA = [
    ("A1", "Ali Kaya", "TR-001"),
    ("A2", "Deniz Er", "TR-004"),
    ("A3", "Cem Ak", "TR-003"),
    ("A4", "Fatma Oz", "TR-005"),
]


@pytest.fixture
def hub_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("CLUBDESK_KEYS", str(tmp_path / "keys"))
    name = f"clubdesk_hub_{abs(hash(str(tmp_path))) % 10**9}"
    admin = _pg_admin()
    with admin.connect() as c:
        c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        c.exec_driver_sql(f"CREATE DATABASE {name}")
    url = _pg_url(name)
    init_hub(url)
    yield url
    with admin.connect() as c:
        c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    admin.dispose()


@pytest.fixture
def hub(hub_url: str) -> Iterator[Hub]:
    opened = open_hub(hub_url)
    yield opened
    opened.close()


def _club(
    tmp_path: Path, name: str, people: list[tuple[str, str, str]], hub: Hub, nights: int = 2
) -> tuple[Database, list[int]]:
    db = Database(tmp_path / f"{name}.sqlite3", backups_dir=tmp_path / "backups")
    events = [
        tavla_night(
            db,
            people,
            name=f"{name} night {k + 1}",
            day=dt.date(2026, 3, 1 + 7 * k + len(name)),
            seed=k + len(name),
        )
        for k in range(nights)
    ]
    federation.add_club(hub, name, federation.public_key(db).public_key)
    return db, events


def _counts(hub: Hub) -> tuple[int, int, int]:
    with hub.session() as s:
        return (
            s.scalar(select(func.count(HubEvent.id))) or 0,
            s.scalar(select(func.count(HubVersion.id))) or 0,
            s.scalar(select(func.count(HubPlacing.id))) or 0,
        )


def test_two_clubs_export_and_the_hub_stores_each_event_once(tmp_path: Path, hub: Hub) -> None:
    izmir, ev_i = _club(tmp_path, "Izmir", IZMIR, hub)
    ankara, ev_a = _club(tmp_path, "Ankara", ANKARA, hub)
    files = [federation.export_event(izmir, DESK, e, tmp_path / f"i{e}.json").file for e in ev_i]
    files += [federation.export_event(ankara, DESK, e, tmp_path / f"a{e}.json").file for e in ev_a]
    got = [federation.import_file(hub, f.read_bytes()) for f in files]
    assert [g.status for g in got] == ["new"] * 4
    assert _counts(hub) == (4, 4, 16)
    again = federation.import_file(hub, files[0].read_bytes())  # the same file twice: stored once
    assert again.status == "same" and _counts(hub) == (4, 4, 16)
    # exported again unchanged: the same bytes, the same version
    federation.export_event(izmir, DESK, ev_i[0], tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == files[0].read_bytes()
    # no phone or e-mail left the club (T14)
    text = b"".join(f.read_bytes() for f in files)
    assert b"0555" not in text and b"x@y.tr" not in text


def test_a_correction_moves_exactly_the_places_it_changed(tmp_path: Path, hub: Hub) -> None:
    izmir, ev_i = _club(tmp_path, "Izmir", IZMIR, hub, nights=1)
    first = federation.export_event(izmir, DESK, ev_i[0], tmp_path / "v1.json")
    federation.import_file(hub, first.file.read_bytes())
    before = json.loads(first.file.read_text())["payload"]
    # the referee corrects the best win of the winner: its result turns round
    order = [p["entrant"] for p in sorted(before["placings"], key=lambda p: p["from"])]
    won = [t for t in before["tables"] if t["winner"] == order[0]]
    table = min(won, key=lambda t: order.index(t["b"] if t["a"] == order[0] else t["a"]))
    a_won = table["winner"] == table["a"]
    score = (1, 3) if a_won else (3, 1)
    results.set_score(
        izmir, REF, ev_i[0], table["round"], table["table"], score, confirm=True, override="appeal"
    )
    second = federation.export_event(izmir, DESK, ev_i[0], tmp_path / "v2.json")
    assert second.supersedes == first.digest
    got = federation.import_file(hub, second.file.read_bytes())
    after = json.loads(second.file.read_text())["payload"]
    assert got.status == "corrected" and got.version == 2
    assert got.diff["tables"] == [[table["round"], table["table"]]]
    was = {str(p["entrant"]): [p["from"], p["to"]] for p in before["placings"]}
    now = {str(p["entrant"]): [p["from"], p["to"]] for p in after["placings"]}
    moved = {e for e in was if was[e] != now.get(e)}
    assert {p["entrant"] for p in got.diff["places"]} == moved and moved
    with hub.session() as s:
        stored = {(p.entrant, p.place_from) for p in s.scalars(select(HubPlacing))}
    assert stored == {(e, now[e][0]) for e in now}
    # the first version arriving late changes nothing; a fork of the chain is refused
    assert federation.import_file(hub, first.file.read_bytes()).status == "older"
    # a fork: another correction of the first version, while the hub holds the second
    _uid, key = federation.club_key(izmir)
    fork = _tampered(second.file, lambda p: p["event"].update(name="Izmir night, again"), key)
    with pytest.raises(ServiceError) as refused:
        federation.import_file(hub, fork)
    assert refused.value.code == "broken-chain"
    with hub.session() as s:
        assert s.scalar(select(func.count(HubVersion.id))) == 2


def _tampered(path: Path, change: object, key: bytes | None = None) -> bytes:
    document = json.loads(path.read_text())
    payload = document["payload"]
    change(payload)  # type: ignore[operator]
    if key is None:  # edited by hand after signing
        document["payload"] = payload
        return eventfile.canonical(document)
    return eventfile.seal(payload, key)  # edited, then signed again with some key


def test_tampered_foreign_and_unknown_files_are_refused_and_nothing_is_stored(
    tmp_path: Path, hub: Hub
) -> None:
    izmir, ev_i = _club(tmp_path, "Izmir", IZMIR, hub, nights=1)
    ankara, ev_a = _club(tmp_path, "Ankara", ANKARA, hub, nights=1)
    own = federation.export_event(ankara, DESK, ev_a[0], tmp_path / "ankara.json").file
    federation.import_file(hub, own.read_bytes())  # the hub knows Ankara's file by now
    stored = _counts(hub)
    good = federation.export_event(izmir, DESK, ev_i[0], tmp_path / "good.json").file
    _uid, izmir_key = federation.club_key(izmir)
    _uid_a, ankara_key = federation.club_key(ankara)

    def one_hand(p: dict) -> None:
        entry = next(t for t in p["tables"] if t["entries"])["entries"][0]["data"]
        entry["winner"] = 1 - entry["winner"]

    def row_removed(p: dict) -> None:
        p["tables"].pop()

    cases = {
        "bad-signature": _tampered(good, one_hand),  # one hand changed by hand
        "score-differs": _tampered(good, one_hand, izmir_key),  # changed and signed again: replay says no
        "table-missing": _tampered(good, row_removed, izmir_key),  # a row removed
        "foreign-file": _tampered(good, lambda p: None, ankara_key),  # Izmir's event signed by Ankara
        "unknown-club": _tampered(good, lambda p: None, eventfile.new_private_key()),
    }
    for code, data in cases.items():
        with pytest.raises(ServiceError) as refused:
            federation.import_file(hub, data)
        assert refused.value.code == code, (code, refused.value.message)
        assert _counts(hub) == stored
    rc = cli(["federation", "import", str(good), "--hub", hub_url_of(hub)])
    assert rc == 0 and _counts(hub) == (2, 2, 8)


def hub_url_of(hub: Hub) -> str:
    return hub.engine.url.render_as_string(hide_password=False)


def test_identity_conflicts_wait_in_the_queue_until_merged(tmp_path: Path, hub: Hub) -> None:
    izmir, ev_i = _club(tmp_path, "Izmir", IZMIR, hub, nights=1)
    other = [
        ("A1", "Ali Kaya", "TR-001"),
        ("A2", "Ece Su", ""),
        ("A3", "Cem Akın", "TR-003"),
        ("A4", "Fatma Oz", "TR-005"),
    ]
    ankara, ev_a = _club(tmp_path, "Ankara", other, hub, nights=1)
    for db, ev, n in ((izmir, ev_i[0], "i"), (ankara, ev_a[0], "a")):
        federation.import_file(
            hub, federation.export_event(db, DESK, ev, tmp_path / f"{n}.json").file.read_bytes()
        )
    items = federation.queue(hub)
    reasons = sorted(q.reason for q in items)
    assert reasons == [
        "licence-name",
        "no-licence",
        "no-licence",
    ]  # Ece twice without licence; Cem's spelling
    ece = [q for q in items if q.reason == "no-licence"]
    assert ece[1].candidate == ece[0].player  # Ankara's Ece may be Izmir's Ece
    merged = federation.merge_players(hub, ece[1].player, ece[0].player)
    assert merged.kept == ece[0].player
    left = federation.queue(hub)
    assert sorted(q.reason for q in left) == ["licence-name"]
    federation.keep_apart(hub, left[0].id)
    assert federation.queue(hub) == []


SEASON_PEOPLE = {
    "Izmir": [
        ("I1", "Ali Kaya", "TR-001"),
        ("I2", "Berk Can", "TR-002"),
        ("I3", "Cem Ak", "TR-003"),
        ("I4", "Gül Ay", "TR-006"),
    ],
    "Ankara": [
        ("A1", "Ali Kaya", "TR-001"),
        ("A2", "Deniz Er", "TR-004"),
        ("A3", "Cem Ak", "TR-003"),
        ("A4", "Fatma Oz", "TR-005"),
    ],
}
NIGHTS = [("Izmir", 1, "local"), ("Ankara", 2, "regional"), ("Izmir", 3, "regional"), ("Ankara", 4, "local")]


def test_the_hubs_season_equals_one_database_holding_every_event(tmp_path: Path, hub: Hub) -> None:
    clubs = {
        name: Database(tmp_path / f"{name}.sqlite3", backups_dir=tmp_path / "b") for name in SEASON_PEOPLE
    }
    single = Database(tmp_path / "all.sqlite3", backups_dir=tmp_path / "b")
    for name, db in clubs.items():
        federation.add_club(hub, name, federation.public_key(db).public_key)
    last = 0
    for club, k, tier in NIGHTS:
        people = SEASON_PEOPLE[club]
        day = dt.date(2026, 3, k)
        ev = tavla_night(clubs[club], people, name=f"{club} {k}", day=day, tier=tier, seed=k)
        out = federation.export_event(clubs[club], DESK, ev, tmp_path / f"{club}{k}.json")
        assert federation.import_file(hub, out.file.read_bytes()).status == "new"
        # the same night in one database holding every event: one member per licence
        last = tavla_night(
            single,
            [(lic, who, lic) for _n, who, lic in people],
            name=f"{club} {k}",
            day=day,
            tier=tier,
            seed=k,
        )
    with single.session() as s:
        one = season_ranking.season_ranking(s, s.get(EventRow, last))
        licence = {mid: m.licence for mid, m in one.people.items()}
        expected = [(licence[int(r.entrant)], r.points, len(r.counted), len(r.dropped)) for r in one.rows]
        decided = [r.decided_by for r in one.rows]
    cs = federation.circuit_season(hub, "2026")
    got = [(r.licence, r.points, len(r.counted), len(r.dropped)) for r in cs.rows]
    assert sorted(got) == sorted(expected)
    # the same order wherever the season's points and tie-breaks decide (not the lot, which draws by id)
    assert [g for g, d in zip(got, decided, strict=True) if d != "LOT"] == [
        x for x, d in zip(expected, decided, strict=True) if d != "LOT"
    ]
    assert {r.licence for r in cs.rows if len(r.clubs) == 2} == {"TR-001", "TR-003"}  # every venue, one line
    assert cs.best_of == 2 and any(r.dropped for r in cs.rows)
    assert len(cs.finalists) == min(8, len(cs.rows)) and cs.finalists[0].rank == 1
    assert all(r.rating is not None for r in cs.rows)  # every player rated over all clubs' matches (T12c)
    pdf = tmp_path / "season.pdf"
    assert federation.circuit_pdf(hub, "2026", pdf) >= 1 and pdf.read_bytes().startswith(b"%PDF")
    files = federation.circuit_site(hub, "2026", tmp_path / "site")
    index = files[0].read_text(encoding="utf-8")
    assert files[0].name == "index.html" and "Ali Kaya" in index and "Ankara" in index


def test_the_secretary_works_the_hub_from_the_command_line(
    tmp_path: Path, hub_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    izmir = Database(tmp_path / "izmir.sqlite3", backups_dir=tmp_path / "b")
    ev = tavla_night(izmir, IZMIR, name="Izmir 1", day=dt.date(2026, 3, 1), seed=1)
    assert cli(["--db", str(tmp_path / "izmir.sqlite3"), "--json", "federation", "key"]) == 0
    key = json.loads(capsys.readouterr().out)["public_key"]
    assert cli(["federation", "club", "add", "Izmir", "--key", key, "--hub", hub_url]) == 0
    capsys.readouterr()
    out = tmp_path / "izmir1.json"
    assert (
        cli(["--db", str(tmp_path / "izmir.sqlite3"), "federation", "export", str(ev), "--out", str(out)])
        == 0
    )
    assert cli(["federation", "import", str(out), str(out), "--hub", hub_url]) == 0
    said = capsys.readouterr().out
    assert "stored" in said and "already stored" in said
    assert cli(["federation", "queue", "--hub", hub_url]) == 0
    assert "Ece Su" in capsys.readouterr().out  # no licence: waits for the secretary
    assert cli(["federation", "season", "2026", "--hub", hub_url, "--pdf", str(tmp_path / "s.pdf")]) == 0
    assert "Ali Kaya" in capsys.readouterr().out and (tmp_path / "s.pdf").is_file()
    broken = tmp_path / "broken.json"
    broken.write_bytes(out.read_bytes().replace(b'"winner":0', b'"winner":1', 1))
    assert cli(["federation", "import", str(broken), "--hub", hub_url]) == 1
    assert "signature" in capsys.readouterr().err


def test_push_to_a_hub_on_loopback_lands_in_the_same_import(
    tmp_path: Path, hub_url: str, hub: Hub, processes: Processes
) -> None:
    izmir = Database(tmp_path / "izmir.sqlite3", backups_dir=tmp_path / "b")
    ev = tavla_night(izmir, IZMIR, name="Izmir 1", day=dt.date(2026, 3, 1), seed=1)
    token = federation.add_club(hub, "Izmir", federation.public_key(izmir).public_key).token
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    cmd = [sys.executable, "-c", "from clubdesk.cli import main; raise SystemExit(main())"]
    server = processes.start(
        [*cmd, "federation", "serve", "--hub", hub_url, "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert server.stdout is not None and f"http://127.0.0.1:{port}/" in server.stdout.readline()

    def answers() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:  # noqa: S310
                return page.status == 200
        except OSError:
            return server.poll() is not None  # ended: the assertion below says why

    wait_for(answers, "the hub's server did not answer")
    assert server.poll() is None
    # a wrong token is refused and nothing is stored
    federation.set_hub(izmir, DESK, f"http://127.0.0.1:{port}", "not-the-token")
    refused = federation.push_event(izmir, DESK, ev, tmp_path / "sent")
    assert not refused.accepted and refused.status == "bad-token" and _counts(hub) == (0, 0, 0)
    # the club's own token: accepted, then the same push again is stored once
    federation.set_hub(izmir, DESK, f"http://127.0.0.1:{port}", token)
    got = federation.push_event(izmir, DESK, ev, tmp_path / "sent")
    assert got.accepted and got.status == "new" and _counts(hub) == (1, 1, 4)
    assert federation.push_event(izmir, DESK, ev, tmp_path / "sent").status == "same"
    with hub.session() as s:
        assert s.scalar(select(HubVersion.via)) == "push"
    sent = federation.sent_events(izmir)
    assert [(x.event, x.accepted, x.answer) for x in sent] == [(ev, True, "same")]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:  # noqa: S310
        assert "Izmir" in page.read().decode("utf-8")  # the hub's status page
    with pytest.raises(ServiceError, match="HTTPS"):
        federation.set_hub(izmir, DESK, "http://hub.example.org", token)
