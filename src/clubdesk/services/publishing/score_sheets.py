"""Score sheets: each table's sheet with
its recorded result and substitutions.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.competition import seating
from clubdesk.models.event import Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match, Substitution
from clubdesk.reports import data as report_data
from clubdesk.reports.score_sheets import score_sheets
from clubdesk.services import night, phones
from clubdesk.services.kernel import ServiceError
from clubdesk.services.publishing.header import (
    Progress,
    Who,
    public,
    report_event,
    report_header,
    report_round,
    signed_header,
    write_atomically,
)
from clubdesk.storage import Database


# ------------------------------------------------------------------------------------------ score sheets
def overrides_of(ev: Event) -> dict[str, Any]:
    overrides: dict[str, Any] = json.loads(ev.ruleset_overrides or "{}")
    if ev.target:
        overrides.setdefault("target", ev.target)
    return overrides


def _recorded(m: Match) -> report_data.RecordedScore | None:
    """The stored final score of a table, once a result was recorded (or awarded); None before."""
    if m.status in ("waiting", "postponed", "bye") or m.kind not in ("played", "forfeit"):
        return None
    winner = None if m.winner is None else (0 if m.winner == m.side_a else 1)
    points = None if m.points_a is None or m.points_b is None else (m.points_a, m.points_b)
    return report_data.RecordedScore((m.score_a, m.score_b), points, winner, m.kind == "forfeit")


def _seats(a: list[str], b: list[str]) -> tuple[str, str, str, str]:
    """The four seats of a pairs table: pair A at seats 1 + 3, pair B at 2 + 4 (blank where a pair is
    short of a player)."""
    a, b = (a + ["", ""])[:2], (b + ["", ""])[:2]
    return a[0], b[0], a[1], b[1]


def all_entries(games: dict[int, list[Any]]) -> tuple[Any, ...]:
    """Every game's entries of a table, game after game."""
    return tuple(e for g in sorted(games) for e in games[g])


def score_sheets_data(
    db: Database,
    event_id: int,
    round_no: int | None = None,
    table_no: int | None = None,
    progress: Progress | None = None,
) -> list[report_data.ScoreSheetData]:
    """One sheet per table of the round (``table_no`` None: every table, "all score sheets of round N");
    blank before play, filled from the recorded entries after. Byes get no sheet. A team encounter of
    domino-es gets one sheet per game, with the seats of that game (E7, E7b)."""

    with db.session() as s:
        ev = report_event(s, event_id)
        rno, rnd = report_round(s, ev, round_no, table_no)
        family, _params = night.params_of(ev)
        n = night.night(s, ev)
        encounter = n.encounter_games if family == "domino" else 0
        who = public(s, ev)
        names = {num: nm for w in who.values() for num, nm in w.members}
        # a substitute (E7.2, E20) may be any member: every member's public name (rule T14: no contact data)
        names.update({num: nm for num, nm in s.execute(select(Member.number, Member.name))} | names)
        matches = [
            m
            for m in night.matches_of(s, ev.id, rnd.id)
            if m.side_b is not None and (table_no is None or m.table_no == table_no)
        ]
        tables = [
            (m.table_no, m.side_a, m.side_b, m.match_length, m.scorer, m.counter, m.seats) for m in matches
        ]
        ways = {m.table_no: night.approval_ways(s, m) for m in matches}  # G13, E6: how each side approved
        # rule E6: the players named as scorer and counter (or the referee who scored, with their approval)
        named = {
            m.table_no: (
                names.get(m.scorer_member, ""),
                names.get(m.counter_member, ""),
                m.scored_by_referee,
                m.referee,
            )
            for m in matches
        }
        subs = {m.table_no: substitutions(s, m, who) for m in matches}
        recorded = {m.table_no: _recorded(m) for m in matches}
        overrides = overrides_of(ev)
        ruleset = ev.ruleset
        event_ref = str(ev.id)
    sheets: list[report_data.ScoreSheetData] = []
    for k, (table, a, b, length, scorer, counter, seats_json) in enumerate(tables):
        assert b is not None
        games = night.table_entries(db, event_id, rno, table)
        # a result recorded as a final score only has no entries: its sheet prints that score
        rec = None if any(games.values()) else recorded[table]
        wa, wb = who[a], who[b]
        if family == "tavla":
            params = dict(overrides)
            if length:
                params["match_length"] = length  # rule T8a: the round's match length
            sheets.append(
                report_data.TavlaSheetData(
                    event_id=event_ref,
                    round=rno,
                    table=table,
                    players=(wa.name, wb.name),
                    clubs=(wa.club, wb.club),
                    ruleset=ruleset,
                    params=params,
                    entries=all_entries(games),
                    recorded=rec,
                )
            )
        elif family == "gaple":
            sheets.append(
                report_data.GapleSheetData(
                    event_id=event_ref,
                    round=rno,
                    table=table,
                    seats=_seats([nm for _n, nm in wa.members], [nm for _n, nm in wb.members]),
                    pair_names=(wa.name, wb.name),
                    ruleset=ruleset,
                    params=dict(overrides),
                    entries=all_entries(games),
                    recorded=rec,
                )
            )
        else:
            stored = json.loads(seats_json) if seats_json else {}
            base = list(stored.get("game1") or stored.get("seats") or [])
            if len(base) != 4:
                base = list(_seats([num for num, _nm in wa.members], [num for num, _nm in wb.members]))
            rounds_of_games = list(range(1, encounter + 1)) if encounter else [0]
            for g in rounds_of_games:
                seat_numbers = base
                if g > 1:
                    try:
                        seat_numbers = night.encounter_seats(db, event_id, rno, table, g)
                    except ServiceError:
                        seat_numbers = base  # game 1 still open: the seats are not known yet
                players = tuple(names.get(x, x) for x in seat_numbers)
                entries = tuple(games.get(g, ())) if g else all_entries(games)
                params = dict(overrides)
                if g:
                    params["games_to_win"] = 1  # rule E7b: each game of an encounter is its own sheet
                scorer_name, counter_name, by_referee, referee = named[table]
                sheets.append(
                    report_data.DominoSheetData(
                        event_id=event_ref,
                        round=rno,
                        table=table,
                        players=(players[0], players[1], players[2], players[3]),
                        pair_names=(wa.name, wb.name),
                        scorer=scorer_name,
                        counter=counter_name,
                        approvals=(
                            night.approval_with_way(scorer, ways[table][0]),
                            night.approval_with_way(counter, ways[table][1]),
                        ),
                        referee_scored=by_referee,
                        referee=referee,
                        game=g,
                        substitutions=tuple(x for x in subs[table] if not g or x.game == g),
                        ruleset=ruleset,
                        params=params,
                        entries=entries,
                        recorded=rec,
                        encounter=bool(g),
                        # rule E7: the sheet says when equal tiles were drawn again among the tied
                        seat_note=seating.seat_draw_note(stored, names) if g <= 1 else "",
                    )
                )
        if progress is not None:
            progress(k + 1, len(tables) + 1)

    return phones.with_table_urls(db, event_id, rno, sheets)  # the QR opens the table on a phone


def substitutions(s: Session, m: Match, who: dict[int, Who]) -> list[report_data.SubstitutionLine]:
    """Rules E7.2, E20: the table's substitutions, in order (who left, who came in, game and hand)."""

    rows = s.scalars(select(Substitution).where(Substitution.match_id == m.id).order_by(Substitution.id))
    out = []
    for sub in rows:
        gone, came = s.get(Member, sub.member_out), s.get(Member, sub.member_in)
        side = m.side_a if sub.side == 0 else m.side_b
        out.append(
            report_data.SubstitutionLine(
                side=who[side].name if side in who else "",
                player_out=gone.name if gone else "",
                player_in=came.name if came else "",
                game=sub.game_no,
                from_hand=sub.from_hand,
                reason=sub.reason,
            )
        )
    return out


def score_sheets_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    round_no: int | None = None,
    table_no: int | None = None,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
    progress: Progress | None = None,
) -> int:

    sheets = score_sheets_data(db, event_id, round_no, table_no, progress)
    rno = round_no if round_no is not None else (sheets[0].round if sheets else None)
    header = report_header(db, event_id, round_no=rno, language=language, paper=paper, printed_on=printed_on)
    header = signed_header(db, header)
    return write_atomically(out, lambda p: score_sheets(p, header, sheets))
