"""Rounds of a competition night: propose (seeded), throw away, publish (tables, call time), lock (T10),
postpone (G20), withdrawal (T9b) and the open league's deadline (BC3).

Every function is one transaction and writes an audit row with the event, round and table set.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.db import Database, lock_event
from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match
from clubdesk.models.round import EventNight, Round
from clubdesk.pairing import PairingImpossible, explain_lives, explain_swiss, verify_pairing
from clubdesk.pairing.league import OpenLeague
from clubdesk.services import formats as F
from clubdesk.services.base import Actor, Role, ServiceError, audit

FINAL_STATUSES = ("confirmed", "bye")
BYE_FORMATS = ("swiss", "lives", "open-round-robin")  # a requested bye (T4e, T4g, league)
DONE_STATUSES = ("confirmed", "bye", "postponed")


# ------------------------------------------------------------------------------------------ plain views
@dataclass(frozen=True)
class TableView:
    table: int
    sides: tuple[int, int | None]
    names: tuple[str, str | None]
    status: str
    kind: str
    score: tuple[int, int]
    points: tuple[int, int] | None
    winner: int | None
    ref: str
    locked: bool
    scorer: str
    counter: str
    match_length: int | None
    seats: dict[str, Any] | None
    version: int = 0  # issue 25: the match version this view was read at (give it back when changing)


@dataclass(frozen=True)
class RoundView:
    event: int
    round: int
    status: str
    kind: str
    seed: int
    call_at: datetime | None
    tables: tuple[TableView, ...]
    explanations: tuple[str, ...]
    start_at: datetime | None = None  # rule G15: the match start
    forfeit_due: datetime | None = None  # from this time an absent side can be forfeited (G15 / T3b)
    forfeit_rule: str = ""  # "G15" (before the start) or "T3b" (after the table call)

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "tables": [{"table": t.table, "sides": [t.sides[0], t.sides[1]]} for t in self.tables],
        }


# ------------------------------------------------------------------------------------------ loading
def get_event(s: Session, event_id: int) -> Event:
    ev = s.get(Event, event_id)
    if ev is None:
        raise ServiceError("no-such-event", _("There is no event {id}.").format(id=event_id), event=event_id)
    return ev


def night(s: Session, ev: Event) -> EventNight:
    n = s.get(EventNight, ev.id)
    if n is None:
        n = EventNight(
            event_id=ev.id,
            result_mode="entries",
            tiebreaks="",
            lives=2,
            call_minutes=ev.arrival_deadline_minutes or 10,
            encounter_games=2 if ev.entry_type == "team" and ev.ruleset == "domino-es" else 0,
            state="{}",
            prize_plan="{}",
            season_scale="{}",
        )
        s.add(n)
        s.flush()
    return n


def state_of(n: EventNight) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(n.state or "{}")
    return data


def params_of(ev: Event) -> tuple[str, dict[str, Any]]:
    overrides = json.loads(ev.ruleset_overrides or "{}")
    if ev.target:
        overrides.setdefault("target", ev.target)
    return F.ruleset_params(ev.ruleset, overrides)


def match_length_for(ev: Event, round_no: int) -> int | None:
    """Rule T8a: the match length of each round (the last one given goes on)."""
    family, params = params_of(ev)
    if family != "tavla":
        return None
    lengths = [int(x) for x in json.loads(ev.match_lengths or "[]")]
    if lengths:
        return lengths[min(round_no, len(lengths)) - 1]
    return int(params.get("match_length", 5))


def rounds_of(s: Session, event_id: int) -> list[Round]:
    return list(s.scalars(select(Round).where(Round.event_id == event_id).order_by(Round.number)))


def matches_of(s: Session, event_id: int, round_id: int | None = None) -> list[Match]:
    q = select(Match).where(Match.event_id == event_id)
    if round_id is not None:
        q = q.where(Match.round_id == round_id)
    return list(s.scalars(q.order_by(Match.round_no, Match.table_no)))


def entrant_names(s: Session, event_id: int) -> dict[int, str]:
    return {e.id: e.name for e in s.scalars(select(Entrant).where(Entrant.event_id == event_id))}


def played_matches(s: Session, ev: Event) -> list[F.Played]:
    """Final tables (confirmed results, forfeits, byes) and latecomers' missed rounds as zero-point byes.
    Row tuples, not ORM objects (issue 22: a 20,000-match league)."""
    out: list[F.Played] = []
    seen: dict[int, set[int]] = {}
    published = set(
        s.scalars(select(Round.number).where(Round.event_id == ev.id, Round.status != "proposed"))
    )
    rows = s.execute(
        select(
            Match.round_no,
            Match.side_a,
            Match.side_b,
            Match.status,
            Match.kind,
            Match.score_a,
            Match.score_b,
            Match.points_a,
            Match.points_b,
            Match.winner,
            Match.ref,
        )
        .where(Match.event_id == ev.id)
        .order_by(Match.round_no, Match.table_no)
    )
    for rno, a, b, status, kind, sa, sb, pa, pb, winner, ref in rows:
        seen.setdefault(rno, set()).update({a, *([b] if b else [])})
        if status not in FINAL_STATUSES or rno not in published:
            continue  # a proposed round's bye is not final until the round is published
        out.append(
            F.Played(
                rno,
                str(a),
                None if b is None else str(b),
                kind,
                sa,
                sb,
                pa,
                pb,
                None if winner is None else str(winner),
                ref,
            )
        )
    # rule T3a (desk issue): a latecomer's rounds before joining are zero-point byes
    if ev.format in ("swiss", "lives", "open-round-robin"):
        for e in s.scalars(select(Entrant).where(Entrant.event_id == ev.id)):
            if e.joins_from_round:
                for r in sorted(published):
                    if r < e.joins_from_round and e.id not in seen.get(r, set()):
                        out.append(F.Played(r, str(e.id), None, "zero-bye"))
    return out


def standing_ids(s: Session, ev: Event) -> list[str]:
    """Everybody who has played or been drawn (withdrawn entrants keep their results, T9b). Set-based:
    two queries whatever the field (issue 22)."""
    drawn = set(s.scalars(select(Match.side_a).where(Match.event_id == ev.id)))
    drawn |= set(s.scalars(select(Match.side_b).where(Match.event_id == ev.id, Match.side_b.is_not(None))))
    ids: list[str] = []
    for eid, status, checked_in in s.execute(
        select(Entrant.id, Entrant.status, Entrant.checked_in_at)
        .where(Entrant.event_id == ev.id)
        .order_by(Entrant.id)
    ):
        if eid in drawn or (status == "registered" and checked_in is not None):
            ids.append(str(eid))
    return ids


def entrant_members(s: Session, entrant_id: int) -> list[Member]:
    rows = s.scalars(
        select(Member)
        .join(EntrantMember, EntrantMember.member_id == Member.id)
        .where(EntrantMember.entrant_id == entrant_id, EntrantMember.left_at.is_(None))
        .order_by(EntrantMember.id)
    )
    return list(rows)


def the_field(s: Session, ev: Event, round_no: int) -> F.Field:
    """Rule T3a: registered and checked in; latecomers from their first round; withdrawn ones are out.
    The players of every entrant in one query (issue 22: no query per entrant)."""
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
    for e in s.scalars(select(Entrant).where(Entrant.event_id == ev.id).order_by(Entrant.id)):
        if e.status != "registered" or e.checked_in_at is None:
            continue
        if e.joins_from_round and e.joins_from_round > round_no:
            continue
        ids.append(str(e.id))
        members = players.get(e.id, [])
        if e.rating is not None:
            ratings[str(e.id)] = round(e.rating)
        elif members:
            ratings[str(e.id)] = round(sum(r for r, _c in members) / len(members))
        club_ids = {c for _r, c in members}
        clubs[str(e.id)] = f"club{club_ids.pop()}" if len(club_ids) == 1 and None not in club_ids else None
    return F.Field(tuple(ids), ratings, clubs)


def find_round(s: Session, ev: Event, number: int) -> Round:
    rnd = s.scalar(select(Round).where(Round.event_id == ev.id, Round.number == number))
    if rnd is None:
        raise ServiceError("no-such-round", _("Event {e} has no round {r}.").format(e=ev.id, r=number))
    return rnd


def find_table(s: Session, ev: Event, round_no: int, table_no: int) -> tuple[Round, Match]:
    rnd = find_round(s, ev, round_no)
    m = s.scalar(select(Match).where(Match.round_id == rnd.id, Match.table_no == table_no))
    if m is None:
        raise ServiceError(
            "no-such-table",
            _("Round {r} has no table {t}.").format(r=round_no, t=table_no),
            round=round_no,
            table=table_no,
        )
    return rnd, m


def table_view(m: Match, names: dict[int, str]) -> TableView:
    return TableView(
        m.table_no,
        (m.side_a, m.side_b),
        (names.get(m.side_a, str(m.side_a)), None if m.side_b is None else names.get(m.side_b)),
        m.status,
        m.kind,
        (m.score_a, m.score_b),
        None if m.points_a is None or m.points_b is None else (m.points_a, m.points_b),
        m.winner,
        m.ref,
        m.locked,
        m.scorer,
        m.counter,
        m.match_length,
        json.loads(m.seats) if m.seats else None,
        m.version or 0,
    )


def forfeit_deadline(s: Session, ev: Event, rnd: Round) -> tuple[datetime | None, str]:
    """When an absent side can be forfeited, and the rule that says so.

    The ruleset's ``forfeit_from`` says what the night's waiting time counts from: ``"start"`` (rule G15,
    gaple: present N minutes *before* the match starts, so the deadline is start - N; without a recorded
    start time the table call is the start) or ``"call"`` (rule T3b, tavla: N minutes *after* the table
    call). N is the night's ``call_minutes`` (default 10)."""
    n = night(s, ev)
    _family, params = params_of(ev)
    minutes = timedelta(minutes=n.call_minutes)
    if params.get("forfeit_from", "call") == "start":
        base = rnd.start_at or rnd.call_at or rnd.published_at
        return (base - minutes if base else None), "G15"
    base = rnd.call_at or rnd.published_at
    return (base + minutes if base else None), "T3b"


def view(s: Session, ev: Event, rnd: Round) -> RoundView:
    names = entrant_names(s, ev.id)
    due, rule = forfeit_deadline(s, ev, rnd) if rnd.status != "proposed" else (None, "")
    return RoundView(
        ev.id,
        rnd.number,
        rnd.status,
        rnd.kind,
        rnd.seed,
        rnd.call_at,
        tuple(table_view(m, names) for m in matches_of(s, ev.id, rnd.id)),
        tuple(json.loads(rnd.explanations or "[]")),
        rnd.start_at,
        due,
        rule,
    )


def get_round(db: Database, event_id: int, round_no: int | None = None) -> RoundView:
    """A round (the latest when ``round_no`` is None)."""
    with db.session() as s:
        ev = get_event(s, event_id)
        rounds = rounds_of(s, ev.id)
        if not rounds:
            raise ServiceError("no-round", _("Event {e} has no round yet.").format(e=ev.id))
        rnd = rounds[-1] if round_no is None else find_round(s, ev, round_no)
        return view(s, ev, rnd)


def default_event(db: Database) -> int | None:
    """The event a night screen opens on: the running event whose latest round was published most
    recently; None when no event is running with a published round (the screen then shows its first)."""
    with db.session() as s:
        row = s.execute(
            select(Round.event_id)
            .join(Event, Event.id == Round.event_id)
            .where(Event.status == "running", Round.published_at.is_not(None))
            .order_by(Round.published_at.desc(), Round.id.desc())
            .limit(1)
        ).first()
        return None if row is None else int(row[0])


# ------------------------------------------------------------------------------------------ settings
SETTING_KEYS: tuple[str, ...] = (
    "result_mode",
    "tiebreaks",
    "lives",
    "call_minutes",
    "encounter_games",
    "deadline",
    "prize_plan",
    "season_scale",
    "requested_bye",
    "season",  # the event's season name (T12d), kept on the event
    "coefficient_class",  # the event's class in the season scale (T12d), kept on the event
)
# Issue 21: a change of these would alter the results already played, so they stay as they are once the
# event has a published round (tie-break order T12b, lives T4g, games per encounter E7b, the worth of a
# requested bye) ...
LOCKED_WHILE_RUNNING: tuple[str, ...] = ("tiebreaks", "lives", "encounter_games", "requested_bye")
# ... and these once the event is finished: the prizes (T13) and season points (T12d) are given out then.
LOCKED_WHEN_FINISHED: tuple[str, ...] = ("prize_plan", "season_scale", "season", "coefficient_class")
EVENT_KEYS: tuple[str, ...] = ("season", "coefficient_class")  # kept on the event, not its night
LIMITS: dict[str, tuple[int, int]] = {"lives": (1, 20), "call_minutes": (0, 240), "encounter_games": (0, 20)}


def _setting_locks(s: Session, ev: Event, n: EventNight | None) -> dict[str, str]:
    """Setting -> why it can no longer change (issue 21); settings not named may change."""
    finished = ev.status == "finished" or (n is not None and n.finished_at is not None)
    if finished:
        reason = _("The event is finished: its prizes and season points are given out, so they stay.")
        return {k: reason for k in SETTING_KEYS if k not in ("call_minutes", "result_mode", "deadline")}
    published = s.scalar(select(Round.id).where(Round.event_id == ev.id, Round.status != "proposed").limit(1))
    if published is None and ev.status != "running":
        return {}
    reason = _(
        "The event is running: the tie-break order, lives, games per encounter and the worth of a "
        "requested bye would change results already played, so they stay as they are."
    )
    return {k: reason for k in LOCKED_WHILE_RUNNING}


def setting_locks(db: Database, event_id: int) -> dict[str, str]:
    """The night settings that can no longer change, each with the reason (the screen shows them)."""
    with db.session() as s:
        ev = get_event(s, event_id)
        return _setting_locks(s, ev, s.get(EventNight, ev.id))


def _tiebreak_text(value: Any) -> str:
    """The tie-break order as stored ("PTS,IAV,GAV,BH"; "" = the preset's); unknown or repeated codes
    are refused (rule T12b: the order is the event's, from the codes the standings know)."""
    from clubdesk.standings.tiebreaks import TIEBREAK_CODES

    items = value.split(",") if isinstance(value, str) else list(value)
    codes = [str(c).strip().upper() for c in items if str(c).strip()]
    for c in codes:
        if c not in TIEBREAK_CODES:
            raise ServiceError(
                "bad-setting",
                _("Unknown tie-break {code}; choose from {codes}.").format(
                    code=c, codes=", ".join(TIEBREAK_CODES)
                ),
                field="tiebreaks",
            )
    twice = sorted({c for c in codes if codes.count(c) > 1})
    if twice:
        raise ServiceError(
            "bad-setting",
            _("Tie-break {code} is listed twice.").format(code=twice[0]),
            field="tiebreaks",
        )
    return ",".join(codes)


def _check_limits(settings: dict[str, Any]) -> None:
    for key, (low, high) in LIMITS.items():
        if key not in settings:
            continue
        value = settings[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            messages = {
                "lives": _("Lives are a whole number from {a} to {b} (rule T4g)."),
                "call_minutes": _("The waiting time is {a} to {b} minutes (rules T3b, G15)."),
                "encounter_games": _("Games per encounter are {a} to {b}; 0 is one game (rule E7b)."),
            }
            raise ServiceError("bad-setting", messages[key].format(a=low, b=high), field=key)


def configure(db: Database, actor: Actor, event_id: int, **settings: Any) -> dict[str, Any]:
    """Night settings: result_mode (entries/score), tiebreaks ("PTS,IAV,GAV,BH"), lives (T4g),
    call_minutes (T3b, G15), encounter_games (E7b), deadline (BC3), prize_plan, season_scale (JSON),
    requested_bye, and the event's season name and coefficient class (T12d).

    Issue 21: a setting that would alter results already played is refused once the event runs (and the
    prize plan and season settings once it is finished), unless it keeps its value; a refusal names the
    setting (``field``) and writes nothing."""
    allowed = set(SETTING_KEYS)
    bad = sorted(set(settings) - allowed)
    if bad:
        raise ServiceError("bad-setting", _("Unknown setting: {k}.").format(k=", ".join(bad)))
    if settings.get("result_mode", "entries") not in ("entries", "score"):
        raise ServiceError(
            "bad-setting", _("Results are entered as 'entries' or 'score'."), field="result_mode"
        )
    settings = dict(settings)
    if "tiebreaks" in settings:
        settings["tiebreaks"] = _tiebreak_text(settings["tiebreaks"])
    _check_limits(settings)
    for key in EVENT_KEYS:
        if key in settings:
            settings[key] = str(settings[key] or "").strip()
            if len(settings[key]) > 40:
                raise ServiceError("bad-setting", _("At most 40 characters."), field=key)
    with db.session() as s:
        ev = get_event(s, event_id)
        on_event = {k: settings.pop(k) for k in EVENT_KEYS if k in settings}
        stored = s.get(EventNight, ev.id)
        checked = dict(settings)
        if "coefficient_class" in on_event and "season_scale" not in checked and stored is not None:
            checked["season_scale"] = stored.season_scale  # the new class must be in the stored scale
        _check_money_settings(ev, checked, on_event.get("coefficient_class"))
        locks = _setting_locks(s, ev, stored)
        n = night(s, ev)
        st = state_of(n)
        bye_kind = settings.pop("requested_bye", None)
        current: dict[str, Any] = {k: getattr(n, k) for k in settings}
        current |= {k: getattr(ev, k) for k in on_event}
        if bye_kind is not None:
            current["requested_bye"] = st.get("requested_bye", "zero-bye")
        wanted = {**settings, **on_event, **({} if bye_kind is None else {"requested_bye": bye_kind})}
        for k, v in wanted.items():
            if k in locks and not _same_setting(k, current[k], v):
                raise ServiceError("setting-locked", locks[k], field=k)
        before = {k: _plain(getattr(n, k)) for k in settings}
        before |= {k: getattr(ev, k) for k in on_event}
        for k, v in settings.items():
            setattr(
                n, k, json.dumps(v) if k in ("prize_plan", "season_scale") and not isinstance(v, str) else v
            )
        for k, v in on_event.items():
            setattr(ev, k, v)
        if bye_kind is not None:  # what a requested bye is worth (kept in the night's state)
            if bye_kind not in F.REQUESTED_BYE_KINDS:
                raise ServiceError(
                    "bad-setting",
                    _("A requested bye is a zero-bye, half-bye or full-bye, not {k}.").format(k=bye_kind),
                    field="requested_bye",
                )
            before["requested_bye"] = st.get("requested_bye", "zero-bye")
            n.state = json.dumps({**st, "requested_bye": bye_kind})
            settings["requested_bye"] = bye_kind
        audit(
            s,
            actor,
            "configure",
            "event_night",
            ev.id,
            before=before,
            after={k: _plain(v) for k, v in {**settings, **on_event}.items()},
            event_id=ev.id,
        )
        out = {k: _plain(getattr(n, k)) for k in allowed if k not in ("requested_bye", *EVENT_KEYS)}
        return {
            **out,
            "requested_bye": state_of(n).get("requested_bye", "zero-bye"),
            "season": ev.season,
            "coefficient_class": ev.coefficient_class,
        }


def _same_setting(key: str, old: Any, new: Any) -> bool:
    """Whether a setting keeps its value (JSON plans compared as data, tie-breaks as codes)."""
    if key in ("prize_plan", "season_scale"):
        a = json.loads(old or "{}") if isinstance(old, str) or old is None else old
        b = json.loads(new or "{}") if isinstance(new, str) or new is None else new
        return bool(a == b)
    if key == "tiebreaks":
        return _tiebreak_text(old or "") == _tiebreak_text(new or "")
    return bool(old == new)


def night_settings(db: Database, event_id: int) -> dict[str, Any]:
    """The event night's settings as plain values (what ``night-config`` writes): result_mode
    ("entries"/"score"), tiebreaks, lives (T4g), call_minutes (T3b, G15), encounter_games (E7b), deadline
    (BC3), prize_plan and season_scale (JSON text), requested_bye (the kind of a requested bye)."""
    with db.session() as s:
        ev = get_event(s, event_id)
        n = s.get(EventNight, ev.id)
        if n is None:  # not configured yet: the defaults night() would store, nothing written
            n = EventNight(
                event_id=ev.id,
                result_mode="entries",
                tiebreaks="",
                lives=2,
                call_minutes=ev.arrival_deadline_minutes or 10,
                encounter_games=2 if ev.entry_type == "team" and ev.ruleset == "domino-es" else 0,
                state="{}",
                prize_plan="{}",
                season_scale="{}",
            )
        return {
            "result_mode": n.result_mode,
            "tiebreaks": n.tiebreaks,
            "lives": n.lives,
            "call_minutes": n.call_minutes,
            "encounter_games": n.encounter_games,
            "deadline": n.deadline,
            "prize_plan": n.prize_plan,
            "season_scale": n.season_scale,
            "requested_bye": str(state_of(n).get("requested_bye", "zero-bye")),
            "season": ev.season,
            "coefficient_class": ev.coefficient_class,
        }


# ------------------------------------------------------------------------------------------ requested byes
def requested_byes(db: Database, event_id: int) -> dict[int, int]:
    """Entrants who asked for a bye: entrant -> round number."""
    with db.session() as s:
        ev = get_event(s, event_id)
        n = s.get(EventNight, ev.id)
        asked = state_of(n).get("requested_byes", {}) if n is not None else {}
        return {int(k): int(v) for k, v in asked.items()}


def request_bye(
    db: Database, actor: Actor, event_id: int, entrant_id: int, *, cancel: bool = False
) -> dict[int, int]:
    """An entrant asks not to be paired in the next round (Swiss T4e, lives T4g, open league): the pairing
    leaves him out and he gets a requested bye, worth zero points unless the event set ``requested_bye``
    to "half-bye" or "full-bye" (night-config). ``cancel`` withdraws the request. Returns every request."""
    with db.session() as s:
        ev = get_event(s, event_id)
        if ev.format not in BYE_FORMATS:
            raise ServiceError(
                "no-requested-bye",
                _("A bye can be requested in a Swiss, lives or open league event, not in a {f}.").format(
                    f=ev.format
                ),
            )
        ent = s.get(Entrant, entrant_id)
        if ent is None or ent.event_id != ev.id:
            raise ServiceError(
                "no-such-entrant", _("Entrant {id} is not in this event.").format(id=entrant_id)
            )
        if ent.status != "registered":
            raise ServiceError(
                "not-playing",
                _("{name} is not playing in this event ({s}).").format(name=ent.name, s=ent.status),
            )
        n = night(s, ev)
        if n.finished_at is not None:
            raise ServiceError("event-finished", _("The event is finished."))
        rounds = rounds_of(s, ev.id)
        if rounds and rounds[-1].status == "proposed":
            raise ServiceError(
                "round-proposed",
                _("Round {r} is already proposed: throw it away first, then record the bye.").format(
                    r=rounds[-1].number
                ),
            )
        number = rounds[-1].number + 1 if rounds else 1
        st = state_of(n)
        asked = {str(k): int(v) for k, v in st.get("requested_byes", {}).items() if int(v) >= number}
        before = dict(asked)
        if cancel:
            asked.pop(str(ent.id), None)
        else:
            asked[str(ent.id)] = number
        n.state = json.dumps({**st, "requested_byes": asked})
        audit(
            s,
            actor,
            "cancel-bye" if cancel else "request-bye",
            "entrant",
            ent.id,
            before=before,
            after=asked,
            event_id=ev.id,
            round_no=number,
        )
        return {int(k): v for k, v in asked.items()}


# ------------------------------------------------------------------------------------------ manual tables
def set_tables(
    db: Database,
    actor: Actor,
    event_id: int,
    pairs: Sequence[tuple[int, int | None]],
    fixed_tables: Mapping[int, int] | None = None,
    *,
    force_reason: str = "",
) -> RoundView:
    """Store a manually edited pairing of the PROPOSED round: ``pairs`` in table order (top table first;
    the pairing's bye, if any, may be anywhere), ``fixed_tables`` entrant -> table for an entrant who needs
    a fixed table (kept for later rounds too). The edit must seat exactly the proposed entrants and keep
    the hard rules of ``verify_pairing`` (no rematch T4e, one bye, never a second bye, no one out of
    lives T4g); a referee may force a rematch with a reason. In brackets, fixed schedules, leagues and
    play-offs the matches themselves are fixed: only table order and sides may change. Refused: nothing
    written."""
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
        if ev.format in (*F.ELIMINATION, *F.ROUND_ROBIN, "open-round-robin") or rnd.kind != "regular":
            if {frozenset(p) for p in new} != set(refs):
                raise ServiceError(
                    "fixed-pairs",
                    _("In this event the matches are fixed by the draw: only the table order can change."),
                )
        else:
            forced = _check_edit(s, ev, n, new, names, actor, force_reason)
            if {frozenset(p) for p in new} != set(refs):  # pairs changed by hand: explained again (issue 20)
                from clubdesk.services import explain as EX

                lines = EX.explain_in(s, ev, new)
                if lines is not None:
                    kept_lines = json.loads(rnd.explanations or "[]")[len(paired) :]  # the requested byes
                    rnd.explanations = json.dumps([*lines, *kept_lines], ensure_ascii=False)
        real = [p for p in new if p[1] is not None]
        byes = [p for p in new if p[1] is None]
        order = F.arrange_tables([[str(x) for x in p if x is not None] for p in real], fixed)  # strict
        real = [real[i] for i in order]
        before = view(s, ev, rnd).as_json()
        kept = [(m.side_a, m.kind) for m in asked]
        for m in old:
            s.delete(m)
        s.flush()
        for t, (a, b) in enumerate(real + byes, start=1):
            s.add(_new_match(ev, rnd, t, a, b, refs.get(frozenset((a, b)), "")))
        for t, (e, kind) in enumerate(kept, start=len(real) + len(byes) + 1):
            s.add(_new_match(ev, rnd, t, e, None, "", kind))
        if fixed:
            st = state_of(n)
            n.state = json.dumps({**st, "fixed_tables": {**_fixed_tables(st), **fixed}})
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
        return out


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
    scheme = F.points_scheme(family, n.encounter_games)
    ids = tuple(str(x) for p in pairs for x in p if x is not None)
    ents = F.pairing_entrants(F.Field(ids), played, scheme, lives=n.lives if ev.format == "lives" else None)
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


def _check_money_settings(ev: Event, settings: dict[str, Any], new_class: str | None = None) -> None:
    """A prize plan (T13) or season scale (T12d) is checked when it is set, not when the event ends;
    ``new_class`` is the coefficient class being set with it (else the event's). A refusal names its
    field."""
    from clubdesk.services.standings import prize_plan_from, season_scale_from
    from clubdesk.standings.prizes import PrizeError
    from clubdesk.standings.season import SeasonError

    for key in ("prize_plan", "season_scale"):
        if key not in settings:
            continue
        try:
            if key == "prize_plan":
                prize_plan_from(settings[key], ev.currency)
                continue
            scale = season_scale_from(settings[key])
        except (PrizeError, SeasonError) as exc:
            raise ServiceError("bad-setting", exc.message or exc.code, field=key) from exc
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ServiceError(
                "bad-setting",
                _("The prize plan or season scale is not well formed: {e}").format(e=exc),
                field=key,
            ) from exc
        klass = ev.coefficient_class if new_class is None else new_class
        if scale is not None and klass and klass not in scale.coefficients:
            raise ServiceError(
                "bad-setting",
                _("The season scale has no coefficient for this event's class {c}.").format(c=klass),
                field="coefficient_class",
            )


def _plain(v: Any) -> Any:
    return v.isoformat() if isinstance(v, datetime) else v


# ------------------------------------------------------------------------------------------ propose
def _open_tables(s: Session, ev: Event) -> list[Match]:
    return [m for m in matches_of(s, ev.id) if m.status not in DONE_STATUSES]


def _total_rounds(ev: Event, st: dict[str, Any]) -> int | None:
    if ev.format in F.ROUND_ROBIN:
        return len(st.get("schedule", [])) or None
    if ev.format == "swiss":
        return ev.rounds
    return None


def propose_round(db: Database, actor: Actor, event_id: int, seed: int | None = None) -> RoundView:
    """Propose the next round from the event's format (nothing is final until published)."""
    from clubdesk.services import explain as EX  # it builds on this module

    with db.session() as s:
        lock_event(s, event_id)  # issue 25: one desk at a time per event (places, payments, rounds)
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
        scheme = F.points_scheme(family, n.encounter_games)
        fld = the_field(s, ev, number)
        asked = _requested_for(st, ev, number, fld)
        if asked:  # an entrant who asked for a bye is left out of the pairing
            fld = F.Field(tuple(e for e in fld.ids if e not in asked), fld.ratings, fld.clubs)
        busy = {x for m in _open_tables(s, ev) for x in (m.side_a, m.side_b) if x is not None}
        if (
            busy
            and ev.format != "open-round-robin"
            and not all(m.status == "postponed" for m in _open_tables(s, ev))
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
            if ev.format in F.ELIMINATION:
                if "bracket" not in st:
                    if len(fld.ids) < 2:
                        raise ServiceError("too-few", _("A bracket needs at least 2 checked-in entrants."))
                    st["bracket"] = F.new_bracket(ev.format, fld, seed).to_data()
                br = F.bracket_with_results(st["bracket"], played)
                if br.champion() is not None and br.finished:
                    raise ServiceError("event-over", _("The bracket is finished."))
                busy_s = {str(x) for x in busy}
                for bm in br.ready():
                    a, b = br.sides(bm.id)
                    if a is None or b is None or a in busy_s or b in busy_s:
                        continue
                    pairs.append((a, b))
                    refs.append(bm.id)
                    lines.append(f"{bm.id}: " + " / ".join(br.explain(bm.id)))
            elif ev.format in F.ROUND_ROBIN:
                if "schedule" not in st:
                    st["schedule"] = F.round_robin_plan(
                        fld.ids, double=ev.format == "double-round-robin", seed=seed
                    )
                sched = st["schedule"]
                if number > len(sched):
                    pairs, kind, refs, lines = _playoff_or_over(
                        ev, n, played, fld, names, disqualified_ids(s, ev)
                    )
                else:
                    pairs = [(a, b) for a, b in sched[number - 1]]
                    lines = [_("Berger table (rule T4f), round {r}.").format(r=number)]
            elif ev.format == "open-round-robin":
                if "league" not in st:
                    st["league"] = OpenLeague.create(list(fld.ids), double=False, seed=seed).to_data()
                lg = F.league_with_results(st["league"], played)
                if not lg.pending():
                    pairs, kind, refs, lines = _playoff_or_over(
                        ev, n, played, fld, names, disqualified_ids(s, ev)
                    )
                else:
                    busy_s = {str(x) for x in busy}
                    absent = set(lg.entrants) - set(fld.ids)
                    for a, b in lg.suggest(busy_s | absent):
                        ref = next(m.id for m in lg.pending() if {m.home, m.away} == {a, b})
                        pairs.append((a, b))
                        refs.append(ref)
                        lines.append(lg.explain(ref))
                    if not pairs:
                        raise ServiceError("nothing-to-pair", _("No pending match has both sides free."))
            elif ev.format == "lives":
                alive = [e for e, v in F.lives_left(fld.ids, played, n.lives).items() if v > 0]
                if len(alive) < 2:
                    raise ServiceError("event-over", _("Fewer than two entrants have lives left."))
                pairs = F.propose_lives(fld, played, scheme, seed, lives=n.lives)
                ents = F.pairing_entrants(fld, played, scheme, lives=n.lives)
                lines = EX.named(explain_lives, ents, pairs, names, EX.club_names(s))  # in names (issue 20)
            else:  # swiss
                total = ev.rounds
                if total is not None and number > total:
                    pairs, kind, refs, lines = _playoff_or_over(
                        ev, n, played, fld, names, disqualified_ids(s, ev)
                    )
                else:
                    pairs = F.propose_swiss(fld, played, scheme, seed, round_no=number)
                    ents = F.pairing_entrants(fld, played, scheme)
                    lines = EX.named(  # in names, not entrant ids or club keys (issue 20)
                        explain_swiss, ents, pairs, names, EX.club_names(s), club_protection=number == 1
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
        order = F.arrange_tables([[x for x in p if x] for p, _r in real], _fixed_tables(st), strict=False)
        real = [real[i] for i in order]  # an entrant who needs a fixed table keeps it
        for t, ((a, b), ref) in enumerate(real + byes, start=1):
            s.add(_new_match(ev, rnd, t, a, b, ref))
        for t, (e, bye_kind) in enumerate(sorted(asked.items()), start=len(real) + len(byes) + 1):
            s.add(_new_match(ev, rnd, t, e, None, "", bye_kind))  # the requested bye (T4e, T4g, league)
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


def _new_match(
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


def _fixed_tables(st: dict[str, Any]) -> dict[str, int]:
    return {str(k): int(v) for k, v in st.get("fixed_tables", {}).items()}


def _requested_for(st: dict[str, Any], ev: Event, number: int, fld: F.Field) -> dict[str, str]:
    """Entrants of the field who asked for a bye in round ``number``: entrant -> bye kind."""
    if ev.format not in BYE_FORMATS:
        return {}
    asked = st.get("requested_byes", {})
    kind = str(st.get("requested_bye", "zero-bye"))
    return {e: kind for e, r in asked.items() if int(r) == number and e in fld.ids}


def _playoff_or_over(
    ev: Event,
    n: EventNight,
    played: list[F.Played],
    fld: F.Field,
    names: dict[str, str],
    disqualified: Sequence[str] = (),
) -> tuple[list[tuple[str, str | None]], str, list[str], list[str]]:
    """Rule BC2: after the last round a tie on first place is settled by a play-off: (pairs, round kind,
    match refs ``PO1``..., explanation lines). Two or more tied: a knockout among them (see
    :class:`clubdesk.services.formats.Playoff`)."""
    from clubdesk.services.standings import compute_standings

    regular = [p for p in played if not F.is_playoff(p)]
    st = compute_standings(ev, n, regular, standing_ids_from(played, fld), disqualified=disqualified)
    tied = [r.entrant for r in st.rows if r.playoff and r.rank == 1]
    po = F.playoff_progress(tied, played)
    if len(tied) < 2 or po.champion is not None:
        raise ServiceError("event-over", _("Every round has been played."))
    pairs: list[tuple[str, str | None]] = list(po.next_pairs())
    refs = [f"{F.PLAYOFF_PREFIX}{po.matches + i}" for i in range(1, len(pairs) + 1)]
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


def standing_ids_from(played: list[F.Played], fld: F.Field) -> list[str]:
    ids = list(fld.ids)
    for p in played:
        for e in (p.a, p.b):
            if e is not None and e not in ids:
                ids.append(e)
    return ids


def discard_round(db: Database, actor: Actor, event_id: int) -> int:
    """Throw away the proposed round (to pair again, e.g. with another seed)."""
    with db.session() as s:
        lock_event(s, event_id)  # issue 25: one desk at a time per event (places, payments, rounds)
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
        return rnd.number


def publish_round(
    db: Database,
    actor: Actor,
    event_id: int,
    call_at: datetime | None = None,
    start_at: datetime | None = None,
) -> RoundView:
    """The proposed round becomes official: tables numbered top tables first, call time recorded (T3b) and
    the match start when given (G15; local wall-clock times). Confirmed results of earlier rounds are locked
    (rule T10)."""
    if start_at is not None and call_at is not None and start_at < call_at:
        raise ServiceError("start-before-call", _("The match cannot start before the tables are called."))
    with db.session() as s:
        lock_event(s, event_id)  # issue 25: one desk at a time per event (places, payments, rounds)
        ev = get_event(s, event_id)
        rounds = rounds_of(s, ev.id)
        if not rounds or rounds[-1].status != "proposed":
            raise ServiceError("no-proposed-round", _("There is no proposed round to publish."))
        rnd = rounds[-1]
        now = utcnow()
        rnd.status = "published"
        rnd.published_at = now
        rnd.call_at = call_at or local_now()  # local wall-clock, as the secretary types times
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
                    m.seats = json.dumps(F.seat_draw(rnd.seed * 1000 + m.table_no, a, b))  # rule E7
        gone = _withdrawn_ids(s, ev)
        forfeited: list[int] = []
        if gone:
            from clubdesk.services.results import after_change, apply_forfeit

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
        from clubdesk.services.table_entry import ensure_in

        ensure_in(s, ev.id, rnd.number)  # issue 27: every table of the round gets its phones' token
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
        return out


def unpublish_round(
    db: Database, actor: Actor, event_id: int, reason: str, *, now: datetime | None = None
) -> RoundView:
    """Rule T10: the referee takes back the latest published round (it becomes proposed again) while no
    table of it has an entry or a result and its start time has not passed; the results that publishing
    it locked unlock. Reason required; audited. After that point the earlier round stays locked."""
    from clubdesk.models.audit import AuditEntry
    from clubdesk.models.result import ResultEntry

    if actor.role is not Role.REFEREE:
        raise ServiceError("referee-only", _("Only the referee can unpublish a round (rule T10)."))
    if not reason.strip():
        raise ServiceError("reason-required", _("Say why the round is unpublished."))
    now = now or local_now()
    with db.session() as s:
        lock_event(s, event_id)  # issue 25: one desk at a time per event (places, payments, rounds)
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
                AuditEntry.event_id == ev.id,  # the event's index (issue 22: none on action alone)
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
        from clubdesk.services.table_entry import drop_tokens

        drop_tokens(s, ev.id, rnd.number)  # issue 27: the withdrawn tables' phone pages open nothing
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
        return out


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


def audit_match(
    s: Session,
    actor: Actor,
    action: str,
    ev: Event,
    m: Match,
    *,
    before: Any,
    after: Any,
    reason: str | None = None,
) -> None:
    """The audit row of a change to one table's match, filed under its event, round and table; the
    match remembers who changed it and when (issue 25: named when another desk's change is refused)."""
    m.changed_by = actor.name
    m.changed_at = utcnow()
    audit(
        s,
        actor,
        action,
        "match",
        m.id,
        before=before,
        after=after,
        event_id=ev.id,
        round_no=m.round_no,
        table_no=m.table_no,
        reason=reason,
    )


def round_closed_check(s: Session, ev: Event, rnd: Round) -> None:
    """A round is closed when every table has a final result (postponed ones keep it open, G20)."""
    ms = matches_of(s, ev.id, rnd.id)
    if rnd.status in ("published", "in_play") and ms and all(m.status in FINAL_STATUSES for m in ms):
        rnd.status = "closed"
        rnd.closed_at = utcnow()
    elif rnd.status == "closed" and not all(m.status in FINAL_STATUSES for m in ms):
        rnd.status = "in_play"
        rnd.closed_at = None


def local_now() -> datetime:
    """The club's local wall-clock time: table calls (T3b), arrival (G15) and deadlines (BC3) are typed
    and compared in local time, like the desk's times; audit timestamps stay UTC."""
    return datetime.now().replace(microsecond=0)


def require_referee(actor: Actor, what: str) -> None:
    if actor.role is not Role.REFEREE:
        raise ServiceError("referee-only", _("Only a referee can {what}.").format(what=what))


def league_deadline(
    db: Database,
    actor: Actor,
    event_id: int,
    at_fault: dict[str, int] | None = None,
    now: datetime | None = None,
) -> list[dict[str, Any]]:
    """Rule BC3: at the deadline every unplayed league match is lost by WO by the side at fault, or by
    both sides when nobody is named. Writes one final table per match in a closing round."""
    with db.session() as s:
        ev = get_event(s, event_id)
        if ev.format != "open-round-robin":
            raise ServiceError("not-a-league", _("Only an open league has a deadline."))
        n = night(s, ev)
        now = now or local_now()  # the deadline is a local wall-clock time (BC3)
        if n.deadline is not None and now < n.deadline:
            raise ServiceError(
                "before-deadline",
                _("The deadline is {d}; it has not passed yet.").format(
                    d=n.deadline.isoformat(" ", "minutes")
                ),
            )
        st = state_of(n)
        if "league" not in st:
            raise ServiceError("no-round", _("The league has not been drawn yet."))
        rounds = rounds_of(s, ev.id)
        if rounds and rounds[-1].status == "proposed":
            raise ServiceError("round-proposed", _("Publish or throw away the proposed round first."))
        # open tables of the league that were never played are forfeited too
        open_refs = {m.ref: m for m in matches_of(s, ev.id) if m.status not in FINAL_STATUSES}
        played = played_matches(s, ev)
        lg = F.league_with_results(st["league"], played)
        faults = {k: str(v) for k, v in (at_fault or {}).items()}
        gone = {str(x) for x in _withdrawn_ids(s, ev)}
        for lm in lg.pending():
            # rule T9b: a withdrawn entrant's remaining league matches are his forfeits
            at_fault_side = [x for x in (lm.home, lm.away) if x in gone]
            if lm.id not in faults and len(at_fault_side) == 1:
                faults[lm.id] = at_fault_side[0]
        try:
            closed = lg.close(faults)
        except ValueError as exc:
            raise ServiceError("bad-fault", str(exc)) from exc
        new = closed.results[len(lg.results) :]
        number = rounds[-1].number + 1 if rounds else 1
        rnd = Round(
            event_id=ev.id,
            number=number,
            status="closed",
            kind="deadline",
            seed=0,
            explanations="[]",
            published_at=now,
            call_at=now,
            closed_at=now,
        )
        s.add(rnd)
        s.flush()
        out: list[dict[str, Any]] = []
        family, params = params_of(ev)
        for t, res in enumerate(new, start=1):
            lm = closed.match(res.match_id)
            old = open_refs.get(res.match_id)
            if old is not None:
                s.delete(old)
                s.flush()
            kind = "forfeit" if res.winner is not None else "both-lost"
            score = (0, 0)
            if res.winner is not None:
                oc = F.forfeit_outcome(
                    family,
                    params,
                    0 if res.winner == lm.home else 1,
                    match_length=match_length_for(ev, number),
                    encounter_games=n.encounter_games,
                )
                score = oc.score
            m = Match(
                event_id=ev.id,
                round_id=rnd.id,
                round_no=number,
                table_no=t,
                side_a=int(lm.home),
                side_b=int(lm.away),
                ref=lm.id,
                status="confirmed",
                kind=kind,
                score_a=score[0],
                score_b=score[1],
                winner=None if res.winner is None else int(res.winner),
                finished=True,
                scorer="",
                counter="",
                referee=actor.name,
                confirmed_at=now,
                locked=False,
                excuse="",
                seats="",
                note=closed.explain(lm.id),
            )
            s.add(m)
            out.append(
                {
                    "match": lm.id,
                    "sides": [int(lm.home), int(lm.away)],
                    "winner": m.winner,
                    "outcome": res.outcome.value,
                }
            )
        n.state = json.dumps({**st, "league": closed.to_data()})
        audit(s, actor, "league-deadline", "event", ev.id, after=out, event_id=ev.id, round_no=number)
        s.flush()
        from clubdesk.services.results import after_change

        after_change(s, ev)
        return out


def disqualified_ids(s: Session, ev: Event) -> list[str]:
    """Rule T9c: entrants disqualified from the event (out of ranking, prizes and season points)."""
    rows = s.scalars(
        select(Entrant.id)
        .where(Entrant.event_id == ev.id, Entrant.status == "disqualified")
        .order_by(Entrant.id)
    )
    return [str(x) for x in rows]


def _withdrawn_ids(s: Session, ev: Event) -> set[int]:
    return set(s.scalars(select(Entrant.id).where(Entrant.event_id == ev.id, Entrant.status == "withdrawn")))


def withdraw_from_play(db: Database, actor: Actor, event_id: int, entrant_id: int, reason: str) -> list[int]:
    """Rule T9b: a player who withdraws forfeits his remaining (open) matches. Returns the tables."""
    from clubdesk.services.results import apply_forfeit

    with db.session() as s:
        ev = get_event(s, event_id)
        ent = s.get(Entrant, entrant_id)
        if ent is None or ent.event_id != ev.id:
            raise ServiceError(
                "no-such-entrant", _("Entrant {id} is not in this event.").format(id=entrant_id)
            )
        tables: list[int] = []
        for m in matches_of(s, ev.id):
            if m.status in FINAL_STATUSES or entrant_id not in (m.side_a, m.side_b) or m.side_b is None:
                continue
            rnd = s.get(Round, m.round_id)
            if rnd is None or rnd.status == "proposed":
                continue
            apply_forfeit(
                s, actor, ev, m, 0 if m.side_a == entrant_id else 1, reason=reason, kind="withdrawal"
            )
            tables.append(m.table_no)
        if ent.status == "registered":
            ent.status = "withdrawn"
            ent.withdrawn_at = utcnow()
        audit(
            s,
            actor,
            "withdraw-from-play",
            "entrant",
            ent.id,
            after={"forfeited_tables": tables},
            event_id=ev.id,
            reason=reason,
        )
        from clubdesk.services.results import after_change

        after_change(s, ev)
        return tables
