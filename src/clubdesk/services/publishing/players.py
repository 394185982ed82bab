"""Ratings, cross-tables and player cards: plain views for the Ratings screen,
the Standings' cross-table tab and the player card, and the data of their printed reports.

* :func:`tavla_ratings`: every tavla player's FIBS rating, matches, experience and provisional flag (rule
  T12c), read from the stored history that :func:`clubdesk.services.night.ranking.ratings.rerate_from`
  keeps up to date after every confirmed result and every correction.
* :func:`rating_points`: one player's rating history, one point per rated match (the chart).
* :func:`crosstable`: the round-by-round grid of an event: the cells of
  :func:`clubdesk.services.publishing.share.crosstable_data` with, per cell, the opponent, the side and
  the score.
* :func:`player_card`: a member's events, results, rating and (for the organiser only) incidents.

Privacy (rule T14): nothing here reads a phone or an e-mail; a card's incidents are only gathered for an
actor allowed ``incidents.view`` (:mod:`clubdesk.services.kernel.permissions`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from clubdesk import labels
from clubdesk.i18n import _
from clubdesk.models.club import Club
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.result import FinalPlace, Match, RatingEntry
from clubdesk.reports.data import (
    CardEvent,
    CardIncident,
    CardMatch,
    CrossCell,
    CrossLine,
    CrossTableView,
    PlayerCard,
)
from clubdesk.reports.words import centi_text, place_text
from clubdesk.services import discipline, night
from clubdesk.services.kernel import Actor, ServiceError, allowed
from clubdesk.services.night import tavla_rulesets
from clubdesk.services.publishing import share
from clubdesk.standings.ratings import RatingState
from clubdesk.storage import Database

INCIDENTS_ACTION = "incidents.view"  # who sees a player's incidents on his card (organiser and referee)


# ------------------------------------------------------------------------------------------ ratings (T12c)
@dataclass(frozen=True)
class PlayerRating:
    number: str
    name: str
    club: str
    rating: float
    matches: int  # finished rated matches (the register's earlier experience included): the newcomer boost
    experience: int  # FIBS experience: the sum of the rated matches' lengths
    provisional: bool  # rule T12c: the first 30 matches
    rated: int  # matches rated by ClubDesk (rows of the history)


@dataclass(frozen=True)
class RatingPoint:
    match: int
    event: int
    event_name: str
    played_on: dt.date | None
    opponent: str
    won: bool
    length: int
    before: float
    after: float


def _tavla_event_ids(s: Session) -> list[int]:

    rulesets = tavla_rulesets(s)
    if not rulesets:
        return []
    return list(s.scalars(select(Event.id).where(Event.ruleset.in_(rulesets))))


def _club_names(s: Session) -> dict[int, str]:
    return {c.id: c.name for c in s.scalars(select(Club))}


def tavla_ratings(db: Database) -> list[PlayerRating]:
    """Every member entered in a tavla event or with a rated match, best rating first (rule T12c)."""
    with db.session() as s:
        events = _tavla_event_ids(s)
        ids: set[int] = set(s.scalars(select(RatingEntry.member_id).distinct()))
        if events:
            ids |= set(
                s.scalars(
                    select(EntrantMember.member_id)
                    .join(Entrant, Entrant.id == EntrantMember.entrant_id)
                    .where(Entrant.event_id.in_(events))
                    .distinct()
                )
            )
        if not ids:
            return []
        last_ids = (
            select(func.max(RatingEntry.id))
            .where(RatingEntry.member_id.in_(ids))
            .group_by(RatingEntry.member_id)
        )
        last: dict[int, RatingEntry] = {
            r.member_id: r for r in s.scalars(select(RatingEntry).where(RatingEntry.id.in_(last_ids)))
        }
        rated = dict(
            s.execute(
                select(RatingEntry.member_id, func.count(RatingEntry.id))
                .where(RatingEntry.member_id.in_(ids))
                .group_by(RatingEntry.member_id)
            ).all()
        )
        clubs = _club_names(s)
        out: list[PlayerRating] = []
        for m in s.scalars(select(Member).where(Member.id.in_(ids), Member.merged_into_id.is_(None))):
            row = last.get(m.id)
            if row is not None:  # the state after his latest rated match
                state = RatingState(
                    m.rating, row.matches_before + 1, row.experience_before + row.match_length
                )
            else:  # as the rating code starts him (services.night.ranking.ratings._rerate)
                state = RatingState(m.rating, m.rating_experience, m.rating_experience)
            out.append(
                PlayerRating(
                    number=m.number,
                    name=m.name,
                    club=clubs.get(m.club_id, "") if m.club_id is not None else "",
                    rating=round(state.rating, 4),
                    matches=state.matches,
                    experience=state.experience,
                    provisional=state.provisional,
                    rated=int(rated.get(m.id, 0)),
                )
            )
    out.sort(key=lambda p: (-p.rating, p.name.casefold(), p.number))
    return out


def _member(s: Session, number: str) -> Member:
    mem = s.scalar(select(Member).where(Member.number == number.strip()))
    if mem is None:
        raise ServiceError("no-such-member", _("There is no member {n}.").format(n=number), member=number)
    return mem


def rating_points(db: Database, number: str) -> list[RatingPoint]:
    """The member's rating history in rating order (rule T12c), one point per rated match."""
    with db.session() as s:
        mem = _member(s, number)
        rows = list(
            s.scalars(select(RatingEntry).where(RatingEntry.member_id == mem.id).order_by(RatingEntry.id))
        )
        names = {
            m.id: m.name
            for m in s.scalars(select(Member).where(Member.id.in_({r.opponent_id for r in rows})))
        }
        events = {
            e.id: e.name for e in s.scalars(select(Event).where(Event.id.in_({r.event_id for r in rows})))
        }
        return [
            RatingPoint(
                match=r.match_id,
                event=r.event_id,
                event_name=events.get(r.event_id, ""),
                played_on=r.played_on,
                opponent=names.get(r.opponent_id, ""),
                won=r.won,
                length=r.match_length,
                before=round(r.before, 4),
                after=round(r.after, 4),
            )
            for r in rows
        ]


# ------------------------------------------------------------------------------------------ cross-table
def crosstable(db: Database, event_id: int) -> CrossTableView:
    """The event's grid: :func:`share.crosstable_data`'s cells, each with its opponent, side and score."""

    ct = share.crosstable_data(db, event_id)
    est = night.event_standings(db, event_id)  # the same order crosstable_data walks
    with db.session() as s:
        ev = night.get_event(s, event_id)
        rounds = tuple(r.number for r in night.rounds_of(s, ev.id))
        names = night.entrant_names(s, ev.id)
        detail: dict[tuple[int, int], CrossCell] = {}
        for m in night.matches_of(s, ev.id):
            if m.status not in night.FINAL_STATUSES:
                continue
            sides = (
                (m.side_a, m.side_b, "A", m.score_a, m.score_b),
                (m.side_b, m.side_a, "B", m.score_b, m.score_a),
            )
            for me, other, side, own, their in sides:
                if me is None:
                    continue
                played = other is not None and m.kind == "played"
                detail[(me, m.round_no)] = CrossCell(
                    text="",
                    round=m.round_no,
                    table=m.table_no,
                    opponent=names.get(other, "") if other is not None else "",
                    side=side if other is not None else "",
                    score=f"{own}–{their}" if played else "",
                )
        name = ev.name
    lines: list[CrossLine] = []
    for row, st_row in zip(ct.rows, est.rows, strict=True):
        cells = []
        for k, n in enumerate(rounds):
            base = detail.get((st_row.entrant, n), CrossCell(text="", round=n))
            cells.append(CrossCell(row.cells[k], n, base.table, base.opponent, base.side, base.score))
        lines.append(CrossLine(row.rank, row.name, row.points, tuple(cells)))
    return CrossTableView(event_id, name, rounds, tuple(lines))


def cell_text(cell: CrossCell) -> str:
    """A cell in words (the screen's tooltip, the report's legend reading)."""
    if not cell.text:
        return _("Round {n}: not played.").format(n=cell.round)
    if not cell.opponent:
        return _("Round {n}: a bye.").format(n=cell.round)
    return _("Round {n}, table {t}: against {name}, side {side}, {score}.").format(
        n=cell.round, t=cell.table, name=cell.opponent, side=cell.side, score=cell.score or "–"
    )


# ------------------------------------------------------------------------------------------ player card
def _result_word(m: Match, me: int) -> str:
    if m.side_b is None or m.kind == "bye":
        return _("bye")
    if m.kind == "both-lost":
        return _("lost")
    if m.winner is None:
        return _("drew")  # a drawn match (the msgid "drawn" is a drawn lot)
    won = m.winner == me
    if m.kind == "forfeit":
        return _("won by forfeit") if won else _("lost by forfeit")
    return _("won") if won else _("lost")


def player_card(db: Database, number: str, viewer: Actor | None = None) -> PlayerCard:
    """A member's card: public facts, rating (T12c), events, results; incidents only when ``viewer`` may
    see them (``incidents.view``). Never a phone or an e-mail (rule T14)."""
    show_incidents = viewer is not None and allowed(viewer, INCIDENTS_ACTION)
    ratings = {p.number: p for p in tavla_ratings(db)}
    with db.session() as s:
        mem = _member(s, number)
        clubs = _club_names(s)
        history = list(
            s.scalars(select(RatingEntry).where(RatingEntry.member_id == mem.id).order_by(RatingEntry.id))
        )
        after_match = {r.match_id: r.after for r in history}
        after_event: dict[int, float] = {}
        for r in history:
            after_event[r.event_id] = r.after
        entrants = list(
            s.scalars(
                select(Entrant)
                .join(EntrantMember, EntrantMember.entrant_id == Entrant.id)
                .where(EntrantMember.member_id == mem.id)
                .order_by(Entrant.id)
            )
        )
        events: list[CardEvent] = []
        results: list[tuple[tuple[dt.date, int, int], CardMatch]] = []
        incident_events: list[tuple[int, str, set[int]]] = []
        for en in entrants:
            ev = s.get(Event, en.event_id)
            if ev is None:
                continue
            names = night.entrant_names(s, ev.id)
            day = ev.starts_on or en.registered_at.date()
            won = lost = drawn = 0
            played_any = False
            for m in s.scalars(
                select(Match)
                .where(Match.event_id == ev.id, or_(Match.side_a == en.id, Match.side_b == en.id))
                .order_by(Match.round_no, Match.table_no)
            ):
                if m.status not in night.FINAL_STATUSES:
                    continue
                played_any = True
                mine_a = m.side_a == en.id
                other = m.side_b if mine_a else m.side_a
                word = _result_word(m, en.id)
                if m.side_b is not None and m.kind != "bye":
                    if m.winner is None and m.kind != "both-lost":
                        drawn += 1
                    elif m.winner == en.id:
                        won += 1
                    else:
                        lost += 1
                own, their = (m.score_a, m.score_b) if mine_a else (m.score_b, m.score_a)
                results.append(
                    (
                        (day, ev.id, m.round_no),
                        CardMatch(
                            event=ev.name,
                            round=m.round_no,
                            table=m.table_no,
                            opponent=names.get(other, "") if other is not None else "",
                            side=("A" if mine_a else "B") if other is not None else "",
                            score=f"{own}–{their}" if other is not None and m.kind == "played" else "",
                            result=word,
                            rating=f"{after_match[m.id]:.1f}" if m.id in after_match else "",
                        ),
                    )
                )
            fp = s.scalar(select(FinalPlace).where(FinalPlace.entrant_id == en.id))
            if not played_any and fp is None:
                continue  # registered, never played: not an event played
            result = _("{w} won, {l} lost").format(w=won, l=lost)
            if drawn:
                result += ", " + _("{d} drawn").format(d=drawn)
            events.append(
                CardEvent(
                    event_id=ev.id,
                    date=day,
                    event=ev.name,
                    game=labels.ruleset_label(ev.ruleset),
                    place="" if fp is None else place_text(fp.place_from, fp.place_to),
                    result=result,
                    season_points=centi_text(fp.season_points) if fp and fp.season_points else "",
                    rating=f"{after_event[ev.id]:.1f}" if ev.id in after_event else "",
                )
            )
            incident_events.append((ev.id, ev.name, {en.id}))
        name, club, city = mem.name, clubs.get(mem.club_id, "") if mem.club_id else "", mem.city
        rating, exp = mem.rating, mem.rating_experience
    incidents: list[CardIncident] = []
    if show_incidents:
        for ev_id, ev_name, his in incident_events:
            for inc in discipline.discipline_list(db, ev_id).incidents:
                if inc.entrant not in his and inc.player_number != number:
                    continue
                incidents.append(
                    CardIncident(
                        event=ev_name,
                        round="" if inc.round is None else str(inc.round),
                        table="" if inc.table is None else str(inc.table),
                        kind=inc.kind_label,
                        decision=inc.decision_label,
                        text=inc.text,
                    )
                )
    events.sort(key=lambda e: (e.date or dt.date.min, e.event_id))
    results.sort(key=lambda x: x[0])
    pr = ratings.get(number)
    return PlayerCard(
        number=number,
        name=name,
        club=club,
        city=city,
        rating=f"{(pr.rating if pr else rating):.1f}",
        matches=pr.matches if pr else exp,
        experience=pr.experience if pr else exp,
        provisional=pr.provisional if pr else RatingState(rating, exp, exp).provisional,
        events=tuple(events),
        results=tuple(r for _k, r in results),
        incidents=tuple(incidents),
        incidents_shown=show_incidents,
    )
