"""The night settings of an event (result mode, tie-breaks, lives, waiting time, games per encounter,
deadline, prize plan, season scale, requested byes), and which of them are locked once the event runs or ends.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.i18n import _
from clubdesk.models.event import Entrant, Event
from clubdesk.models.round import EventNight, Round
from clubdesk.services.kernel import Actor, ServiceError, audit, require
from clubdesk.services.night.data.prize_plans import (
    prize_plan_from,
    prize_plan_json,
    season_scale_from,
    season_scale_json,
)
from clubdesk.services.night.data.reads import (
    BYE_FORMATS,
    default_night,
    get_event,
    night,
    rounds_of,
    state_of,
)
from clubdesk.standings.prizes import PrizeError, PrizePlan
from clubdesk.standings.season import SeasonError, SeasonScale
from clubdesk.standings.tiebreaks import TIEBREAK_CODES
from clubdesk.storage import Database

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


# A change of these would alter the results already played, so they stay as they are once the
# event has a published round (tie-break order T12b, lives T4g, games per encounter E7b, the worth of a
# requested bye) ...
LOCKED_WHILE_RUNNING: tuple[str, ...] = ("tiebreaks", "lives", "encounter_games", "requested_bye")


# ... and these once the event is finished: the prizes (T13) and season points (T12d) are given out then.
LOCKED_WHEN_FINISHED: tuple[str, ...] = ("prize_plan", "season_scale", "season", "coefficient_class")


EVENT_KEYS: tuple[str, ...] = ("season", "coefficient_class")  # kept on the event, not its night


LIMITS: dict[str, tuple[int, int]] = {"lives": (1, 20), "call_minutes": (0, 240), "encounter_games": (0, 20)}


def _setting_locks(s: Session, ev: Event, n: EventNight | None) -> dict[str, str]:
    """Setting -> why it can no longer change; settings not named may change."""
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

    A setting that would alter results already played is refused once the event runs (and the
    prize plan and season settings once it is finished), unless it keeps its value; a refusal names the
    setting (``field``) and writes nothing."""
    require(actor, "night.configure", db)  # permission table
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
            if bye_kind not in formats.REQUESTED_BYE_KINDS:
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
            n = default_night(ev)
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


@dataclass(frozen=True)
class NightSettings:
    """An event night's settings as typed values, for the screens: the prize plan (T13) and season scale
    (T12d) come read (None: none set, or stored text that does not read as one), never as stored text.

    ``tiebreaks`` is the stored order ("PTS,IAV,GAV,BH"; "" = the ruleset's, T12b); ``currency`` is the
    event's (the prize plan's money)."""

    result_mode: str
    tiebreaks: str
    lives: int
    call_minutes: int
    encounter_games: int
    deadline: datetime | None
    prize_plan: PrizePlan | None
    season_scale: SeasonScale | None
    requested_bye: str
    season: str
    coefficient_class: str
    currency: str

    @classmethod
    def from_stored(cls, n: EventNight, ev: Event) -> NightSettings:
        """The settings an event night row (and its event) hold."""
        return cls(
            result_mode=n.result_mode,
            tiebreaks=n.tiebreaks or "",
            lives=n.lives,
            call_minutes=n.call_minutes,
            encounter_games=n.encounter_games,
            deadline=n.deadline,
            prize_plan=_read_plan(n.prize_plan, ev.currency),
            season_scale=_read_scale(n.season_scale),
            requested_bye=str(state_of(n).get("requested_bye", "zero-bye")),
            season=ev.season or "",
            coefficient_class=ev.coefficient_class or "",
            currency=ev.currency,
        )

    def to_stored(self) -> dict[str, Any]:
        """The settings as :func:`configure` takes them (the plans as their JSON data, {} for none)."""
        return {
            "result_mode": self.result_mode,
            "tiebreaks": self.tiebreaks,
            "lives": self.lives,
            "call_minutes": self.call_minutes,
            "encounter_games": self.encounter_games,
            "deadline": self.deadline,
            "prize_plan": {} if self.prize_plan is None else prize_plan_json(self.prize_plan),
            "season_scale": {} if self.season_scale is None else season_scale_json(self.season_scale),
            "requested_bye": self.requested_bye,
            "season": self.season,
            "coefficient_class": self.coefficient_class,
        }

    def changed(self, wanted: dict[str, Any]) -> dict[str, Any]:
        """The part of ``wanted`` (settings as :func:`configure` takes them) that differs from these: only
        that is sent, so an unchanged setting that is locked is not a change."""
        return {k: v for k, v in wanted.items() if not self._keeps(k, v)}

    def _keeps(self, key: str, new: Any) -> bool:
        if key == "prize_plan":
            try:
                return self.prize_plan == prize_plan_from(new or {}, self.currency)
            except (PrizeError, KeyError, TypeError, ValueError, AttributeError):
                return False  # not a plan: configure refuses it with the reason
        if key == "season_scale":
            try:
                return self.season_scale == season_scale_from(new or {})
            except (SeasonError, KeyError, TypeError, ValueError, AttributeError):
                return False
        if key == "tiebreaks":
            return self.tiebreaks.replace(" ", "").upper() == str(new or "")
        if key in ("season", "coefficient_class"):
            return str(getattr(self, key)).strip() == str(new or "").strip()
        return bool(getattr(self, key, None) == new)


def _read_plan(raw: str | None, currency: str) -> PrizePlan | None:
    try:
        return prize_plan_from(raw, currency)
    except (PrizeError, KeyError, TypeError, ValueError, AttributeError):
        return None


def _read_scale(raw: str | None) -> SeasonScale | None:
    try:
        return season_scale_from(raw)
    except (SeasonError, KeyError, TypeError, ValueError, AttributeError):
        return None


def load_night_settings(db: Database, event_id: int) -> NightSettings:
    """The event night's settings as a typed value (the defaults when it is not configured yet; nothing
    is written)."""
    with db.session() as s:
        ev = get_event(s, event_id)
        n = s.get(EventNight, ev.id)
        return NightSettings.from_stored(default_night(ev) if n is None else n, ev)


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
    require(actor, "desk.register", db)  # permission table
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


def _check_money_settings(ev: Event, settings: dict[str, Any], new_class: str | None = None) -> None:
    """A prize plan (T13) or season scale (T12d) is checked when it is set, not when the event ends;
    ``new_class`` is the coefficient class being set with it (else the event's). A refusal names its
    field."""
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
