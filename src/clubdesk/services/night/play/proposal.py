"""The proposed round before it is published: the field it is drawn from, its new tables, the play-off
check, and the edits by hand (:func:`set_tables`) with their explanation.

:func:`clubdesk.services.night.play.rounds.propose_round` draws the proposal from these pieces; every
function that writes is one transaction with an audit row.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.competition import formats, playoffs
from clubdesk.competition.errors import CompetitionError
from clubdesk.i18n import _
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match
from clubdesk.models.round import EventNight, Round
from clubdesk.pairing import verify_pairing
from clubdesk.services.kernel import Actor, Changes, Role, ServiceError, audit, refusal, require
from clubdesk.services.night.data.reads import (
    BYE_FORMATS,
    DONE_STATUSES,
    entrant_names,
    get_event,
    matches_of,
    night,
    params_of,
    rounds_of,
    state_of,
    view,
)
from clubdesk.services.night.data.rows import (
    played_matches,
)
from clubdesk.services.night.play.answers import RoundResult
from clubdesk.services.night.play.pair_names import explain_round
from clubdesk.services.night.ranking.standings import compute_standings
from clubdesk.storage import Database


def the_field(s: Session, ev: Event, round_no: int) -> formats.Field:
    """Rule T3a: registered and checked in; latecomers from their first round; withdrawn ones are out.
    The players of every entrant in one query (no query per entrant)."""
    ids: list[str] = []
    ratings: dict[str, int] = {}
    clubs: dict[str, str | None] = {}
    players: dict[int, list[tuple[float, int | None]]] = {}
    for ent, rating, club in s.execute(
        select(EntrantMember.entrant_id, Member.rating, Member.club_id)
        .join(Member, Member.id == EntrantMember.member_id)
        .join(Entrant, Entrant.id == EntrantMember.entrant_id)
        .where(Entrant.event_id == ev.id, EntrantMember.left_at.is_(None))
        .order_by(EntrantMember.id)
    ):
        players.setdefault(ent, []).append((rating, club))
    for eid, status, checked_in, joins, own in s.execute(  # row tuples, no ORM object per entrant
        select(Entrant.id, Entrant.status, Entrant.checked_in_at, Entrant.joins_from_round, Entrant.rating)
        .where(Entrant.event_id == ev.id)
        .order_by(Entrant.id)
    ):
        if status != "registered" or checked_in is None:
            continue
        if joins and joins > round_no:
            continue
        key = str(eid)
        ids.append(key)
        members = players.get(eid, [])
        if own is not None:
            ratings[key] = round(own)
        elif members:
            ratings[key] = round(sum(r for r, _c in members) / len(members))
        club_ids = {c for _r, c in members}
        clubs[key] = f"club{club_ids.pop()}" if len(club_ids) == 1 and None not in club_ids else None
    return formats.Field(tuple(ids), ratings, clubs)


def set_tables(
    db: Database,
    actor: Actor,
    event_id: int,
    pairs: Sequence[tuple[int, int | None]],
    fixed_tables: Mapping[int, int] | None = None,
    *,
    force_reason: str = "",
) -> RoundResult:
    """Store a manually edited pairing of the PROPOSED round: ``pairs`` in table order (top table first;
    the pairing's bye, if any, may be anywhere), ``fixed_tables`` entrant -> table for an entrant who needs
    a fixed table (kept for later rounds too). The edit must seat exactly the proposed entrants and keep
    the hard rules of ``verify_pairing`` (no rematch T4e, one bye, never a second bye, no one out of
    lives T4g); a referee may force a rematch with a reason. In brackets, fixed schedules, leagues and
    play-offs the matches themselves are fixed: only table order and sides may change. Refused: nothing
    written."""
    require(actor, "rounds.edit", db)  # permission table
    fixed = {str(k): int(v) for k, v in (fixed_tables or {}).items()}
    with db.session() as s:
        ev = get_event(s, event_id)
        rounds = rounds_of(s, ev.id)
        if not rounds or rounds[-1].status != "proposed":
            raise ServiceError("no-proposed-round", _("There is no proposed round to change."))
        rnd = rounds[-1]
        n = night(s, ev)
        old = matches_of(s, ev.id, rnd.id)
        paired = [m for m in old if m.kind in ("played", "bye")]
        asked = [m for m in old if m.kind not in ("played", "bye")]  # requested byes stay as they are
        new = [(int(a), None if b is None else int(b)) for a, b in pairs]
        before_ids = sorted(x for m in paired for x in (m.side_a, m.side_b) if x is not None)
        after_ids = sorted(x for p in new for x in p if x is not None)
        names = entrant_names(s, ev.id)
        if before_ids != after_ids:
            raise ServiceError(
                "different-entrants",
                _("The edited pairing must seat exactly the entrants of the proposed round."),
            )
        refs = {frozenset((m.side_a, m.side_b)): m.ref for m in paired}
        forced = ""
        if (
            ev.format in (*formats.ELIMINATION, *formats.ROUND_ROBIN, "open-round-robin")
            or rnd.kind != "regular"
        ):
            if {frozenset(p) for p in new} != set(refs):
                raise ServiceError(
                    "fixed-pairs",
                    _("In this event the matches are fixed by the draw: only the table order can change."),
                )
        else:
            forced = _check_edit(s, ev, n, new, names, actor, force_reason)
            if {frozenset(p) for p in new} != set(refs):  # pairs changed by hand: explained again
                lines = explain_in(s, ev, new)
                if lines is not None:
                    kept_lines = json.loads(rnd.explanations or "[]")[len(paired) :]  # the requested byes
                    rnd.explanations = json.dumps([*lines, *kept_lines], ensure_ascii=False)
        real = [p for p in new if p[1] is not None]
        byes = [p for p in new if p[1] is None]
        try:
            order = formats.arrange_tables(
                [[str(x) for x in p if x is not None] for p in real], fixed
            )  # strict
        except CompetitionError as exc:
            raise refusal(exc) from exc
        real = [real[i] for i in order]
        before = view(s, ev, rnd).as_json()
        kept = [(m.side_a, m.kind) for m in asked]
        for m in old:
            s.delete(m)
        s.flush()
        for t, (a, b) in enumerate(real + byes, start=1):
            s.add(new_match(ev, rnd, t, a, b, refs.get(frozenset((a, b)), "")))
        for t, (e, kind) in enumerate(kept, start=len(real) + len(byes) + 1):
            s.add(new_match(ev, rnd, t, e, None, "", kind))
        if fixed:
            st = state_of(n)
            n.state = json.dumps({**st, "fixed_tables": {**fixed_tables_of(st), **fixed}})
        s.flush()
        out = view(s, ev, rnd)
        audit(
            s,
            actor,
            "set-tables",
            "round",
            rnd.id,
            before=before,
            after={**out.as_json(), "fixed_tables": fixed},
            event_id=ev.id,
            round_no=rnd.number,
            reason=forced or _("manual pairing edit"),
        )
        return RoundResult(out, Changes(ev.id, rnd.number, rounds=True))


def _check_edit(
    s: Session,
    ev: Event,
    n: EventNight,
    pairs: list[tuple[int, int | None]],
    names: dict[int, str],
    actor: Actor,
    force_reason: str,
) -> str:
    """Every hard rule the edited Swiss or lives pairing breaks, by the independent checker; refused unless
    the only breach is a rematch forced by a referee with a reason (returned)."""
    played = played_matches(s, ev)
    family, _p = params_of(ev)
    scheme = formats.points_scheme(family, n.encounter_games)
    ids = tuple(str(x) for p in pairs for x in p if x is not None)
    ents = formats.pairing_entrants(
        formats.Field(ids), played, scheme, lives=n.lives if ev.format == "lives" else None
    )
    # checked under the entrants' names, so that the message reads "Ann and Bob have already played"
    label = {e: names.get(int(e), e) for e in ids}
    if len(set(label.values())) < len(label):
        label = {e: f"{names.get(int(e), e)} ({e})" for e in ids}
    named = [
        replace(e, id=label[e.id], opponents=frozenset(label.get(o, o) for o in e.opponents)) for e in ents
    ]
    shown = [(label[str(a)], None if b is None else label[str(b)]) for a, b in pairs]
    problems = verify_pairing(named, shown)
    if not problems:
        return ""
    hard = verify_pairing(named, shown, allow_rematches=True)
    if not hard and actor.role is Role.REFEREE and force_reason.strip():
        return _("rematch forced by the referee: {r}").format(r=force_reason.strip())
    hint = "" if hard else " " + _("A referee can force a rematch with a reason.")
    raise ServiceError(
        "pairing-breaks-rules",
        _("The edited pairing breaks a rule: {p}").format(p=" ".join(problems)) + hint,
        problems=problems,
    )


def open_tables(s: Session, ev: Event) -> list[Match]:
    return [m for m in matches_of(s, ev.id) if m.status not in DONE_STATUSES]


def _total_rounds(ev: Event, st: dict[str, Any]) -> int | None:
    if ev.format in formats.ROUND_ROBIN:
        return len(st.get("schedule", [])) or None
    if ev.format == "swiss":
        return ev.rounds
    return None


def new_match(
    ev: Event, rnd: Round, table: int, a: str | int, b: str | int | None, ref: str, kind: str = ""
) -> Match:
    """A table of a proposed round: a game, the pairing's bye (a win), or a requested bye (``kind``)."""
    bye_kind = kind or ("bye" if b is None else "played")
    return Match(
        event_id=ev.id,
        round_id=rnd.id,
        round_no=rnd.number,
        table_no=table,
        side_a=int(a),
        side_b=None if b is None else int(b),
        ref=ref,
        status="bye" if b is None else "waiting",
        kind=bye_kind,
        match_length=rnd.match_length,
        winner=int(a) if bye_kind == "bye" else None,
        finished=b is None,
        scorer="",
        counter="",
        referee="",
        excuse="",
        seats="",
        note="",
        score_a=0,
        score_b=0,
        locked=False,
    )


def fixed_tables_of(st: dict[str, Any]) -> dict[str, int]:
    return {str(k): int(v) for k, v in st.get("fixed_tables", {}).items()}


def requested_for(st: dict[str, Any], ev: Event, number: int, fld: formats.Field) -> dict[str, str]:
    """Entrants of the field who asked for a bye in round ``number``: entrant -> bye kind."""
    if ev.format not in BYE_FORMATS:
        return {}
    asked = st.get("requested_byes", {})
    kind = str(st.get("requested_bye", "zero-bye"))
    return {e: kind for e, r in asked.items() if int(r) == number and e in fld.ids}


def playoff_or_over(
    ev: Event,
    n: EventNight,
    played: list[formats.Played],
    fld: formats.Field,
    names: dict[str, str],
    disqualified: Sequence[str] = (),
) -> tuple[list[tuple[str, str | None]], str, list[str], list[str]]:
    """Rule BC2: after the last round a tie on first place is settled by a play-off: (pairs, round kind,
    match refs ``PO1``..., explanation lines). Two or more tied: a knockout among them (see
    :class:`clubdesk.competition.playoffs.Playoff`)."""
    regular = [p for p in played if not formats.is_playoff(p)]
    # called once the schedule is played out and its tables confirmed: the regular rounds are complete
    st = compute_standings(
        ev, n, regular, standing_ids_from(played, fld), disqualified=disqualified, complete=True
    )
    tied = [r.entrant for r in st.rows if r.playoff and r.rank == 1]
    po = playoffs.playoff_progress(tied, played)
    if len(tied) < 2 or po.champion is not None:
        raise ServiceError("event-over", _("Every round has been played."))
    pairs: list[tuple[str, str | None]] = list(po.next_pairs())
    refs = [f"{formats.PLAYOFF_PREFIX}{po.matches + i}" for i in range(1, len(pairs) + 1)]
    lines = [
        _("Play-off for first place (rule BC2) among {n} tied: {ids}.").format(
            n=len(tied), ids=", ".join(names.get(e, e) for e in tied)
        )
    ]
    if len(po.remaining) % 2:
        lines.append(
            _("{e} is the best seed still in and waits for the next play-off round.").format(
                e=names.get(po.remaining[0], po.remaining[0])
            )
        )
    return pairs, "playoff", refs, lines


def standing_ids_from(played: list[formats.Played], fld: formats.Field) -> list[str]:
    ids = list(fld.ids)
    for p in played:
        for e in (p.a, p.b):
            if e is not None and e not in ids:
                ids.append(e)
    return ids


def explain_in(s: Session, ev: Event, pairs: Sequence[tuple[int, int | None]]) -> list[str] | None:
    """:func:`explain_pairing` inside an open session (``set_tables`` stores it after an edit)."""
    if ev.format not in ("swiss", "lives"):
        return None
    n = night(s, ev)
    rounds = rounds_of(s, ev.id)
    number = rounds[-1].number if rounds and rounds[-1].status == "proposed" else len(rounds) + 1
    played = [p for p in played_matches(s, ev) if p.round < number]
    family, _params = params_of(ev)
    scheme = formats.points_scheme(family, n.encounter_games)
    names = {str(k): v for k, v in entrant_names(s, ev.id).items()}
    spairs = [(str(a), None if b is None else str(b)) for a, b in pairs]
    paired = {e for p in spairs for e in p if e is not None}
    full = the_field(s, ev, number)
    if not paired <= set(full.ids):
        return None
    # the field as the round was paired: who is in the pairs (a requested bye sits out, T4e)
    fld = formats.Field(tuple(e for e in full.ids if e in paired), full.ratings, full.clubs)
    try:
        return explain_round(s, ev, number, fld, played, scheme, spairs, names, lives=n.lives)
    except (KeyError, ValueError):
        return None
