"""Helpers shared by the competition-night tests: an event with checked-in entrants, written through the
ORM so these tests do not depend on the desk's services (issue 10)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.storage import Database

DESK = Actor("Desk", Role.SECRETARY)
REF = Actor("Ref", Role.REFEREE)


def make_event(
    db: Database,
    *,
    ruleset: str,
    fmt: str,
    players: int,
    per_entrant: int = 1,
    rounds: int | None = None,
    entry: str = "single",
    ratings: list[float] | None = None,
    match_lengths: list[int] | None = None,
    name: str = "Test night",
) -> tuple[int, list[int]]:
    """An event with ``players`` checked-in entrants; entrant k (0-based) gets rating ``ratings[k]``
    (default 2000 - 10k, so entrant 0 is seed 1). Returns (event id, entrant ids in that order)."""
    ratings = ratings or [2000.0 - 10 * k for k in range(players)]
    with db.session() as s:
        ev = Event(
            name=name,
            ruleset=ruleset,
            format=fmt,
            entry_type=entry,
            rounds=rounds,
            match_lengths=json.dumps(match_lengths or []),
            status="closed",
            currency="EUR",
        )
        s.add(ev)
        s.flush()
        ids: list[int] = []
        base = s.query(Member).count()
        for k in range(players):
            members = []
            for j in range(per_entrant):
                m = Member(
                    number=f"N{base + k * per_entrant + j + 1:04d}",
                    name=f"Player {k + 1}{'abcd'[j] if per_entrant > 1 else ''}",
                    rating=1500.0,
                    rating_experience=0,
                )
                s.add(m)
                members.append(m)
            s.flush()
            e = Entrant(
                event_id=ev.id,
                name=f"E{k + 1}",
                code=f"C{ev.id}X{k}",
                checked_in_at=datetime(2024, 5, 1, 18, 0),
                rating=ratings[k],
            )
            s.add(e)
            s.flush()
            for m in members:
                s.add(EntrantMember(entrant_id=e.id, member_id=m.id))
            ids.append(e.id)
        return ev.id, ids


def open_db(tmp_path: Path) -> Database:
    from tests.conftest import ACTIVE

    if ACTIVE:  # issue 25: the module runs on both backends
        return ACTIVE[-1]("night")  # type: ignore[no-any-return]
    return Database(tmp_path / "night.sqlite3", backups_dir=tmp_path / "backups")
