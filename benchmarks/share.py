"""Benchmark of issue 28's sharing: prints times against the targets.

- the images (every kind the event has) and the site of a 300-entrant, 9-round tavla Swiss: ≤ 3 s together;
- the site of a season of 40 club nights (12 players each, 3 rounds): ≤ 10 s.

The databases are built through the services first (not timed, and slow: recording 150 results a round in
a 300-entrant event takes minutes per round on a busy machine; the season about 15 minutes) and kept in
``/tmp/clubdesk-bench-share`` for the next runs. Run: .venv/bin/python benchmarks/share.py [ROUNDS]
(ROUNDS of the big Swiss, default 9; a smaller number builds faster and is reported as such).
"""

from __future__ import annotations

import datetime as dt
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from clubdesk.services.desk import (
    checkin,  # noqa: E402
    registration,  # noqa: E402
)
from clubdesk.services.events import events  # noqa: E402
from clubdesk.services.kernel.base import Actor, Role  # noqa: E402  # noqa: E402
from clubdesk.services.members import (
    edit,  # noqa: E402
    records,  # noqa: E402
)
from clubdesk.services.night.data import settings  # noqa: E402
from clubdesk.services.night.play import results  # noqa: E402
from clubdesk.services.night.play import rounds as play_rounds  # noqa: E402
from clubdesk.services.publishing import share  # noqa: E402
from clubdesk.storage import Database  # noqa: E402  # noqa: E402

DESK = Actor("Bench", Role.SECRETARY)
CACHE = Path(tempfile.gettempdir()) / "clubdesk-bench-share"
FIRST = ("Ayşe", "İsmail", "Iğdır", "Peña", "Gülşen", "Budi", "Çağla", "Núñez", "Şule", "Oğuz")
LAST = ("Yılmaz", "Güneş", "Şahin", "Gómez", "Işık", "Santoso", "Aydın", "Öztürk", "Kılıç", "Doğan")


def members(db: Database, n: int) -> list[str]:
    edit.save_club(db, DESK, "Kadıköy Tavla Kulübü", "İstanbul")
    out = []
    for i in range(n):
        name = f"{FIRST[i % 10]} {LAST[(i // 10) % 10]} {i + 1}"
        info = edit.create_member(
            db,
            DESK,
            records.MemberData(name=name, club="Kadıköy Tavla Kulübü", city="İstanbul", rating=2200 - i),
        )
        out.append(info.number)
    return out


def play(db: Database, ev: int, numbers: list[str], rounds: int, rng: random.Random) -> None:
    for n in numbers:
        reg = registration.register(db, DESK, ev, n)
        checkin.checkin(db, DESK, ev, reg.code)
    for _r in range(rounds):
        rv = play_rounds.propose_round(db, DESK, ev, seed=rng.randrange(1000))
        play_rounds.publish_round(db, DESK, ev)
        for t in rv.tables:
            if t.sides[1] is None:
                continue
            score = (5, rng.randrange(5)) if rng.random() < 0.5 else (rng.randrange(5), 5)
            results.set_score(db, DESK, ev, rv.round, t.table, score, confirm=True)


def big_event(rounds: int) -> tuple[Database, int]:
    path = CACHE / f"big-{rounds}.sqlite3"
    if not path.is_file():
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = CACHE / f"big-{rounds}.tmp.sqlite3"
        tmp.unlink(missing_ok=True)
        db = Database(tmp, backups_dir=None)
        numbers = members(db, 300)
        ev = events.create_event(
            db,
            DESK,
            events.EventData(
                name="Büyük Bahar Kupası",
                ruleset="tavla",
                format="swiss",
                rounds=rounds,
                match_lengths=(5,),
                starts_on=dt.date(2025, 5, 4),
                season="2025",
            ),
        ).id
        t0 = time.perf_counter()
        play(db, ev, numbers, rounds, random.Random(1))
        print(f"(built the 300-entrant, {rounds}-round Swiss in {time.perf_counter() - t0:.0f} s)")
        db.close()
        tmp.rename(path)
    db = Database(path, backups_dir=None)
    return db, 1


def season() -> Database:
    path = CACHE / "season.sqlite3"
    if not path.is_file():
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = CACHE / "season.tmp.sqlite3"
        tmp.unlink(missing_ok=True)
        db = Database(tmp, backups_dir=None)
        numbers = members(db, 60)
        rng = random.Random(2)
        t0 = time.perf_counter()
        for night in range(40):
            ev = events.create_event(
                db,
                DESK,
                events.EventData(
                    name=f"Kulüp gecesi {night + 1}",
                    ruleset="tavla",
                    format="swiss",
                    rounds=3,
                    match_lengths=(5,),
                    starts_on=dt.date(2025, 1, 7) + dt.timedelta(days=7 * night),
                    season="2025",
                    coefficient_class="local",
                ),
            ).id
            settings.configure(
                db,
                DESK,
                ev,
                season_scale={"base_points": [10, 8, 6, 5, 4, 3, 2, 1], "coefficients": {"local": 100}},
            )
            play(db, ev, rng.sample(numbers, 12), 3, rng)
        print(f"(built the season of 40 nights in {time.perf_counter() - t0:.0f} s)")
        db.close()
        tmp.rename(path)
    return Database(path, backups_dir=None)


def timed(label: str, fn: object, target: float | None = None) -> tuple[float, float]:
    """Wall time and CPU time (this process, every thread) of ``fn``: on a machine busy with other work
    the wall time grows, the CPU time much less; the target is the wall time on an idle machine."""
    t0, c0 = time.perf_counter(), time.process_time()
    files = fn()  # type: ignore[operator]
    took, cpu = time.perf_counter() - t0, time.process_time() - c0
    goal = f"  target ≤ {target:g} s: {'met' if took <= target else 'MISSED'}" if target else ""
    print(f"{label:<52} {took:6.2f} s  (CPU {cpu:5.2f} s, {len(files)} files){goal}")
    return took, cpu


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    out = Path(tempfile.mkdtemp(prefix="clubdesk-share-bench-"))
    from clubdesk.collation import sort_key

    t0 = time.perf_counter()
    sort_key("a")  # the collation table, loaded once per process (the window has it already)
    print(f"(collation table loaded in {time.perf_counter() - t0:.2f} s, not counted)")
    try:
        db, ev = big_event(rounds)
        total, cpu = 0.0, 0.0
        steps = [
            (f"images: {kind} of 300 entrants", lambda k=kind: share.share_images(db, k, ev, out / "img"))
            for kind in ("pairings", "standings", "crosstable")
        ]
        steps.append(
            (f"site of the 300-entrant, {rounds}-round Swiss", lambda: share.share_site(db, out / "site"))
        )
        for label, fn in steps:
            took, used = timed(label, fn)
            total, cpu = total + took, cpu + used
        label = f"images and site of the 300-entrant, {rounds}-round event"
        verdict = "met" if total <= 3 else "MISSED"
        print(f"{label:<52} {total:6.2f} s  (CPU {cpu:5.2f} s)  target (9 rounds) ≤ 3 s: {verdict}")
        print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores while measuring)")
        db.close()
        sdb = season()
        timed("site of a season of 40 nights", lambda: share.share_site(sdb, out / "season"), target=10)
        sdb.close()
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
