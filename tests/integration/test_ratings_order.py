"""Rule T12c: ratings follow the order of play (day, round, table), whatever the order the results were
entered in. December's night entered before November's is rated after it; a table entered before an
earlier table of the same round is rated after it; an older match entered late re-rates what follows.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from sqlalchemy import select

from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match, RatingEntry
from clubdesk.services.night.play import results, rounds
from clubdesk.services.night.ranking import ratings
from clubdesk.services.publishing import players
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK

NOVEMBER, DECEMBER = date(2026, 11, 12), date(2026, 12, 10)
# (event day, table, score): two nights of four players, two tables each, the same four members
RESULTS = {
    (NOVEMBER, 1): (5, 1),
    (NOVEMBER, 2): (2, 5),
    (DECEMBER, 1): (1, 5),
    (DECEMBER, 2): (5, 4),
}


def two_nights(db: Database) -> dict[date, int]:
    """A November and a December tavla night of the same four members, round 1 published in both."""
    events: dict[date, int] = {}
    seeds = {NOVEMBER: [0, 1, 2, 3], DECEMBER: [0, 1, 3, 2]}  # other pairings in December
    with db.session() as s:
        members = [Member(number=f"T{k}", name=f"Oyuncu {k}", rating=1500.0) for k in range(1, 5)]
        s.add_all(members)
        s.flush()
        for day in (NOVEMBER, DECEMBER):
            ev = Event(
                name=f"Tavla {day:%B}",
                ruleset="tavla",
                format="swiss",
                entry_type="single",
                rounds=3,
                match_lengths="[5]",
                status="closed",
                currency="EUR",
                starts_on=day,
            )
            s.add(ev)
            s.flush()
            for k, mem in enumerate(members):
                e = Entrant(
                    event_id=ev.id,
                    name=mem.name,
                    code=f"O{ev.id}X{k}",
                    checked_in_at=datetime(2026, 11, 1, 18),
                    rating=2000.0 - 10 * seeds[day][k],
                )
                s.add(e)
                s.flush()
                s.add(EntrantMember(entrant_id=e.id, member_id=mem.id))
            events[day] = ev.id
    for day in (NOVEMBER, DECEMBER):
        rounds.propose_round(db, DESK, events[day])
        rounds.publish_round(db, DESK, events[day])
    return events


def enter(db: Database, events: dict[date, int], order: list[tuple[date, int]]) -> None:
    for day, table in order:
        results.set_score(db, DESK, events[day], 1, table, RESULTS[(day, table)], confirm=True)


def history(db: Database) -> list[tuple[str, date, int, str, float, float]]:
    """Every history row in the order it was rated: member, day, table, opponent, before, after."""
    with db.session() as s:
        number = {m.id: m.number for m in s.scalars(select(Member))}
        table = {m.id: m.table_no for m in s.scalars(select(Match))}
        return [
            (number[r.member_id], r.played_on, table[r.match_id], number[r.opponent_id], r.before, r.after)
            for r in s.scalars(select(RatingEntry).order_by(RatingEntry.id))
        ]


def test_december_entered_before_november_is_rated_after_it(tmp_path: Path) -> None:
    in_order = Database(tmp_path / "in_order.sqlite3")
    enter(in_order, two_nights(in_order), [(NOVEMBER, 1), (NOVEMBER, 2), (DECEMBER, 1), (DECEMBER, 2)])
    late = Database(tmp_path / "late.sqlite3")
    # December's night first, then November's, its second table before its first
    enter(late, two_nights(late), [(DECEMBER, 2), (DECEMBER, 1), (NOVEMBER, 2), (NOVEMBER, 1)])

    assert history(late) == history(in_order)
    days = [row[1] for row in history(late)]
    assert days == sorted(days) and days[0] == NOVEMBER and days[-1] == DECEMBER
    assert [(r[1], r[2]) for r in history(late)][:4] == [(NOVEMBER, 1)] * 2 + [(NOVEMBER, 2)] * 2
    shown_late = {p.number: p.rating for p in players.tavla_ratings(late)}
    assert shown_late == {p.number: p.rating for p in players.tavla_ratings(in_order)}
    assert len(set(shown_late.values())) == 4  # four different ratings: the order matters
    # the member's chart, history and count agree with his rating, in the order of play
    for p in players.tavla_ratings(late):
        points = players.rating_points(late, p.number)
        assert p.rated == len(points) == 2
        assert [x.played_on for x in points] == [NOVEMBER, DECEMBER]
        assert points[-1].after == round(p.rating, 4)
        assert points[0].before == 1500.0


def test_an_older_match_entered_late_re_rates_forward_like_a_full_recompute(tmp_path: Path) -> None:
    db = Database(tmp_path / "late.sqlite3")
    events = two_nights(db)
    enter(db, events, [(DECEMBER, 1), (DECEMBER, 2), (NOVEMBER, 1)])
    before = history(db)
    enter(db, events, [(NOVEMBER, 2)])  # the forgotten sheet of November's second table
    forward = history(db)
    assert forward != before
    with db.session() as s:
        ratings.recompute_ratings(s)
    assert history(db) == forward
