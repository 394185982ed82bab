"""The season across venues on the hub (rule T12d): every club's current version of each event of the
season, each person's season points (base points x the event's coefficient, stored per placing and checked
on import), best N where the season's scale sets it, the season's tie-breaks and lot (the season engine the
club desk ranks with, :func:`clubdesk.standings.season.rank_scores`); the Super Final list with its cut-off
and how a tie at the cut was decided; starting lives by season rank for a lives final (T4g); FIBS ratings
(T12c) over every club's singles tavla matches in date order. A player merged by the secretary (T2a) is one
line with the results of every venue."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from clubdesk.federation.replay import season_scale
from clubdesk.i18n import _
from clubdesk.services.federation.hub_players import root_players
from clubdesk.services.kernel import ServiceError
from clubdesk.standings.ratings import RatedMatch, rate_matches
from clubdesk.standings.season import (
    EventScore,
    LivesBand,
    LivesTable,
    SeasonError,
    SeasonScale,
    rank_scores,
    starting_lives,
    super_final_invitations,
)
from clubdesk.storage.hub import (
    Hub,
    HubClub,
    HubEvent,
    HubIdentity,
    HubMatch,
    HubPlacing,
    HubPlayer,
    HubVersion,
)

DEFAULT_SUPER_FINAL = 8  # as a club's own season (publishing's default): the season's top players
DEFAULT_LIVES = 2


@dataclass(frozen=True)
class CircuitEvent:
    uid: str
    name: str
    club: str
    tier: str
    starts_on: dt.date | None
    coefficient: int | None  # hundredths (T12d), None: the season's scale has no such level


@dataclass(frozen=True)
class CircuitLine:
    rank: int
    player: int
    name: str
    licence: str
    clubs: tuple[str, ...]  # every venue he played for
    points: int  # hundredths, counted results only
    counted: tuple[tuple[str, int], ...]  # (event uid, points)
    dropped: tuple[tuple[str, int], ...]  # results beyond the best N
    decided_by: str | None
    rating: float | None  # FIBS rating after the season's tavla matches, None: no rated match


@dataclass(frozen=True)
class Finalist:
    rank: int
    player: int
    name: str
    lives: int  # starting lives in a lives-format season final (T4g)


@dataclass(frozen=True)
class CircuitSeason:
    season: str
    events: tuple[CircuitEvent, ...]
    rows: tuple[CircuitLine, ...]
    super_final: int
    finalists: tuple[Finalist, ...]
    cut_decided_by: str | None  # what separated the last invited from the first left out (None: points)
    best_of: int | None


def _settings(raw: Any) -> dict[str, Any]:
    return raw if isinstance(raw, dict) else {}


def _lives_table(settings: dict[str, Any]) -> LivesTable:
    raw = settings.get("starting_lives") or {}
    bands = tuple(
        LivesBand(int(b["from"]), int(b.get("to", b["from"])), int(b["lives"])) for b in raw.get("bands", [])
    )
    return LivesTable(bands, default_lives=int(raw.get("default", DEFAULT_LIVES)))


def circuit_season(
    hub: Hub, season: str, *, super_final: int | None = None, ratings: bool = True
) -> CircuitSeason:
    """The season ``season`` across every club of the hub (T12d, T4g); with ``ratings`` also every
    player's FIBS rating over the season's tavla matches (T12c: a million matches rate in Python for
    tens of seconds, so the ranking alone can be asked for)."""
    with hub.session() as s:
        events = list(
            s.execute(
                select(HubEvent, HubClub.name)
                .join(HubClub, HubClub.id == HubEvent.club_id)
                .where(HubEvent.season == season.strip())
                .order_by(HubEvent.starts_on, HubEvent.id)
            ).all()
        )
        if not events:
            raise ServiceError(
                "no-season",
                _("No event belongs to the season {season}.").format(season=season),
                season=season,
            )
        # the season is ranked by the scale of its latest event that has one (as a club's own season)
        settings: dict[str, Any] = {}
        scale: SeasonScale | None = None
        for ev, _club in reversed(events):
            raw = s.scalar(select(HubVersion.payload).where(HubVersion.digest == ev.current_digest))
            night = _settings(json.loads(raw or "{}").get("night", {}))
            try:
                scale = season_scale(night.get("season_scale"))
            except (KeyError, TypeError, ValueError, SeasonError):
                scale = None
            if scale is not None:
                settings = _settings(night.get("season_scale"))
                break
        scale = scale or SeasonScale((), {})
        roots = root_players(s)
        players = {
            pid: (name, licence)
            for pid, name, licence in s.execute(select(HubPlayer.id, HubPlayer.name, HubPlayer.licence)).all()
        }
        # plain rows, not ORM objects: a season of 8,000 events has a million matches
        who_is = {
            iid: (roots[pid], club_id)
            for iid, pid, club_id in s.execute(
                select(HubIdentity.id, HubIdentity.player_id, HubIdentity.club_id)
            ).all()
        }
        clubs = dict(s.execute(select(HubClub.id, HubClub.name)).all())
        by_id = {ev.id: (ev.uid, ev.starts_on or dt.date.min) for ev, _club in events}
        scores: list[EventScore] = []
        venues: dict[int, set[str]] = {}
        placed = s.execute(
            select(
                HubPlacing.event_id,
                HubPlacing.identity_id,
                HubPlacing.place_from,
                HubPlacing.place_to,
                HubPlacing.season_points,
                HubPlacing.disqualified,
            )
            .join(HubEvent, HubEvent.id == HubPlacing.event_id)
            .where(HubEvent.season == season.strip())
        ).all()
        for event_id, identity_id, place_from, place_to, points, disqualified in placed:
            who, club_id = who_is[identity_id]
            uid, held_on = by_id[event_id]
            venues.setdefault(who, set()).add(clubs[club_id])
            scores.append(EventScore(uid, held_on, str(who), place_from, place_to, points, disqualified))
        rated = []
        played = (
            []
            if not ratings
            else s.execute(
                select(
                    HubMatch.event_id,
                    HubMatch.round_no,
                    HubMatch.table_no,
                    HubMatch.identity_a,
                    HubMatch.identity_b,
                    HubMatch.a_won,
                    HubMatch.match_length,
                    HubMatch.played_on,
                )
                .join(HubEvent, HubEvent.id == HubMatch.event_id)
                .where(HubEvent.season == season.strip())
            ).all()
        )
        for event_id, round_no, table_no, ident_a, ident_b, a_won, length, played_on in played:
            a, b = who_is[ident_a][0], who_is[ident_b][0]
            rated.append(
                RatedMatch(
                    match_id=f"{by_id[event_id][0]}/{round_no:04d}/{table_no:04d}",
                    played_on=played_on or dt.date.min,
                    winner=str(a if a_won else b),
                    loser=str(b if a_won else a),
                    match_length=length,
                )
            )
        circuit = tuple(
            CircuitEvent(
                ev.uid,
                ev.name,
                club,
                ev.tier,
                ev.starts_on,
                scale.coefficients.get(ev.tier) if scale else None,
            )
            for ev, club in events
        )
    ranked = rank_scores(scores, scale)
    book = rate_matches(rated)  # rule T12c: every club's matches in date order
    rated_players = {m.winner for m in rated} | {m.loser for m in rated}
    rows = tuple(
        CircuitLine(
            rank=r.rank,
            player=int(r.entrant),
            name=players[int(r.entrant)][0],
            licence=players[int(r.entrant)][1] or "",
            clubs=tuple(sorted(venues.get(int(r.entrant), ()))),
            points=r.points,
            counted=tuple((x.event_id, x.points) for x in r.counted),
            dropped=tuple((x.event_id, x.points) for x in r.dropped),
            decided_by=r.decided_by,
            rating=book.rating(r.entrant) if r.entrant in rated_players else None,
        )
        for r in ranked
    )
    k = super_final if super_final is not None else int(settings.get("super_final") or DEFAULT_SUPER_FINAL)
    invited = super_final_invitations(ranked, k)  # rule T12d: the season's top players
    cut: str | None = None
    if invited and len(ranked) > len(invited):
        following = ranked[len(invited)]
        if following.points == invited[-1].points:
            cut = following.decided_by  # a tie at the cut-off, decided by a tie-break or the lot
    try:
        table = _lives_table(settings)
    except (KeyError, TypeError, ValueError, AttributeError, SeasonError):
        table = LivesTable((), default_lives=DEFAULT_LIVES)
    lives = starting_lives(invited, table)  # rule T4g: starting lives by season rank
    finalists = tuple(
        Finalist(r.rank, int(r.entrant), players[int(r.entrant)][0], lives[r.entrant]) for r in invited
    )
    return CircuitSeason(season.strip(), circuit, rows, len(invited), finalists, cut, scale.best_of)


def event_places(hub: Hub, uid: str) -> list[tuple[int, str, str, int]]:
    """The final places of an event's current version: (place, entrant, club, season points)."""
    with hub.session() as s:
        row = s.execute(
            select(HubVersion.payload, HubClub.name)
            .join(HubEvent, HubEvent.current_digest == HubVersion.digest)
            .join(HubClub, HubClub.id == HubEvent.club_id)
            .where(HubEvent.uid == uid)
        ).first()
    if row is None:
        raise ServiceError("no-event", _("The hub holds no event {uid}.").format(uid=uid))
    payload = json.loads(row[0])
    names = {str(e["id"]): str(e["name"]) for e in payload["entrants"]}
    return [
        (int(p["from"]), names.get(str(p["entrant"]), ""), str(row[1]), int(p.get("season_points", 0)))
        for p in sorted(payload["placings"], key=lambda p: (p["from"], str(p["entrant"])))
    ]
