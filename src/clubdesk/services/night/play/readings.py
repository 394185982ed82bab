"""Rule readings of an event: the parameters whose preset default changed after the seeds were
read again (RULES.md B6, B8, T12b), what the event uses, and switching a running event to another reading.

An event stores only overrides of its preset. Migration ``0006_rule_readings`` wrote the old readings as
overrides into every event that existed before, so that no past result moved. Here the event settings show
each reading, and :func:`preview_readings` says which tables' scores and which places and tie-breaks a switch
would change before :func:`apply_readings` saves it (audited). Nothing else is written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.competition.errors import CompetitionError
from clubdesk.games.errors import EntryError, RulesetError
from clubdesk.games.ruleset import load_ruleset, params_as_dict
from clubdesk.i18n import N_, _
from clubdesk.models.event import Event
from clubdesk.services.kernel import Actor, ServiceError, audit, refusal
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import table_result
from clubdesk.services.night.play.followups import after_change
from clubdesk.services.night.ranking import standings
from clubdesk.storage import Database

#: preset -> parameter -> (the reading before the preset's default changed, the rule, what it means)
READINGS: dict[str, dict[str, tuple[object, str, str]]] = {
    "gaple-club": {
        "open_on": ("pure", "B8", N_("What the first score's minimum of 25 is tested on")),
        "fine_in_block": (False, "B6", N_("A caught 0-0 / 6-6 is fined in a blocked hand too")),
        "out_double_mode": (
            "flat",
            "B6",
            N_("Going out with 0-0 / 6-6: added to the count, or a flat value"),
        ),
    },
    "tavla": {
        "bh_unplayed": ("fide", "T12b", N_("Buchholz of a round without an opponent")),
    },
}

#: rule G3 (Reading): the gaple presets' floor of a deduction, shown as the preset's setting
FLOOR_RULE = ("allow_negative", "G3", N_("A deduction may take a score below 0 (off: it stops at 0)"))

_VALUE_LABELS = {
    "pure": N_("pure value (before any x2)"),
    "won": N_("points won (after a lost duel's x2)"),
    "plus": N_("added to the count"),
    "flat": N_("flat value"),
    "fide": N_("FIDE dummy opponent"),
    "none": N_("plain sum of the opponents' points"),
}


def value_label(value: object) -> str:
    """A reading's value as people read it."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    label = _VALUE_LABELS.get(str(value))
    return _(label) if label else str(value)


@dataclass(frozen=True)
class ReadingSetting:
    """One reading of an event: what it uses, the preset's (current) reading and the old one."""

    key: str
    rule: str
    label: str
    value: object
    preset_value: object
    old_value: object | None  # None for a setting that did not change (G3's floor)

    @property
    def is_preset(self) -> bool:
        return self.value == self.preset_value

    def as_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "rule": self.rule,
            "label": self.label,
            "value": self.value,
            "preset": self.preset_value,
            "old": self.old_value,
        }


@dataclass(frozen=True)
class TableChange:
    round: int
    table: int
    sides: tuple[str, str]
    score: tuple[tuple[int, int], tuple[int, int]]  # before, after
    points: tuple[tuple[int, int] | None, tuple[int, int] | None]
    winner_changes: bool


@dataclass(frozen=True)
class ReadingsPreview:
    event: int
    changes: dict[str, tuple[object, object]]  # parameter -> (before, after)
    tables: tuple[TableChange, ...]  # tables whose score or points would change
    places: dict[int, tuple[str, str]]  # entrant -> (before, after)
    tiebreaks: dict[int, dict[str, tuple[float | int, float | int]]]
    names: dict[int, str]
    applied: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "changes": {k: {"before": a, "after": b} for k, (a, b) in self.changes.items()},
            "tables": [
                {
                    "round": t.round,
                    "table": t.table,
                    "sides": list(t.sides),
                    "score_before": list(t.score[0]),
                    "score_after": list(t.score[1]),
                    "points_before": None if t.points[0] is None else list(t.points[0]),
                    "points_after": None if t.points[1] is None else list(t.points[1]),
                    "winner_changes": t.winner_changes,
                }
                for t in self.tables
            ],
            "places": {str(e): {"before": a, "after": b} for e, (a, b) in self.places.items()},
            "tiebreaks": {
                str(e): {c: {"before": a, "after": b} for c, (a, b) in d.items()}
                for e, d in self.tiebreaks.items()
            },
            "applied": self.applied,
        }

    def lines(self) -> list[str]:
        """The preview in words (CLI, the events editor)."""
        out = [
            _("{key}: {before} → {after}").format(key=k, before=value_label(a), after=value_label(b))
            for k, (a, b) in self.changes.items()
        ]
        for t in self.tables:
            text = _("Round {r} table {t} ({a} – {b}): {before} → {after}").format(
                r=t.round,
                t=t.table,
                a=t.sides[0],
                b=t.sides[1],
                before="-".join(map(str, t.score[0]))
                + (f" ({t.points[0][0]}-{t.points[0][1]})" if t.points[0] else ""),
                after="-".join(map(str, t.score[1]))
                + (f" ({t.points[1][0]}-{t.points[1][1]})" if t.points[1] else ""),
            )
            if t.winner_changes:
                text += " · " + _("the winner changes")
            out.append(text)
        for e, (a, b) in self.places.items():
            out.append(
                _("{name}: place {before} → {after}").format(name=self.names.get(e, e), before=a, after=b)
            )
        for e, d in self.tiebreaks.items():
            for c, (old, new) in d.items():
                out.append(
                    _("{name}: {code} {before} → {after}").format(
                        name=self.names.get(e, e), code=c, before=old, after=new
                    )
                )
        if len(out) == len(self.changes):
            out.append(_("No table's score and no place would change."))
        return out


def _overrides(ev: Event) -> dict[str, Any]:
    data = json.loads(ev.ruleset_overrides or "{}")
    return data if isinstance(data, dict) else {}


def event_readings(db: Database, event_id: int) -> list[ReadingSetting]:
    """The event settings' readings: each changed parameter of the event's preset and G3's floor (gaple)."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        return _settings(ev)


def _settings(ev: Event) -> list[ReadingSetting]:
    _family, params = reads.params_of(ev)
    preset = params_as_dict(load_ruleset(ev.ruleset))
    out = [
        ReadingSetting(key, rule, _(label), params[key], preset[key], old)
        for key, (old, rule, label) in READINGS.get(ev.ruleset, {}).items()
    ]
    key, rule, label = FLOOR_RULE
    if key in params and ev.ruleset.startswith("gaple"):
        out.append(ReadingSetting(key, rule, _(label), params[key], preset[key], None))
    return out


def _checked_changes(ev: Event, changes: Mapping[str, object]) -> dict[str, object]:
    allowed = set(READINGS.get(ev.ruleset, {})) | {FLOOR_RULE[0]}
    for key in changes:
        if key not in allowed:
            raise ServiceError(
                "not-a-reading",
                _("{key} is not a rule reading of {ruleset} (readings: {allowed}).").format(
                    key=key, ruleset=ev.ruleset, allowed=", ".join(sorted(allowed))
                ),
            )
    try:
        load_ruleset(ev.ruleset, {**_overrides(ev), **changes})
    except RulesetError as exc:
        raise ServiceError("bad-reading", str(exc)) from exc
    return dict(changes)


def _new_overrides(ev: Event, changes: Mapping[str, object]) -> dict[str, Any]:
    """The event's overrides with ``changes``: a value equal to the preset's is dropped (no override)."""
    preset = params_as_dict(load_ruleset(ev.ruleset))
    out = _overrides(ev)
    for key, value in changes.items():
        if preset.get(key) == value:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def _rescore(s: Session, ev: Event) -> list[TableChange]:
    """Replay every played table with entries under the event's (already changed) parameters; the tables
    whose score or points move are changed in the session and returned."""
    names = reads.entrant_names(s, ev.id)
    n = reads.night(s, ev)
    out: list[TableChange] = []
    for m in reads.matches_of(s, ev.id):
        if m.side_b is None or m.kind != "played":
            continue
        games = table_result.match_entries(s, m)
        if not games:
            continue
        try:
            oc = formats.outcome_from_entries(
                ev.ruleset, table_result.match_params(ev, m), games, encounter_games=n.encounter_games
            )
        except EntryError as exc:
            raise ServiceError(
                "reading-breaks-sheet",
                _("Round {r} table {t}: the sheet cannot be scored with this reading ({reason}).").format(
                    r=m.round_no, t=m.table_no, reason=exc
                ),
            ) from exc
        except CompetitionError as exc:
            raise refusal(exc) from exc
        before = ((m.score_a, m.score_b), None if m.points_a is None else (m.points_a, m.points_b or 0))
        winner = m.winner
        table_result.store_outcome(m, oc)
        after = ((m.score_a, m.score_b), None if m.points_a is None else (m.points_a, m.points_b or 0))
        if before != after:
            out.append(
                TableChange(
                    m.round_no,
                    m.table_no,
                    (names.get(m.side_a, ""), names.get(m.side_b, "")),
                    (before[0], after[0]),
                    (before[1], after[1]),
                    winner != m.winner,
                )
            )
    return out


def _standings(s: Session, ev: Event) -> standings.EventStandings:
    return standings.session_standings(s, ev)


def _run(s: Session, ev: Event, changes: Mapping[str, object]) -> ReadingsPreview:
    checked = _checked_changes(ev, changes)
    _family, params = reads.params_of(ev)
    before_st = _standings(s, ev)
    ev.ruleset_overrides = json.dumps(_new_overrides(ev, checked), sort_keys=True)
    s.flush()
    _family, new_params = reads.params_of(ev)
    tables = _rescore(s, ev)
    s.flush()
    after_st = _standings(s, ev)
    places, tbs = standings.standings_changes(before_st, after_st)
    diff = {k: (params[k], new_params[k]) for k in checked if params[k] != new_params[k]}
    return ReadingsPreview(ev.id, diff, tuple(tables), places, tbs, dict(reads.entrant_names(s, ev.id)))


def preview_readings(db: Database, event_id: int, changes: Mapping[str, object]) -> ReadingsPreview:
    """Which tables' scores, places and tie-breaks would change with ``changes``. Nothing is written."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        nested = s.begin_nested()
        try:
            return _run(s, ev, changes)
        finally:
            nested.rollback()


def apply_readings(
    db: Database, actor: Actor, event_id: int, changes: Mapping[str, object], reason: str | None = None
) -> ReadingsPreview:
    """Switch the event to other readings: its overrides change, the tables are scored again from their
    sheets (confirmations stay), and the whole change is audited with what it moved. When a played table's
    score moves, only a referee may do it (rule T10); nothing is written when refused."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        before = _overrides(ev)
        preview = _run(s, ev, changes)
        if not preview.changes:
            return preview
        if preview.tables:
            # rule T10: a played table's result changes only by a referee's decision
            reads.require_referee(actor, _("change the scores of played tables"))
            # round states, brackets, ratings, final places, season points and prizes follow the new scores
            after_change(s, ev)
        audit(
            s,
            actor,
            "event.rule-readings",
            "event",
            ev.id,
            before={"ruleset_overrides": before},
            after={"ruleset_overrides": _overrides(ev), "preview": preview.as_json()},
            event_id=ev.id,
            reason=reason,
        )
        return ReadingsPreview(
            preview.event,
            preview.changes,
            preview.tables,
            preview.places,
            preview.tiebreaks,
            preview.names,
            True,
        )


def new_readings(db: Database, event_id: int) -> dict[str, object]:
    """The changes that put an event on its preset's (current) readings."""
    return {
        r.key: r.preset_value
        for r in event_readings(db, event_id)
        if r.old_value is not None and not r.is_preset
    }
