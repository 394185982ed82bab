"""Rounds of a competition night: propose (seeded), edit by hand, throw away, publish (tables, call time),
take back, lock (T10) and postpone (G20). Withdrawal (T9b) and the open league's deadline (BC3) are
:mod:`clubdesk.services.night.play.forfeits`, the night settings :mod:`clubdesk.services.night.data.settings`.
The field, the proposal's new tables and the edits by hand (``set_tables``) are
:mod:`clubdesk.services.night.play.proposal`.

Every function is one transaction and writes an audit row with the event, round and table set.
"""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import select

from clubdesk.competition import formats, seating
from clubdesk.competition.table_call import default_call_at
from clubdesk.i18n import _
from clubdesk.models.audit import AuditEntry
from clubdesk.models.base import utcnow
from clubdesk.models.event import Event
from clubdesk.models.result import ResultEntry
from clubdesk.models.round import Round
from clubdesk.pairing import PairingImpossible, explain_lives, explain_swiss
from clubdesk.pairing.league import OpenLeague
from clubdesk.services.kernel import Actor, Changes, Role, ServiceError, audit, require
from clubdesk.services.night.data.reads import (
    FINAL_STATUSES,
    RoundView,
    TableView,
    audit_match,
    disqualified_ids,
    entrant_members,
    entrant_names,
    find_table,
    get_event,
    local_now,
    match_length_for,
    matches_of,
    night,
    params_of,
    rounds_of,
    state_of,
    table_view,
    view,
    withdrawn_ids,
)
from clubdesk.services.night.data.rows import (
    played_matches,
)
from clubdesk.services.night.data.tokens import drop_tokens, ensure_in
from clubdesk.services.night.play.answers import RoundDiscarded, RoundResult
from clubdesk.services.night.play.followups import after_change
from clubdesk.services.night.play.forfeits import apply_forfeit
from clubdesk.services.night.play.pair_names import club_names, named, with_names
from clubdesk.services.night.play.proposal import (
    fixed_tables_of,
    new_match,
    open_tables,
    playoff_or_over,
    requested_for,
    the_field,
)
from clubdesk.storage import Database, lock_event

# ------------------------------------------------------------------------------------------ propose


def propose_round(db: Database, actor: Actor, event_id: int, seed: int | None = None) -> RoundView:
    """Propose the next round from the event's format (nothing is final until published)."""
    require(actor, "rounds.edit", db)  # permission table
    with db.session() as s:
        lock_event(s, event_id)  # one desk at a time per event (places, payments, rounds)
        ev = get_event(s, event_id)
        n = night(s, ev)
        rounds = rounds_of(s, ev.id)
        if rounds and rounds[-1].status == "proposed":
            raise ServiceError(
                "round-proposed",
                _("Round {r} is already proposed: publish it or throw it away first.").format(
                    r=rounds[-1].number
                ),
            )
        if ev.status in ("draft",):
            raise ServiceError("event-not-open", _("The event is still a draft."))
        elif n.finished_at is not None:
            raise ServiceError("event-finished", _("The event is finished."))
        number = rounds[-1].number + 1 if rounds else 1
        seed = number * 7919 + ev.id if seed is None else seed
        st = state_of(n)
        played = played_matches(s, ev)
        family, _params = params_of(ev)
        scheme = formats.points_scheme(family, n.encounter_games)
        fld = the_field(s, ev, number)
        asked = requested_for(st, ev, number, fld)
        if asked:  # an entrant who asked for a bye is left out of the pairing
            fld = formats.Field(tuple(e for e in fld.ids if e not in asked), fld.ratings, fld.clubs)
        busy = {x for m in open_tables(s, ev) for x in (m.side_a, m.side_b) if x is not None}
        if (
            busy
            and ev.format != "open-round-robin"
            and not all(m.status == "postponed" for m in open_tables(s, ev))
        ):
            raise ServiceError(
                "round-open",
                _("Round {r} still has tables without a confirmed result.").format(r=number - 1),
            )
        names = {str(k): v for k, v in entrant_names(s, ev.id).items()}
        pairs: list[tuple[str, str | None]] = []
        refs: list[str] = []
        lines: list[str] = []
        kind = "regular"
        try:
            if ev.format in formats.ELIMINATION:
                if "bracket" not in st:
                    if len(fld.ids) < 2:
                        raise ServiceError("too-few", _("A bracket needs at least 2 checked-in entrants."))
                    st["bracket"] = formats.new_bracket(ev.format, fld, seed).to_data()
                br = formats.bracket_with_results(st["bracket"], played)
                if br.champion() is not None and br.finished:
                    raise ServiceError("event-over", _("The bracket is finished."))
                busy_s = {str(x) for x in busy}
                for bm in br.ready():
                    a, b = br.sides(bm.id)
                    if a is None or b is None or a in busy_s or b in busy_s:
                        continue
                    pairs.append((a, b))
                    refs.append(bm.id)
                    lines.append(with_names(f"{bm.id}: " + " / ".join(br.explain(bm.id)), (a, b), names))
            elif ev.format in formats.ROUND_ROBIN:
                if "schedule" not in st:
                    st["schedule"] = formats.round_robin_plan(
                        fld.ids, double=ev.format == "double-round-robin", seed=seed
                    )
                sched = st["schedule"]
                if number > len(sched):
                    pairs, kind, refs, lines = playoff_or_over(
                        ev, n, played, fld, names, disqualified_ids(s, ev)
                    )
                else:
                    pairs = [(a, b) for a, b in sched[number - 1]]
                    lines = [_("Berger table (rule T4f), round {r}.").format(r=number)]
            elif ev.format == "open-round-robin":
                if "league" not in st:
                    st["league"] = OpenLeague.create(list(fld.ids), double=False, seed=seed).to_data()
                lg = formats.league_with_results(st["league"], played)
                if not lg.pending():
                    pairs, kind, refs, lines = playoff_or_over(
                        ev, n, played, fld, names, disqualified_ids(s, ev)
                    )
                else:
                    busy_s = {str(x) for x in busy}
                    absent = set(lg.entrants) - set(fld.ids)
                    for a, b in lg.suggest(busy_s | absent):
                        ref = next(m.id for m in lg.pending() if {m.home, m.away} == {a, b})
                        pairs.append((a, b))
                        refs.append(ref)
                        lines.append(with_names(lg.explain(ref), (a, b), names))  # in names
                    if not pairs:
                        raise ServiceError("nothing-to-pair", _("No pending match has both sides free."))
            elif ev.format == "lives":
                alive = [e for e, v in formats.lives_left(fld.ids, played, n.lives).items() if v > 0]
                if len(alive) < 2:
                    raise ServiceError("event-over", _("Fewer than two entrants have lives left."))
                ents = formats.pairing_entrants(fld, played, scheme, lives=n.lives)
                pairs = formats.propose_lives(fld, played, scheme, seed, lives=n.lives, entrants=ents)
                lines = named(explain_lives, ents, pairs, names, club_names(s))  # in names
            else:  # swiss
                total = ev.rounds
                if total is not None and number > total:
                    pairs, kind, refs, lines = playoff_or_over(
                        ev, n, played, fld, names, disqualified_ids(s, ev)
                    )
                else:
                    ents = formats.pairing_entrants(fld, played, scheme)  # once for the pairing and its lines
                    pairs = formats.propose_swiss(fld, played, scheme, seed, round_no=number, entrants=ents)
                    lines = named(  # in names, not entrant ids or club keys
                        explain_swiss, ents, pairs, names, club_names(s), club_protection=number == 1
                    )
        except PairingImpossible as exc:
            raise ServiceError("pairing-impossible", exc.reason) from exc
        if not pairs:
            raise ServiceError("nothing-to-pair", _("There is nothing to pair."))
        n.state = json.dumps(st)
        rnd = Round(
            event_id=ev.id,
            number=number,
            status="proposed",
            kind=kind,
            seed=seed,
            match_length=match_length_for(ev, number),
            explanations=json.dumps(lines, ensure_ascii=False),
        )
        s.add(rnd)
        s.flush()
        real = [(p, refs[i] if i < len(refs) else "") for i, p in enumerate(pairs) if p[1] is not None]
        byes = [(p, refs[i] if i < len(refs) else "") for i, p in enumerate(pairs) if p[1] is None]
        order = formats.arrange_tables(
            [[x for x in p if x] for p, _r in real], fixed_tables_of(st), strict=False
        )
        real = [real[i] for i in order]  # an entrant who needs a fixed table keeps it
        for t, ((a, b), ref) in enumerate(real + byes, start=1):
            s.add(new_match(ev, rnd, t, a, b, ref))
        for t, (e, bye_kind) in enumerate(sorted(asked.items()), start=len(real) + len(byes) + 1):
            s.add(new_match(ev, rnd, t, e, None, "", bye_kind))  # the requested bye (T4e, T4g, league)
        if asked:
            lines.append(
                _("Requested bye this round: {names}.").format(
                    names=", ".join(names.get(e, e) for e in sorted(asked))
                )
            )
            rnd.explanations = json.dumps(lines, ensure_ascii=False)
        s.flush()
        out = view(s, ev, rnd)
        audit(
            s,
            actor,
            "propose",
            "round",
            rnd.id,
            after=out.as_json(),
            event_id=ev.id,
            round_no=number,
            reason=f"seed {seed}",
        )
        return out


def discard_round(db: Database, actor: Actor, event_id: int) -> RoundDiscarded:
    """Throw away the proposed round (to pair again, e.g. with another seed)."""
    require(actor, "rounds.edit", db)  # permission table
    with db.session() as s:
        lock_event(s, event_id)  # one desk at a time per event (places, payments, rounds)
        ev = get_event(s, event_id)
        rounds = rounds_of(s, ev.id)
        if not rounds or rounds[-1].status != "proposed":
            raise ServiceError("no-proposed-round", _("There is no proposed round to throw away."))
        rnd = rounds[-1]
        before = view(s, ev, rnd).as_json()
        for m in matches_of(s, ev.id, rnd.id):
            s.delete(m)
        s.flush()
        n = night(s, ev)
        if rnd.number == 1:  # the draw itself is thrown away with round 1
            n.state = "{}"
        s.delete(rnd)
        audit(s, actor, "discard", "round", rnd.id, before=before, event_id=ev.id, round_no=rnd.number)
        return RoundDiscarded(rnd.number, Changes(ev.id, rnd.number, rounds=True))


def publish_round(
    db: Database,
    actor: Actor,
    event_id: int,
    call_at: datetime | None = None,
    start_at: datetime | None = None,
) -> RoundResult:
    """The proposed round becomes official: tables numbered top tables first, call time recorded (T3b) and
    the match start when given (G15; local wall-clock times). Confirmed results of earlier rounds are locked
    (rule T10). The call defaults to now plus the night's call notice (``call_minutes``), never after the
    start: the sides get their waiting time before anyone can be forfeited (T3b, G15)."""
    require(actor, "rounds.edit", db)  # permission table
    if start_at is not None and call_at is not None and start_at < call_at:
        raise ServiceError("start-before-call", _("The match cannot start before the tables are called."))
    with db.session() as s:
        lock_event(s, event_id)  # one desk at a time per event (places, payments, rounds)
        ev = get_event(s, event_id)
        rounds = rounds_of(s, ev.id)
        if not rounds or rounds[-1].status != "proposed":
            raise ServiceError("no-proposed-round", _("There is no proposed round to publish."))
        rnd = rounds[-1]
        now = utcnow()
        rnd.status = "published"
        rnd.published_at = now
        # local wall-clock, as the secretary types times
        rnd.call_at = call_at or default_call_at(local_now(), night(s, ev).call_minutes, start_at)
        rnd.start_at = start_at  # rule G15
        ev.current_round = rnd.number
        if ev.status not in ("running", "finished"):
            ev.status = "running"
        locked: list[int] = []
        for m in matches_of(s, ev.id):
            if m.round_no < rnd.number and m.status in FINAL_STATUSES and not m.locked:
                m.locked = True  # rule T10: the next round has started
                locked.append(m.id)
        family, _p = params_of(ev)
        for m in matches_of(s, ev.id, rnd.id):
            if family == "domino" and m.side_b is not None:
                a = [x.number for x in entrant_members(s, m.side_a)][:2]
                b = [x.number for x in entrant_members(s, m.side_b)][:2]
                if len(a) == 2 and len(b) == 2:
                    m.seats = json.dumps(seating.seat_draw(rnd.seed * 1000 + m.table_no, a, b))  # rule E7
        gone = withdrawn_ids(s, ev)
        forfeited: list[int] = []
        if gone:
            for m in matches_of(s, ev.id, rnd.id):
                # rule T9b: a fixed schedule still pairs a withdrawn entrant; he forfeits the match
                if m.side_b is not None and (m.side_a in gone or m.side_b in gone):
                    absent = 0 if m.side_a in gone else 1
                    apply_forfeit(
                        s, actor, ev, m, absent, reason=_("withdrawn (rule T9b)"), kind="withdrawal"
                    )
                    forfeited.append(m.table_no)
            if forfeited:
                after_change(s, ev)
        out = view(s, ev, rnd)
        ensure_in(s, ev.id, rnd.number)  # every table of the round gets its phones' token
        audit(
            s,
            actor,
            "publish",
            "round",
            rnd.id,
            after={**out.as_json(), "locked": locked, "forfeited": forfeited},
            event_id=ev.id,
            round_no=rnd.number,
        )
        return RoundResult(out, round_changes(ev, rnd))


def round_changes(ev: Event, rnd: Round) -> Changes:
    """A round published or taken back: the round, its byes and forfeits in the standings, the event's
    current round; its places and prizes when the event ended or re-opened with it."""
    return Changes(ev.id, rnd.number, rounds=True, standings=True, money=ev.status == "finished", event=True)


def unpublish_round(
    db: Database, actor: Actor, event_id: int, reason: str, *, now: datetime | None = None
) -> RoundResult:
    """Rule T10: the referee takes back the latest published round (it becomes proposed again) while no
    table of it has an entry or a result and its start time has not passed; the results that publishing
    it locked unlock. Reason required; audited. After that point the earlier round stays locked."""
    if actor.role is not Role.REFEREE:
        raise ServiceError("referee-only", _("Only the referee can unpublish a round (rule T10)."))
    require(actor, "rounds.edit", db)  # permission table
    if not reason.strip():
        raise ServiceError("reason-required", _("Say why the round is unpublished."))
    now = now or local_now()
    with db.session() as s:
        lock_event(s, event_id)  # one desk at a time per event (places, payments, rounds)
        ev = get_event(s, event_id)
        rounds = rounds_of(s, ev.id)
        if not rounds or rounds[-1].status == "proposed":
            raise ServiceError("no-published-round", _("There is no published round to take back."))
        rnd = rounds[-1]
        if rnd.status != "published":
            raise ServiceError(
                "round-started",
                _("Round {r} has started (a result was entered): it stays published (rule T10).").format(
                    r=rnd.number
                ),
            )
        if rnd.start_at is not None and now >= rnd.start_at:
            raise ServiceError(
                "round-started",
                _("Round {r} started at {t}: it stays published (rule T10).").format(
                    r=rnd.number, t=rnd.start_at.strftime("%H:%M")
                ),
            )
        ms = matches_of(s, ev.id, rnd.id)
        ids = [m.id for m in ms]
        has_entry = bool(ids) and s.scalar(
            select(ResultEntry.id).where(ResultEntry.match_id.in_(ids)).limit(1)
        )
        busy = [m.table_no for m in ms if m.side_b is not None and m.status != "waiting"]
        if has_entry or busy:
            raise ServiceError(
                "round-started",
                _("Round {r} has a table with an entry or a result: it stays published (rule T10).").format(
                    r=rnd.number
                ),
            )
        before = view(s, ev, rnd)
        # the results that publishing this round locked (its audit row) unlock
        row = s.scalars(
            select(AuditEntry)
            .where(
                AuditEntry.event_id == ev.id,  # the event's index (none on action alone)
                AuditEntry.action == "publish",
                AuditEntry.entity == "round",
                AuditEntry.entity_id == str(rnd.id),
            )
            .order_by(AuditEntry.id.desc())
        ).first()
        locked = [int(x) for x in (json.loads(row.after or "{}").get("locked", []) if row else [])]
        unlocked: list[int] = []
        for m in matches_of(s, ev.id):
            if m.id in locked and m.locked:
                m.locked = False
                unlocked.append(m.id)
        rnd.status = "proposed"
        rnd.published_at = None
        rnd.call_at = None
        rnd.start_at = None
        for m in ms:
            m.seats = ""
        drop_tokens(s, ev.id, rnd.number)  # the withdrawn tables' phone pages open nothing
        earlier = [r for r in rounds[:-1] if r.status != "proposed"]
        ev.current_round = earlier[-1].number if earlier else 0
        out = view(s, ev, rnd)
        audit(
            s,
            actor,
            "unpublish",
            "round",
            rnd.id,
            before={**before.as_json(), "status": before.status},
            after={**out.as_json(), "status": out.status, "unlocked": unlocked},
            event_id=ev.id,
            round_no=rnd.number,
            reason=reason,
        )
        return RoundResult(out, round_changes(ev, rnd))


def postpone(
    db: Database, actor: Actor, event_id: int, round_no: int, table_no: int, new_date: datetime, reason: str
) -> TableView:
    """Rule G20: force majeure; the match stays open until played or forfeited."""
    if not reason.strip():
        raise ServiceError("reason-required", _("Say why the match is postponed."))
    with db.session() as s:
        ev = get_event(s, event_id)
        rnd, m = find_table(s, ev, round_no, table_no)
        if m.status in FINAL_STATUSES:
            raise ServiceError("already-final", _("This table already has a final result."))
        before = m.status
        m.status = "postponed"
        m.postponed_to = new_date
        audit_match(
            s,
            actor,
            "postpone",
            ev,
            m,
            before={"status": before},
            after={"status": "postponed", "to": new_date.isoformat()},
            reason=reason,
        )
        return table_view(m, entrant_names(s, ev.id))
