"""Issue 22's big database: about 1,000,000 hand entries, built fast and seeded (benchmarks/run's rows).

One gaple night of 16 tables is played through the services (every hand with ``results.add_entry``, both
sides confirming): that gives the rows the services write for a match (its match row, its entries, its
audit rows of the new shape, issue 22). Those rows are then copied with ``executemany`` into many more
events of the same shape (32 pairs, 7 rounds), with new ids, sides, times and the audit hash chain of
issue 23 carried on row by row (each add-entry row naming its copied hand, as ``results.add_entry``
writes it: ``audit_chain.hand_ref``, ``base.audit_json``, the hash as bytes), until the entries reach
the asked number.

    .venv/bin/python benchmarks/bigdb.py OUT.sqlite3 [--entries N]
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sqlalchemy import insert, text  # noqa: E402

from clubdesk.models.audit import stored_at  # noqa: E402
from clubdesk.models.event import Entrant, EntrantMember  # noqa: E402
from clubdesk.models.round import EventNight, Round  # noqa: E402
from clubdesk.services.kernel import audit_chain  # noqa: E402
from clubdesk.services.kernel.base import Actor, Role, audit_json  # noqa: E402
from clubdesk.services.night.data import reads  # noqa: E402
from clubdesk.services.night.play import results  # noqa: E402
from clubdesk.services.night.play import rounds as play_rounds  # noqa: E402
from clubdesk.storage import Database  # noqa: E402

PAIRS = 32
ROUNDS = 7
TABLES = PAIRS // 2
SCORER = Actor("AB", Role.SCORER)
AUDIT_COLS = ("id", *audit_chain.COLUMNS, "prev_hash", "row_hash")


def _template(db: Database) -> tuple[int, list[dict[str, Any]]]:
    """Play one round of a 32-pair gaple night through the services; per table: its match row, entries
    and audit rows as the services wrote them."""
    from reports import gaple_match  # benchmarks/reports.py: a seeded, valid gaple match
    from run_all import _entrants, _event, _members

    rng = random.Random(2222)
    with db.session() as s:
        members = _members(s, 2 * PAIRS, "P", rng)
        ev = _event(s, "Gaple night 0", "gaple-tournament", "swiss", ROUNDS)
        _entrants(s, ev, [members[2 * k : 2 * k + 2] for k in range(PAIRS)])
    play_rounds.propose_round(db, SCORER, ev)
    play_rounds.publish_round(db, Actor("Desk", Role.SECRETARY), ev)
    for t in reads.get_round(db, ev, 1).tables:
        for hand in gaple_match(rng):
            results.add_entry(db, SCORER, ev, 1, t.table, hand)
        results.confirm(db, SCORER, ev, 1, t.table, 0, "AB")
        results.confirm(db, SCORER, ev, 1, t.table, 1, "CD")
    out = []
    with db.engine.connect() as c:
        for m in c.execute(text("SELECT * FROM matches WHERE event_id = :e ORDER BY table_no"), {"e": ev}):
            match = dict(m._mapping)
            entries = [
                dict(r._mapping)
                for r in c.execute(
                    text("SELECT * FROM result_entries WHERE match_id = :m ORDER BY id"), {"m": match["id"]}
                )
            ]
            audits = [
                dict(r._mapping)
                for r in c.execute(
                    text("SELECT * FROM audit_log WHERE entity = 'match' AND entity_id = :m ORDER BY id"),
                    {"m": str(match["id"])},
                )
            ]
            out.append({"match": match, "entries": entries, "audit": audits})
    return ev, out


def build(path: Path, entries: int = 1_000_000, seed: int = 22) -> dict[str, Any]:
    """Build the database at ``path``; returns what was built (event ids, counts)."""
    rng = random.Random(seed)
    db = Database(path, backups_dir=path.parent / "backups")
    template_event, tables = _template(db)
    per_round = sum(len(t["entries"]) for t in tables)
    n_events = max(1, -(-(entries - per_round) // (per_round * ROUNDS)))
    from run_all import _members

    with db.session() as s:
        pool = _members(s, 4 * PAIRS, "Q", rng)
        night = s.execute(text("SELECT * FROM event_night WHERE event_id = :e"), {"e": template_event}).one()
        night_row = {k: v for k, v in night._mapping.items() if k not in ("id", "event_id")}
        event_ids = []
        for k in range(n_events):
            from clubdesk.models.event import Event

            ev = Event(
                name=f"Gaple night {k + 1}",
                ruleset="gaple-tournament",
                format="swiss",
                entry_type="single",
                rounds=ROUNDS,
                status="finished",
            )
            ev.currency = "EUR"
            s.add(ev)
            s.flush()
            event_ids.append(ev.id)
            s.add(EventNight(event_id=ev.id, **night_row))
        s.flush()
        ent_rows = [
            {"event_id": e, "name": f"Pair {e}-{p}", "code": f"G{e}P{p}", "rating": 1500.0}
            for e in event_ids
            for p in range(PAIRS)
        ]
        s.execute(insert(Entrant), ent_rows)
        ents: dict[int, list[int]] = {}
        for eid, ev_id in s.execute(text("SELECT id, event_id FROM entrants ORDER BY id")):
            ents.setdefault(ev_id, []).append(eid)
        s.execute(
            insert(EntrantMember),
            [
                {"entrant_id": eid, "member_id": pool[(2 * i + j) % len(pool)]}
                for e in event_ids
                for i, eid in enumerate(ents[e])
                for j in range(2)
            ],
        )
        s.execute(
            insert(Round),
            [
                {"event_id": e, "number": r, "status": "closed", "seed": r}
                for e in event_ids
                for r in range(1, ROUNDS + 1)
            ],
        )
        rounds = {(e, n): rid for rid, e, n in s.execute(text("SELECT id, event_id, number FROM rounds"))}
        state = audit_chain.chain_state(s)  # the head, and the key when the file's log is keyed
        head, key = state.head, state.key
    db.close()

    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")
    next_match = con.execute("SELECT max(id) FROM matches").fetchone()[0] + 1
    next_entry = con.execute("SELECT max(id) FROM result_entries").fetchone()[0] + 1
    next_audit = con.execute("SELECT max(id) FROM audit_log").fetchone()[0] + 1
    match_cols = list(tables[0]["match"])
    entry_cols = list(tables[0]["entries"][0])
    at = datetime(2024, 1, 5, 19)
    made = per_round
    prev = head
    con.execute("BEGIN")
    for e in event_ids:
        m_rows, e_rows, a_rows = [], [], []
        for r in range(1, ROUNDS + 1):
            order = ents[e][:]
            rng.shuffle(order)
            for t in range(TABLES):
                tpl = tables[(t + r + e) % TABLES]
                src = tpl["match"]
                side_a, side_b = order[2 * t], order[2 * t + 1]
                m = dict(src)
                mid = next_match
                next_match += 1
                m.update(
                    id=mid,
                    event_id=e,
                    round_id=rounds[(e, r)],
                    round_no=r,
                    table_no=t + 1,
                    side_a=side_a,
                    side_b=side_b,
                    winner=None
                    if src["winner"] is None
                    else (side_a if src["winner"] == src["side_a"] else side_b),
                )
                start = at
                new_entry: dict[int, dict[str, Any]] = {}  # template entry id -> its copy
                for x in tpl["entries"]:
                    at += timedelta(seconds=25)
                    new_entry[x["id"]] = {
                        **x,
                        "id": next_entry,
                        "match_id": mid,
                        "entered_at": at.strftime(audit_chain.AT_FORMAT),
                    }
                    e_rows.append(new_entry[x["id"]])
                    next_entry += 1
                at = start
                for a in tpl["audit"]:
                    at += timedelta(seconds=25)
                    row = {
                        **a,
                        "id": next_audit,
                        "at": stored_at(at),  # as the services store it (0018_audit_compact)
                        "entity_id": str(mid),
                        "event_id": e,
                        "round_no": r,
                        "table_no": t + 1,
                    }
                    after = json.loads(a["after"]) if a["after"] else None
                    if isinstance(after, dict) and "hand" in after:  # an add-entry row names its copy's hand
                        x = new_entry[after["hand"][0]]
                        after["hand"] = audit_chain.hand_ref(x["id"], mid, x["game_no"], x["data"])
                        row["after"] = audit_json(after)
                    digest = audit_chain.link_of(prev, row, key)
                    row["prev_hash"], row["row_hash"] = None, bytes.fromhex(digest)  # as the services store
                    prev = digest
                    a_rows.append(row)
                    next_audit += 1
                for k in ("confirmed_at", "changed_at"):
                    if m.get(k) is not None:
                        m[k] = at.strftime(audit_chain.AT_FORMAT)
                m_rows.append(m)
                made += len(tpl["entries"])
        _insert(con, "matches", match_cols, m_rows)
        _insert(con, "result_entries", entry_cols, e_rows)
        _insert(con, "audit_log", list(AUDIT_COLS), a_rows)
        at += timedelta(days=3)
    con.execute("COMMIT")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return {"entries": made, "events": [template_event, *event_ids], "path": str(path)}


def _insert(con: sqlite3.Connection, table: str, cols: list[str], rows: list[dict[str, Any]]) -> None:
    sql = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
    con.executemany(sql, [tuple(r[c] for c in cols) for r in rows])


def sizes(path: Path) -> dict[str, int]:
    """Bytes of the entries (result_entries and its index) and of the audit log (audit_log and its
    indexes), from SQLite's page statistics."""
    con = sqlite3.connect(path)
    try:

        def of(table: str) -> int:
            names = [table] + [
                r[0]
                for r in con.execute(
                    "SELECT name FROM sqlite_master WHERE type='index' AND tbl_name=?", (table,)
                )
            ]
            return sum(
                con.execute("SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name=?", (n,)).fetchone()[0]
                for n in names
            )

        return {
            "entries_bytes": of("result_entries"),
            "audit_bytes": of("audit_log"),
            "file_bytes": path.stat().st_size,
        }
    finally:
        con.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--entries", type=int, default=1_000_000)
    a = ap.parse_args()
    info = build(a.out, a.entries)
    print(json.dumps({**info, "events": len(info["events"]), **sizes(a.out)}))
