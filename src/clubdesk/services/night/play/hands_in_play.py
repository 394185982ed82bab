"""A hand in play saved with plain statements (issue 22: the desk's hand entry in proportion to the change).

:func:`clubdesk.services.night.play.results.add_entry` asks :func:`add_in_play` first, in its own
transaction. A
dominoes hand (gaple, Spanish dominoes) at a table of a published round whose match goes on after it is
the desk's commonest change: it reads the table in one statement, replays its sheet with the rules
engine, and writes the entry, the table's new score and the audit row, through the same pieces the full
path uses (``_apply_outcome``, ``reset_confirmation``, ``match_snapshot``, ``audit_match``) on a plain copy of
the table instead of ORM objects. Anything else returns None before anything is written, and the full
path does the work: a hand that ends the match (what follows it), a locked or confirmed table, a
proposal, a bye, a bracket, tavla (ratings), a finished event, the club server.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.competition.errors import CompetitionError
from clubdesk.games import EntryError
from clubdesk.models.result import Match
from clubdesk.models.round import Round
from clubdesk.services.kernel import Actor, ServiceError, entry_refusal, hand_ref, refusal
from clubdesk.services.night.data import reads
from clubdesk.services.night.play.table_result import (
    TableResult,
    changed_elsewhere,
    match_snapshot,
    reset_confirmation,
    result,
    sheet_of,
    store_entry,
    store_outcome,
)

_FIELDS = (
    "id",
    "event_id",
    "round_no",
    "table_no",
    "side_a",
    "side_b",
    "status",
    "kind",
    "match_length",
    "score_a",
    "score_b",
    "points_a",
    "points_b",
    "winner",
    "finished",
    "scorer",
    "counter",
    "locked",
    "version",
    "changed_by",
)
_WRITTEN = (
    "score_a",
    "score_b",
    "points_a",
    "points_b",
    "finished",
    "winner",
    "kind",
    "status",
    "scorer",
    "counter",
    "confirmed_at",
    "changed_by",
    "changed_at",
)
_TABLE_SQL = (
    "SELECT e.ruleset, e.ruleset_overrides, e.target, e.format, e.status, n.event_id, n.encounter_games,"
    " n.finished_at,"
    " r.id, r.status, "
    + ", ".join("m." + f for f in _FIELDS)
    + " FROM events e JOIN rounds r ON r.event_id = e.id JOIN matches m ON m.round_id = r.id"
    " LEFT JOIN event_night n ON n.event_id = e.id"
    " WHERE e.id = ? AND r.number = ? AND m.table_no = ?"
)
_SHEET_SQL = "SELECT game_no, data FROM result_entries WHERE match_id = ? ORDER BY game_no, seq"


class _Plain:
    """What the full path's pieces read and set of an event or a table, without an ORM object."""

    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)

    def __getattr__(self, name: str) -> Any:  # a field not read above: as an object without it
        raise AttributeError(name)

    def __setattr__(self, name: str, value: Any) -> None:
        self.__dict__[name] = value


def add_in_play(
    s: Session,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    entry: dict[str, Any],
    game_no: int,
    expected_version: int | None,
) -> TableResult | None:
    """The hand saved and the table's result, or None (nothing written) where the full path must do it."""
    if not actor.name.strip():
        return None  # the full path's refusal
    conn = s.connection()
    row = conn.exec_driver_sql(_TABLE_SQL, (event_id, round_no, table_no)).first()
    if row is None:
        return None
    ruleset, overrides, target, fmt, ev_status, night, encounter, night_done, rnd_id, rnd_status = row[:10]
    m = _Plain(**dict(zip(_FIELDS, row[10:], strict=True)))
    ev = _Plain(id=event_id, ruleset=ruleset, ruleset_overrides=overrides, target=target)
    family, params = reads.params_of(ev)  # type: ignore[arg-type]  # reads ruleset, overrides, target only
    if (
        family == "tavla"
        or fmt in (*formats.ELIMINATION, "lives")
        or ev_status == "finished"
        or night is None  # the night's settings not made yet: the full path makes them
        or night_done is not None
        or rnd_status not in ("published", "in_play")
        or m.side_b is None
        or m.locked
        or m.status not in ("waiting", "in_play")
    ):
        return None
    if expected_version is not None and expected_version != m.version:
        return None  # the full path's refusal, naming who changed the table and when
    games = sheet_of(conn.exec_driver_sql(_SHEET_SQL, (m.id,)))
    games.setdefault(game_no, []).append(dict(entry))
    if m.match_length:
        params = {**params, "match_length": m.match_length}
    try:
        oc = formats.outcome_from_entries(ruleset, params, games, encounter_games=encounter)
    except EntryError as exc:
        raise entry_refusal(exc) from exc
    except CompetitionError as exc:
        raise refusal(exc) from exc
    if oc.finished:
        return None  # what follows the match's end is the full path's
    before = match_snapshot(m)  # type: ignore[arg-type]
    store_outcome(m, oc)  # type: ignore[arg-type]
    m.kind, m.status = "played", "in_play"
    reset_confirmation(m)  # type: ignore[arg-type]
    seq = len(games[game_no])
    data = json.dumps(entry)
    entry_id = store_entry(s, m.id, game_no, seq, data, actor.name)
    reads.audit_match(
        s,
        actor,
        "add-entry",
        ev,  # type: ignore[arg-type]
        m,  # type: ignore[arg-type]
        before=before,
        # the hand is the entry row; the audit row names it and its digest (as the full path)
        after={**match_snapshot(m), "hand": hand_ref(entry_id, m.id, game_no, data)},  # type: ignore[arg-type]
    )
    done = s.execute(
        update(Match)
        .where(Match.id == m.id, Match.version == m.version)
        .values({**{f: getattr(m, f) for f in _WRITTEN}, "version": m.version + 1}),
        execution_options={"synchronize_session": False},
    )
    if getattr(done, "rowcount", 1) != 1:  # changed since the read above (not under the write lock)
        now = s.get(Match, m.id)
        raise changed_elsewhere(now) if now is not None else ServiceError("no-such-table", "")
    if rnd_status == "published":  # the round's first hand sets it in play
        s.execute(
            update(Round).where(Round.id == rnd_id).values(status="in_play"),
            execution_options={"synchronize_session": False},
        )
    return result(s, m, sum(len(v) for v in games.values()))  # type: ignore[arg-type]
