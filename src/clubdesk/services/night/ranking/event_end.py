"""When an event ends: whether it is over, then its final places (T12a), season points (T12d) and prize
awards (T13a-T13e) written in the caller's transaction, and the final places read back.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.models.base import utcnow
from clubdesk.models.event import Entrant, Event
from clubdesk.models.money import Payment
from clubdesk.models.result import FinalPlace, PrizeAward
from clubdesk.models.round import EventNight
from clubdesk.services.night.data import reads
from clubdesk.services.night.data.prize_plans import (
    prize_plan_of,
    season_scale_of,
)
from clubdesk.services.night.ranking.places import place_ranges
from clubdesk.services.night.ranking.standings import build
from clubdesk.standings.prizes import award_prizes
from clubdesk.standings.season import Placing, place_points
from clubdesk.standings.table import Standings
from clubdesk.storage import Database


def is_over(s: Session, ev: Event, n: EventNight, played: list[formats.Played], st: Standings) -> bool:
    ms = reads.matches_of(s, ev.id)
    rounds = reads.rounds_of(s, ev.id)
    if any(m.status not in reads.FINAL_STATUSES for m in ms) or (rounds and rounds[-1].status == "proposed"):
        return False
    stt = reads.state_of(n)
    if ev.format in formats.ELIMINATION:
        return "bracket" in stt and formats.bracket_with_results(stt["bracket"], played).finished
    if ev.format == "lives":
        ids = [r.entrant for r in st.rows]
        return bool(rounds) and sum(1 for v in formats.lives_left(ids, played, n.lives).values() if v > 0) < 2
    regular = [r for r in rounds if r.kind == "regular"]
    if not formats.schedule_played(ev.format, stt, len(regular), ev.rounds, played):
        return False
    # rule BC2: a tie for first waits for its play-off
    return not any(r.playoff and r.rank == 1 for r in st.rows)


def finish_if_over(s: Session, ev: Event) -> None:
    """When the event ends: final places, season points and prizes (recomputed after any correction)."""
    n, played, ids, st = build(s, ev)
    s.execute(delete(FinalPlace).where(FinalPlace.event_id == ev.id))
    s.execute(delete(PrizeAward).where(PrizeAward.event_id == ev.id, PrizeAward.paid_at.is_(None)))
    if not is_over(s, ev, n, played, st):
        if n.finished_at is not None:
            n.finished_at = None
            ev.status = "running"
        return
    places = place_ranges(s, ev, n, played, st)
    dq = {
        str(e.id)
        for e in s.scalars(select(Entrant).where(Entrant.event_id == ev.id, Entrant.status == "disqualified"))
    }
    order = {r.entrant: i for i, r in enumerate(st.rows)}
    placings: list[Placing] = []
    for e, (a, b) in places.items():
        # rule T13d: a single player's gender and birth year decide his categories (pairs, teams: none)
        who = reads.entrant_members(s, int(e))
        one = who[0] if len(who) == 1 else None
        placings.append(
            Placing(
                e,
                a,
                b,
                order=order.get(e, 0),
                disqualified=e in dq,
                gender=one.gender if one is not None else None,
                birth_year=one.birth_year if one is not None else None,
            )
        )
    scale = season_scale_of(n)
    for p in placings:
        pts = 0
        if scale is not None and ev.coefficient_class in scale.coefficients and not p.disqualified:
            pts = place_points(scale, ev.coefficient_class, p.place_from, p.place_to)  # rule T12d
        s.add(
            FinalPlace(
                event_id=ev.id,
                entrant_id=int(p.entrant),
                place_from=p.place_from,
                place_to=p.place_to,
                season_points=pts,
            )
        )
    plan = prize_plan_of(n, ev)
    if plan is not None:
        fees = s.scalars(
            select(Payment).join(Entrant, Entrant.id == Payment.entrant_id).where(Entrant.event_id == ev.id)
        )
        collected = sum(p.amount for p in fees if p.amount > 0)
        refunded = -sum(
            p.amount
            for p in s.scalars(
                select(Payment)
                .join(Entrant, Entrant.id == Payment.entrant_id)
                .where(Entrant.event_id == ev.id)
            )
            if p.amount < 0
        )
        prizes = award_prizes(
            plan, placings, event_date=ev.starts_on or date.today(), collected=collected, refunded=refunded
        )
        for aw in prizes.awards:
            s.add(
                PrizeAward(
                    event_id=ev.id,
                    entrant_id=int(aw.entrant),
                    award_key=aw.award_id,
                    kind=str(aw.kind),
                    amount=aw.amount,
                    currency=aw.currency,
                    description=aw.description,
                )
            )
    if n.finished_at is None:
        n.finished_at = utcnow()
    ev.status = "finished"


def final_places(db: Database, event_id: int) -> list[dict[str, Any]]:
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        names = reads.entrant_names(s, ev.id)
        rows = s.scalars(
            select(FinalPlace).where(FinalPlace.event_id == ev.id).order_by(FinalPlace.place_from)
        )
        awards = list(s.scalars(select(PrizeAward).where(PrizeAward.event_id == ev.id)))
        out: list[dict[str, Any]] = [
            {
                "entrant": r.entrant_id,
                "name": names.get(r.entrant_id),
                "place": [r.place_from, r.place_to],
                "season_points": r.season_points / 100,
                "prizes": [
                    {"kind": a.kind, "amount": a.amount, "currency": a.currency, "description": a.description}
                    for a in awards
                    if a.entrant_id == r.entrant_id
                ],
                "disqualified": False,
            }
            for r in rows
        ]
        if out:  # rule T9c: the disqualified are listed without a place, a prize or season points
            out += [
                {
                    "entrant": int(e),
                    "name": names.get(int(e)),
                    "place": None,
                    "season_points": 0,
                    "prizes": [],
                    "disqualified": True,
                }
                for e in reads.disqualified_ids(s, ev)
            ]
        return out
