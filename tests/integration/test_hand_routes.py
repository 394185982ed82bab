"""One hand, one route: the desk and two phones (one per side) play the same hands, undos and approvals
at the same tables, and the club files end the same: the tables, their entries, approvals and rounds and
the audit trail (who did it aside: the desk, or a table's phone; and when). Rules G3-G8 (gaple) and E18
(dominoes) are the engine's; G13, E6, T8c: the phone's hand that ends the match is its side's approval,
which the desk gives by approving for that side; an undone hand takes its approval with it."""

from __future__ import annotations

import json
import random
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubdesk.services import night
from clubdesk.services.kernel import unsealed
from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.night.data import reads
from clubdesk.services.night.data.tokens import round_tokens
from clubdesk.services.night.play import hands, results, rounds
from clubdesk.services.night.play.table_change import TableId
from clubdesk.services.phones import posts, table_page
from clubdesk.storage import Database, DatabaseError
from tests.integration.test_night_helpers import DESK, make_event
from tests.integration.test_speed import _Counter


def _gaple(rng: random.Random) -> dict[str, Any]:
    seat = rng.randrange(4)
    kind = rng.random()
    if kind < 0.08:
        return {"type": "block", "pips": [rng.randrange(0, 30) for _ in range(4)], "dead": {}}
    pips = [0 if s == seat else rng.randrange(0, 60) for s in range(4)]
    if rng.random() < 0.05:
        pips[seat] = 3  # an impossible hand: the winner holds pips (refused, nothing stored)
    two = rng.random() < 0.1
    return {"type": "out", "seat": seat, "pips": pips, "last_tile": None, "two_ends": two, "dead": {}}


def _domino(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.1:
        return {"type": "block", "pips": [rng.randrange(0, 40) for _ in range(4)]}
    seat = rng.randrange(4)
    pips = [0 if k == seat else rng.randrange(0, 12) for k in range(4)]
    if rng.random() < 0.05:
        pips[seat] = 2  # an impossible hand: the seat out holds pips (refused, nothing stored)
    return {"type": "domino", "seat": seat, "pips": pips}


def _night(folder: Path, ruleset: str) -> tuple[Database, int]:
    folder.mkdir()
    db = Database(folder / "club.sqlite3", backups_dir=folder / "b")
    ev, _ids = make_event(db, ruleset=ruleset, fmt="swiss", players=4, per_entrant=2, entry="pair", rounds=2)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    return db, ev


def _without_how(after: str | None) -> Any:
    """An audit row's after without how an approval was given (own phone, at the desk: G13), which
    says which face approved, as the actor does."""
    data = json.loads(after) if after else None
    if isinstance(data, dict):
        data.pop("how", None)
    return data


def _rows(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every stored row a hand touches, without who (the desk or a phone) and when."""
    con = sqlite3.connect(db.path)
    try:
        cols = [r[1] for r in con.execute("PRAGMA table_info(matches)")]
        drop = {cols.index("changed_at"), cols.index("changed_by"), cols.index("confirmed_at")}
        matches = [
            tuple(v for i, v in enumerate(r) if i not in drop)
            for r in con.execute("SELECT * FROM matches ORDER BY id")
        ]
        return {
            "matches": matches,
            "rounds": con.execute("SELECT id, status, closed_at IS NULL FROM rounds ORDER BY id").fetchall(),
            "entries": con.execute(
                "SELECT id, match_id, game_no, seq, data FROM result_entries ORDER BY id"
            ).fetchall(),
            # each club file has its own audit key: its keyed row and the seals differ (their digests)
            "audit": [
                (*r[:7], _without_how(unsealed(r[7])), r[8])
                for r in con.execute(
                    "SELECT action, entity, entity_id, event_id, round_no, table_no, before, after, reason"
                    " FROM audit_log WHERE action NOT LIKE 'referee-call%' AND action != 'audit.keyed'"
                    " ORDER BY id"
                )
            ],
        }
    finally:
        con.close()


def _names(db: Database, ev: int, table: int) -> tuple[str, str]:
    view = next(t for t in reads.get_round(db, ev, 1).tables if t.table == table)
    a, b = view.names
    assert b is not None
    return a, b


def _phone(db: Database, ev: int, table: int, side: int, what: str, hand: Any, n: int) -> object:
    ref = table_page.table_for_token(db, round_tokens(db, ev, 1)[table])
    assert ref is not None
    version = posts.table_status(db, ev, 1)[table].version  # the page the phone shows is current
    post = f"{what}-{n}"
    code = night.side_codes(db, ev, 1)[table][side]  # each side's phone scanned its box (G13)
    if what == "hand":
        return posts.post_entry(
            db, ref, hand, client_id=post, version=version, side=side, address="10.0.0.9", code=code
        )
    if what == "undo":
        return posts.undo(db, ref, client_id=post, version=version, address="10.0.0.9")
    return posts.confirm(db, ref, client_id=post, version=version, side=side, address="10.0.0.9", code=code)


def _desk(db: Database, ev: int, table: int, side: int, what: str, hand: Any) -> object:
    t = TableId(ev, 1, table)
    if what == "hand":
        res = hands.enter_hand(db, DESK, t, hand, seen_version=None)
        if res.table.status == "pending":  # the phone's finishing hand is its side's approval
            results.confirm(db, DESK, ev, 1, table, side, _names(db, ev, table)[side])
        return res
    if what == "undo":
        return hands.undo_hand(db, DESK, t, seen_version=None)
    return results.confirm(db, DESK, ev, 1, table, side, _names(db, ev, table)[side])


def _try(act: Any, *args: Any) -> str:
    try:
        act(*args)
    except (ServiceError, DatabaseError) as exc:
        return f"refused ({exc.code})"
    return "saved"


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), ruleset=st.sampled_from(["gaple-tournament", "gaple-club", "domino-es"]))
def test_the_desk_and_two_phones_leave_the_same_rows(seed: int, ruleset: str) -> None:
    rng = random.Random(seed)
    make = _domino if ruleset == "domino-es" else _gaple
    with tempfile.TemporaryDirectory() as tmp:
        desk, ev = _night(Path(tmp) / "desk", ruleset)
        phones, ev2 = _night(Path(tmp) / "phones", ruleset)
        assert ev == ev2
        finisher: dict[int, int] = {}
        try:
            for k in range(50):
                table = rng.choice([1, 2])
                roll = rng.random()
                what = "hand" if roll < 0.82 else ("undo" if roll < 0.94 else "confirm")
                side = rng.choice([0, 1])  # which side's phone
                now = next(t for t in reads.get_round(phones, ev, 1).tables if t.table == table)
                if what == "confirm" and now.status == "confirmed":
                    what = "undo"  # a confirmed result: the desk may approve again, a phone shows it only
                if what == "confirm" and table in finisher:
                    side = 1 - finisher[table]  # the other side confirms
                hand = make(rng)
                answers = [
                    _try(_desk, desk, ev, table, side, what, hand),
                    _try(_phone, phones, ev, table, side, what, hand, k),
                ]
                assert answers[0].split()[0] == answers[1].split()[0], (what, hand, answers)
                view = next(t for t in reads.get_round(phones, ev, 1).tables if t.table == table)
                if what == "hand" and answers[1] == "saved" and view.status == "pending":
                    finisher[table] = side
                elif what == "undo" and answers[1] == "saved":
                    finisher.pop(table, None)
                assert _rows(desk) == _rows(phones), (k, what, hand)
        finally:
            desk.close()
            phones.close()


def test_a_hand_in_play_reads_and_writes_a_few_statements(tmp_path: Path) -> None:
    """The desk's commonest change costs a handful of statements: the table (its event, round and night
    settings) in one read, its sheet, the entry, the table's new score, the audit row and its chain."""
    db, ev = _night(tmp_path / "a", "gaple-tournament")
    hand = {"type": "out", "seat": 0, "pips": [0, 5, 1, 5], "last_tile": None, "two_ends": False, "dead": {}}
    results.add_entry(db, DESK, ev, 1, 1, hand)
    with _Counter(db) as one:
        results.add_entry(db, DESK, ev, 1, 1, hand)
    assert results.table_entries(db, ev, 1, 1)[1] == [hand, hand]
    assert one.n <= 7
    db.close()
