"""FIBS ratings of tavla members (rule T12c) stored as history, re-rated forward from a changed match,
and the background re-rating of an old correction (see
:mod:`clubdesk.services.night.play.followups`).
"""

from __future__ import annotations

import json
import time as _time
import uuid
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, func, select, tuple_
from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.club import Setting
from clubdesk.models.member import Member
from clubdesk.models.result import Match, RatingEntry
from clubdesk.services.kernel import ServiceError
from clubdesk.services.night.ranking.play_order import (
    ORDER_KEY,
    ORDER_OF_PLAY,
    RateKey,
    play_key,
    rated_since,
)
from clubdesk.services.night.ranking.ratings_background import (
    PENDING_KEY,
    in_background,
)

# the window's start-up needs these without the rating engine
from clubdesk.standings.ratings import RatedMatch, RatingState, match_order_key, rate_matches
from clubdesk.storage import Database


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
    matches = rated_since(s, since)
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
    marker = s.get(Setting, ORDER_KEY)
    if marker is None:
        s.add(Setting(key=ORDER_KEY, value=ORDER_OF_PLAY))
    else:
        marker.value = ORDER_OF_PLAY


def _order_outdated(s: Session) -> bool:
    """A history written before the days were stored (0011_speed), or by day of confirmation (before the
    order of play): it is rated again in full once."""
    marker = s.get(Setting, ORDER_KEY)
    if marker is not None and marker.value == ORDER_OF_PLAY:
        return s.scalar(select(RatingEntry.id).where(RatingEntry.played_on.is_(None)).limit(1)) is not None
    if s.scalar(select(RatingEntry.id).limit(1)) is None:  # nothing rated yet: written in order from now
        if marker is None:
            s.add(Setting(key=ORDER_KEY, value=ORDER_OF_PLAY))
        else:
            marker.value = ORDER_OF_PLAY
        return False
    return True


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
    if old is not None and old[1] is not None:  # every row has its day (else _order_outdated re-rates all)
        cuts.append(old[0])
        keys.append((old[1], m.round_no, m.table_no, m.id))
    rated_now = (
        m.status == "confirmed" and m.kind == "played" and m.side_b is not None and m.winner is not None
    )
    new_key = play_key(s, m.id) if rated_now else None
    if new_key is not None:  # the first history row at or after the match's place in the order of play
        keys.append(new_key)
        order = (RatingEntry.played_on, Match.round_no, Match.table_no, RatingEntry.match_id)
        nxt = s.execute(
            select(RatingEntry.id, *order)
            .join(Match, Match.id == RatingEntry.match_id)
            .where(tuple_(*order) >= tuple_(*new_key))
            .order_by(*order, RatingEntry.id)
            .limit(1)
        ).first()
        if nxt is not None and nxt[1] is not None:
            cuts.append(nxt[0])
            keys.append((nxt[1], nxt[2], nxt[3], nxt[4]))
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
    if _order_outdated(s):
        recompute_ratings(s)  # a history in another order (or without its days): once in full
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
    if len(raw) == 2:  # noted before the order of play: (day, match id) -> from that day's start
        return date.fromisoformat(str(raw[0])), 0, 0, 0
    return date.fromisoformat(str(raw[0])), int(raw[1]), int(raw[2]), int(raw[3])


def _since_json(since: RateKey) -> list[Any]:
    return [since[0].isoformat(), since[1], since[2], since[3]]


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
        {**(waiting or {}), "cut": cut, "since": _since_json(since), "generation": generation},
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
                    since_next = (nxt[0], nxt[1], nxt[2], nxt[3])
                    _set_pending(s, {**now, "cut": None, "since": _since_json(since_next)})
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
