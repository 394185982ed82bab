"""One table's result as the result services share it: the plain view of a table's result, its audit
snapshot, its entries, the lock (T10) and version checks (a change made on a page older than the table is
refused), the outcome written onto the match, two-side confirmation and the round's in-play state. The hands,
results, forfeits and the phones build on it; it imports none of them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.competition.errors import CompetitionError
from clubdesk.games import EntryError
from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.event import Event
from clubdesk.models.result import Match, ResultEntry
from clubdesk.models.round import Round
from clubdesk.services.kernel import Actor, Role, ServiceError, entry_refusal, refusal
from clubdesk.services.night.data import reads
from clubdesk.timefmt import local_text


@dataclass(frozen=True)
class TableResult:
    table: int
    score: tuple[int, int]
    points: tuple[int, int] | None
    status: str
    finished: bool
    winner: int | None
    entries: int

    def as_json(self) -> dict[str, Any]:
        return {"table": self.table, "score": [self.score[0], self.score[1]], "status": self.status}


def match_snapshot(m: Match) -> dict[str, Any]:
    """A table's result as the audit log records it before and after a change."""
    return {
        "status": m.status,
        "kind": m.kind,
        "score": [m.score_a, m.score_b],
        "points": [m.points_a, m.points_b],
        "winner": m.winner,
        "scorer": m.scorer,
        "counter": m.counter,
    }


def table_result(s: Session, m: Match, count: int | None = None) -> TableResult:
    """The table's result as the services return it; ``count``: its entries, when the caller knows them."""
    if count is None:
        q = select(func.count()).select_from(ResultEntry).where(ResultEntry.match_id == m.id)
        count = s.scalar(q) or 0
    return TableResult(
        m.table_no,
        (m.score_a, m.score_b),
        None if m.points_a is None or m.points_b is None else (m.points_a, m.points_b),
        m.status,
        m.finished,
        m.winner,
        int(count),
    )


def sheet_of(rows: Iterable[Sequence[Any]]) -> dict[int, list[dict[str, Any]]]:
    """A table's sheet from its stored (game_no, data) rows in order: the entries of each game."""
    out: dict[int, list[dict[str, Any]]] = {}
    for game_no, data in rows:
        out.setdefault(game_no, []).append(json.loads(data))
    return out


def store_entry(s: Session, match_id: int, game_no: int, seq: int, data: str, entered_by: str) -> int:
    """Write one entry row (its JSON ``data``) and give its id, which its audit row names."""
    values = {"match_id": match_id, "game_no": game_no, "seq": seq, "data": data, "entered_by": entered_by}
    key = s.connection().execute(insert(ResultEntry).values(values)).inserted_primary_key
    assert key is not None  # an INSERT of one row
    return int(key[0])


def insert_entry_at(s: Session, match_id: int, game_no: int, seq: int, data: str, entered_by: str) -> int:
    """Write one entry row at place ``seq`` of its game, the later entries moved one place on (a penalty
    at the breach), and give its id."""
    s.execute(
        update(ResultEntry)
        .where(ResultEntry.match_id == match_id, ResultEntry.game_no == game_no, ResultEntry.seq >= seq)
        .values(seq=ResultEntry.seq + 1),
        execution_options={"synchronize_session": False},
    )
    return store_entry(s, match_id, game_no, seq, data, entered_by)


def drop_entries(s: Session, ids: list[int] | None = None, *, match_id: int | None = None) -> None:
    """Delete entry rows: those of ``ids``, or every entry of ``match_id`` (a sheet replaced)."""
    if ids is not None:
        s.execute(
            delete(ResultEntry).where(ResultEntry.id.in_(ids)),
            execution_options={"synchronize_session": False},
        )
    if match_id is not None:
        s.execute(
            delete(ResultEntry).where(ResultEntry.match_id == match_id),
            execution_options={"synchronize_session": False},
        )


@lru_cache(maxsize=1)
def _sheet_statement() -> Any:
    """The read of :func:`match_entries`, built once (it runs on every hand)."""
    return (
        select(ResultEntry.game_no, ResultEntry.data)
        .where(ResultEntry.match_id == bindparam("m"))
        .order_by(ResultEntry.game_no, ResultEntry.seq)
    )


def match_entries(s: Session, m: Match) -> dict[int, list[dict[str, Any]]]:
    """A table's sheet: the stored entries of each game, in order."""
    s.flush()  # as the ORM query did (autoflush): entries added in this transaction are read back
    # plain rows, not ORM objects: a long match is read on every hand
    rows = s.execute(_sheet_statement(), {"m": m.id})
    return sheet_of(rows)


def changed_elsewhere(m: Match) -> ServiceError:
    """The refusal of a change to a table that changed since this desk or page read it: who changed it and
    when, where the table knows; nothing is saved either way."""
    if m.changed_by and m.changed_at:
        text = _(
            "Table {t} was changed meanwhile by {who} at {when}; nothing was saved. "
            "The screen shows the table as it is now."
        ).format(t=m.table_no, who=m.changed_by, when=local_text(m.changed_at, "%H:%M:%S"))
    else:
        text = _(
            "Table {t} has changed since this page was shown; nothing was saved. "
            "The screen shows the table as it is now."
        ).format(t=m.table_no)
    when = local_text(m.changed_at, "%H:%M:%S") if m.changed_at else ""
    return ServiceError(
        "changed-elsewhere", text, table=m.table_no, version=m.version, who=m.changed_by, when=when
    )


def check_version(m: Match, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != m.version:
        raise changed_elsewhere(m)


def check_lock(actor: Actor, m: Match, override: str | None) -> None:
    """Rule T10: once the next round has started, a result no longer changes, except by the referee's
    override with a written reason."""
    if not m.locked:
        return
    if override is None or not override.strip():
        raise ServiceError(
            "locked",
            _(
                "Round {r} is locked: the next round has started (rule T10). "
                "A referee can override it with a written reason."
            ).format(r=m.round_no),
        )
    if actor.role is not Role.REFEREE:
        raise ServiceError("referee-only", _("Only a referee can override a locked result."))


def store_outcome(m: Match, oc: formats.Outcome) -> None:
    m.score_a, m.score_b = oc.score
    m.points_a, m.points_b = (None, None) if oc.points is None else oc.points
    m.finished = oc.finished
    m.winner = None if oc.winner is None else (m.side_a if oc.winner == 0 else m.side_b)


def reset_confirmation(m: Match) -> None:
    """A changed result needs approving again: the scorer's and counter's initials are cleared."""
    m.scorer = ""
    m.counter = ""
    m.confirmed_at = None


def match_params(ev: Event, m: Match) -> dict[str, Any]:
    """The ruleset parameters of a table's match: the event's, with the round's match length (T8a)."""
    _family, params = reads.params_of(ev)
    if m.match_length:
        params = {**params, "match_length": m.match_length}
    return params


def referee_confirms(m: Match, actor: Actor) -> None:
    """The referee's result is the official one: confirmed, in his name, now."""
    m.status = "confirmed"
    m.referee = actor.name
    m.confirmed_at = utcnow()


def confirm_both(m: Match, scorer: str, counter: str) -> None:
    """Both sides approve at once (G13, E6, T8c): ``scorer`` for side 0, ``counter`` for side 1."""
    m.scorer = scorer
    m.counter = counter
    m.status = "confirmed"
    m.confirmed_at = utcnow()


def recompute_from_entries(s: Session, ev: Event, m: Match, games: dict[int, list[dict[str, Any]]]) -> None:
    """The table's score, points, winner and status as the rules engine computes them from ``games``
    (an entry the engine refuses is the service's refusal)."""
    n = reads.night(s, ev)
    params = match_params(ev, m)
    try:
        oc = formats.outcome_from_entries(ev.ruleset, params, games, encounter_games=n.encounter_games)
    except EntryError as exc:
        raise entry_refusal(exc) from exc
    except CompetitionError as exc:
        raise refusal(exc) from exc
    store_outcome(m, oc)
    m.kind = "played"
    m.status = "pending" if oc.finished else ("in_play" if games else "waiting")


def mark_in_play(rnd: Round) -> None:
    if rnd.status == "published":
        rnd.status = "in_play"
