"""Standings of an event after every confirmed result (with the event's tie-breaks and explanations) and the
correction preview. Final places (T12a), season points (T12d) and prize awards (T13a-T13e) when the event
ends are :mod:`clubdesk.services.night.ranking.event_end`, the place ranges
:mod:`clubdesk.services.night.ranking.places`. What follows a change, and in which order, is
:mod:`clubdesk.services.night.play.followups`;
ratings are :mod:`clubdesk.services.night.ranking.ratings`, the prize plan and season scale settings
:mod:`clubdesk.services.night.data.prize_plans`.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from sqlalchemy.orm import Session

from clubdesk.collation import sort_key
from clubdesk.competition import formats
from clubdesk.competition.errors import CompetitionError
from clubdesk.competition.playoffs import playoff_places, playoff_progress
from clubdesk.i18n import _, current_language, language_context
from clubdesk.models.event import Event
from clubdesk.models.round import EventNight
from clubdesk.services.kernel import ServiceError, refusal
from clubdesk.services.night.data import reads
from clubdesk.services.night.data import rows as data_rows
from clubdesk.services.night.data.rows import played_matches
from clubdesk.services.night.ranking.completion import regular_rounds_over
from clubdesk.services.night.ranking.places import place_ranges
from clubdesk.services.night.ranking.ratings import (
    rerate_from,
)
from clubdesk.standings.summed import SUMMED_CODES, summed_calculator
from clubdesk.standings.table import Standings, format_value, standings, standings_with
from clubdesk.standings.tiebreaks import Unplayed
from clubdesk.storage import Database


@dataclass(frozen=True)
class Row:
    rank: int
    place: str  # "5–8" in elimination events
    entrant: int
    name: str
    points: float | int
    tiebreaks: dict[str, float | int]
    shown: dict[str, str]
    playoff: bool = False
    lives: int | None = None  # lives left, in a lives event (T4g)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rank": self.rank,
            "entrant": self.entrant,
            "name": self.name,
            "points": self.points,
            "tiebreaks": self.tiebreaks,
        }
        if self.lives is not None:
            out["lives"] = self.lives
        return out


@dataclass(frozen=True)
class EventStandings:
    event: int
    codes: tuple[str, ...]
    rows: tuple[Row, ...]
    explanations: tuple[str, ...]
    finished: bool

    def as_json(self) -> dict[str, Any]:
        return {"rows": [r.as_json() for r in self.rows]}


def codes_for(ev: Event, n: EventNight) -> tuple[str, ...]:
    if n.tiebreaks.strip():
        return tuple(c.strip().upper() for c in n.tiebreaks.split(",") if c.strip())
    return formats.default_tiebreaks(ev.ruleset, ev.format)


def compute_standings(
    ev: Event,
    n: EventNight,
    played: list[formats.Played],
    ids: list[str],
    names: dict[str, str] | None = None,
    *,
    disqualified: Sequence[str] = (),
    codes: Sequence[str] | None = None,
    complete: bool = False,
) -> Standings:
    """The points table with the event's tie-breaks; a play-off (BC2) settles a tie for first.
    ``disqualified`` entrants leave the ranking; their games stay for their opponents' tie-breaks (T9c).
    ``codes``: other columns than the event's tie-breaks (``("PTS",)``: the points only, quicker).
    ``complete``: the regular rounds are all played and confirmed (:func:`regular_rounds_over`); only then
    does a tie that survives every tie-break go to a play-off (BC2), before it is only a tie."""
    family, _p = reads.params_of(ev)
    scheme = formats.points_scheme(family, n.encounter_games)
    prefix = formats.PLAYOFF_PREFIX  # formats.is_playoff inline: 20,000 tables in a big league
    playoffs = [p for p in played if p.ref.startswith(prefix)]
    regular = [p for p in played if not p.ref.startswith(prefix)] if playoffs else played
    # rule T9c: a disqualified entrant is out of the ranking, so the next one takes his place
    data = formats.event_data(
        ids, regular, scheme, ev.format, disqualified=[d for d in disqualified if d in ids]
    )
    # rule T12b: the Buchholz reading of a round without an opponent is the event's bh_unplayed parameter
    # (tavla preset "none": seed 003's plain sum; "fide": the dummy opponent of REFERENCES.md)
    unplayed = Unplayed(str(_p.get("bh_unplayed", "fide")))
    st = standings(
        data,
        codes_for(ev, n) if codes is None else codes,
        names=names,
        unplayed=unplayed,
        playoff_places=playoff_places(complete),
    )
    return _after_playoff(st, playoffs)


def _after_playoff(st: Standings, playoffs: list[formats.Played]) -> Standings:
    """Rule BC2: a finished play-off decides the places among those tied for first."""
    tied = [r for r in st.rows if r.rank == 1 and r.playoff]
    po = playoff_progress([r.entrant for r in tied], playoffs)  # the same: it reads the play-offs only
    if po.champion is not None:  # rule BC2: the play-off decides the places among the tied
        ranks = po.ranks()
        shared = [ranks[r.entrant] for r in tied]
        rest = [r for r in st.rows if r not in tied]
        new = [
            replace(r, rank=ranks[r.entrant], tied=shared.count(ranks[r.entrant]) > 1, playoff=False)
            for r in tied
        ]
        new.sort(key=lambda r: r.rank)
        st = Standings(tuple(new + rest), st.explanations, st.codes, st.scale)
    return st


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while a standings table is built: a 20,000-match
    league makes some 80,000 small tuples, none in a cycle, and each burst set off full collections of
    the whole program's objects (a third of the time). Reference counting frees everything as usual."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def build(s: Session, ev: Event) -> tuple[EventNight, list[formats.Played], list[str], Standings]:
    """The standings with every final table (the callers read the tables too)."""
    n, played, ids, st, _names = _build_named(s, ev, reads.night(s, ev))
    return n, played, ids, st


def _build_shown(s: Session, ev: Event) -> tuple[EventNight, list[formats.Played], Standings, dict[int, str]]:
    """The standings to show: from the per-pair sums where they serve (:func:`_summed_build`), else
    from every table; with the tables :func:`_view` reads and the entrants' names."""
    n = reads.night(s, ev)
    got = _summed_build(s, ev, n) or _build_named(s, ev, n)
    return got[0], got[1], got[3], got[4]


def _build_named(
    s: Session, ev: Event, n: EventNight
) -> tuple[EventNight, list[formats.Played], list[str], Standings, dict[int, str]]:
    """:func:`build` and the entrants' names, each read once (one read of the matches)."""
    with _collector_paused():
        played, drawn = data_rows.played_and_drawn(s, ev)
        ids = data_rows.standing_ids(s, ev, drawn)
        by_id = reads.entrant_names(s, ev.id)
        names = {str(k): v for k, v in by_id.items()}
        dq = reads.disqualified_ids(s, ev)
        complete = regular_rounds_over(s, ev, n, played)
        st = compute_standings(ev, n, played, ids, names, disqualified=dq, complete=complete)
    return n, played, ids, st, by_id


def _summed_build(
    s: Session, ev: Event, n: EventNight
) -> tuple[EventNight, list[formats.Played], list[str], Standings, dict[int, str]] | None:
    """The standings from the plain played games summed per pair in SQL (a 20,000-match
    league reads some 5,000 sums instead of 20,000 tables), exactly as the game-by-game table; None
    where that cannot be sure (other tie-breaks, brackets and lives, which need every table). The
    tables returned are only the unsummed ones (the view reads them for brackets and lives only)."""
    if ev.format in (*formats.ELIMINATION, "lives"):
        return None
    codes = codes_for(ev, n)
    if not {"PTS", *codes} <= SUMMED_CODES:
        return None
    family, params = reads.params_of(ev)
    scheme = formats.points_scheme(family, n.encounter_games)
    sums, rest, playoffs, drawn = data_rows.summed_tables(s, ev)
    ids = data_rows.standing_ids(s, ev, drawn)
    by_id = reads.entrant_names(s, ev.id)
    names = {str(k): v for k, v in by_id.items()}
    dq = [d for d in reads.disqualified_ids(s, ev) if d in ids]  # rule T9c: out of the ranking
    others = formats.event_data(ids, rest, scheme, ev.format, disqualified=dq)
    # rule T12b: the Buchholz reading of a round without an opponent (bh_unplayed), as compute_standings
    unplayed = Unplayed(str(params.get("bh_unplayed", "fide")))
    calc = summed_calculator(ids, sums, others, {"PTS", *codes}, unplayed=unplayed)
    if calc is None:
        return None
    st = standings_with(
        calc,
        ids,
        codes,
        scale=scheme.scale,
        disqualified=dq,
        names=names,
        playoff_places=playoff_places(regular_rounds_over(s, ev, n)),  # rule BC2
    )
    return n, [*rest, *playoffs], ids, _after_playoff(st, playoffs), by_id


def session_standings(s: Session, ev: Event) -> EventStandings:
    """The standings inside the caller's session (to compare before and after a change that is not saved)."""
    n, played, st, names = _build_shown(s, ev)
    return _view(s, ev, n, played, st, names)


# the standings last shown per (database file, event, language), with the event's stamp then
_SHOWN: dict[tuple[str, int, str], tuple[int, EventStandings]] = {}
_STAMP_SQL = "SELECT n FROM standings_stamps WHERE event_id = ?"


def _stamp(db: Database, event_id: int) -> int | None:
    """The event's stamp, a new random number at each change to what its standings read (migration
    0017's triggers; a hand in play leaves it); None on the club server, which has no triggers, or before
    the event's first change since the upgrade."""
    if db.is_server:
        return None
    rows = db.read_now(_STAMP_SQL, (event_id,))
    return int(rows[0][0]) if rows else None


def event_standings(db: Database, event_id: int) -> EventStandings:
    """CONTRACTS.md §4 ``standings``: rows with rank, entrant, name, points and tie-break values.

    Work in proportion to the change: the standings are built again only when the database's
    stamp for the event has moved since they were last built here (any change they read, by any
    program); after a hand in play they are the ones kept."""
    lang = current_language()
    key = None if db.is_server else (str(db.path), event_id, lang)
    kept = None if key is None else _SHOWN.get(key)
    if kept is not None and kept[0] == _stamp(db, event_id):
        return kept[1]
    # built in the language of its key, even if the window's language changes meanwhile
    with language_context(lang), db.session() as s:
        ev = reads.get_event(s, event_id)
        n, played, st, names = _build_shown(s, ev)
        shown = _view(s, ev, n, played, st, names)
        # read under the same write lock, after anything this build wrote (an event's first night row)
        stamp = None if key is None else s.connection().exec_driver_sql(_STAMP_SQL, (event_id,)).scalar()
    if key is not None and stamp is not None:
        if len(_SHOWN) > 64:
            _SHOWN.clear()
        _SHOWN[key] = (stamp, shown)
    return shown


def standings_changes(
    before: EventStandings, after: EventStandings
) -> tuple[dict[int, tuple[str, str]], dict[int, dict[str, tuple[float | int, float | int]]]]:
    """What moved between two standings of one event: each entrant's (old, new) place, and the points and
    tie-break values that changed, (old, new) by code ("PTS" for the points)."""
    bmap = {r.entrant: r for r in before.rows}
    places: dict[int, tuple[str, str]] = {}
    tbs: dict[int, dict[str, tuple[float | int, float | int]]] = {}
    for r in after.rows:
        b = bmap.get(r.entrant)
        if b is None:
            continue
        if b.place != r.place:
            places[r.entrant] = (b.place, r.place)
        diff = {c: (b.tiebreaks.get(c, 0), v) for c, v in r.tiebreaks.items() if b.tiebreaks.get(c) != v}
        if b.points != r.points:
            diff["PTS"] = (b.points, r.points)
        if diff:
            tbs[r.entrant] = diff
    return places, tbs


def _view(
    s: Session,
    ev: Event,
    n: EventNight,
    played: list[formats.Played],
    st: Standings,
    names: dict[int, str] | None = None,
) -> EventStandings:
    names = reads.entrant_names(s, ev.id) if names is None else names
    scale = st.scale
    places = place_ranges(s, ev, n, played, st) if ev.format in (*formats.ELIMINATION, "lives") else {}
    left = formats.lives_left([r.entrant for r in st.rows], played, n.lives) if ev.format == "lives" else None
    rows: list[Row] = []
    for r in st.rows:
        tb: dict[str, float | int] = {}
        shown: dict[str, str] = {}
        for c in st.codes:
            if c == "PTS":
                continue
            v = r.tiebreaks[c]
            fv = Fraction(v)
            if c in ("BH", "BH-C1", "BH-C2", "BH-M1", "SB", "SB-C1", "SB-C2", "PS", "PS-C1", "DE"):
                fv = fv / scale
            tb[c] = int(fv) if fv.denominator == 1 else float(fv)
            shown[c] = format_value(c, v, scale)
        pts = Fraction(r.points) / scale
        pval: float | int = int(pts) if pts.denominator == 1 else float(pts)
        pl = places.get(r.entrant)
        if places and pl is None:  # still in a running bracket: ahead of everybody already out (T12a)
            still_in = sum(1 for x in st.rows if x.entrant not in places)
            pl = (1, still_in)
        rank = pl[0] if pl else r.rank
        label = (str(pl[0]) if pl[0] == pl[1] else f"{pl[0]}–{pl[1]}") if pl else str(r.rank)
        lives = max(0, left[r.entrant]) if left is not None and r.entrant in left else None
        rows.append(
            Row(
                rank,
                label,
                int(r.entrant),
                names.get(int(r.entrant), r.entrant),
                pval,
                tb,
                shown,
                r.playoff,
                lives,
            )
        )
    # entrants sharing a place are listed in the alphabetical order of the language in force
    if places:
        rows.sort(key=lambda x: (x.rank, -Fraction(x.points), sort_key(x.name)))
        # the places decide the order here (T12a, T4g), so the explanations say why by places, never by the
        # points tie-breaks (which could name B ahead of A next to A placed above B)
        lines = place_explanations(rows)
    else:
        rows.sort(key=lambda x: (x.rank, sort_key(x.name)))
        lines = [line for ex in st.explanations for line in ex.lines]
    return EventStandings(ev.id, st.codes, tuple(rows), tuple(lines), n.finished_at is not None)


def place_explanations(rows: list[Row]) -> list[str]:
    """Each neighbour pair of an elimination or lives event explained by places, in the shown order."""
    lines: list[str] = []
    for a, b in zip(rows, rows[1:], strict=False):
        if a.place == b.place:
            lines.append(_("{a} and {b} share place {p} (T12a).").format(a=a.name, b=b.name, p=a.place))
        elif a.lives is not None and b.lives is not None and a.lives != b.lives:
            lines.append(
                _("{a} ahead of {b}: lives left {la} against {lb} (T4g).").format(
                    a=a.name, b=b.name, la=a.lives, lb=b.lives
                )
            )
        elif a.lives is not None:
            lines.append(
                _("{a} ahead of {b}: {b} lost the last life earlier (T4g).").format(a=a.name, b=b.name)
            )
        else:
            lines.append(
                _("{a} ahead of {b}: place {pa} against {pb} (T12a).").format(
                    a=a.name, b=b.name, pa=a.place, pb=b.place
                )
            )
    return lines


def bracket_data(db: Database, event_id: int) -> tuple[dict[str, Any], dict[str, str]] | None:
    """The bracket of an elimination event with every confirmed result recorded (``Bracket.to_data()``,
    rules T4c, T4d, T12a) and the entrants' names by id; None before the draw or for other formats."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        n = s.get(EventNight, ev.id)
        st = reads.state_of(n) if n is not None else {}
        if "bracket" not in st:
            return None
        br = formats.bracket_with_results(st["bracket"], played_matches(s, ev))
        names = {str(k): v for k, v in reads.entrant_names(s, ev.id).items()}
        return br.to_data(), names


# ---------------------------------------------------------------------------------- correction preview
@dataclass(frozen=True)
class CorrectionPreview:
    """What a correction to a table changes downstream, before it is saved."""

    places: dict[int, tuple[str, str]]  # entrant -> (before, after) where it changes
    tiebreaks: dict[int, dict[str, tuple[float | int, float | int]]]
    ratings: dict[str, tuple[float, float]]  # member number -> (before, after)
    published_pairings: tuple[str, ...]  # later published tables that involve the two sides
    winner_changes: bool


def correction_preview(
    db: Database,
    event_id: int,
    round_no: int,
    table_no: int,
    score: tuple[int, int],
    points: tuple[int, int] | None = None,
) -> CorrectionPreview:
    """Rule T10's correction preview: places, tie-breaks, ratings and already published
    pairings that the corrected score would change. Nothing is written."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        _rnd, m = reads.find_table(s, ev, round_no, table_no)
        if m.side_b is None:
            raise ServiceError("bye-table", _("Table {t} is a bye.").format(t=table_no))
        n, played, ids, st = build(s, ev)
        family, params = reads.params_of(ev)
        try:
            oc = formats.outcome_from_score(
                family,
                params,
                score,
                points,
                match_length=m.match_length,
                encounter_games=n.encounter_games,
                final=True,
            )
        except CompetitionError as exc:
            raise refusal(exc) from exc
        winner = None if oc.winner is None else str(m.side_a if oc.winner == 0 else m.side_b)
        new_p = formats.Played(
            m.round_no,
            str(m.side_a),
            str(m.side_b),
            "played",
            oc.score[0],
            oc.score[1],
            None if oc.points is None else oc.points[0],
            None if oc.points is None else oc.points[1],
            winner,
            m.ref,
        )
        after_played = [p for p in played if not (p.round == m.round_no and {p.a, p.b} == {new_p.a, new_p.b})]
        after_played.append(new_p)
        before_v = _view(s, ev, n, played, st)
        after_st = compute_standings(
            ev,
            n,
            after_played,
            ids,
            disqualified=reads.disqualified_ids(s, ev),
            complete=regular_rounds_over(s, ev, n, played),
        )
        after_v = _view(s, ev, n, after_played, after_st)
        places, tbs = standings_changes(before_v, after_v)
        ratings: dict[str, tuple[float, float]] = {}
        if family == "tavla":
            ma, mb = reads.entrant_members(s, m.side_a), reads.entrant_members(s, m.side_b)
            if len(ma) == 1 and len(mb) == 1 and oc.winner is not None:
                before = {x.number: x.rating for x in (ma[0], mb[0])}
                nested = s.begin_nested()
                m.score_a, m.score_b = oc.score
                m.winner = int(winner) if winner else None
                m.status, m.kind = "confirmed", "played"
                s.flush()
                rerate_from(s, m, defer=False)  # the preview shows the new ratings at once
                after = {x.number: x.rating for x in (ma[0], mb[0])}
                nested.rollback()
                ratings = {
                    k: (round(before[k], 4), round(after[k], 4)) for k in before if before[k] != after[k]
                }
        later = []
        names = reads.entrant_names(s, ev.id)
        for x in reads.matches_of(s, ev.id):
            if x.round_no > m.round_no and ({x.side_a, x.side_b} & {m.side_a, m.side_b}):
                later.append(
                    _("Round {r} table {t}: {a} – {b}").format(
                        r=x.round_no,
                        t=x.table_no,
                        a=names.get(x.side_a),
                        b=names.get(x.side_b) if x.side_b else "BYE",
                    )
                )
        return CorrectionPreview(
            places, tbs, ratings, tuple(later), winner != (None if m.winner is None else str(m.winner))
        )
