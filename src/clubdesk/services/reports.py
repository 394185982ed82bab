"""Printed outputs (issue 14): gather plain data from the database and hand it to ``clubdesk.reports``.

One function per report kind of CONTRACTS.md §4 (``score-sheets``, ``pairings``, ``standings``, ``bracket``,
``incident-act``, ``receipts``, ``prizes``, ``season``) plus :func:`generate`, which checks the request,
gathers everything first and only then writes the file (a refused request writes nothing; a finished file
replaces the target in one move). Every function returns the number of pages.

Privacy (rule T14): the public reports are filled from name, club, city and results only; phone and e-mail
are read by the two private lists alone (:func:`member_history_report`, :func:`contact_list_report`).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from clubdesk.db import Database
from clubdesk.i18n import N_, _, retranslate
from clubdesk.labels import entrant_status_label, localized_number
from clubdesk.models.club import Club
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.money import Payment
from clubdesk.models.result import FinalPlace, Match, PrizeAward, RatingEntry
from clubdesk.models.round import EventNight, Round
from clubdesk.reports import data as D
from clubdesk.services import formats as F
from clubdesk.services import rounds as R
from clubdesk.services import settings as settings_service
from clubdesk.services import standings as ST
from clubdesk.services.base import Actor, ServiceError
from clubdesk.standings.season import SeasonRow, SeasonScale
from clubdesk.timefmt import local_text

KINDS: tuple[str, ...] = (
    "score-sheets",
    "pairings",
    "standings",
    "bracket",
    "incident-act",
    "receipts",
    "prizes",
    "season",
    "crosstable",  # issue 21
)
KIND_LABELS: dict[str, str] = {
    "score-sheets": N_("Score sheets"),
    "pairings": N_("Pairings"),
    "standings": N_("Standings"),
    "bracket": N_("Bracket"),
    "incident-act": N_("Match act"),
    "receipts": N_("Receipts"),
    "prizes": N_("Prize list"),
    "season": N_("Season ranking"),
    "crosstable": N_("Cross-table"),
}
PLAYER_CARD = "player-card"  # issue 21: a member's card (ReportRequest.member), not an event's report
PAPERS: dict[str, D.PageSize] = {"a4": "A4", "letter": "Letter"}
DEFAULT_SUPER_FINAL = 8  # rule T12d: the season's top players are invited; a club may set its own number

Progress = Callable[[int, int], None]  # (done, total)


@dataclass(frozen=True)
class ReportRequest:
    """What to print: a kind of :data:`KINDS` for an event, optionally one round and one table."""

    kind: str
    event_id: int
    round: int | None = None
    table: int | None = None
    language: str | None = None  # None: the app's language
    paper: str = "a4"
    printed_on: dt.datetime | None = None  # None: now
    member: str | None = None  # issue 21: the member number of a player card (kind "player-card")
    viewer: Actor | None = None  # issue 21: who prints a player card (its incidents: organiser only)


# ------------------------------------------------------------------------------------------ helpers
def _event(s: Session, event_id: int) -> Event:
    return R.get_event(s, event_id)


def _clubs(s: Session) -> dict[int, str]:
    return {c.id: c.name for c in s.scalars(select(Club))}


def _club_of(clubs: dict[int, str], m: Member) -> str:
    return clubs.get(m.club_id, "") if m.club_id is not None else ""


def _entrants(s: Session, ev: Event) -> list[Entrant]:
    return list(s.scalars(select(Entrant).where(Entrant.event_id == ev.id)))


def _payments(ev: Event) -> Select[Payment]:
    """Every payment (and refund) of the event's entrants."""
    return select(Payment).join(Entrant, Entrant.id == Payment.entrant_id).where(Entrant.event_id == ev.id)


def _round(s: Session, ev: Event, round_no: int | None, table_no: int | None = None) -> tuple[int, Round]:
    """The round asked for (None: the latest) and, when a table is asked for, a check that it exists."""
    rno = round_no if round_no is not None else _last_round(s, ev)
    rnd = R.find_round(s, ev, rno)
    if table_no is not None:
        R.find_table(s, ev, rno, table_no)
    return rno, rnd


@dataclass(frozen=True)
class _Who:
    """The public face of an entrant (rule T14: no phone, no e-mail)."""

    name: str
    club: str
    city: str
    number: str
    members: tuple[tuple[str, str], ...]  # (member number, member name)


def _members_of(s: Session, ev: Event) -> dict[int, list[Member]]:
    """Every entrant's current members in one query (as R.entrant_members, in its order)."""
    of: dict[int, list[Member]] = {}
    rows = s.execute(
        select(EntrantMember.entrant_id, Member)
        .join(Member, EntrantMember.member_id == Member.id)
        .join(Entrant, Entrant.id == EntrantMember.entrant_id)
        .where(Entrant.event_id == ev.id, EntrantMember.left_at.is_(None))
        .order_by(EntrantMember.id)
    )
    for entrant_id, member in rows:
        of.setdefault(entrant_id, []).append(member)
    return of


def _public(s: Session, ev: Event) -> dict[int, _Who]:
    clubs = _clubs(s)
    out: dict[int, _Who] = {}
    of = _members_of(s, ev)
    for en in _entrants(s, ev):
        members = of.get(en.id, [])
        club_names = sorted({clubs.get(m.club_id, "") for m in members if m.club_id is not None})
        cities = sorted({m.city for m in members if m.city})
        out[en.id] = _Who(
            name=en.name,
            club=" / ".join(club_names),
            city=" / ".join(cities),
            number=members[0].number if len(members) == 1 else "",
            members=tuple((m.number, m.name) for m in members),
        )
    return out


def _paper(paper: str) -> D.PageSize:
    size = PAPERS.get(paper.strip().lower())
    if size is None:
        raise ServiceError(
            "unknown-paper", _("Unknown paper size: {paper} (a4 or letter).").format(paper=paper), paper=paper
        )
    return size


def _language(db: Database, language: str | None, event_id: int | None = None) -> str:
    """The report's language: the one asked for, else the event's (events.event_language), else the club's;
    never the window's."""
    from clubdesk.i18n import LANGUAGES, PSEUDO
    from clubdesk.services.events import event_language

    lang = (
        language
        or (event_language(db, event_id) if event_id is not None else None)
        or settings_service.club_settings(db).language
        or "en"
    )
    if lang not in LANGUAGES and lang != PSEUDO:
        raise ServiceError("unknown-language", _("Unknown language: {lang}").format(lang=lang), lang=lang)
    return lang


def report_header(
    db: Database,
    event_id: int | None,
    *,
    round_no: int | None = None,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> D.ReportHeader:
    """The common frame: the club's name and logo (settings), the event, the round and its date."""
    club = settings_service.club_settings(db)
    name = ""
    date: dt.date | None = None
    if event_id is not None:
        with db.session() as s:
            ev = _event(s, event_id)
            name = ev.name
            date = ev.starts_on
            if round_no is not None:
                for rnd in R.rounds_of(s, ev.id):
                    if rnd.number == round_no and rnd.call_at is not None:
                        date = rnd.call_at.date()
    return D.ReportHeader(
        club_name=club.club_name,
        event_name=name,
        logo_path=club.logo_path,
        round=round_no,
        date=date,
        language=_language(db, language, event_id),
        page_size=_paper(paper),
        printed_on=printed_on,
    )


def _write(out: str | Path, writer: Callable[[Path], int]) -> int:
    """Write next to the target and move into place: a failed print leaves no half file behind."""
    target = Path(out)
    if target.parent and not target.parent.is_dir():
        raise ServiceError(
            "no-folder", _("The folder does not exist: {path}").format(path=target.parent), path=str(target)
        )
    fd, tmp = tempfile.mkstemp(prefix=".clubdesk-", suffix=".pdf", dir=target.parent)
    os.close(fd)
    try:
        pages = writer(Path(tmp))
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return pages


_T = TypeVar("_T")


def _render(
    out: str | Path,
    header: D.ReportHeader,
    write: Callable[[Path, D.ReportHeader, _T], int],
    gather: Callable[[], _T],
) -> int:
    """The data gathered in the header's language (its translated words), then the file written."""
    with _in_language(header.language):
        data = gather()
    return _write(out, lambda p: write(p, header, data))


def _last_round(s: Session, ev: Event) -> int:
    rounds = [r for r in R.rounds_of(s, ev.id)]
    if not rounds:
        raise ServiceError("no-round", _("Event {e} has no round yet.").format(e=ev.id), event=ev.id)
    return rounds[-1].number


# ------------------------------------------------------------------------------------------ score sheets
def _overrides(ev: Event) -> dict[str, Any]:
    overrides: dict[str, Any] = json.loads(ev.ruleset_overrides or "{}")
    if ev.target:
        overrides.setdefault("target", ev.target)
    return overrides


def _recorded(m: Match) -> D.RecordedScore | None:
    """The stored final score of a table, once a result was recorded (or awarded); None before."""
    if m.status in ("waiting", "postponed", "bye") or m.kind not in ("played", "forfeit"):
        return None
    winner = None if m.winner is None else (0 if m.winner == m.side_a else 1)
    points = None if m.points_a is None or m.points_b is None else (m.points_a, m.points_b)
    return D.RecordedScore((m.score_a, m.score_b), points, winner, m.kind == "forfeit")


def _seats(a: list[str], b: list[str]) -> tuple[str, str, str, str]:
    """The four seats of a pairs table: pair A at seats 1 + 3, pair B at 2 + 4 (blank where a pair is
    short of a player)."""
    a, b = (a + ["", ""])[:2], (b + ["", ""])[:2]
    return a[0], b[0], a[1], b[1]


def _all_entries(games: dict[int, list[Any]]) -> tuple[Any, ...]:
    """Every game's entries of a table, game after game."""
    return tuple(e for g in sorted(games) for e in games[g])


def score_sheets_data(
    db: Database,
    event_id: int,
    round_no: int | None = None,
    table_no: int | None = None,
    progress: Progress | None = None,
) -> list[D.ScoreSheetData]:
    """One sheet per table of the round (``table_no`` None: every table, "all score sheets of round N");
    blank before play, filled from the recorded entries after. Byes get no sheet. A team encounter of
    domino-es gets one sheet per game, with the seats of that game (E7, E7b)."""
    from clubdesk.services import results as RS

    with db.session() as s:
        ev = _event(s, event_id)
        rno, rnd = _round(s, ev, round_no, table_no)
        family, _params = R.params_of(ev)
        n = R.night(s, ev)
        encounter = n.encounter_games if family == "domino" else 0
        who = _public(s, ev)
        names = {num: nm for w in who.values() for num, nm in w.members}
        # a substitute (E7.2, E20) may be any member: every member's public name (rule T14: no contact data)
        names.update({num: nm for num, nm in s.execute(select(Member.number, Member.name))} | names)
        matches = [
            m
            for m in R.matches_of(s, ev.id, rnd.id)
            if m.side_b is not None and (table_no is None or m.table_no == table_no)
        ]
        tables = [
            (m.table_no, m.side_a, m.side_b, m.match_length, m.scorer, m.counter, m.seats) for m in matches
        ]
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
        subs = {m.table_no: _substitutions(s, m, who) for m in matches}
        recorded = {m.table_no: _recorded(m) for m in matches}
        overrides = _overrides(ev)
        ruleset = ev.ruleset
        event_ref = str(ev.id)
    sheets: list[D.ScoreSheetData] = []
    for k, (table, a, b, length, scorer, counter, seats_json) in enumerate(tables):
        assert b is not None
        games = RS.table_entries(db, event_id, rno, table)
        # a result recorded as a final score only has no entries: its sheet prints that score
        rec = None if any(games.values()) else recorded[table]
        wa, wb = who[a], who[b]
        if family == "tavla":
            params = dict(overrides)
            if length:
                params["match_length"] = length  # rule T8a: the round's match length
            sheets.append(
                D.TavlaSheetData(
                    event_id=event_ref,
                    round=rno,
                    table=table,
                    players=(wa.name, wb.name),
                    clubs=(wa.club, wb.club),
                    ruleset=ruleset,
                    params=params,
                    entries=_all_entries(games),
                    recorded=rec,
                )
            )
        elif family == "gaple":
            sheets.append(
                D.GapleSheetData(
                    event_id=event_ref,
                    round=rno,
                    table=table,
                    seats=_seats([nm for _n, nm in wa.members], [nm for _n, nm in wb.members]),
                    pair_names=(wa.name, wb.name),
                    ruleset=ruleset,
                    params=dict(overrides),
                    entries=_all_entries(games),
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
                        seat_numbers = RS.encounter_seats(db, event_id, rno, table, g)
                    except ServiceError:
                        seat_numbers = base  # game 1 still open: the seats are not known yet
                players = tuple(names.get(x, x) for x in seat_numbers)
                entries = tuple(games.get(g, ())) if g else _all_entries(games)
                params = dict(overrides)
                if g:
                    params["games_to_win"] = 1  # rule E7b: each game of an encounter is its own sheet
                scorer_name, counter_name, by_referee, referee = named[table]
                sheets.append(
                    D.DominoSheetData(
                        event_id=event_ref,
                        round=rno,
                        table=table,
                        players=(players[0], players[1], players[2], players[3]),
                        pair_names=(wa.name, wb.name),
                        scorer=scorer_name,
                        counter=counter_name,
                        approvals=(scorer, counter),
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
                        seat_note=F.seat_draw_note(stored, names) if g <= 1 else "",
                    )
                )
        if progress is not None:
            progress(k + 1, len(tables) + 1)
    from clubdesk.services import phones

    return phones.with_table_urls(db, event_id, rno, sheets)  # issue 27: the QR opens the table on a phone


def _substitutions(s: Session, m: Match, who: dict[int, _Who]) -> list[D.SubstitutionLine]:
    """Rules E7.2, E20: the table's substitutions, in order (who left, who came in, game and hand)."""
    from clubdesk.models.result import Substitution

    rows = s.scalars(select(Substitution).where(Substitution.match_id == m.id).order_by(Substitution.id))
    out = []
    for sub in rows:
        gone, came = s.get(Member, sub.member_out), s.get(Member, sub.member_in)
        side = m.side_a if sub.side == 0 else m.side_b
        out.append(
            D.SubstitutionLine(
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
    from clubdesk.reports.score_sheets import score_sheets

    sheets = score_sheets_data(db, event_id, round_no, table_no, progress)
    rno = round_no if round_no is not None else (sheets[0].round if sheets else None)
    header = report_header(db, event_id, round_no=rno, language=language, paper=paper, printed_on=printed_on)
    return _write(out, lambda p: score_sheets(p, header, sheets))


# ------------------------------------------------------------------------------------------ pairings
def pairings_data(db: Database, event_id: int, round_no: int | None = None) -> D.PairingsData:
    """The tables of a round (best tables first), each side with its points before the round; the
    notice-board list by name is added by the report."""
    with db.session() as s:
        ev = _event(s, event_id)
        rno, rnd = _round(s, ev, round_no)
        return _pairings_of(s, ev, rno, rnd, _public(s, ev), R.played_matches(s, ev), R.standing_ids(s, ev))


def pairings_rounds(db: Database, event_id: int, rounds: Sequence[int]) -> tuple[D.PairingsData, ...]:
    """:func:`pairings_data` of each of ``rounds``, the event's entrants and games read once (the static
    site shows every round: issue 28's speed target)."""
    with db.session() as s:
        ev = _event(s, event_id)
        who, played, ids = _public(s, ev), R.played_matches(s, ev), R.standing_ids(s, ev)
        return tuple(_pairings_of(s, ev, *_round(s, ev, n), who, played, ids) for n in rounds)


def _pairings_of(
    s: Session,
    ev: Event,
    rno: int,
    rnd: Round,
    who: dict[int, _Who],
    played_all: list[F.Played],
    ids: list[str],
) -> D.PairingsData:
    n = R.night(s, ev)
    played = [p for p in played_all if p.round < rno]
    st = ST.compute_standings(ev, n, played, ids, codes=("PTS",))  # the points only: no tie-break shown
    before = {r.entrant: Fraction(r.points) / st.scale for r in st.rows}
    tables: list[D.PairingTable] = []
    for m in R.matches_of(s, ev.id, rnd.id):

        def side(entrant: int) -> D.PairingSide:
            w = who[entrant]
            return D.PairingSide(
                name=w.name,
                club=w.club,
                city=w.city,
                number=w.number or str(entrant),
                points=_fraction_text(before.get(str(entrant), Fraction(0))),
            )

        result = ""
        if m.side_b is not None and m.status in R.FINAL_STATUSES:
            result = f"{m.score_a}-{m.score_b}"
        tables.append(
            D.PairingTable(
                table=m.table_no,
                sides=(side(m.side_a), None if m.side_b is None else side(m.side_b)),
                result=result,
            )
        )
    call = rnd.call_at.strftime("%H:%M") if rnd.call_at is not None and rnd.status != "proposed" else ""
    return D.PairingsData(event_id=str(ev.id), round=rno, tables=tuple(tables), call_time=call)


def _fraction_text(v: Fraction | float | int) -> str:
    f = Fraction(v)
    if f.denominator == 1:
        return str(f.numerator)
    return f"{float(f):g}"


def pairings_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    round_no: int | None = None,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    from clubdesk.reports.pairings import pairings

    data = pairings_data(db, event_id, round_no)
    header = report_header(
        db, event_id, round_no=data.round, language=language, paper=paper, printed_on=printed_on
    )
    return _write(out, lambda p: pairings(p, header, data))


# ------------------------------------------------------------------------------------------ standings
_NOTES = {
    "withdrawn": N_("withdrawn"),
    "disqualified": N_("disqualified"),
}


def standings_data(db: Database, event_id: int, est: ST.EventStandings | None = None) -> D.StandingsData:
    """The event's standings with its tie-break columns and each tie explained (T12b); ``est``: the
    event's standings when the caller has them already."""
    est = est if est is not None else ST.event_standings(db, event_id)
    with db.session() as s:
        ev = _event(s, event_id)
        who = _public(s, ev)
        status = {e.id: e.status for e in _entrants(s, ev)}
        done = [
            m.round_no
            for m in R.matches_of(s, ev.id)
            if m.status in R.FINAL_STATUSES and m.side_b is not None
        ]
    ranks = [r.rank for r in est.rows]
    rows = []
    for r in est.rows:
        w = who.get(r.entrant)
        note = _NOTES.get(status.get(r.entrant, ""), "")
        rows.append(
            D.StandingsRow(
                rank=r.rank,
                name=r.name,
                club=w.club if w else "",
                city=w.city if w else "",
                points=localized_number(_fraction_text(r.points)),  # 9,5 in id, es and tr
                tiebreaks={c: localized_number(v) for c, v in r.shown.items()},
                tied=ranks.count(r.rank) > 1,
                playoff=r.playoff,
                note=_(note) if note else "",
            )
        )
    return D.StandingsData(
        event_id=str(event_id),
        codes=est.codes,
        rows=tuple(rows),
        explanations=est.explanations,
        after_round=max(done) if done else None,
        final=est.finished,
    )


def standings_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    from clubdesk.reports.standings import standings

    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    return _render(out, header, standings, lambda: standings_data(db, event_id))


# ------------------------------------------------------------------------------------------ bracket
def bracket_data(db: Database, event_id: int) -> D.BracketData:
    """The elimination bracket as a tree with every confirmed result (T4c, T4d)."""
    from clubdesk.reports.bracket import from_bracket

    with db.session() as s:
        ev = _event(s, event_id)
        if ev.format not in F.ELIMINATION:
            raise ServiceError(
                "not-elimination",
                _("Event {e} is not an elimination event; it has no bracket.").format(e=ev.id),
                event=ev.id,
            )
        state = R.state_of(R.night(s, ev))
        if "bracket" not in state:
            raise ServiceError(
                "no-bracket", _("Event {e} has not been drawn yet.").format(e=ev.id), event=ev.id
            )
        played = R.played_matches(s, ev)
        br = F.bracket_with_results(state["bracket"], played)
        names = {str(k): v for k, v in R.entrant_names(s, ev.id).items()}
        scores: dict[str, tuple[str, str]] = {}
        for m in R.matches_of(s, ev.id):
            if not m.ref or m.side_b is None or m.status not in R.FINAL_STATUSES:
                continue
            sides = br.sides(m.ref) if m.ref in {x.id for x in br.matches} else (None, None)
            a, b = str(m.score_a), str(m.score_b)
            if m.kind == "forfeit":
                a, b = ("+", "−") if m.winner == m.side_a else ("−", "+")
            scores[m.ref] = (b, a) if sides[0] == str(m.side_b) else (a, b)
        data = from_bracket(br, names, scores)
        return D.BracketData(
            event_id=str(ev.id), kind=data.kind, matches=data.matches, champion=data.champion
        )


def bracket_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    from clubdesk.reports.bracket import bracket

    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    return _render(out, header, bracket, lambda: bracket_data(db, event_id))


# ------------------------------------------------------------------------------------------ receipts
_METHODS = {
    "cash": N_("cash"),
    "card": N_("card"),
    "transfer": N_("bank transfer"),
    "pos": N_("card terminal"),
}


def receipts_data(db: Database, event_id: int, entrant_id: int | None = None) -> list[D.ReceiptData]:
    """One receipt per entrant on the list (registered and waiting), with the check-in QR (T2b, T3a):
    the entry fee owed by the payments' dates and what was paid, net of refunds."""
    from clubdesk.services import desk

    rows = desk.entrants(db, event_id, include_withdrawn=False)
    if entrant_id is not None:
        rows = [r for r in rows if r.entrant == entrant_id]
        if not rows:
            raise ServiceError("no-entrant", _("No entrant {id}.").format(id=entrant_id))
    with db.session() as s:
        ev = _event(s, event_id)
        who = _public(s, ev)
        pays: dict[int, list[Payment]] = {}
        for p in s.scalars(_payments(ev).order_by(Payment.paid_at, Payment.id)):
            pays.setdefault(p.entrant_id, []).append(p)
        event_name = ev.name
        plain = {k: [(p.id, p.amount, p.method, p.reference, p.paid_at) for p in v] for k, v in pays.items()}
    out: list[D.ReceiptData] = []
    for r in rows:
        w = who[r.entrant]
        own = plain.get(r.entrant, [])
        last = next((p for p in reversed(own) if p[1] > 0), None)
        members = w.members
        out.append(
            D.ReceiptData(
                event_id=str(event_id),
                receipt_no=f"{event_id}-{r.entrant}" + (f"-{last[0]}" if last else ""),
                name=w.name if len(members) != 2 else members[0][1],
                checkin_code=r.code,
                currency=r.currency,
                lines=(D.ReceiptLine(_("Entry fee: {event}").format(event=event_name), r.price),),
                paid=r.paid,
                number=members[0][0] if members else "",
                club=w.club,
                method=_(_METHODS.get(last[2], last[2])) if last else "",
                reference=last[3] if last else "",
                paid_on=last[4].date() if last else None,
                partner=members[1][1] if len(members) == 2 else "",
                owed=r.owed,
            )
        )
    return out


def receipts_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    entrant_id: int | None = None,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    from clubdesk.reports.receipts import receipts

    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    return _render(out, header, receipts, lambda: receipts_data(db, event_id, entrant_id))


# ------------------------------------------------------------------------------------------ prizes
_GENERATED_PRIZES = (N_("Prize money"), N_("Category prize money"))  # standings.prizes descriptions
_PRIZE_KINDS = {
    "money": N_("money"),
    "trophy": N_("trophy"),
    "medal": N_("medal"),
    "goods": N_("goods"),
    "free_entry": N_("free entry"),
    "free-entry": N_("free entry"),
}


def prizes_data(db: Database, event_id: int) -> D.PrizeListData:
    """The prizes awarded when the event ended (T13a-T13d), with their payments (T13e)."""
    with db.session() as s:
        ev = _event(s, event_id)
        who = _public(s, ev)
        places = {
            fp.entrant_id: (fp.place_from, fp.place_to)
            for fp in s.scalars(select(FinalPlace).where(FinalPlace.event_id == ev.id))
        }
        awards = list(s.scalars(select(PrizeAward).where(PrizeAward.event_id == ev.id)))
        rows: list[tuple[tuple[int, int, str], D.PrizeRow]] = []
        for aw in awards:
            a, b = places.get(aw.entrant_id, (10**6, 10**6))
            category = not aw.award_key.startswith("place")
            # a category prize (T13d) shows its category: "cat:women:1:money" -> "women"
            place = aw.award_key.split(":")[1] if category and ":" in aw.award_key else _place(a, b)
            kind = _(_PRIZE_KINDS.get(aw.kind, aw.kind))
            # the engine's own words were stored in the language of the day: shown in the report's
            prize = retranslate(aw.description, _GENERATED_PRIZES) if aw.description else kind
            w = who.get(aw.entrant_id)
            rows.append(
                (
                    (a, 1 if category else 0, aw.award_key),
                    D.PrizeRow(
                        place=place,
                        name=w.name if w else str(aw.entrant_id),
                        prize=prize,
                        amount=aw.amount if aw.kind == "money" else 0,
                        club=w.club if w else "",
                        paid=aw.paid_at is not None,
                        paid_on=aw.paid_at.date() if aw.paid_at else None,
                        method=_(_METHODS.get(aw.paid_method, aw.paid_method)) if aw.paid_method else "",
                    ),
                )
            )
        rows.sort(key=lambda x: x[0])
        fees = [p.amount for p in s.scalars(_payments(ev))]
        collected = sum(a for a in fees if a > 0)
        refunded = -sum(a for a in fees if a < 0)
        entrants = sum(1 for e in _entrants(s, ev) if e.status in ("registered", "disqualified"))
        final = R.night(s, ev).finished_at is not None
        try:
            plan = ST.prize_plan_from(R.night(s, ev).prize_plan, ev.currency)
        except (KeyError, TypeError, ValueError):
            plan = None  # a broken plan prints as none; the night settings say what is wrong
        pool = 0
        lines: list[D.PlanLine] = []
        if plan is not None:
            # rule T13b: the prize engine's pool (fees collected net of refunds x the pool rate) and each
            # place's money (fixed + its share of the pool, apportioned by the engine)
            pool = plan.pool(collected, refunded) if collected >= refunded else 0
            money, _cats = plan.money_by_line(pool)
            holders: dict[int, list[str]] = {}
            for en_id, (a, b) in places.items():
                for place in range(a, b + 1):
                    w = who.get(en_id)
                    holders.setdefault(place, []).append(w.name if w else str(en_id))
            for pp in sorted(plan.places, key=lambda p: p.place):
                lines.append(
                    D.PlanLine(
                        place=str(pp.place),
                        amount=money.get(pp.place, 0),
                        items=", ".join(_(_PRIZE_KINDS.get(str(i.kind), str(i.kind))) for i in pp.items),
                        entrants=tuple(sorted(holders.get(pp.place, []))),
                        fixed=pp.fixed,
                        share=pp.pool_share,
                    )
                )
        return D.PrizeListData(
            event_id=str(ev.id),
            currency=ev.currency,
            rows=tuple(r for _k, r in rows),
            pool=pool,
            plan=tuple(lines),
            has_plan=plan is not None,
            entrants=entrants,
            collected=collected - refunded,
            pool_rate=plan.pool_rate if plan is not None else 0,
            final=final,
        )


def prizes_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    from clubdesk.reports.prizes import prizes

    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    return _render(out, header, prizes, lambda: prizes_data(db, event_id))


# ------------------------------------------------------------------------------------------ season
def _centi(v: int) -> str:
    return str(v // 100) if v % 100 == 0 else f"{v / 100:.2f}"


@dataclass(frozen=True)
class SeasonRanking:
    """The season of an event as the season engine ranks it (T12d): the finished events (id, name) that are
    its columns, the engine's rows, the members by id, the scale and the season scale's raw settings."""

    season: str
    columns: tuple[tuple[int, str], ...]
    rows: tuple[SeasonRow, ...]
    people: dict[int, Member]
    scale: SeasonScale
    settings: dict[str, Any]


def season_ranking(s: Session, ev: Event) -> SeasonRanking:
    """Every finished event of ``ev``'s season is a column with each member's season points (stored when it
    ended); the ranking, the best-N rule (from ``ev``'s season scale, ``best_of``), the dropped results and
    the tie-breaks are the season engine's (:func:`clubdesk.standings.season.rank_scores`)."""
    from clubdesk.standings.season import EventScore, rank_scores

    season = ev.season.strip()
    if not season:
        raise ServiceError("no-season", _("Event {e} belongs to no season.").format(e=ev.id), event=ev.id)
    events = list(
        s.scalars(select(Event).where(Event.season == ev.season).order_by(Event.starts_on, Event.id))
    )
    columns: list[tuple[int, str]] = []
    scores: list[EventScore] = []
    people: dict[int, Member] = {}
    for e in events:
        places = list(s.scalars(select(FinalPlace).where(FinalPlace.event_id == e.id)))
        if not places:
            continue
        columns.append((e.id, e.name))
        status = {en.id: en.status for en in _entrants(s, e)}
        members = _members_of(s, e)  # one query per event, not per entrant (issue 28's 3 s target)
        for fp in places:
            for m in members.get(fp.entrant_id, []):
                people[m.id] = m
                scores.append(
                    EventScore(
                        event_id=str(e.id),
                        held_on=e.starts_on or dt.date.min,
                        entrant=str(m.id),
                        place_from=fp.place_from,
                        place_to=fp.place_to,
                        points=fp.season_points,
                        disqualified=status.get(fp.entrant_id) == "disqualified",
                    )
                )
    night = s.get(EventNight, ev.id)
    raw = night.season_scale if night is not None else "{}"
    try:
        settings = json.loads(raw or "{}")
        scale = ST.season_scale_from(raw) or SeasonScale((), {})
    except (KeyError, TypeError, ValueError):
        settings, scale = {}, SeasonScale((), {})
    rows = tuple(rank_scores(scores, scale))
    return SeasonRanking(
        season, tuple(columns), rows, people, scale, settings if isinstance(settings, dict) else {}
    )


def season_data(db: Database, event_id: int, super_final: int | None = None) -> D.SeasonData:
    """The season ranking of the event's season (T12d), see :func:`season_ranking`."""
    with db.session() as s:
        ev = _event(s, event_id)
        rk = season_ranking(s, ev)
        clubs = _clubs(s)
        rows: list[D.SeasonRowData] = []
        for r in rk.rows:
            m = rk.people[int(r.entrant)]
            counted = {x.event_id: x.points for x in r.counted}
            dropped = {x.event_id: x.points for x in r.dropped}

            rows.append(
                D.SeasonRowData(
                    rank=r.rank,
                    name=m.name,
                    points=r.points // 100,
                    points_text=_centi(r.points),
                    club=_club_of(clubs, m),
                    city=m.city,
                    events=tuple(_season_cell(str(eid), counted, dropped) for eid, _n in rk.columns),
                    note=_("disqualified") if r.disqualified_in else "",
                )
            )
    configured = rk.settings.get("super_final")
    n_final = super_final if super_final is not None else int(configured or DEFAULT_SUPER_FINAL)
    return D.SeasonData(
        season=rk.season,
        event_columns=tuple(name for _id, name in rk.columns),
        rows=tuple(rows),
        super_final=min(n_final, len(rows)),
        best_of=rk.scale.best_of,
        events_total=len(rk.columns),
    )


def _season_cell(event: str, counted: dict[str, int], dropped: dict[str, int]) -> str:
    if event in counted:
        return _centi(counted[event])
    if event in dropped:
        return f"({_centi(dropped[event])})"  # rule T12d: not among the best N results, not counted
    return ""


def season_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    super_final: int | None = None,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    from clubdesk.reports.season import season

    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    return _render(out, header, season, lambda: season_data(db, event_id, super_final))


# ------------------------------------------------------------------------------------------ match act
E20_DECISIONS = frozenset({"replay", "validate", "resume", "award-leader"})  # rule E20
E20_KINDS = frozenset({"suspension", "abandonment"})  # incident kinds of art. 20
INTERVENTION_KINDS = frozenset({"false-think"})  # rule E15: captains and referee resolve it


@dataclass(frozen=True)
class _ActTable:
    """What the act needs of one table: its sides, captains, referee and each game as the engine
    scored it (``games[k]`` is game k + 1 of the encounter, with its hands)."""

    table: int
    sides: tuple[str, str]
    captains: tuple[str, str]
    referee: str
    games: tuple[dict[str, Any], ...]


def _engine_games(
    ruleset: str, params: dict[str, Any], games: dict[int, list[Any]], encounter: int
) -> list[Any]:
    """Every game of a table as the rules engine scores it (one sheet per encounter game, E7b)."""
    from clubdesk.games import EntryError, replay

    out: list[dict[str, Any]] = []
    try:
        if encounter:
            for g in range(1, max([encounter, *games]) + 1):
                res = replay(ruleset, games.get(g, []), {**params, "games_to_win": 1})
                out.append(res["games"][0] if res.get("games") else {"hands": [], "totals": [0, 0]})
        else:
            out.extend(replay(ruleset, _all_entries(games), params).get("games", []))
    except (EntryError, ValueError):
        return out
    return out


def incident_act_data(
    db: Database, event_id: int, round_no: int | None = None, table_no: int | None = None
) -> D.IncidentActData:
    """The match act (Acta del Encuentro) of a round, or of one table/encounter: the sides and their
    players with the captains, the referee, every incident (game, hand, pair and player it concerns),
    substitution, decision of art. 20 with the result the engine gives after it, penalty and appeal
    with its reasons (E8-E20, T10)."""
    from clubdesk.services import discipline as DS
    from clubdesk.services import results as RS

    with db.session() as s:
        ev = _event(s, event_id)
        rno, rnd = _round(s, ev, round_no, table_no)
        who = _public(s, ev)
        # rule E15: the act prints each player's federation licence (the club number when he has none)
        licences = {m.number: m.licence for m in s.scalars(select(Member).where(Member.licence != ""))}
        names = {num: nm for num, nm in s.execute(select(Member.number, Member.name))}
        family, _params = R.params_of(ev)
        encounter_games = R.night(s, ev).encounter_games if family == "domino" else 0
        overrides = _overrides(ev)
        teams: list[D.ActTeam] = []
        encounter = _("Round {n}").format(n=rno)
        referee = ""
        tables: dict[int, tuple[str, str, str, str, str, int | None]] = {}
        subs: list[D.SubstitutionLine] = []
        abandons: list[D.ActIncident] = []
        for m in R.matches_of(s, ev.id, rnd.id):
            if table_no is not None and m.table_no != table_no:
                continue
            referee = referee or m.referee
            captains = (names.get(m.captain_a, ""), names.get(m.captain_b, ""))
            abandons += _abandonments(s, m, who, bool(_params.get("abandon_ends_match")))
            for side, captain in ((m.side_a, captains[0]), (m.side_b, captains[1])):
                if side is None:
                    continue
                w = who[side]
                teams.append(
                    D.ActTeam(
                        name=w.name,
                        players=tuple(D.ActPlayer(nm, num, licences.get(num, "")) for num, nm in w.members),
                        captain=captain,
                    )
                )
            if m.side_b is not None:
                tables[m.table_no] = (
                    who[m.side_a].name,
                    who[m.side_b].name,
                    captains[0],
                    captains[1],
                    m.referee,
                    m.match_length,
                )
                subs.extend(_substitutions(s, m, who))
            if table_no is not None and m.side_b is not None:
                encounter = f"{who[m.side_a].name} – {who[m.side_b].name}"
        ruleset = ev.ruleset
        entrant_names = {k: w.name for k, w in who.items()}
    acts: dict[int, _ActTable] = {}
    for t, (a, b, ca, cb, ref, length) in tables.items():
        params = dict(overrides)
        if family == "tavla" and length:
            params["match_length"] = length
        games = RS.table_entries(db, event_id, rno, t)
        engine = _engine_games(ruleset, params, games, encounter_games) if family != "tavla" else []
        acts[t] = _ActTable(t, (a, b), (ca, cb), ref, tuple(engine))
    listing = DS.discipline_list(db, event_id, round_no=rno, table_no=table_no)
    data = _act_from(listing, str(event_id), rno, table_no, encounter, teams, referee, licences)
    act = _complete_act(data, listing, acts, entrant_names, subs, family)
    if not abandons:
        return act
    import dataclasses

    return dataclasses.replace(act, incidents=(*act.incidents, *abandons))


def _game_text(act: _ActTable, game: int | None, validated: bool = False) -> str:
    """The engine's state of a game after a decision: "game 2: Pair 1 100 – Pair 2 45, won by Pair 1"
    (``validated``: rule E20, the score at the suspension stands as the game's result)."""
    if game is None or not 1 <= game <= len(act.games):
        return ""
    g = act.games[game - 1]
    totals = g.get("totals") or [0, 0]
    text = _("game {g}: {a} {x} – {b} {y}").format(
        g=game, a=act.sides[0], x=totals[0], b=act.sides[1], y=totals[1]
    )
    if validated and g.get("winner") is None:
        return text + ", " + _("the score at the suspension stands")
    if g.get("winner") is not None:
        text += ", " + _("won by {pair}").format(pair=act.sides[int(g["winner"])])
        if g.get("end") == "abandoned":
            text += " " + _("(abandonment, E20)")
    else:
        text += ", " + _("not finished")
    return text


def _hand_text(act: _ActTable, game: int | None, hand: int | None) -> str:
    """What the engine made of a hand (rule E15: the effect of the breach on it)."""
    if game is None or hand is None or not 1 <= game <= len(act.games):
        return ""
    hands = act.games[game - 1].get("hands") or []
    if not 1 <= hand <= len(hands):
        return ""
    h = hands[hand - 1]
    pts = h.get("points") or [0, 0]
    text = _("hand {n}: {a}–{b}").format(n=hand, a=pts[0], b=pts[1])
    if h.get("explanation"):
        text += f" ({h['explanation']})"
    return text


def _complete_act(
    data: D.IncidentActData,
    listing: Any,
    acts: dict[int, _ActTable],
    entrant_names: dict[int, str],
    subs: Sequence[D.SubstitutionLine],
    family: str = "",
) -> D.IncidentActData:
    """Seed 002 art. 15, 19.4, 20: each incident's game, pair, effect and the captains' and referee's
    intervention; every decision of art. 20 with its reason and the result it produced."""
    import dataclasses

    penalties_of = {}
    for p in listing.penalties:
        if p.incident is not None:
            penalties_of.setdefault(p.incident, []).append(p)
    incidents = []
    for view, inc in zip(listing.incidents, data.incidents, strict=True):
        act = acts.get(view.table) if view.table is not None else None
        pair = entrant_names.get(view.entrant, "") if view.entrant is not None else ""
        effect = intervention = ""
        if act is not None:
            # rule E15: what the decision did (the penalties it produced) and the hand as the engine has it
            linked = [p.kind_label or p.kind for p in penalties_of.get(view.id, [])]
            effect = "; ".join(x for x in (*linked, _hand_text(act, view.game, view.hand)) if x)
            if view.kind in INTERVENTION_KINDS:
                caps = ", ".join(c for c in act.captains if c) or _("no captain named")
                ref = act.referee or data.referee or _("no referee named")
                intervention = _("captains: {caps}; referee: {ref}").format(caps=caps, ref=ref)
        incidents.append(
            dataclasses.replace(inc, game=view.game, pair=pair, effect=effect, intervention=intervention)
        )
    decisions = []
    for p in listing.penalties:
        if p.kind not in E20_DECISIONS:
            continue
        act = acts.get(p.table) if p.table is not None else None
        decisions.append(
            D.ActDecision(
                decision=p.kind_label or p.kind,
                reason=p.reason,
                result=_game_text(act, p.game, p.kind == "validate") if act is not None else "",
                table=p.table,
                game=p.game,
                side=p.entrant_name,
                decided_by=p.decided_by,
                time=_hhmm(p.decided_at),
            )
        )
    for view in listing.incidents:
        if (
            view.kind not in E20_KINDS
            or not view.decision
            or any(q.kind in E20_DECISIONS for q in penalties_of.get(view.id, []))
        ):
            continue
        act = acts.get(view.table) if view.table is not None else None
        decisions.append(
            D.ActDecision(
                decision=view.decision_label or view.decision,
                reason=view.text,
                result=_game_text(act, view.game) if act is not None else "",
                table=view.table,
                game=view.game,
                side=entrant_names.get(view.entrant, "") if view.entrant is not None else "",
                decided_by=view.recorded_by,
                time=_hhmm(view.occurred_at),
            )
        )
    referee = data.referee or next((p.decided_by for p in listing.penalties if p.decided_by), "")
    return dataclasses.replace(
        data,
        incidents=tuple(incidents),
        decisions=tuple(decisions),
        substitutions=tuple(subs),
        referee=referee,
        family=family,
    )


def _abandonments(s: Session, m: Match, who: Any, ends_match: bool) -> list[D.ActIncident]:
    """Rule E20 on the act: each abandonment, and whether it lost the game only or the match too."""
    from clubdesk.services.results import match_entries

    out: list[D.ActIncident] = []
    for game_no, entries in sorted(match_entries(s, m).items()):
        for e in entries:
            if e.get("type") != "abandon":
                continue
            side = m.side_a if int(e.get("side", 0)) == 0 else m.side_b
            name = who[side].name if side is not None and side in who else ""
            effect = (
                _("the pair loses the match") if ends_match else _("the pair loses the game; play goes on")
            )
            out.append(
                D.ActIncident(
                    time="",
                    kind=_("abandonment (E20)"),
                    text=_("{name} abandons game {g}: {effect}").format(name=name, g=game_no, effect=effect),
                    table=m.table_no,
                )
            )
    return out


def _act_from(
    listing: Any,
    event_ref: str,
    rno: int,
    table_no: int | None,
    encounter: str,
    teams: Sequence[D.ActTeam],
    referee: str,
    licences: dict[str, str] | None = None,
) -> D.IncidentActData:
    """Plain act data from :class:`clubdesk.services.discipline.DisciplineList` (incidents, penalties,
    appeals with their decisions and reasons)."""
    incidents = tuple(
        D.ActIncident(
            time=_hhmm(i.occurred_at),
            kind=i.kind_label or i.kind,
            text=i.text,
            table=i.table,
            hand=i.hand,
            player=i.player,
            player_number=i.player_number,
            player_licence=(licences or {}).get(i.player_number, ""),  # rule E15
            decision=i.decision_label or i.decision,
            recorded_by=i.recorded_by,
            # rule E19 (Reading): every drop is recorded; the act numbers them from the 2nd in a game
            count=i.occurrence if i.occurrence >= 2 else None,
        )
        for i in listing.incidents
    )
    penalties = tuple(
        D.ActPenalty(
            side=p.entrant_name,
            kind=p.kind_label or p.kind,
            reason=p.reason,
            points=p.points,
            table=p.table,
            decided_by=p.decided_by,
        )
        for p in listing.penalties
    )
    appeals = tuple(
        D.ActAppeal(
            by=a.entrant_name,
            filed_at=_hhmm(a.filed_at),
            text=a.text,
            fee=a.fee,
            currency=a.currency,
            decision="" if a.status == "open" else a.status,  # rule T10: decision and reasons recorded
            reasons=a.reasons,
            refund=a.refund,
            heard=" / ".join(x for x in (a.appellant_notes, a.respondent_notes) if x),
        )
        for a in listing.appeals
    )
    return D.IncidentActData(
        event_id=event_ref,
        round=rno,
        encounter=encounter,
        teams=tuple(teams),
        incidents=incidents,
        penalties=penalties,
        appeals=appeals,
        referee=referee,
        table=table_no,
    )


def _place(a: int, b: int) -> str:
    return str(a) if a == b else f"{a}–{b}"


def _hhmm(value: Any) -> str:
    """A stored (naive UTC) incident or appeal time as printed: the club's wall clock."""
    if isinstance(value, dt.datetime):
        return local_text(value, "%H:%M")
    return "" if value is None else str(value)


def incident_act_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    round_no: int | None = None,
    table_no: int | None = None,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    from clubdesk.reports.incident_act import incident_act

    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    with _in_language(header.language):
        data = incident_act_data(db, event_id, round_no, table_no)
    header = report_header(
        db, event_id, round_no=data.round, language=language, paper=paper, printed_on=printed_on
    )
    return _write(out, lambda p: incident_act(p, header, data))


# ------------------------------------------------------------------------------------------ private (T14)
def member_history_report(
    db: Database,
    number: str,
    out: str | Path,
    *,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    """PRIVATE (rule T14): a member's own history with his contact data, for him or the organiser."""
    from clubdesk.reports.private import member_history
    from clubdesk.services import members as MS

    info = MS.get_member(db, number)
    with db.session() as s:
        member = s.scalar(select(Member).where(Member.number == info.number))
        assert member is not None
        ratings = {
            r.event_id: r.after
            for r in s.scalars(
                select(RatingEntry).where(RatingEntry.member_id == member.id).order_by(RatingEntry.id)
            )
        }
        from clubdesk.models.event import EntrantMember

        rows: list[D.HistoryRow] = []
        for en in s.scalars(
            select(Entrant)
            .join(EntrantMember, EntrantMember.entrant_id == Entrant.id)
            .where(EntrantMember.member_id == member.id)
        ):
            ev = s.get(Event, en.event_id)
            if ev is None:
                continue
            fp = s.scalar(select(FinalPlace).where(FinalPlace.entrant_id == en.id))
            won = lost = 0
            for m in s.scalars(
                select(Match).where(
                    (Match.side_a == en.id) | (Match.side_b == en.id), Match.side_b.isnot(None)
                )
            ):
                if m.status in R.FINAL_STATUSES and m.winner is not None:
                    won += m.winner == en.id
                    lost += m.winner != en.id
            rows.append(
                D.HistoryRow(
                    date=ev.starts_on or en.registered_at.date(),
                    event=ev.name,
                    place="" if fp is None else _place(fp.place_from, fp.place_to),
                    result=_("{w} won, {l} lost").format(w=won, l=lost),
                    season_points=_centi(fp.season_points) if fp and fp.season_points else "",
                    rating=f"{ratings[ev.id]:.1f}" if ev.id in ratings else "",
                )
            )
    rows.sort(key=lambda r: r.date)
    data = D.MemberHistory(
        name=info.name,
        number=info.number,
        rows=tuple(rows),
        club=info.club,
        city=info.city,
        phone=info.phone,
        email=info.email,
        rating=f"{info.rating:.1f}",
    )
    header = report_header(db, None, language=language, paper=paper, printed_on=printed_on)
    return _write(out, lambda p: member_history(p, header, data))


def contact_list_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    """PRIVATE (rule T14): the organiser's list of entrants with phone and e-mail."""
    from clubdesk.reports.private import contact_list
    from clubdesk.services import desk

    rows = desk.entrants(db, event_id)
    out_rows: list[D.ContactRow] = []
    with db.session() as s:
        clubs = _clubs(s)
        for r in rows:
            for num in r.members:
                m = s.scalar(select(Member).where(Member.number == num))
                if m is None:
                    continue
                out_rows.append(
                    D.ContactRow(
                        name=m.name,
                        number=m.number,
                        club=_club_of(clubs, m),
                        phone=m.phone,
                        email=m.email,
                        status=entrant_status_label(r.status),
                    )
                )
    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    data = D.ContactList(event_id=str(event_id), rows=tuple(out_rows))
    return _write(out, lambda p: contact_list(p, header, data))


# ------------------------------------------------------------------------------------------ issue 21
def crosstable_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    """The event's cross-table (public: names and results, rule T14)."""
    from clubdesk.reports.crosstable import crosstable
    from clubdesk.services import players as PL
    from clubdesk.services.share import crosstable_legend

    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    with _in_language(header.language):
        data = PL.crosstable(db, event_id)
        legend = crosstable_legend()
    return _write(out, lambda p: crosstable(p, header, data, legend))


def player_card_report(
    db: Database,
    number: str,
    out: str | Path,
    *,
    viewer: Actor | None = None,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:
    """A member's player card: never a phone or an e-mail (rule T14); his incidents only when ``viewer``
    may see them (``incidents.view``), and then the page is marked private."""
    from clubdesk.reports.player_card import player_card
    from clubdesk.services import players as PL

    header = report_header(db, None, language=language, paper=paper, printed_on=printed_on)
    with _in_language(header.language):
        data = PL.player_card(db, number, viewer)
    return _write(out, lambda p: player_card(p, header, data))


# ------------------------------------------------------------------------------------------ one entry
def _in_language(lang: str) -> Any:
    from clubdesk.reports.frame import report_language

    return report_language(lang)


def generate(
    db: Database,
    request: ReportRequest,
    out: str | Path,
    progress: Progress | None = None,
) -> int:
    """CONTRACTS.md §4 ``report KIND EVENT [--round R] [--table T] [--lang L] --out FILE.pdf``: the number
    of pages written. An unknown kind, event, round or table is refused before anything is written."""
    kind = request.kind
    if kind == PLAYER_CARD:  # issue 21: a member's card, no event
        if not request.member:
            raise ServiceError("no-member", _("Choose a member for the player card."))
        _paper(request.paper)
        _language(db, request.language)
        pages = player_card_report(
            db,
            request.member,
            out,
            viewer=request.viewer,
            language=request.language,
            paper=request.paper,
            printed_on=request.printed_on,
        )
        if progress is not None:
            progress(1, 1)
        return pages
    if kind not in KINDS:
        raise ServiceError("unknown-report", _("Unknown report kind: {kind}").format(kind=kind), kind=kind)
    if request.table is not None and kind not in ("score-sheets", "incident-act"):
        raise ServiceError(
            "table-not-used",
            _("A table can only be chosen for score sheets and the match act."),
            kind=kind,
        )
    common: dict[str, Any] = {
        "language": request.language,
        "paper": request.paper,
        "printed_on": request.printed_on,
    }
    _paper(request.paper)  # refuse a bad paper size before any work
    _language(db, request.language)
    ev, rno, tno = request.event_id, request.round, request.table
    if kind == "score-sheets":
        pages = score_sheets_report(db, ev, out, round_no=rno, table_no=tno, progress=progress, **common)
    elif kind == "pairings":
        pages = pairings_report(db, ev, out, round_no=rno, **common)
    elif kind == "standings":
        pages = standings_report(db, ev, out, **common)
    elif kind == "bracket":
        pages = bracket_report(db, ev, out, **common)
    elif kind == "incident-act":
        pages = incident_act_report(db, ev, out, round_no=rno, table_no=tno, **common)
    elif kind == "receipts":
        pages = receipts_report(db, ev, out, **common)
    elif kind == "prizes":
        pages = prizes_report(db, ev, out, **common)
    elif kind == "crosstable":
        pages = crosstable_report(db, ev, out, **common)
    else:
        pages = season_report(db, ev, out, **common)
    if progress is not None:
        progress(1, 1)
    return pages
