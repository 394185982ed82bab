"""FIBS ratings of tavla members (rule T12c) stored as history, re-rated forward from a changed match,
and the background re-rating of an old correction (see
:mod:`clubdesk.services.night.play.followups`).
"""

from __future__ import annotations

import json
import time as _time
import uuid
from collections.abc import Callable
from datetime import date, datetime, time
from typing import Any

from sqlalchemy import and_, delete, func, or_, select
from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.club import Setting
from clubdesk.models.event import EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match, RatingEntry
from clubdesk.services.kernel import ServiceError
from clubdesk.services.night.ranking.ratings_background import (
    PENDING_KEY,
    in_background,
)

# the window's start-up needs these without the rating engine
from clubdesk.standings.ratings import RatedMatch, RatingState, match_order_key, rate_matches
from clubdesk.storage import Database

# Rule T12c rates matches in order: day of confirmation, then match id. ``rating_history`` rows are written
# in that order (their ids follow it), each with its match's day (``played_on``, migration 0011_speed), so
# a change re-rates only the matches from the changed one on: a result of the latest round
# re-rates one match, a correction of an old one what follows it.
RateKey = tuple[date, int]


def tavla_rulesets(s: Session) -> list[str]:
    out: list[str] = []
    for rs in s.scalars(select(Event.ruleset).distinct()):
        try:
            if formats.ruleset_params(rs)[0] == "tavla":
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
    rulesets = tavla_rulesets(s)
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


def _begin(
    s: Session, cut: int | None, since: RateKey | None
) -> tuple[dict[str, RatingState], list[tuple[RatedMatch, int]]]:
    """The first step of a re-rating: each member's state just before his first match from ``since`` on,
    and those matches in rating order; the history from row ``cut`` on (nothing when None) is deleted."""
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
    return initial, matches


def _rate_part(
    s: Session, part: list[tuple[RatedMatch, int]], states: dict[str, RatingState], touched: set[str]
) -> dict[str, RatingState]:
    """Rate ``part`` (in order) from ``states``, write its history rows and the members' ratings (of the
    members it rates, and of ``touched``); returns the states after it."""
    book = rate_matches([rm for rm, _e in part], states)
    event_of = {rm.match_id: e for rm, e in part}
    counts: dict[str, tuple[int, int]] = {k: (v.matches, v.experience) for k, v in states.items()}
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
        touched.add(ch.member)
    after = book.states
    if touched:
        for mem in s.scalars(select(Member).where(Member.id.in_([int(k) for k in touched]))):
            if str(mem.id) in after:
                mem.rating = round(after[str(mem.id)].rating, 4)
    return dict(after)


def _rerate(s: Session, cut: int | None, since: RateKey | None) -> None:
    """Delete the history from row ``cut`` on (nothing when None) and rate every match from ``since``
    (all when None) again, each member starting from his state just before."""
    initial, matches = _begin(s, cut, since)
    _rate_part(s, matches, initial, set(initial))


def recompute_ratings(s: Session) -> None:
    """Rule T12c: every rated match again in order. Each member starts from his rating before his first
    ClubDesk match; ``rating_experience`` of the register counts as matches already finished (it decides
    the newcomer boost). A background re-rating under way is covered by it, and stops."""
    s.flush()
    _rerate(s, s.scalar(select(func.min(RatingEntry.id))), None)
    _set_pending(s, None)


def _change_span(s: Session, m: Match) -> tuple[int | None, RateKey] | None:
    """Where a change to match ``m`` cuts the history: (first history row to re-rate or None, first match
    key to rate again); None when ``m`` was rated neither before nor now."""
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
        return None
    return (min(cuts) if cuts else None), min(keys)


def rerate_from(s: Session, m: Match, *, defer: bool = True) -> None:
    """Rule T12c after a change to match ``m``: only the matches from it on are rated again (from its
    old place in the order when it moved or is no longer rated). A result of the latest round re-rates
    that match alone.

    When the window re-rates in the background (:func:`rerate_in_background`) and more than
    :data:`BACKGROUND_AFTER` rated matches follow the change, or a background re-rating is already under
    way, the change is only noted (:func:`pending`) and :func:`catch_up` does the work, from the earliest
    changed match. ``defer=False`` (the correction preview) always re-rates here."""
    s.flush()
    if s.scalar(select(RatingEntry.id).where(RatingEntry.played_on.is_(None)).limit(1)) is not None:
        recompute_ratings(s)  # history written before 0011_speed without its days: once in full
        return
    span = _change_span(s, m)
    if span is None:
        return  # neither rated before nor now: no rating changes
    cut, since = span
    waiting = _pending(s)
    background = defer and in_background(s)
    if waiting is not None:
        cut, since = _merged(waiting, cut, since)
        if background:
            _note(s, cut, since)  # the running re-rating starts again from the earliest change
            return
    elif background and cut is not None and _following(s, cut) > BACKGROUND_AFTER:
        _note(s, cut, since)
        return
    _rerate(s, cut, since)
    if waiting is not None and defer:
        _set_pending(s, None)  # done here in full (no window to do it in the background)


# ------------------------------------------------------------------------------ background re-rating
# A correction of an old tavla match re-rates every rated match after it. With more than a
# handful of them the window saves the correction at once and re-rates in a worker thread (plain values
# only: the database, numbers and rating states), in short transactions, with progress in the status
# bar; a second correction meanwhile starts it again from the earliest changed match. What is still to
# do is kept in the settings row ``ratings.pending`` (so a re-rating cut short by closing the window
# goes on at the next start): {"cut": first history row to delete or null, "since": [day, match id],
# "generation": bumped by every change noted}. The command line re-rates at once (no window).
BACKGROUND_AFTER = 50  # rated matches after the changed one re-rated at once; more go to the background
CHUNK = 100  # matches per transaction of the background re-rating (about 0.05 s here)
STALE_AFTER = 60  # s without progress after which another window takes the re-rating over
PAUSE = 0.12  # s between two of them: the window's own transactions (BEGIN IMMEDIATE) get their turn


def _following(s: Session, cut: int) -> int:
    """The rated matches from history row ``cut`` on (two rows per match)."""
    rows = s.scalar(select(func.count()).select_from(RatingEntry).where(RatingEntry.id >= cut)) or 0
    return int(rows) // 2


def _pending(s: Session) -> dict[str, Any] | None:
    # FOR UPDATE on a club server (two desks note or re-rate at once); SQLite's BEGIN IMMEDIATE serialises
    row = s.get(Setting, PENDING_KEY, with_for_update=True)
    if row is None:
        return None
    data: dict[str, Any] = json.loads(row.value)
    return data


def _set_pending(s: Session, data: dict[str, Any] | None) -> None:
    row = s.get(Setting, PENDING_KEY)
    if data is None:
        if row is not None:
            s.delete(row)
        return
    value = json.dumps(data)
    if row is None:
        s.add(Setting(key=PENDING_KEY, value=value))
    else:
        row.value = value


def _key_of(raw: Any) -> RateKey:
    return date.fromisoformat(str(raw[0])), int(raw[1])


def _merged(waiting: dict[str, Any], cut: int | None, since: RateKey) -> tuple[int | None, RateKey]:
    cuts = [c for c in (waiting.get("cut"), cut) if c is not None]
    return (min(cuts) if cuts else None), min(since, _key_of(waiting["since"]))


def _note(s: Session, cut: int | None, since: RateKey) -> None:
    waiting = _pending(s)
    generation = 0
    if waiting is not None:
        cut, since = _merged(waiting, cut, since)
        generation = int(waiting.get("generation", 0)) + 1
    _set_pending(
        s,
        {**(waiting or {}), "cut": cut, "since": [since[0].isoformat(), since[1]], "generation": generation},
    )


def _claimed_elsewhere(waiting: dict[str, Any], me: str) -> bool:
    """Another worker (another desk's window) re-rates and showed progress lately."""
    worker, beat = waiting.get("worker"), waiting.get("beat")
    if worker in (None, me) or not beat:
        return False
    return (utcnow() - datetime.fromisoformat(str(beat))).total_seconds() < STALE_AFTER


def catch_up(
    db: Database,
    progress: Callable[[int, int], None] | None = None,
    *,
    chunk: int = CHUNK,
    stop: Callable[[], bool] | None = None,
    pause: float = PAUSE,
) -> int:
    """Do the re-rating :func:`rerate_from` noted (run by the window's worker thread; safe to call when
    nothing waits). Short transactions of ``chunk`` matches, each checking that no other change was noted
    meanwhile (else it starts again from the earliest changed match). One worker at a time: it claims the
    noted work (another desk's window takes it over only after :data:`STALE_AFTER` seconds without
    progress). ``stop()`` true: it stops between two parts (what is left waits in the database for the
    next start). Returns the matches re-rated."""
    done = 0
    me = uuid.uuid4().hex
    while True:
        with db.session() as s:
            waiting = _pending(s)
            if waiting is None or _claimed_elsewhere(waiting, me):
                return done  # nothing to do, or another desk's window is doing it
            waiting = {**waiting, "worker": me, "beat": utcnow().isoformat()}
            generation = waiting.get("generation", 0)
            cut = waiting.get("cut")
            states, matches = _begin(s, None if cut is None else int(cut), _key_of(waiting["since"]))
            touched = set(states)
            if not matches:
                _rate_part(s, [], states, touched)
                _set_pending(s, None)
                return done
            _set_pending(s, {**waiting, "cut": None})  # the history from the cut on is gone now
        total = len(matches)
        start = 0
        restarted = False
        while start < total:
            if stop is not None and stop():
                with db.session() as s:  # the rest waits, claimed by nobody
                    now = _pending(s)
                    if now is not None and now.get("worker") == me:
                        _set_pending(s, {**now, "worker": None})
                return done
            part = matches[start : start + chunk]
            with db.session() as s:
                now = _pending(s)
                if now is None or now.get("worker") != me:
                    return done  # done by a full re-rating, or taken over by another desk
                if now.get("generation", 0) != generation:
                    restarted = True  # another correction came meanwhile: again from the earliest
                    break
                now = {**now, "beat": utcnow().isoformat()}
                states = _rate_part(s, part, states, touched)
                touched = set()
                start += len(part)
                if start < total:
                    nxt = match_order_key(matches[start][0])
                    _set_pending(s, {**now, "cut": None, "since": [nxt[0].isoformat(), nxt[1]]})
                else:
                    _set_pending(s, None)
            done += len(part)
            if progress is not None:
                progress(start, total)
            if start < total:
                _time.sleep(pause)
        if not restarted:
            return done


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
