"""Benchmark the federation hub (issue 39, item 7): a simulated season of C clubs x N nights, each night a
16-player tavla round robin (120 tables, results as final scores), signed by its club and imported into the
hub on PostgreSQL; then the season ranking of every player across the clubs (T12d, with FIBS ratings over
every match, T12c) and the circuit's static site.

Run: ``CLUBDESK_BENCH_PG_URL=postgresql+psycopg://user@/postgres?host=/tmp/... .venv/bin/python
benchmarks/federation.py [--clubs 200 --nights 40]`` (``bash scripts/dev.sh pg`` starts a private cluster and
prints such a URL; ``CLUBDESK_TEST_PG_URL`` is used too). A database ``clubdesk_fed_bench`` is made there and
dropped. The default is a small season (20 clubs x 5 nights); the issue's season is 200 x 40 (8,000 events,
960,000 matches, 10,000 players). Targets: at least 50 events/s imported; the season ranking in at most 5 s.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from clubdesk.federation import eventfile, replay
from clubdesk.pairing.roundrobin import round_robin_rounds
from clubdesk.services import federation
from clubdesk.standings.season import place_points
from clubdesk.storage.hub import init_hub, open_hub

PLAYERS = 16
MEMBERS = 50  # each club's register; 10% of a night's field travel from the next club
SCALE = {
    "base_points": [100, 70, 50, 40, 30, 25, 20, 15, 10, 5],
    "coefficients": {"local": 100, "regional": 150},
    "best_of": 10,
    "super_final": 80,
}


def night_payload(club: int, uid: str, night: int, rng: random.Random) -> dict[str, Any]:
    """One club night: a 16-player round robin, scores only, placings as the desk computes them."""
    own = [f"C{club:03d}-{k:02d}" for k in range(MEMBERS)]
    guests = [f"C{(club + 1) % 10**3:03d}-{k:02d}" for k in range(MEMBERS)]
    field = rng.sample(own, PLAYERS - 2) + rng.sample(guests, 2)
    ids = [str(k + 1) for k in range(PLAYERS)]
    schedule = [[[a, b] for a, b in rnd] for rnd in round_robin_rounds(ids)]
    tables = []
    for rn, rnd in enumerate(schedule, start=1):
        for tn, (a, b) in enumerate(rnd, start=1):
            if b is None:
                continue
            a_wins = rng.random() < 0.5
            loser = rng.randint(0, 2)
            tables.append(
                {
                    "round": rn,
                    "table": tn,
                    "a": int(a),
                    "b": int(b),
                    "ref": "",
                    "kind": "played",
                    "status": "confirmed",
                    "match_length": 3,
                    "score": [3, loser] if a_wins else [loser, 3],
                    "points": None,
                    "winner": int(a) if a_wins else int(b),
                    "confirmed_at": None,
                    "entries": [],
                }
            )
    tier = "regional" if night % 5 == 0 else "local"
    payload: dict[str, Any] = {
        "club": {"uid": uid, "name": f"Club {club}"},
        "event": {
            "uid": f"{uid}:{night}",
            "id": night,
            "name": f"Night {night}",
            "ruleset": "tavla",
            "ruleset_overrides": {},
            "format": "round-robin",
            "entry_type": "single",
            "rounds": None,
            "match_lengths": [3],
            "target": None,
            "starts_on": (dt.date(2026, 1, 1) + dt.timedelta(days=night)).isoformat(),
            "ends_on": None,
            "venue": "",
            "season": "2026",
            "coefficient_class": tier,
            "status": "finished",
        },
        "night": {
            "result_mode": "score",
            "tiebreaks": "",
            "lives": 2,
            "encounter_games": 0,
            "state": {"schedule": schedule},
            "season_scale": SCALE,
            "finished_at": None,
        },
        "people": [
            {"number": n, "name": f"Player {n}", "licence": f"L-{n}", "city": "", "club": ""} for n in field
        ],
        "entrants": [
            {
                "id": k + 1,
                "name": f"Player {n}",
                "status": "registered",
                "checked_in": True,
                "joins_from_round": None,
                "members": [{"member": n, "role": "player", "left": False}],
            }
            for k, n in enumerate(field)
        ],
        "rounds": [
            {"number": r + 1, "kind": "regular", "status": "closed", "match_length": 3, "seed": 0}
            for r in range(len(schedule))
        ],
        "tables": tables,
        "placings": [],
        "penalties": [],
        "decisions": [],
        "audit": {"head": None, "rows": 0},
        "supersedes": None,
    }
    scale = replay.season_scale(SCALE)
    assert scale is not None
    payload["placings"] = [
        {"entrant": int(e), "from": a, "to": b, "season_points": place_points(scale, tier, a, b)}
        for e, (a, b) in sorted(replay.place_ranges(payload).items(), key=lambda kv: (kv[1], int(kv[0])))
    ]
    return payload


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clubs", type=int, default=20)
    ap.add_argument("--nights", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    base = os.environ.get("CLUBDESK_BENCH_PG_URL") or os.environ.get("CLUBDESK_TEST_PG_URL")
    if not base:
        sys.exit("set CLUBDESK_BENCH_PG_URL (bash scripts/dev.sh pg prints one)")
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.exec_driver_sql("DROP DATABASE IF EXISTS clubdesk_fed_bench WITH (FORCE)")
        c.exec_driver_sql("CREATE DATABASE clubdesk_fed_bench")
    url = make_url(base).set(database="clubdesk_fed_bench").render_as_string(hide_password=False)
    out: dict[str, Any] = {"clubs": args.clubs, "nights": args.nights}

    def note(key: str, value: Any) -> None:  # each figure as soon as it is measured (a full run is long)
        out[key] = value
        if not args.json:
            print(f"{key:>24}: {value}", flush=True)

    try:
        init_hub(url)
        hub = open_hub(url)
        rng = random.Random(39)
        keys = [eventfile.new_private_key() for _ in range(args.clubs)]
        for c, key in enumerate(keys):
            federation.add_club(hub, f"Club {c}", eventfile.public_key_hex(key))
        start = time.perf_counter()
        files = [
            eventfile.seal(night_payload(c, f"{c:032x}", n + 1, rng), keys[c])
            for n in range(args.nights)
            for c in range(args.clubs)
        ]
        note("files_made_s", round(time.perf_counter() - start, 2))
        note("matches", sum(len(json.loads(f)["payload"]["tables"]) for f in files[:1]) * len(files))
        start = time.perf_counter()
        for data in files:
            federation.import_file(hub, data)
        took = time.perf_counter() - start
        note("events", len(files))
        note("import_s", round(took, 2))
        note("events_per_s", round(len(files) / took, 1))
        again = time.perf_counter()
        for data in files[: min(200, len(files))]:
            assert federation.import_file(hub, data).status == "same"
        note("same_file_again_per_s", round(min(200, len(files)) / (time.perf_counter() - again), 1))
        times = []
        for _k in range(3):
            start = time.perf_counter()
            cs = federation.circuit_season(hub, "2026", ratings=False)
            times.append(time.perf_counter() - start)
        note("players", len(cs.rows))
        note("season_ranking_s", round(min(times), 2))
        start = time.perf_counter()
        federation.circuit_season(hub, "2026")  # and every player's FIBS rating over every match (T12c)
        note("season_with_ratings_s", round(time.perf_counter() - start, 2))
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            federation.circuit_site(hub, "2026", Path(tmp) / "site")
            note("site_s", round(time.perf_counter() - start, 2))
        hub.close()
    finally:
        with admin.connect() as c:
            c.exec_driver_sql("DROP DATABASE IF EXISTS clubdesk_fed_bench WITH (FORCE)")
        admin.dispose()
    out["targets"] = {"events_per_s": ">= 50", "season_ranking_s": "<= 5"}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{'targets':>24}: {out['targets']}")


if __name__ == "__main__":
    main()
