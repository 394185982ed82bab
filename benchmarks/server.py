"""Benchmark a hand entry's round trip on the club server (issue 25) against the SQLite file.

Run: ``CLUBDESK_BENCH_PG_URL=postgresql+psycopg://user@/postgres?host=/tmp/... .venv/bin/python
benchmarks/server.py`` (``bash scripts/dev.sh pg`` starts a private cluster and prints such a URL; a
database ``clubdesk_bench`` is made there and dropped). Prints p50/p95 per backend of one
``results.add_entry`` (one transaction: lock, read, recompute, insert, audit row, NOTIFY, commit) and the
time for another desk to hear it (LISTEN). Target: p95 <= 50 ms over localhost; refresh <= 1 s.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import create_engine
from sqlalchemy.engine import make_url
from tests.integration.test_night_helpers import DESK, make_event

from clubdesk.services.night.play import results, rounds
from clubdesk.storage import Database, listen_changes

GAME = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}
HANDS = 60


def _round_trip(db: Database) -> list[float]:
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=8, rounds=3, match_lengths=[99])
    rounds.propose_round(db, DESK, ev)
    rv = rounds.publish_round(db, DESK, ev).round
    times = []
    for k in range(HANDS):
        table = rv.tables[k % len(rv.tables)].table
        start = time.perf_counter()
        results.add_entry(db, DESK, ev, 1, table, {**GAME, "winner": k % 2})
        times.append((time.perf_counter() - start) * 1000)
    return times


def _report(name: str, times: list[float]) -> None:
    q = statistics.quantiles(times, n=20)
    print(
        f"{name:<12} hand entry: p50 {statistics.median(times):6.1f} ms"
        f"  p95 {q[18]:6.1f} ms  (n={len(times)})"
    )


def measure_server(url: str) -> tuple[list[float], list[float]]:
    """On a fresh database ``clubdesk_bench`` of the server at ``url`` (dropped after): the hand entry round
    trips (ms) and how long another desk took to hear each of 20 changes (ms). ``benchmarks/run`` prints
    both as rows."""
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.exec_driver_sql("DROP DATABASE IF EXISTS clubdesk_bench WITH (FORCE)")
        c.exec_driver_sql("CREATE DATABASE clubdesk_bench")
    target = make_url(url).set(database="clubdesk_bench").render_as_string(hide_password=False)
    try:
        db = Database(target)
        trips = _round_trip(db)
        other = Database(target)
        conn = listen_changes(other)
        heard: list[float] = []
        ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[99])
        rounds.propose_round(db, DESK, ev)
        rv = rounds.publish_round(db, DESK, ev).round
        for _ in conn.notifies(timeout=0.2):
            pass
        for k in range(20):
            start = time.perf_counter()
            results.add_entry(db, DESK, ev, 1, rv.tables[0].table, {**GAME, "winner": k % 2})
            for note in conn.notifies(timeout=1.0):
                if note.payload == str(ev):
                    heard.append((time.perf_counter() - start) * 1000)
                    break
        conn.close()
        other.close()
        db.close()
        return trips, heard
    finally:
        with admin.connect() as c:
            c.exec_driver_sql("DROP DATABASE IF EXISTS clubdesk_bench WITH (FORCE)")
        admin.dispose()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(Path(tmp) / "bench.sqlite3")
        _report("sqlite", _round_trip(db))
        db.close()
    url = os.environ.get("CLUBDESK_BENCH_PG_URL") or os.environ.get("CLUBDESK_TEST_PG_URL")
    if not url:
        print("postgresql   skipped: set CLUBDESK_BENCH_PG_URL")
        return
    trips, heard = measure_server(url)
    _report("postgresql", trips)
    print(f"{'postgresql':<12} another desk hears it: max {max(heard):6.1f} ms (n={len(heard)})")


if __name__ == "__main__":
    main()
