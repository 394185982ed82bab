"""FIBS ratings of tavla members (rule T12c) stored as history, re-rated forward from a changed match
(issue 22), and the background re-rating of an old correction (see :mod:`clubdesk.services.followups`).
"""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any

from sqlalchemy import and_, delete, func, or_, select
from sqlalchemy.orm import Session

from clubdesk.db import Database
from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.event import EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match, RatingEntry
from clubdesk.services import formats as F
from clubdesk.services.base import ServiceError
from clubdesk.standings.ratings import RatedMatch, RatingState, match_order_key, rate_matches

# Rule T12c rates matches in order: day of confirmation, then match id. ``rating_history`` rows are written
# in that order (their ids follow it), each with its match's day (``played_on``, migration 0011_speed), so
# a change re-rates only the matches from the changed one on (issue 22): a result of the latest round
# re-rates one match, a correction of an old one what follows it.
RateKey = tuple[date, int]


def _tavla_rulesets(s: Session) -> list[str]:
    out: list[str] = []
    for rs in s.scalars(select(Event.ruleset).distinct()):
        try:
            if F.ruleset_params(rs)[0] == "tavla":
                out.append(rs)
        except Exception:  # noqa: BLE001 - an unknown preset is no tavla event
            continue
    return out


def _rated_conditions(rulesets: list[str]) -> list[Any]:
    tavla_events = select(Event.id).where(Event.ruleset.in_(rulesets))
    return [
        Match.status == "confirmed",
        Match.kind == "played",
        Match.side_b.is_not(None),
        Match.winner.is_not(None),
        Match.event_id.in_(tavla_events),
    ]


def _rated_since(s: Session, since: RateKey | None) -> list[tuple[RatedMatch, int]]:
    """Played, confirmed tavla matches between single members from ``since`` on (all when None), in
    rating order, with their event: set-based (one query for the matches, one for their players)."""
    rulesets = _tavla_rulesets(s)
    if not rulesets:
        return []
    cond = _rated_conditions(rulesets)
    if since is not None:
        start = datetime.combine(since[0], time.min)
        cond.append(or_(Match.confirmed_at.is_(None), Match.confirmed_at >= start))
    rows = s.execute(
        select(
            Match.id,
            Match.event_id,
            Match.side_a,
            Match.side_b,
            Match.winner,
            Match.confirmed_at,
            Match.match_length,
        ).where(*cond)
    ).all()
    if not rows:
        return []
    sides = select(Match.side_a).where(*cond).union(select(Match.side_b).where(*cond))
    players: dict[int, list[int]] = {}
    for ent, mem in s.execute(
        select(EntrantMember.entrant_id, EntrantMember.member_id)
        .join(Member, Member.id == EntrantMember.member_id)
        .where(EntrantMember.left_at.is_(None), EntrantMember.entrant_id.in_(sides))
        .order_by(EntrantMember.id)
    ):
        players.setdefault(ent, []).append(mem)
    today = utcnow().date()
    out: list[tuple[RatedMatch, int]] = []
    for mid, ev_id, a, b, winner, confirmed_at, length in rows:
        ma, mb = players.get(a, []), players.get(b or 0, [])
        if len(ma) != 1 or len(mb) != 1:
            continue
        day = confirmed_at.date() if confirmed_at is not None else today
        if since is not None and (day, mid) < since:
            continue
        w, lo = (ma[0], mb[0]) if winner == a else (mb[0], ma[0])
        out.append((RatedMatch(str(mid), day, str(w), str(lo), length or 1, sequence=mid), ev_id))
    out.sort(key=lambda x: match_order_key(x[0]))
    return out


def _rerate(s: Session, cut: int | None, since: RateKey | None) -> None:
    """Delete the history from row ``cut`` on (nothing when None) and rate every match from ``since``
    (all when None) again, each member starting from his state just before."""
    tail: list[Any] = []
    if cut is not None:
        tail = list(
            s.execute(
                select(
                    RatingEntry.member_id,
                    RatingEntry.before,
                    RatingEntry.matches_before,
                    RatingEntry.experience_before,
                )
                .where(RatingEntry.id >= cut)
                .order_by(RatingEntry.id)
            )
        )
    initial: dict[str, RatingState] = {}
    for mem_id, before, mb, xb in tail:  # the state before a member's first re-rated match
        initial.setdefault(str(mem_id), RatingState(before, mb, xb))
    matches = _rated_since(s, since)
    if cut is not None:
        s.execute(delete(RatingEntry).where(RatingEntry.id >= cut))
    missing = {int(p) for rm, _e in matches for p in (rm.winner, rm.loser) if p not in initial}
    if missing:
        last = (
            select(func.max(RatingEntry.id))
            .where(RatingEntry.member_id.in_(missing))
            .group_by(RatingEntry.member_id)
        )
        for mem_id, after, mb, xb, n in s.execute(
            select(
                RatingEntry.member_id,
                RatingEntry.after,
                RatingEntry.matches_before,
                RatingEntry.experience_before,
                RatingEntry.match_length,
            ).where(RatingEntry.id.in_(last))
        ):
            initial[str(mem_id)] = RatingState(after, mb + 1, xb + n)
        for mem in s.scalars(
            select(Member).where(Member.id.in_([m for m in missing if str(m) not in initial]))
        ):
            initial[str(mem.id)] = RatingState(mem.rating, mem.rating_experience, mem.rating_experience)
    book = rate_matches([rm for rm, _e in matches], initial)
    event_of = {rm.match_id: e for rm, e in matches}
    counts: dict[str, tuple[int, int]] = {k: (v.matches, v.experience) for k, v in initial.items()}
    for ch in book.changes:
        mb, xb = counts.get(ch.member, (0, 0))
        s.add(
            RatingEntry(
                member_id=int(ch.member),
                opponent_id=int(ch.opponent),
                match_id=int(ch.match_id),
                event_id=event_of[ch.match_id],
                won=ch.won,
                match_length=ch.match_length,
                k=ch.k,
                before=ch.before,
                after=ch.after,
                matches_before=mb,
                experience_before=xb,
                played_on=ch.played_on,
            )
        )
        counts[ch.member] = (mb + 1, xb + ch.match_length)
    states = book.states
    if states:
        for mem in s.scalars(select(Member).where(Member.id.in_([int(k) for k in states]))):
            mem.rating = round(states[str(mem.id)].rating, 4)


def recompute_ratings(s: Session) -> None:
    """Rule T12c: every rated match again in order. Each member starts from his rating before his first
    ClubDesk match; ``rating_experience`` of the register counts as matches already finished (it decides
    the newcomer boost)."""
    s.flush()
    _rerate(s, s.scalar(select(func.min(RatingEntry.id))), None)


def rerate_from(s: Session, m: Match) -> None:
    """Rule T12c after a change to match ``m``: only the matches from it on are rated again (from its
    old place in the order when it moved or is no longer rated). A result of the latest round re-rates
    that match alone."""
    s.flush()
    if s.scalar(select(RatingEntry.id).where(RatingEntry.played_on.is_(None)).limit(1)) is not None:
        recompute_ratings(s)  # history written before 0011_speed without its days: once in full
        return
    cuts: list[int] = []
    keys: list[RateKey] = []
    old = s.execute(
        select(RatingEntry.id, RatingEntry.played_on)
        .where(RatingEntry.match_id == m.id)
        .order_by(RatingEntry.id)
        .limit(1)
    ).first()
    if old is not None:
        cuts.append(old[0])
        keys.append((old[1], m.id))
    rated_now = (
        m.status == "confirmed" and m.kind == "played" and m.side_b is not None and m.winner is not None
    )
    if rated_now:
        new_key = ((m.confirmed_at or utcnow()).date(), m.id)
        keys.append(new_key)
        nxt = s.execute(
            select(RatingEntry.id, RatingEntry.played_on, RatingEntry.match_id)
            .where(
                or_(
                    RatingEntry.played_on > new_key[0],
                    and_(RatingEntry.played_on == new_key[0], RatingEntry.match_id >= new_key[1]),
                )
            )
            .order_by(RatingEntry.played_on, RatingEntry.match_id, RatingEntry.id)
            .limit(1)
        ).first()
        if nxt is not None:
            cuts.append(nxt[0])
            keys.append((nxt[1], nxt[2]))
    if not keys:
        return  # neither rated before nor now: no rating changes
    _rerate(s, min(cuts) if cuts else None, min(keys))


def rating_history(db: Database, number: str) -> list[dict[str, Any]]:
    with db.session() as s:
        mem = s.scalar(select(Member).where(Member.number == number))
        if mem is None:
            raise ServiceError("no-such-member", _("There is no member {n}.").format(n=number))
        rows = s.scalars(select(RatingEntry).where(RatingEntry.member_id == mem.id).order_by(RatingEntry.id))
        return [
            {
                "match": r.match_id,
                "event": r.event_id,
                "won": r.won,
                "length": r.match_length,
                "k": r.k,
                "before": round(r.before, 4),
                "after": round(r.after, 4),
            }
            for r in rows
        ]
