"""The night as the public reads it: pairings, standings and bracket filled from the database.

Paper (:mod:`~clubdesk.services.publishing.documents`), images and the site
(:mod:`~clubdesk.services.publishing.share`), the hall and the projector all print these same shapes, so
they live below every one of them.

Privacy (rule T14): filled from name, club, city and results only.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.i18n import N_, _
from clubdesk.labels import localized_number
from clubdesk.models.event import Event
from clubdesk.models.round import Round
from clubdesk.reports import data as report_data
from clubdesk.reports.bracket import from_bracket
from clubdesk.services import night
from clubdesk.services.kernel import ServiceError
from clubdesk.services.publishing.header import (
    Who,
    entrants_of,
    public,
    report_event,
    report_round,
)
from clubdesk.storage import Database


def pairings_data(db: Database, event_id: int, round_no: int | None = None) -> report_data.PairingsData:
    """The tables of a round (best tables first), each side with its points before the round; the
    notice-board list by name is added by the report."""
    with db.session() as s:
        ev = report_event(s, event_id)
        rno, rnd = report_round(s, ev, round_no)
        return _pairings_of(
            s, ev, rno, rnd, public(s, ev), night.played_matches(s, ev), night.standing_ids(s, ev)
        )


def pairings_rounds(
    db: Database, event_id: int, rounds: Sequence[int]
) -> tuple[report_data.PairingsData, ...]:
    """:func:`pairings_data` of each of ``rounds``, the event's entrants and games read once (the static
    site shows every round, within its speed target)."""
    with db.session() as s:
        ev = report_event(s, event_id)
        who, played, ids = public(s, ev), night.played_matches(s, ev), night.standing_ids(s, ev)
        return tuple(_pairings_of(s, ev, *report_round(s, ev, n), who, played, ids) for n in rounds)


def _pairings_of(
    s: Session,
    ev: Event,
    rno: int,
    rnd: Round,
    who: dict[int, Who],
    played_all: list[formats.Played],
    ids: list[str],
) -> report_data.PairingsData:
    n = night.night(s, ev)
    played = [p for p in played_all if p.round < rno]
    st = night.compute_standings(ev, n, played, ids, codes=("PTS",))  # the points only: no tie-break shown
    before = {r.entrant: Fraction(r.points) / st.scale for r in st.rows}
    tables: list[report_data.PairingTable] = []
    for m in night.matches_of(s, ev.id, rnd.id):

        def side(entrant: int) -> report_data.PairingSide:
            w = who[entrant]
            return report_data.PairingSide(
                name=w.name,
                club=w.club,
                city=w.city,
                number=w.number or str(entrant),
                points=fraction_text(before.get(str(entrant), Fraction(0))),
                players=tuple(nm for _num, nm in w.members),
            )

        result = ""
        if m.side_b is not None and m.status in night.FINAL_STATUSES:
            result = f"{m.score_a}-{m.score_b}"
        tables.append(
            report_data.PairingTable(
                table=m.table_no,
                sides=(side(m.side_a), None if m.side_b is None else side(m.side_b)),
                result=result,
            )
        )
    call = rnd.call_at.strftime("%H:%M") if rnd.call_at is not None and rnd.status != "proposed" else ""
    return report_data.PairingsData(event_id=str(ev.id), round=rno, tables=tuple(tables), call_time=call)


def fraction_text(v: Fraction | float | int) -> str:
    f = Fraction(v)
    if f.denominator == 1:
        return str(f.numerator)
    return f"{float(f):g}"


_NOTES = {
    "withdrawn": N_("withdrawn"),
    "disqualified": N_("disqualified"),
}


def standings_data(
    db: Database, event_id: int, est: night.EventStandings | None = None
) -> report_data.StandingsData:
    """The event's standings with its tie-break columns and each tie explained (T12b); ``est``: the
    event's standings when the caller has them already."""
    est = est if est is not None else night.event_standings(db, event_id)
    with db.session() as s:
        ev = report_event(s, event_id)
        who = public(s, ev)
        status = {e.id: e.status for e in entrants_of(s, ev)}
        done = [
            m.round_no
            for m in night.matches_of(s, ev.id)
            if m.status in night.FINAL_STATUSES and m.side_b is not None
        ]
    ranks = [r.rank for r in est.rows]
    rows = []
    for r in est.rows:
        w = who.get(r.entrant)
        note = _NOTES.get(status.get(r.entrant, ""), "")
        rows.append(
            report_data.StandingsRow(
                rank=r.rank,
                name=r.name,
                club=w.club if w else "",
                city=w.city if w else "",
                points=localized_number(fraction_text(r.points)),  # 9,5 in id, es and tr
                tiebreaks={c: localized_number(v) for c, v in r.shown.items()},
                tied=ranks.count(r.rank) > 1,
                playoff=r.playoff,
                note=_(note) if note else "",
            )
        )
    return report_data.StandingsData(
        event_id=str(event_id),
        codes=est.codes,
        rows=tuple(rows),
        explanations=est.explanations,
        after_round=max(done) if done else None,
        final=est.finished,
    )


def bracket_data(db: Database, event_id: int) -> report_data.BracketData:
    """The elimination bracket as a tree with every confirmed result (T4c, T4d)."""

    with db.session() as s:
        ev = report_event(s, event_id)
        if ev.format not in formats.ELIMINATION:
            raise ServiceError(
                "not-elimination",
                _("Event {e} is not an elimination event; it has no bracket.").format(e=ev.id),
                event=ev.id,
            )
        state = night.state_of(night.night(s, ev))
        if "bracket" not in state:
            raise ServiceError(
                "no-bracket", _("Event {e} has not been drawn yet.").format(e=ev.id), event=ev.id
            )
        played = night.played_matches(s, ev)
        br = formats.bracket_with_results(state["bracket"], played)
        names = {str(k): v for k, v in night.entrant_names(s, ev.id).items()}
        scores: dict[str, tuple[str, str]] = {}
        for m in night.matches_of(s, ev.id):
            if not m.ref or m.side_b is None or m.status not in night.FINAL_STATUSES:
                continue
            sides = br.sides(m.ref) if m.ref in {x.id for x in br.matches} else (None, None)
            a, b = str(m.score_a), str(m.score_b)
            if m.kind == "forfeit":
                a, b = ("+", "−") if m.winner == m.side_a else ("−", "+")
            scores[m.ref] = (b, a) if sides[0] == str(m.side_b) else (a, b)
        data = from_bracket(br, names, scores)
        return report_data.BracketData(
            event_id=str(ev.id), kind=data.kind, matches=data.matches, champion=data.champion
        )
