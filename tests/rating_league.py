"""A tavla league with many confirmed, rated matches, written straight into the database (building it
through the services would take minutes): for the tests of the background re-rating (issue 22)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from sqlalchemy import insert, select

from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match
from clubdesk.models.round import EventNight, Round
from clubdesk.services.night.ranking import ratings
from clubdesk.storage import Database


def tavla_league(db: Database, matches: int, players: int = 20, seed: int = 22) -> int:
    """A running tavla league of ``matches`` confirmed matches between ``players`` members, ten tables
    a round, a round a day; rated in full once. Returns the event id."""
    rng = random.Random(seed)
    per_round = players // 2
    with db.session() as s:
        ev = Event(
            name="Tavla league", ruleset="tavla", format="swiss", entry_type="single", status="running"
        )
        ev.currency = "EUR"
        s.add(ev)
        s.flush()
        s.add(
            EventNight(
                event_id=ev.id,
                result_mode="score",
                tiebreaks="",
                lives=2,
                call_minutes=10,
                encounter_games=0,
                state="{}",
                prize_plan="{}",
                season_scale="{}",
            )
        )
        ents: list[int] = []
        for k in range(players):
            mem = Member(number=f"L{k:04d}", name=f"Player {k}", rating=1500.0, rating_experience=0)
            s.add(mem)
            s.flush()
            e = Entrant(event_id=ev.id, name=mem.name, code=f"L{k}", checked_in_at=datetime(2026, 1, 1, 18))
            s.add(e)
            s.flush()
            s.execute(insert(EntrantMember), [{"entrant_id": e.id, "member_id": mem.id}])
            ents.append(e.id)
        rows = []
        day0 = datetime(2026, 1, 1, 20)
        r = 0
        while len(rows) < matches:
            r += 1
            rd = Round(event_id=ev.id, number=r, status="closed", seed=r, match_length=5)
            s.add(rd)
            s.flush()
            order = ents[:]
            rng.shuffle(order)
            for t in range(per_round):
                if len(rows) >= matches:
                    break
                a, b = order[2 * t], order[2 * t + 1]
                sa, sb = (5, rng.randint(0, 4)) if rng.random() < 0.5 else (rng.randint(0, 4), 5)
                rows.append(
                    {
                        "event_id": ev.id,
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
                        "confirmed_at": day0 + timedelta(days=r, minutes=t),
                        "locked": True,
                    }
                )
        s.execute(insert(Match), rows)
        ev.current_round = r
        event_id = ev.id
    with db.session() as s:
        ratings.recompute_ratings(s)
    return event_id


def ratings_now(db: Database) -> tuple[list[tuple[object, ...]], dict[str, float]]:
    """The whole rating history (without row ids) and every member's rating."""
    from clubdesk.models.result import RatingEntry

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
            for r in s.scalars(
                select(RatingEntry).order_by(
                    RatingEntry.played_on, RatingEntry.match_id, RatingEntry.member_id
                )
            )
        ]
        return rows, {m.number: round(m.rating, 4) for m in s.scalars(select(Member))}


def full_recompute(db: Database) -> tuple[list[tuple[object, ...]], dict[str, float]]:
    with db.session() as s:
        ratings.recompute_ratings(s)
    return ratings_now(db)
