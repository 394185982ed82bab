"""Club files with finished tavla nights for the federation tests: members with federation licences, a
round robin played hand by hand (each game an entry that the file's replay checks), a season scale (T12d)."""

from __future__ import annotations

import datetime as dt
import json
import zlib
from collections.abc import Sequence

from sqlalchemy import select

from clubdesk.models import Entrant, EntrantMember, Event, Member
from clubdesk.services import night
from clubdesk.services.kernel import Actor, Role
from clubdesk.services.night.play import results
from clubdesk.storage import Database

DESK = Actor("Desk", Role.SECRETARY)
SCALE = {
    "base_points": [100, 70, 50, 40, 30, 20],
    "coefficients": {"local": 100, "regional": 150},
    "best_of": 2,
}
GAME = {"type": "game", "kind": "single", "cube": 1}


def member(db: Database, number: str, name: str, licence: str = "", city: str = "Izmir") -> int:
    """The member with ``number`` (made the first time), with his federation licence."""
    with db.session() as s:
        m = s.scalar(select(Member).where(Member.number == number))
        if m is None:
            m = Member(number=number, name=name, licence=licence, city=city, phone="0555 000", email="x@y.tr")
            s.add(m)
            s.flush()
        return m.id


def tavla_night(
    db: Database,
    people: Sequence[tuple[str, str, str]],
    *,
    name: str,
    day: dt.date,
    tier: str = "local",
    seed: int = 1,
    season: str = "2026",
) -> int:
    """A finished round robin of ``people`` (number, name, licence), matches to 3, each game entered."""
    ids = [member(db, number, who, licence) for number, who, licence in people]
    with db.session() as s:
        ev = Event(
            name=name,
            ruleset="tavla",
            format="round-robin",
            entry_type="single",
            match_lengths=json.dumps([3]),
            status="closed",
            currency="EUR",
            starts_on=day,
        )
        s.add(ev)
        s.flush()
        for k, mid in enumerate(ids):
            who = s.get(Member, mid)
            assert who is not None
            e = Entrant(
                event_id=ev.id, name=who.name, code=f"F{ev.id}X{k}", checked_in_at=dt.datetime(2026, 3, 1, 18)
            )
            s.add(e)
            s.flush()
            s.add(EntrantMember(entrant_id=e.id, member_id=mid))
        event_id = ev.id
    night.configure(db, DESK, event_id, season_scale=json.dumps(SCALE), season=season, coefficient_class=tier)
    for _round in range(12):
        view = night.propose_round(db, DESK, event_id)
        night.publish_round(db, DESK, event_id)
        for t in view.tables:
            if t.sides[1] is None:
                continue
            play_table(db, event_id, view.round, t.table, a_wins(t.names[0], t.names[1] or "", seed))
        with db.session() as s:
            ev2 = s.get(Event, event_id)
            assert ev2 is not None
            if ev2.status == "finished":
                return event_id
    raise AssertionError("the night did not finish")


def a_wins(a: str, b: str, seed: int) -> bool:
    """Who wins depends on the two players and the night only (not on ids or the table's order), so the
    same night played in another database gives the same results."""
    first, second = sorted((a, b))
    first_wins = zlib.crc32(f"{first}|{second}|{seed}".encode()) % 2 == 0
    return first_wins == (a == first)


def play_table(db: Database, event_id: int, round_no: int, table_no: int, a_wins: bool) -> None:
    """A match to 3 of single games (winner 3, loser 1), entered game by game and approved by both sides."""
    order = [0, 1, 0, 0] if a_wins else [1, 0, 1, 1]
    for w in order:
        results.add_entry(db, DESK, event_id, round_no, table_no, {**GAME, "winner": w})
    results.confirm(db, DESK, event_id, round_no, table_no, 0, "AA")
    results.confirm(db, DESK, event_id, round_no, table_no, 1, "BB")
