"""Issue 22's benchmark: builds seeded club databases under a temporary folder and runs every path as
project figure, floor (the same work done bare), ratio and target, medians of >= 5 repetitions.

    benchmarks/run [--quick] [--json]

``--quick`` builds the audit log with 200,000 rows instead of 1,200,000 and skips the 1 M-entry database
(benchmarks/bigdb.py: its size, open + standings, first paint and memory rows).
Nothing is asserted: the figures are printed (``--json``: a list of rows with path, project, floor,
ratio, target, holds). Figures are seconds unless the target says otherwise.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # bigdb, reports

from sqlalchemy import insert, text  # noqa: E402

from clubdesk.keys import keys_dir  # noqa: E402
from clubdesk.models.audit import AuditEntry  # noqa: E402
from clubdesk.models.event import Entrant, EntrantMember, Event  # noqa: E402
from clubdesk.models.member import Member, member_search_text, member_sort_keys  # noqa: E402
from clubdesk.models.result import Match  # noqa: E402
from clubdesk.models.round import EventNight, Round  # noqa: E402
from clubdesk.services.club import audit_log  # noqa: E402
from clubdesk.services.kernel.base import Actor, Role  # noqa: E402
from clubdesk.services.members import search  # noqa: E402
from clubdesk.services.night.data import reads  # noqa: E402
from clubdesk.services.night.play import (
    proposal,  # noqa: E402
    results,  # noqa: E402
)
from clubdesk.services.night.play import rounds as play_rounds  # noqa: E402
from clubdesk.services.night.ranking import (
    ratings,  # noqa: E402
    ratings_background,  # noqa: E402
    standings,  # noqa: E402
)
from clubdesk.storage import Database  # noqa: E402

DESK = Actor("Desk", Role.SECRETARY)
REPEAT = 5
HAND = {"type": "out", "seat": 0, "pips": [0, 5, 1, 5], "last_tile": None, "two_ends": False, "dead": {}}


@dataclass
class Row:
    path: str
    project: float
    floor: float | None
    target: str
    holds: bool

    @property
    def ratio(self) -> float | None:
        return None if not self.floor else self.project / self.floor

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "project": round(self.project, 5),
            "floor": None if self.floor is None else round(self.floor, 5),
            "ratio": None if self.ratio is None else round(self.ratio, 2),
            "target": self.target,
            "holds": self.holds,
        }


def times(fn: Callable[[], object], repeat: int = REPEAT) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def p95(xs: list[float]) -> float:
    return sorted(xs)[max(0, int(round(0.95 * len(xs))) - 1)]


# ------------------------------------------------------------------------------------------ building
def _members(s: Any, n: int, prefix: str, rng: random.Random) -> list[int]:
    first = ["Ahmet", "Budi", "Carmen", "Dewi", "Emre", "Fatma", "José", "Siti", "Ömer", "Lucía"]
    last = ["Yılmaz", "Santoso", "García", "Kaya", "Wijaya", "Pérez", "Demir", "Hidayat", "López", "Şahin"]
    rows = [
        {
            "number": f"{prefix}{i:06d}",
            "name": f"{rng.choice(first)} {rng.choice(last)} {i}",
            "rating": 1500.0,
            "rating_experience": 0,
            "licence": "",
            "city": rng.choice(["Bandung", "Madrid", "İzmir", "Sevilla", "Jakarta"]),
            "phone": "",
            "email": "",
            "notes": "",
            "active": True,
            "created_at": datetime(2025, 1, 1),
        }
        for i in range(n)
    ]
    for r in rows:  # what the ORM listener writes (issue 22: the folded search column)
        r["search_text"] = member_search_text(str(r["number"]), str(r["name"]), str(r["city"]))
        r.update(member_sort_keys(str(r["name"])))  # issue 22 (0015): the stored sort keys
    s.execute(insert(Member), rows)
    return list(
        s.scalars(text("SELECT id FROM members WHERE number LIKE :p ORDER BY id"), {"p": prefix + "%"})
    )


def _event(s: Any, name: str, ruleset: str, fmt: str, rounds: int | None, tiebreaks: str = "") -> int:
    ev = Event(name=name, ruleset=ruleset, format=fmt, entry_type="single", rounds=rounds, status="running")
    ev.currency = "EUR"
    s.add(ev)
    s.flush()
    s.add(
        EventNight(
            event_id=ev.id,
            result_mode="entries",
            tiebreaks=tiebreaks,
            lives=2,
            call_minutes=10,
            encounter_games=0,
            state="{}",
            prize_plan="{}",
            season_scale="{}",
        )
    )
    return ev.id


def _entrants(s: Any, ev: int, groups: list[list[int]]) -> list[int]:
    ids = []
    for k, g in enumerate(groups):
        e = Entrant(event_id=ev, name=f"E{ev}-{k}", code=f"B{ev}X{k}", checked_in_at=datetime(2026, 1, 1, 18))
        e.rating = 1500.0
        s.add(e)
        s.flush()
        s.execute(insert(EntrantMember), [{"entrant_id": e.id, "member_id": m} for m in g])
        ids.append(e.id)
    return ids


def build_club(folder: Path, n_league: int) -> tuple[Database, dict[str, int]]:
    """A club database: a tavla league of ``n_league`` confirmed matches (101 players, rated), a tavla
    night with round 1 published, a 64-pair gaple night with round 1 published, a 512-entrant and a
    1,024-entrant Swiss."""
    rng = random.Random(22)
    db = Database(folder / "club.sqlite3", backups_dir=folder / "backups")
    ids: dict[str, int] = {}
    with db.session() as s:
        league_members = _members(s, 101, "L", rng)
        lg = _event(s, "Tavla league", "tavla", "swiss", None, tiebreaks="PTS,IAV,GAV,BH")
        ents = _entrants(s, lg, [[m] for m in league_members])
        per_round = 50
        n_rounds = (n_league + per_round - 1) // per_round
        day0 = datetime(2025, 1, 1, 20)
        rows = []
        for r in range(1, n_rounds + 1):
            rd = Round(event_id=lg, number=r, status="closed", seed=r)
            s.add(rd)
            s.flush()
            order = ents[:]
            rng.shuffle(order)
            for t in range(per_round):
                if len(rows) >= n_league:
                    break
                a, b = order[2 * t], order[2 * t + 1]
                sa, sb = 5, rng.randint(0, 4)
                if rng.random() < 0.5:
                    sa, sb = sb, sa
                rows.append(
                    {
                        "event_id": lg,
                        "round_id": rd.id,
                        "round_no": r,
                        "table_no": t + 1,
                        "side_a": a,
                        "side_b": b,
                        "status": "confirmed",
                        "kind": "played",
                        "match_length": 5,
                        "score_a": sa,
                        "score_b": sb,
                        "winner": a if sa > sb else b,
                        "finished": True,
                        "confirmed_at": day0 + timedelta(days=r // 4, minutes=t),
                    }
                )
        s.execute(insert(Match), rows)
        ids["league"] = lg
        night_members = _members(s, 16, "T", rng)
        tn = _event(s, "Tavla night", "tavla", "swiss", 4)
        _entrants(s, tn, [[m] for m in night_members])
        ids["tavla"] = tn
        gaple_members = _members(s, 128, "G", rng)
        gp = _event(s, "Gaple night", "gaple-tournament", "swiss", 5)
        _entrants(s, gp, [gaple_members[2 * k : 2 * k + 2] for k in range(64)])
        ids["gaple"] = gp
        big_members = _members(s, 512, "S", rng)
        sw = _event(s, "Open Swiss 512", "tavla", "swiss", 9)
        _entrants(s, sw, [[m] for m in big_members])
        ids["swiss"] = sw
        huge_members = _members(s, 1024, "W", rng)  # issue 22: propose_round at 1,024 entrants too
        sw2 = _event(s, "Open Swiss 1024", "tavla", "swiss", 10)
        _entrants(s, sw2, [[m] for m in huge_members])
        ids["swiss1024"] = sw2
    with db.session() as s:
        ratings.recompute_ratings(s)  # the league's rating history, once
    for key in ("tavla", "gaple"):
        play_rounds.propose_round(db, DESK, ids[key])
        play_rounds.publish_round(db, DESK, ids[key])
    return db, ids


def insert_floor(folder: Path, n: int = 40) -> list[float]:
    """INSERT + COMMIT of one row, WAL, synchronous FULL (the least a saved entry costs)."""
    con = sqlite3.connect(folder / "floor.sqlite3", isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=FULL")
    con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, match_id INT, data TEXT)")
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO t (match_id, data) VALUES (?, ?)", (i, json.dumps(HAND)))
        con.execute("COMMIT")
        out.append(time.perf_counter() - t0)
    con.close()
    return out


# ------------------------------------------------------------------------------------------ rows
def row_tavla_result(db: Database, ids: dict[str, int], floor: list[float], n_league: int) -> Row:
    tables = reads.get_round(db, ids["tavla"], 1).tables

    def one(t: int) -> None:
        results.set_score(db, DESK, ids["tavla"], 1, t, (5, 2), confirm=True)

    ts = [times(lambda t=t.table: one(t), 1)[0] for t in tables[:8]]
    med = statistics.median(ts)
    return Row(
        f"one tavla result, {n_league:,} tavla matches in the database (set_score)",
        med,
        statistics.median(floor),
        "<= 0.100 s",
        med <= 0.100,
    )


def row_old_correction(db: Database, ids: dict[str, int], floor: list[float], n_league: int) -> list[Row]:
    """Issue 22: referee's corrections of round-1 tables of the league (each moves its match to today in
    the rating order, so all later matches need re-rating) with the window's background re-rating on:
    the save (the re-rating is only noted; the second and later ones join the waiting work), then the
    background re-rating of everything after the earliest (``ratings.catch_up`` without its pauses for
    the window, once) against one full re-rating of every match in one transaction (once)."""
    from clubdesk.services.kernel.base import Actor, Role  # noqa: E402
    from clubdesk.services.night.play import results  # noqa: E402
    from clubdesk.services.night.ranking import (
        ratings,  # noqa: E402
    )

    ref = Actor("Ref", Role.REFEREE)
    ratings_background.rerate_in_background(db)
    saves: list[float] = []
    deferred = True
    try:
        for t in range(1, REPEAT + 1):
            saves += times(
                lambda t=t: results.set_score(
                    db, ref, ids["league"], 1, t, (5, 3), confirm=True, override="benchmark correction"
                ),
                1,
            )
            deferred = deferred and ratings_background.pending(db)
        t0 = time.perf_counter()
        n = ratings.catch_up(db, pause=0)
        catch = time.perf_counter() - t0
    finally:
        ratings_background.rerate_in_background(db, False)

    def full() -> None:
        with db.session() as s:
            ratings.recompute_ratings(s)

    full_once = times(full, 1)[0]
    return [
        Row(
            f"correction of an old tavla match, {n_league:,} tavla matches: saved, re-rating noted",
            statistics.median(saves),
            statistics.median(floor),
            "<= 0.100 s; re-rated in the background",
            deferred and statistics.median(saves) <= 0.100,
        ),
        Row(
            f"background re-rating of the {n:,} matches after it (catch_up) vs one full re-rating, 1 run",
            catch,
            full_once,
            "in the background with progress, the window usable",
            not ratings_background.pending(db),
        ),
    ]


def row_hand(db: Database, ids: dict[str, int], floor: list[float]) -> Row:
    ev = ids["gaple"]
    tables = reads.get_round(db, ev, 1).tables
    ts = []
    results.add_entry(db, DESK, ev, 1, tables[0].table, HAND)  # warm-up (first imports), not timed
    for _rep in range(2):
        for t in tables:
            t0 = time.perf_counter()
            results.add_entry(db, DESK, ev, 1, t.table, HAND)
            results.table_entries(db, ev, 1, t.table)
            standings.event_standings(db, ev)
            ts.append(time.perf_counter() - t0)
    pf = p95(floor)
    pp = p95(ts)
    return Row(
        "hand entry round trip p95 (save + sheet + standings), 64 pairs, 20,000 other matches",
        pp,
        pf,
        "p95 <= 0.050 s and <= 15x floor",
        pp <= 0.050 and pp <= 15 * pf,
    )


def row_standings(db: Database, ids: dict[str, int], n_league: int) -> Row:
    lg = ids["league"]

    def built() -> None:
        # built, as after a result (the standings kept since the last build not shown)
        standings._SHOWN.clear()
        standings.event_standings(db, lg)

    proj = statistics.median(times(built))

    def bare() -> None:
        with db.engine.connect() as c:
            c.execute(
                text(
                    "SELECT round_no, side_a, side_b, kind, score_a, score_b, points_a, points_b, winner, ref"
                    " FROM matches WHERE event_id = :e"
                ),
                {"e": lg},
            ).all()

    fl = statistics.median(times(bare))
    return Row(
        f"standings, {n_league:,}-match league, PTS+IAV+GAV+BH", proj, fl, "<= 3x floor", proj <= 3 * fl
    )


def row_propose(db: Database, ids: dict[str, int], key: str = "swiss", size: int = 512) -> Row:
    sw = ids[key]
    proj_ts = []
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        play_rounds.propose_round(db, DESK, sw)
        proj_ts.append(time.perf_counter() - t0)
        play_rounds.discard_round(db, DESK, sw)
    from clubdesk.pairing import Entrant as PE
    from clubdesk.pairing import pair_swiss

    with db.session() as s:
        ev = reads.get_event(s, sw)
        fld = proposal.the_field(s, ev, 1)
        field = [PE(e, rating=int(fld.ratings.get(e, 0)), club=fld.clubs.get(e)) for e in fld.ids]
    fl = statistics.median(times(lambda: pair_swiss(field, club_protection=True)))
    proj = statistics.median(proj_ts)
    return Row(
        f"propose_round, {size:,} entrants",
        proj,
        fl,
        "<= 1.5x the engine alone",
        fl is not None and proj <= 1.5 * fl,
    )


def row_audit(folder: Path, n: int) -> Row:

    db = Database(folder / "audit.sqlite3", backups_dir=folder / "backups")
    start = datetime(2025, 1, 1)
    before = json.dumps({"score": [1, 2], "status": "in_play"})
    with db.session() as s:
        batch = []
        for i in range(n):
            batch.append(
                {
                    "at": start + timedelta(seconds=i),
                    "actor_name": "Desk",
                    "actor_role": "secretary",
                    "action": "add-entry",
                    "entity": "match",
                    "entity_id": str(i % 5000),
                    "event_id": i % 40 + 1,
                    "round_no": 1,
                    "table_no": i % 32 + 1,
                    "before": before,
                    "after": before,
                }
            )
            if len(batch) == 50_000:
                s.execute(insert(AuditEntry), batch)
                batch = []
        if batch:
            s.execute(insert(AuditEntry), batch)
    proj = statistics.median(times(lambda: audit_log.audit_rows(db, limit=200)))
    return Row(f"audit view first page (200 rows), {n:,} audit rows", proj, None, "<= 0.100 s", proj <= 0.100)


def row_members(folder: Path, n: int) -> Row:

    db = Database(folder / "members.sqlite3", backups_dir=folder / "backups")
    with db.session() as s:
        _members(s, n, "M", random.Random(7))
    words = ["a", "ah", "ahm", "ahme", "ahmet"]
    # what the Members screen reads per keystroke: the first page (200 rows and whether more follow)
    ts = [times(lambda w=w: search.member_page(db, w), 1)[0] for w in words]
    proj = statistics.median(ts)
    return Row(f"member search per keystroke, {n:,} members", proj, None, "<= 0.020 s", proj <= 0.020)


def row_first_paint(folder: Path) -> Row:
    import os
    import subprocess

    env = {**os.environ, "CLUBDESK_HOME": str(folder / "home"), "QT_QPA_PLATFORM": "offscreen"}
    child = [sys.executable, str(Path(__file__).with_name("first_paint.py"))]
    subprocess.run([*child, "project"], env=env, check=False, timeout=300)  # makes the demo club

    def run(mode: str) -> None:
        subprocess.run([*child, mode], env=env, check=False, timeout=120)

    proj = statistics.median(times(lambda: run("project")))
    fl = statistics.median(times(lambda: run("bare")))
    return Row("start to first paint (demo)", proj, fl, "<= 2.5x the bare window", proj <= 2.5 * fl)


def rows_server() -> list[Row]:
    """Issue 25's targets on the club server, when one is given (``CLUBDESK_BENCH_PG_URL`` or the tests'
    ``CLUBDESK_TEST_PG_URL``; ``bash scripts/dev.sh pg`` starts a private cluster and prints its URL): the
    hand entry round trip over localhost, floor the same on the SQLite file; and another desk hearing it."""
    import os

    url = os.environ.get("CLUBDESK_BENCH_PG_URL") or os.environ.get("CLUBDESK_TEST_PG_URL")
    if not url:
        print("club server rows skipped: set CLUBDESK_BENCH_PG_URL", file=sys.stderr, flush=True)
        return []
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.integration's event builder
    from benchmarks.server import _round_trip, measure_server

    with tempfile.TemporaryDirectory(prefix="clubdesk-bench-file-") as tmp:
        file_db = Database(Path(tmp) / "bench.sqlite3")
        on_file = _round_trip(file_db)
        file_db.close()
    trips, heard = measure_server(url)
    pg95, file95 = p95(trips) / 1000, p95(on_file) / 1000
    return [
        Row(
            "hand entry round trip on the club server (PostgreSQL, localhost), p95; floor: same on a file",
            pg95,
            file95,
            "<= 0.050 s",
            pg95 <= 0.050,
        ),
        Row(
            "another desk hears a change on the club server (LISTEN/NOTIFY), max",
            max(heard) / 1000 if heard else float("inf"),
            None,
            "<= 1 s",
            bool(heard) and max(heard) <= 1000,
        ),
    ]


def rows_phones(quick: bool) -> list[Row]:
    """Issue 27 (benchmarks/phones.py in its own process, the server in another): 64 tables with two phones
    each entering a game every 2 s and 100 hall readers, on the loopback; absolute figures, no floor."""
    import subprocess

    child = [
        sys.executable,
        str(Path(__file__).with_name("phones.py")),
        "--json",
        *(["--quick"] if quick else []),
    ]
    done = subprocess.run(child, capture_output=True, text=True, timeout=600, check=True)
    f = json.loads(done.stdout)
    entry, page = (f["hand_entry_p95_ms"] or 0) / 1000, (f["hall_page_p95_ms"] or 0) / 1000
    wrong = float(f["errors"] + f["hands_lost"] + f["hands_doubled"])
    refresh = max(f["phone_to_desk_s"], f["desk_to_phone_s"])
    return [
        Row(
            "phones: p95 hand entry (64 tables x 2 phones, a game every 2 s)",
            entry,
            None,
            "<= 0.100 s",
            entry <= 0.1,
        ),
        Row("phones: p95 hall page (100 readers)", page, None, "<= 0.050 s", page <= 0.05),
        Row("phones: errors + hands lost + hands doubled (count)", wrong, None, "0", wrong == 0),
        Row("phones: desk <-> phone refresh (slower way)", refresh, None, "<= 1 s", refresh <= 1.0),
    ]


def row_first_data(folder: Path) -> Row:
    """The first section's screen shown (issue 22: ≤ 5× the bare window); after row_first_paint (its demo)."""
    import os
    import subprocess

    env = {**os.environ, "CLUBDESK_HOME": str(folder / "home"), "QT_QPA_PLATFORM": "offscreen"}
    child = [sys.executable, str(Path(__file__).with_name("first_paint.py"))]

    def run(mode: str) -> None:
        subprocess.run([*child, mode], env=env, check=False, timeout=120)

    proj = statistics.median(times(lambda: run("with-data")))
    fl = statistics.median(times(lambda: run("bare")))
    return Row("start to the first section's data (demo)", proj, fl, "<= 5x the bare window", proj <= 5 * fl)


# ------------------------------------------------------------------------------------------ big database
_PAIR_CHILD = """
import sys
sys.path.insert(0, sys.argv[2])
from clubdesk.pairing import Entrant, pair_swiss
n = int(sys.argv[1])
field = [Entrant(f"e{i}", rating=2400 - i, club=f"club{i % 40}") for i in range(n)]
if sys.argv[3] == "pair":
    pair_swiss(field, club_protection=True)
# the peak of this process's own memory: ru_maxrss would carry the parent's over the exec (Linux)
print(next(int(x.split()[1]) for x in open("/proc/self/status") if x.startswith("VmHWM:")) / 1024)
"""


def _child_mb(code: str, *args: str) -> float:
    import subprocess

    src = str(Path(__file__).resolve().parents[1] / "src")
    done = subprocess.run(
        [sys.executable, "-c", code, args[0], src, *args[1:]], capture_output=True, text=True, timeout=600
    )
    if done.returncode != 0 or not done.stdout.strip():
        raise RuntimeError(f"memory child failed: {done.stderr.strip()[-400:]}")
    return float(done.stdout.strip().splitlines()[-1])


def row_sheets() -> Row:
    """64 filled gaple score sheets against a bare ReportLab canvas drawing the same hand cells
    (benchmarks/reports.py); CPU seconds, the machine being shared (issue 22: <= 2x the floor)."""
    import io

    from reports import H, canvas_floor, sixty_four_sheets

    from clubdesk.reports.score_sheets import score_sheets

    sheets = sixty_four_sheets()
    score_sheets(io.BytesIO(), H, sheets[:2])  # fonts and imports, not timed

    def cpu(fn: Callable[[], object]) -> float:
        out = []
        for _ in range(REPEAT):
            t0 = time.process_time()
            fn()
            out.append(time.process_time() - t0)
        return statistics.median(out)

    proj = cpu(lambda: score_sheets(io.BytesIO(), H, sheets))
    fl = cpu(lambda: canvas_floor(io.BytesIO(), sheets))
    return Row(
        "64 filled score sheets (CPU s; floor: a bare canvas, the same cells)",
        proj,
        fl,
        "<= 2x floor",
        proj <= 2 * fl,
    )


def row_pairing_memory(n: int = 1024) -> Row:
    """Peak memory of a child process pairing round 1 of an n-entrant Swiss with club protection (the
    engine, issue 22: <= 100 MB); floor: the same child building the field without pairing it."""
    proj = statistics.median(_child_mb(_PAIR_CHILD, str(n), "pair") for _ in range(3))
    fl = statistics.median(_child_mb(_PAIR_CHILD, str(n), "field") for _ in range(3))
    return Row(
        f"pairing {n:,} entrants (pair_swiss, round 1), peak RSS MB", proj, fl, "<= 100 MB", proj <= 100
    )


def rows_big(folder: Path, entries: int = 1_000_000) -> list[Row]:
    """Issue 22's rows on a database of ``entries`` hand entries (benchmarks/bigdb.py builds it)."""
    import os
    import subprocess

    import bigdb

    t0 = time.perf_counter()
    path = folder / "big.sqlite3"
    info = bigdb.build(path, entries)
    sz = bigdb.sizes(path)
    n = info["entries"]
    print(
        f"  built {n:,} entries in {time.perf_counter() - t0:.0f} s ({sz['file_bytes'] / 2**20:.0f} MB)",
        file=sys.stderr,
        flush=True,
    )
    mb = 2**20
    rows = [
        Row(
            f"{n:,} hand entries: audit log MB (floor: the entries, MB)",
            sz["audit_bytes"] / mb,
            sz["entries_bytes"] / mb,
            "<= 1x the entries",
            sz["audit_bytes"] <= sz["entries_bytes"],
        )
    ]
    event = info["events"][len(info["events"]) // 2]

    def open_and_standings() -> None:
        standings._SHOWN.clear()  # as a desk started afresh: no standings kept from an earlier opening
        db = Database(path, backups_dir=folder / "backups")
        standings.event_standings(db, event)
        db.close()

    open_and_standings()  # the first open may check the file (issue 23); then as a desk opens it daily
    proj = statistics.median(times(open_and_standings))
    rows.append(
        Row(f"{n:,} hand entries: open + one event's standings", proj, None, "<= 0.500 s", proj <= 0.5)
    )
    env = {
        **os.environ,
        "CLUBDESK_HOME": str(folder / "home-big"),
        "CLUBDESK_KEYS": str(keys_dir()),  # the audit key of the database this process built
        "QT_QPA_PLATFORM": "offscreen",
    }
    child = [sys.executable, str(Path(__file__).with_name("first_paint.py"))]

    def run(*args: str) -> str:
        out = subprocess.run([*child, *args], env=env, capture_output=True, text=True, timeout=300).stdout
        if len(args) > 1:  # the child left at its first paint: close the file as the desk does at night
            from clubdesk.storage.sqlite import sidecar

            sidecar(path).unlink(missing_ok=True)
            Database(path, backups_dir=folder / "backups").close()
        return out

    run("project", str(path))  # its first open (the file's check and first backup), not timed
    proj = statistics.median(times(lambda: run("project", str(path))))
    fl = statistics.median(times(lambda: run("bare")))
    rows.append(
        Row(f"{n:,} hand entries: start to first paint", proj, fl, "<= 3x the bare window", proj <= 3 * fl)
    )
    env["CLUBDESK_BENCH_RSS"] = "1"
    rss = statistics.median(float(run("with-data", str(path)).split()[-1]) for _ in range(3))
    bare = statistics.median(float(run("bare").split()[-1]) for _ in range(3))
    rows.append(
        Row(
            f"{n:,} hand entries: GUI peak RSS MB at the first section's data",
            rss,
            bare,
            "<= 250 MB",
            rss <= 250,
        )
    )
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    n_league = 20_000
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="clubdesk-bench-") as tmp:
        folder = Path(tmp)
        log = sys.stderr
        print("building the club database ...", file=log, flush=True)
        db, ids = build_club(folder, n_league)
        floor = insert_floor(folder)
        for fn in (
            lambda: row_tavla_result(db, ids, floor, n_league),
            lambda: row_old_correction(db, ids, floor, n_league),  # issue 22: background re-rating
            lambda: row_hand(db, ids, floor),
            lambda: row_standings(db, ids, n_league),
            lambda: row_propose(db, ids),
            lambda: row_propose(db, ids, "swiss1024", 1024),
            lambda: row_audit(folder, 200_000 if args.quick else 1_200_000),
            lambda: row_members(folder, 100_000),
            lambda: row_first_paint(folder),
            lambda: rows_phones(args.quick),  # issue 27: several rows
            lambda: row_first_data(folder),
            row_sheets,  # issue 22: 64 score sheets
            row_pairing_memory,  # issue 22: memory (cheap: also with --quick)
            *([] if args.quick else [lambda: rows_big(folder)]),  # issue 22: the 1 M-entry database
        ):
            try:
                got = fn()
            except Exception as exc:  # noqa: BLE001 - a broken row is reported, the others still run
                print(f"row failed: {exc!r}", file=log, flush=True)
                continue
            for row in got if isinstance(got, list) else [got]:
                rows.append(row)
                print(f"  {row.path}: {row.project:.4f}", file=log, flush=True)
        db.engine.dispose()
    try:
        rows += rows_server()
    except Exception as exc:  # noqa: BLE001 - an unreachable server is reported, the other rows stand
        print(f"club server rows failed: {exc!r}", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps([r.as_json() for r in rows], indent=2))
    else:
        print(f"{'path':<90} {'project':>9} {'floor':>9} {'ratio':>7}  target / holds")
        for r in rows:
            fl = "—" if r.floor is None else f"{r.floor:.4f}"
            ra = "—" if r.ratio is None else f"{r.ratio:.1f}x"
            print(
                f"{r.path:<90} {r.project:>9.4f} {fl:>9} {ra:>7}  {r.target} / {'yes' if r.holds else 'NO'}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
