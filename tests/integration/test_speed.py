"""Issue 22: work in proportion to the change. Ratings move forward from the changed match and equal a
full recompute (rule T12c); a hand entry's query count does not grow with the event or the database;
the hot lookups use indexes (EXPLAIN QUERY PLAN). Times are measured in benchmarks/, never here."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import event, select, text

from clubdesk.models.member import Member
from clubdesk.models.result import RatingEntry
from clubdesk.services.club import audit_log
from clubdesk.services.kernel.base import audit
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import results, rounds
from clubdesk.services.night.ranking import ratings
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, REF, make_event, open_db


def _ratings(db: Database) -> tuple[list[tuple[Any, ...]], dict[str, float]]:
    with db.session() as s:
        rows = [
            (
                r.member_id,
                r.opponent_id,
                r.match_id,
                r.won,
                round(r.before, 6),
                round(r.after, 6),
                r.matches_before,
            )
            for r in s.scalars(select(RatingEntry).order_by(RatingEntry.id))
        ]
        return rows, {m.number: round(m.rating, 4) for m in s.scalars(select(Member))}


def _full(db: Database) -> tuple[list[tuple[Any, ...]], dict[str, float]]:
    with db.session() as s:
        ratings.recompute_ratings(s)
    return _ratings(db)


def test_ratings_forward_from_the_change_equal_a_full_recompute(tmp_path: Path) -> None:
    """Rule T12c: results of the latest round, then a referee's correction of a round-1 table, rate
    exactly as rating every match again in order would."""
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=8, rounds=3)
    other, _o = make_event(db, ruleset="tavla", fmt="swiss", players=6, rounds=2, name="Other night")
    for e in (ev, other):
        rounds.propose_round(db, DESK, e)
        rounds.publish_round(db, DESK, e)
    tables = reads.get_round(db, ev, 1).tables
    for t in tables:
        results.set_score(db, DESK, ev, 1, t.table, (5, 2), confirm=True)
    for t in reads.get_round(db, other, 1).tables:
        results.set_score(db, DESK, other, 1, t.table, (1, 5), confirm=True)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    for t in reads.get_round(db, ev, 2).tables:
        results.set_score(db, DESK, ev, 2, t.table, (3, 5), confirm=True)
    inc = _ratings(db)
    assert len(inc[0]) == 2 * (len(tables) * 2 + 3)  # two history lines per rated match
    assert inc == _full(db)
    # a correction of round 1 (locked, rule T10: the referee's override) re-rates what follows it
    results.set_score(db, REF, ev, 1, tables[0].table, (2, 5), confirm=True, override="score misread")
    corrected = _ratings(db)
    assert corrected != inc
    assert corrected == _full(db)
    # a result taken back (no longer rated) leaves the history as if it had never been rated
    results.set_score(db, REF, ev, 1, tables[1].table, (3, 1), override="not finished")
    back = _ratings(db)
    assert back == _full(db)
    assert len(back[0]) == len(corrected[0]) - 2


class _Counter:
    def __init__(self, db: Database) -> None:
        self.n = 0
        self.db = db

    def __enter__(self) -> _Counter:
        event.listen(self.db.engine, "before_cursor_execute", self._hit)
        return self

    def __exit__(self, *exc: object) -> None:
        event.remove(self.db.engine, "before_cursor_execute", self._hit)

    def _hit(self, *args: object) -> None:
        self.n += 1


HAND = {"type": "out", "seat": 0, "pips": [0, 5, 1, 5], "last_tile": None, "two_ends": False, "dead": {}}


def _hand_queries(tmp_path: Path, pairs: int, others: int) -> int:
    tmp_path.mkdir()
    db = open_db(tmp_path)
    for k in range(others):  # other events' finished matches in the same database
        o, _ = make_event(db, ruleset="tavla", fmt="swiss", players=8, rounds=1, name=f"Other {k}")
        rounds.propose_round(db, DESK, o)
        rounds.publish_round(db, DESK, o)
        for t in reads.get_round(db, o, 1).tables:
            results.set_score(db, DESK, o, 1, t.table, (5, 1), confirm=True)
    ev, _ids = make_event(db, ruleset="gaple-tournament", fmt="swiss", players=pairs, rounds=3)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    results.add_entry(db, DESK, ev, 1, 1, HAND)  # the first hand may set the round in play
    with _Counter(db) as c:
        results.add_entry(db, DESK, ev, 1, 2, HAND)
    return c.n


def test_a_hand_entry_costs_the_same_queries_at_any_size(tmp_path: Path) -> None:
    small = _hand_queries(tmp_path / "a", pairs=4, others=0)
    large = _hand_queries(tmp_path / "b", pairs=32, others=3)
    assert small == large


def test_hot_lookups_use_indexes(tmp_path: Path) -> None:
    """EXPLAIN QUERY PLAN of the lookups on the desk's hot paths names an index, never a table scan."""
    db = open_db(tmp_path)
    queries = {
        "rating order": "SELECT id FROM rating_history WHERE played_on > '2026-01-01' "
        "OR (played_on = '2026-01-01' AND match_id >= 5) ORDER BY played_on, match_id, id LIMIT 1",
        "rating of a match": "SELECT id FROM rating_history WHERE match_id = 5 ORDER BY id LIMIT 1",
        "rated matches": "SELECT id FROM matches WHERE status = 'confirmed' AND confirmed_at >= '2026-01-01'",
        "a table": "SELECT id FROM matches WHERE event_id = 1 AND round_no = 1 AND table_no = 2",
        "a sheet": "SELECT id FROM result_entries WHERE match_id = 3",
        "audit page of an event": "SELECT * FROM audit_log WHERE event_id = 1 ORDER BY id DESC LIMIT 200",
        "next audit page of an event": "SELECT * FROM audit_log WHERE event_id = 1 AND id < 900 "
        "ORDER BY id DESC LIMIT 200",
        "entrants of an event": "SELECT id FROM entrants WHERE event_id = 1",
        "players of a side": "SELECT member_id FROM entrant_members WHERE entrant_id = 4",
    }
    with db.engine.connect() as conn:
        for what, sql in queries.items():
            plan = " ".join(str(r[-1]) for r in conn.execute(text("EXPLAIN QUERY PLAN " + sql)))
            assert "USING" in plan and "INDEX" in plan, (what, plan)
            assert "TEMP B-TREE" not in plan, (what, plan)


def test_club_audit_pages_walk_the_rowid_newest_first(tmp_path: Path) -> None:
    """Issue 22 (0018_audit_compact): the club-wide audit page walks the table's own rowid order from the
    newest row (ids grow with time): no sort, no index, and the work of a page does not grow with the log
    (SQLite's virtual-machine steps counted for a page of 200 at 1,000 and at 20,000 rows)."""

    db = open_db(tmp_path)
    first = "SELECT * FROM audit_log ORDER BY id DESC LIMIT 200"
    later = "SELECT * FROM audit_log WHERE id < 700 ORDER BY id DESC LIMIT 200"
    with db.engine.connect() as conn:
        assert [str(r[-1]) for r in conn.execute(text("EXPLAIN QUERY PLAN " + first))] == ["SCAN audit_log"]
        plan = " ".join(str(r[-1]) for r in conn.execute(text("EXPLAIN QUERY PLAN " + later)))
        assert "USING INTEGER PRIMARY KEY" in plan and "TEMP B-TREE" not in plan, plan

    def steps(n: int) -> list[int]:
        with db.session() as s:
            have = s.execute(text("SELECT count(*) FROM audit_log")).scalar_one()
            for k in range(have, n):
                audit(s, DESK, "note", "member", k, after={"k": k})
        con = sqlite3.connect(db.path)
        try:
            out = []
            for sql in (first, later):
                count = [0]

                def tick(count: list[int] = count) -> int:
                    count[0] += 1
                    return 0

                con.set_progress_handler(tick, 10)
                assert len(con.execute(sql).fetchall()) == 200
                out.append(count[0])
            return out
        finally:
            con.close()

    small, large = steps(1000), steps(20000)
    assert all(b <= a * 1.2 + 5 for a, b in zip(small, large, strict=True)), (small, large)


def test_audit_view_pages_newest_first_and_the_export_streams(tmp_path: Path) -> None:
    """Issue 22: the audit view's pages (SQL LIMIT, then the rows older than the last one shown) together
    are the whole log newest first; the CSV export streams every row and reports its progress."""
    from clubdesk.services.kernel.base import audit

    db = open_db(tmp_path)
    with db.session() as s:
        for k in range(2500):
            audit(s, DESK, "note", "member", k, after={"k": k}, event_id=1 if k % 2 else None)
    whole = audit_log.audit_rows(db)
    assert len(whole) >= 2500
    pages: list[Any] = []
    last = None
    while True:
        page = audit_log.audit_rows(db, limit=700, after=last)
        if not page:
            break
        assert len(page) <= 700
        pages += page
        last = (page[-1].at, page[-1].id)
    assert [r.id for r in pages] == [r.id for r in whole]
    assert [r.id for r in audit_log.audit_rows(db, limit=3)] == [r.id for r in whole[:3]]
    one_event = audit_log.audit_rows(db, event_id=1, limit=5)
    assert [r.id for r in one_event] == [r.id for r in whole if r.event == 1][:5]
    seen: list[int] = []
    n = audit_log.export_audit_csv(db, tmp_path / "audit.csv", progress=seen.append)
    assert n == len(whole)
    assert seen == [1000, 2000]
    lines = (tmp_path / "audit.csv").read_text(encoding="utf-8-sig").splitlines()
    assert len(lines) == len(whole) + 1  # the header, then every row


def test_a_long_read_takes_no_write_lock(tmp_path: Path) -> None:
    """Issue 22: while the audit export reads (a deferred read transaction), the desk still saves."""

    db = open_db(tmp_path)
    other = Database(db.path, backups_dir=tmp_path / "backups")
    with other.session() as w:  # (the first audited write begins the keyed log with a row of its own)
        audit(w, DESK, "note", "member", 0)
    with db.read_session() as s:
        before = s.execute(text("SELECT count(*) FROM audit_log")).scalar_one()
        with other.session() as w:  # would be "busy" if the read held the write lock
            audit(w, DESK, "note", "member", 1)
        # the read keeps its snapshot
        assert s.execute(text("SELECT count(*) FROM audit_log")).scalar_one() == before
    with db.session() as s:
        assert s.execute(text("SELECT count(*) FROM audit_log")).scalar_one() == before + 1
