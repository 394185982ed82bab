"""Events: create and edit competitions, their fees, capacity, format and status.

- An event starts from a ruleset preset with overrides (``{"target": 201}``), validated by
  :func:`clubdesk.games.ruleset.load_ruleset`; a bad override is refused with the key and the reason.
- Fees are integer minor units of the event's currency: per entrant or per person (rule BC4), an early price
  for payments made by a date (rule T2b), side events linked to a main event, free or discounted for its
  entrants (rule T2e), and the refund policy (rule T2d) as two percentages: before and after the close.
- Match length per round (rule T8a) and the arrival deadline before the start (rule G15) are stored here for
  the rounds area.

Times of the event (registration close, start) are local wall-clock times at the club, as the secretary types
them; the desk compares them with the local clock.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.games import RULESETS
from clubdesk.games.errors import RulesetError
from clubdesk.games.ruleset import load_ruleset
from clubdesk.i18n import _
from clubdesk.models.club import Setting
from clubdesk.models.event import (
    DRAWN_STATUSES,
    ENTRY_TYPES,
    FEE_PER,
    FORMATS,
    SIDE_FEE_RULES,
    Entrant,
    Event,
)
from clubdesk.models.round import EventNight
from clubdesk.services.events.language import language_key
from clubdesk.services.kernel import (
    Actor,
    ServiceError,
    audit,
    load_event,
    require,
)
from clubdesk.standings.money import MoneyError, currency_exponent
from clubdesk.storage import Database

MAX_FEE_MINOR = 10**9  # nobody charges more than that many minor units for an entry
MAX_CAPACITY = 10_000
MAX_ROUNDS = 99


@dataclass(frozen=True)
class EventData:
    """What the event editor (or ``event create``) gives. Money in minor units of ``currency``."""

    name: str
    ruleset: str
    format: str
    entry_type: str = "single"
    overrides: dict[str, Any] = field(default_factory=dict)
    rounds: int | None = None
    match_lengths: tuple[int, ...] = ()  # rule T8a: one per round; the last one repeats
    target: int | None = None
    starts_on: date | None = None
    ends_on: date | None = None
    venue: str = ""
    season: str = ""
    coefficient_class: str = ""
    capacity: int | None = None
    currency: str = "EUR"
    fee: int = 0
    early_fee: int | None = None
    early_until: date | None = None
    fee_per: str = "entrant"
    parent_event_id: int | None = None
    side_fee_rule: str = "full"
    side_discount_percent: int = 0
    refund_percent_before_close: int = 100
    refund_percent_after_close: int = 0
    registration_closes_at: datetime | None = None
    start_at: datetime | None = None
    arrival_deadline_minutes: int = 10
    notes: str = ""


@dataclass(frozen=True)
class EventInfo:
    id: int
    name: str
    ruleset: str
    format: str
    entry_type: str
    overrides: dict[str, Any]
    rounds: int | None
    match_lengths: tuple[int, ...]
    target: int | None
    starts_on: date | None
    ends_on: date | None
    venue: str
    season: str
    coefficient_class: str
    capacity: int | None
    currency: str
    fee: int
    early_fee: int | None
    early_until: date | None
    fee_per: str
    parent_event_id: int | None
    side_fee_rule: str
    side_discount_percent: int
    refund_percent_before_close: int
    refund_percent_after_close: int
    registration_closes_at: datetime | None
    start_at: datetime | None
    arrival_deadline_minutes: int
    status: str
    drawn_at: datetime | None
    current_round: int
    notes: str
    registered: int = 0
    waitlisted: int = 0

    @property
    def drawn(self) -> bool:
        return self.status in DRAWN_STATUSES

    def data(self) -> EventData:
        """The editable part, e.g. to fill the editor."""
        names = {f for f in EventData.__dataclass_fields__}
        values = {k: v for k, v in asdict(self).items() if k in names}
        values["match_lengths"] = tuple(self.match_lengths)
        return EventData(**values)

    def match_length(self, round_no: int) -> int | None:
        """Rule T8a: the match length of round ``round_no`` (1-based); the last given length repeats."""
        if not self.match_lengths:
            return None
        return self.match_lengths[min(round_no, len(self.match_lengths)) - 1]


def info_of(s: Session, ev: Event) -> EventInfo:
    statuses = list(s.scalars(select(Entrant.status).where(Entrant.event_id == ev.id)))
    return EventInfo(
        id=ev.id,
        name=ev.name,
        ruleset=ev.ruleset,
        format=ev.format,
        entry_type=ev.entry_type,
        overrides=json.loads(ev.ruleset_overrides or "{}"),
        rounds=ev.rounds,
        match_lengths=tuple(json.loads(ev.match_lengths or "[]")),
        target=ev.target,
        starts_on=ev.starts_on,
        ends_on=ev.ends_on,
        venue=ev.venue,
        season=ev.season,
        coefficient_class=ev.coefficient_class,
        capacity=ev.capacity,
        currency=ev.currency,
        fee=ev.fee,
        early_fee=ev.early_fee,
        early_until=ev.early_until,
        fee_per=ev.fee_per,
        parent_event_id=ev.parent_event_id,
        side_fee_rule=ev.side_fee_rule,
        side_discount_percent=ev.side_discount_percent,
        refund_percent_before_close=ev.refund_percent_before_close,
        refund_percent_after_close=ev.refund_percent_after_close,
        registration_closes_at=ev.registration_closes_at,
        start_at=ev.start_at,
        arrival_deadline_minutes=ev.arrival_deadline_minutes,
        status=ev.status,
        drawn_at=ev.drawn_at,
        current_round=ev.current_round,
        notes=ev.notes,
        registered=statuses.count("registered"),
        waitlisted=statuses.count("waitlisted"),
    )


def _snapshot(ev: Event) -> dict[str, Any]:
    return {c.name: getattr(ev, c.name) for c in Event.__table__.columns if c.name != "created_at"}


def field_errors(s: Session | None, data: EventData, *, event_id: int | None = None) -> dict[str, str]:
    """Every problem with ``data`` by field name (the editor shows each next to its field)."""

    errors: dict[str, str] = {}
    if not data.name.strip():
        errors["name"] = _("The event needs a name.")
    elif len(data.name.strip()) > 160:
        errors["name"] = _("The name is too long (160 characters at most).")
    if data.ruleset not in RULESETS:
        errors["ruleset"] = _("Unknown ruleset {ruleset}; choose one of {choices}.").format(
            ruleset=data.ruleset, choices=", ".join(RULESETS)
        )
    else:
        family = load_ruleset(data.ruleset).family
        overrides = dict(data.overrides)
        if data.target is not None:
            if family == "tavla":
                errors["target"] = _("Tavla matches are played to a match length, not to a target.")
            else:
                overrides["target"] = data.target
        if data.match_lengths and family != "tavla":
            errors["match_lengths"] = _("A match length per round is for tavla events only.")
        try:
            load_ruleset(data.ruleset, overrides)
        except RulesetError as exc:
            errors["overrides"] = _("Ruleset setting {key}: {reason}").format(key=exc.key, reason=exc.reason)
    if data.format not in FORMATS:
        errors["format"] = _("Unknown format {format}; choose one of {choices}.").format(
            format=data.format, choices=", ".join(FORMATS)
        )
    if data.entry_type not in ENTRY_TYPES:
        errors["entry_type"] = _("The entry type is single, pair or team.")
    if data.rounds is not None and not 1 <= data.rounds <= MAX_ROUNDS:
        errors["rounds"] = _("The number of rounds is between 1 and {n}.").format(n=MAX_ROUNDS)
    if any((not isinstance(n, int)) or n < 1 or n > 99 for n in data.match_lengths):
        errors["match_lengths"] = _("Match lengths are whole numbers of points from 1 to 99.")
    if data.capacity is not None and not 2 <= data.capacity <= MAX_CAPACITY:
        errors["capacity"] = _("The capacity is between 2 and {n} entrants.").format(n=MAX_CAPACITY)
    try:
        currency_exponent(data.currency)
    except MoneyError as exc:
        errors["currency"] = exc.message
    if not 0 <= data.fee <= MAX_FEE_MINOR:
        errors["fee"] = _("The fee cannot be negative or absurdly large.")
    if data.early_fee is not None:
        if not 0 <= data.early_fee <= data.fee:
            errors["early_fee"] = _("The early price is between zero and the normal fee.")
        elif data.early_until is None:
            errors["early_until"] = _("Say until which day the early price applies.")
    if data.fee_per not in FEE_PER:
        errors["fee_per"] = _("The fee is per entrant or per person.")
    if data.side_fee_rule not in SIDE_FEE_RULES:
        errors["side_fee_rule"] = _("A side event's fee rule is full, free or discount.")
    if not 0 <= data.side_discount_percent <= 100:
        errors["side_discount_percent"] = _("A percentage is between 0 and 100.")
    if data.side_fee_rule != "full" and data.parent_event_id is None:
        errors["side_fee_rule"] = _("Only a side event (linked to a main event) has a fee rule for entrants.")
    for key in ("refund_percent_before_close", "refund_percent_after_close"):
        if not 0 <= getattr(data, key) <= 100:
            errors[key] = _("A percentage is between 0 and 100.")
    if data.starts_on and data.ends_on and data.ends_on < data.starts_on:
        errors["ends_on"] = _("The event cannot end before it starts.")
    if not 0 <= data.arrival_deadline_minutes <= 240:
        errors["arrival_deadline_minutes"] = _("The arrival deadline is 0 to 240 minutes before the start.")
    if data.registration_closes_at and data.start_at and data.registration_closes_at > data.start_at:
        errors["registration_closes_at"] = _("Registration must close before the start.")
    if data.parent_event_id is not None and s is not None:
        parent = s.get(Event, data.parent_event_id)
        if parent is None:
            errors["parent_event_id"] = _("No event {id}.").format(id=data.parent_event_id)
        elif parent.parent_event_id is not None:
            errors["parent_event_id"] = _("A side event cannot have side events of its own.")
        elif parent.id == event_id:
            errors["parent_event_id"] = _("An event cannot be its own side event.")
        elif parent.currency != data.currency.strip().upper():
            errors["currency"] = _("A side event uses its main event's currency ({currency}).").format(
                currency=parent.currency
            )
    return errors


def _refuse(errors: dict[str, str]) -> None:
    if errors:
        first_field, first = next(iter(errors.items()))
        raise ServiceError(
            "invalid-event", first, details=list(errors.values())[1:], field=first_field, errors=errors
        )


def _apply(ev: Event, data: EventData) -> None:
    overrides = dict(data.overrides)
    if data.target is not None:
        overrides["target"] = data.target  # e.g. a club playing to 201 instead of 250
    ev.name = data.name.strip()
    ev.ruleset = data.ruleset
    ev.ruleset_overrides = json.dumps(overrides, sort_keys=True)
    ev.format = data.format
    ev.entry_type = data.entry_type
    ev.rounds = data.rounds
    ev.match_lengths = json.dumps(list(data.match_lengths))
    ev.target = data.target
    ev.starts_on = data.starts_on
    ev.ends_on = data.ends_on
    ev.venue = data.venue.strip()
    ev.season = data.season.strip()
    ev.coefficient_class = data.coefficient_class.strip()
    ev.capacity = data.capacity
    ev.currency = data.currency.strip().upper()
    ev.fee = data.fee
    ev.early_fee = data.early_fee
    ev.early_until = data.early_until if data.early_fee is not None else None
    ev.fee_per = data.fee_per
    ev.parent_event_id = data.parent_event_id
    ev.side_fee_rule = data.side_fee_rule
    ev.side_discount_percent = data.side_discount_percent
    ev.refund_percent_before_close = data.refund_percent_before_close
    ev.refund_percent_after_close = data.refund_percent_after_close
    ev.registration_closes_at = data.registration_closes_at
    ev.start_at = data.start_at
    ev.arrival_deadline_minutes = data.arrival_deadline_minutes
    ev.notes = data.notes


def create_event(db: Database, actor: Actor, data: EventData) -> EventInfo:
    require(actor, "events.edit", db)  # permission table
    with db.session() as s:
        _refuse(field_errors(s, data))
        ev = Event(status="open")
        _apply(ev, data)
        s.add(ev)
        s.flush()
        audit(s, actor, "event.create", "event", ev.id, after=_snapshot(ev), event_id=ev.id)
        return info_of(s, ev)


def update_event(db: Database, actor: Actor, event_id: int, data: EventData) -> EventInfo:
    """Edit an event. Once the draw is made, the format, entry type and fees no longer change."""
    require(actor, "events.edit", db)  # permission table
    with db.session() as s:
        ev = load_event(s, event_id)
        _refuse(field_errors(s, data, event_id=event_id))
        if ev.status in DRAWN_STATUSES:
            locked = ("format", "entry_type", "ruleset", "fee", "early_fee", "fee_per", "currency")
            for key in locked:
                if getattr(ev, key) != getattr(data, key):
                    raise ServiceError(
                        "event-drawn",
                        _("The draw is made: the format, ruleset and fees can no longer change."),
                    )
        has_money = s.scalar(select(Entrant.id).where(Entrant.event_id == ev.id).limit(1)) is not None
        if has_money and ev.currency != data.currency.strip().upper():
            raise ServiceError("currency-locked", _("Entrants exist: the currency can no longer change."))
        before = _snapshot(ev)
        _apply(ev, data)
        s.flush()
        after = _snapshot(ev)
        if before != after:
            audit(s, actor, "event.update", "event", ev.id, before=before, after=after, event_id=ev.id)
        return info_of(s, ev)


def next_week(day: date | None, today: date | None = None) -> date:
    """A weekly night's next date, the same weekday one week later; an event without a date
    is copied to a week from today."""

    return (day or today or date.today()) + timedelta(days=7)


def copy_event(
    db: Database,
    actor: Actor,
    event_id: int,
    *,
    starts_on: date | None = None,
    name: str | None = None,
) -> EventInfo:
    """A new open event with the settings of ``event_id`` ("New event from…"): the ruleset and its
    overrides (the rule readings too), format, fees, refund policy, capacity, times, its night settings
    (result mode, tie-breaks, lives, waiting time, games per encounter, the worth of a requested bye), the
    prize plan, the season scale and the report language. Not copied: entrants, payments, rounds and
    results, the draw's state. Its dates move to ``starts_on`` (default: one week later, same weekday),
    the times of day kept. A side event's copy stands alone (its main event is last week's). One
    transaction, audited like a new event (``event.create``, with ``copied_from``)."""

    require(actor, "events.edit", db)  # permission table
    with db.session() as s:
        src = load_event(s, event_id)
        data = info_of(s, src).data()
        new_day = starts_on or next_week(src.starts_on)
        base = src.starts_on or (src.start_at.date() if src.start_at else None)
        shift = timedelta(days=(new_day - base).days) if base is not None else None

        def moved(value: Any) -> Any:
            return None if value is None or shift is None else value + shift

        changes: dict[str, Any] = {
            "name": data.name if name is None or not name.strip() else name,
            "starts_on": new_day,
            "ends_on": moved(data.ends_on),
            "early_until": moved(data.early_until),
            "registration_closes_at": moved(data.registration_closes_at),
            "start_at": moved(data.start_at),
        }
        if data.parent_event_id is not None:  # last week's main event is not this week's
            changes |= {"parent_event_id": None, "side_fee_rule": "full", "side_discount_percent": 0}
        data = EventData(**{**asdict(data), **changes})
        _refuse(field_errors(s, data))
        ev = Event(status="open")
        _apply(ev, data)
        s.add(ev)
        s.flush()
        night: dict[str, Any] = {}
        old = s.get(EventNight, src.id)
        if old is not None:
            state = json.loads(old.state or "{}")
            kept = {k: state[k] for k in ("requested_bye",) if k in state}  # not the draw, nor byes asked
            copy = EventNight(
                event_id=ev.id,
                result_mode=old.result_mode,
                tiebreaks=old.tiebreaks,
                lives=old.lives,
                call_minutes=old.call_minutes,
                encounter_games=old.encounter_games,
                deadline=moved(old.deadline),
                state=json.dumps(kept),
                prize_plan=old.prize_plan,
                season_scale=old.season_scale,
            )
            s.add(copy)
            night = {
                "result_mode": copy.result_mode,
                "tiebreaks": copy.tiebreaks,
                "lives": copy.lives,
                "call_minutes": copy.call_minutes,
                "encounter_games": copy.encounter_games,
                "deadline": copy.deadline,
                "prize_plan": copy.prize_plan,
                "season_scale": copy.season_scale,
                **kept,
            }
        language = s.get(Setting, language_key(src.id))
        if language is not None:
            s.add(Setting(key=language_key(ev.id), value=language.value))
        s.flush()
        audit(
            s,
            actor,
            "event.create",
            "event",
            ev.id,
            after={**_snapshot(ev), "copied_from": src.id, "night": night},
            event_id=ev.id,
        )
        return info_of(s, ev)


def get_event(db: Database, event_id: int) -> EventInfo:
    with db.session() as s:
        return info_of(s, load_event(s, event_id))


def list_events(db: Database, *, include_finished: bool = True) -> list[EventInfo]:
    with db.session() as s:
        query = select(Event).order_by(Event.starts_on.desc().nulls_last(), Event.id.desc())
        rows = [ev for ev in s.scalars(query) if include_finished or ev.status != "finished"]
        return [info_of(s, ev) for ev in rows]
