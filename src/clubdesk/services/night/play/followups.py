"""What follows a change: the one place that decides, after a service has changed a table,
what else moves, in this order:

    sheet -> round state -> standings -> ratings -> places, season points, prizes

The services (``results``, ``forfeits``, ``rounds``, ``hands``, ``approvals``, ``discipline``, ``readings``)
call :func:`after_change` in their own transaction after their change; this module calls none of them back. It
builds on the lower pieces only: :mod:`~clubdesk.services.night.data.reads` (rounds and tables),
:mod:`~clubdesk.services.night.ranking.standings` (the standings computation and the event's end: places T12a,
season points T12d, prizes T13), and :mod:`~clubdesk.services.night.ranking.ratings` (T12c).

The work is in proportion to the change: a hand in play touches its sheet only (the round, the
standings and the event cannot change while the table is open); a final table closes its round and
ends the event when it was the last; a tavla result re-rates from that match on.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.i18n import _
from clubdesk.models.event import Event
from clubdesk.models.result import Match
from clubdesk.models.round import Round
from clubdesk.pairing.bracket import Bracket
from clubdesk.services.kernel import ServiceError
from clubdesk.services.night.data import reads
from clubdesk.services.night.ranking import event_end, ratings


def after_change(s: Session, ev: Event, changed: Match | None = None) -> None:
    """After every change: round states, ratings of tavla members, and when the event ends its places,
    season points and prizes. With the ``changed`` match the work is in proportion to the change:
    a hand in play touches nothing else (the round, the standings and the event cannot
    change while the table is open), and ratings move forward from that match only."""
    s.flush()
    if ev.format in formats.ELIMINATION:
        check_bracket(s, ev)
    family, _p = reads.params_of(ev)
    if changed is None:
        for rnd in reads.rounds_of(s, ev.id):
            if rnd.kind != "deadline":
                reads.round_closed_check(s, ev, rnd)
        if family == "tavla":
            ratings.recompute_ratings(s)
        event_end.finish_if_over(s, ev)
        return
    final = changed.status in reads.FINAL_STATUSES
    changed_round = s.get(Round, changed.round_id)
    if (
        changed_round is not None
        and changed_round.kind != "deadline"
        and (final or changed_round.status == "closed")
    ):
        reads.round_closed_check(s, ev, changed_round)
    if family == "tavla":
        ratings.rerate_from(s, changed)
    n = reads.night(s, ev)
    if n.finished_at is not None or ev.status == "finished" or (final and _may_be_over(s, ev)):
        event_end.finish_if_over(s, ev)


def _may_be_over(s: Session, ev: Event) -> bool:
    """``event_end.is_over``'s tests that need no standings, in three indexed queries: every table of
    the event has a final result, its latest round is not a proposal, and a Swiss event has played its
    rounds. When they fail the event cannot be over, and an event that never finished has no places or
    prizes to take back, so the standings are not built (a result in a 20,000-match league)."""
    open_table = s.scalar(
        select(Match.id).where(Match.event_id == ev.id, Match.status.not_in(reads.FINAL_STATUSES)).limit(1)
    )
    if open_table is not None:
        return False
    last = s.scalar(
        select(Round.status).where(Round.event_id == ev.id).order_by(Round.number.desc()).limit(1)
    )
    if last == "proposed":
        return False
    if ev.format in (*formats.ELIMINATION, "lives", "open-round-robin", *formats.ROUND_ROBIN):
        return True  # their end depends on the results: is_over decides
    # a Swiss event (is_over's last case) is over only after its number of regular rounds
    regular = s.scalar(
        select(func.count()).select_from(Round).where(Round.event_id == ev.id, Round.kind == "regular")
    )
    return ev.rounds is not None and int(regular or 0) >= ev.rounds


def check_bracket(s: Session, ev: Event) -> None:
    """Rules T10, T4c, T4d: a correction (a referee's override) that changes who goes through is refused
    when the bracket has moved on: a later table already published with the old winner would be wrong.
    The refusal names that table; correct or discard it first. Nothing is written."""
    st = reads.state_of(reads.night(s, ev))
    if "bracket" not in st:
        return
    br = Bracket.from_data({**st["bracket"], "results": []})
    tables = reads.matches_of(s, ev.id)
    for m in sorted(tables, key=lambda x: (x.round_no, x.ref)):
        if m.ref and m.winner is not None and m.finished:  # a finished sheet awaiting approval counts
            try:
                br = br.record(m.ref, str(m.winner))
            except ValueError:
                continue  # reported below through the table's sides
    for m in tables:
        if not m.ref or m.side_b is None:
            continue
        if {str(m.side_a), str(m.side_b)} != set(br.sides(m.ref)):
            raise ServiceError(
                "bracket-advanced",
                _(
                    "This change alters who plays round {r} table {t} ({ref}), already published; "
                    "the bracket cannot go back (rule T10)."
                ).format(r=m.round_no, t=m.table_no, ref=m.ref),
                round=m.round_no,
                table=m.table_no,
            )
