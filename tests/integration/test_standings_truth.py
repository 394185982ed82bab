"""Standings tell the truth mid-event: the event's tie-break columns from round 1, before any result (T4e,
T12b), and "play-off" (BC2) only once every regular round is played and confirmed and the tie survives every
tie-break; on screen and on the printed standings (read back with pypdf)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from pypdf import PdfReader
from PySide6.QtCore import Qt

from clubdesk.models.round import EventNight
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import results, rounds
from clubdesk.services.night.ranking import standings
from clubdesk.services.publishing import documents, header
from clubdesk.storage import Database
from clubdesk.ui.ranking.standings_view import StandingsSection
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_night_helpers import DESK, make_event, open_db

PRINTED = dt.datetime(2025, 6, 1, 21, 0)


def printed(db: Database, ev: int, tmp_path: Path, name: str) -> str:
    out = tmp_path / f"{name}.pdf"
    documents.generate(db, header.ReportRequest("standings", ev, printed_on=PRINTED), out)
    return " ".join(" ".join((page.extract_text() or "").split()) for page in PdfReader(out).pages)


def play_round(db: Database, ev: int, beats: set[tuple[int, int]], rv: reads.RoundView | None = None) -> int:
    """Pair (or take the proposed ``rv``), publish and confirm the next round; (w, l) in ``beats`` says who
    wins (2-1 in games, B2)."""
    rv = rv or rounds.propose_round(db, DESK, ev)
    assert rv.kind == "regular"
    rounds.publish_round(db, DESK, ev)
    for t in rv.tables:
        a, b = t.sides
        assert b is not None and ((a, b) in beats or (b, a) in beats)
        results.set_score(
            db, DESK, ev, rv.round, t.table, (2, 1) if (a, b) in beats else (1, 2), confirm=True
        )
    return rv.round


def screen(db: Database, ev: int, qtbot) -> tuple[list[object], list[object], list[object]]:  # type: ignore[no-untyped-def]
    """The Standings section's headers, places and tooltips of the event."""
    section = StandingsSection(DeskState(db, Actor("Ref", Role.REFEREE)))
    qtbot.addWidget(section)
    section.select_event(ev)
    m = section.model
    heads = [m.headerData(c, Qt.Orientation.Horizontal) for c in range(m.columnCount())]
    places = [m.data(m.index(r, 0)) for r in range(m.rowCount())]
    tips = [m.data(m.index(r, 1), Qt.ItemDataRole.ToolTipRole) or "" for r in range(m.rowCount())]
    return heads, places, tips


def test_a_new_swiss_shows_its_tiebreak_columns_from_round_1(tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Rule T4e: a Swiss breaks ties by the averages and Buchholz, gaple-club's too (its points-only order,
    BC2, is its league's); the columns are there before the first result, and no play-off is named."""
    db = open_db(tmp_path)
    ev, _ids = make_event(
        db, ruleset="gaple-club", fmt="swiss", players=4, per_entrant=2, entry="pair", rounds=3
    )
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    st = standings.event_standings(db, ev)
    assert st.codes == ("PTS", "IAV", "GAV", "BH")
    assert all(set(r.shown) == {"IAV", "GAV", "BH"} for r in st.rows)
    assert not any(r.playoff for r in st.rows)
    assert not any("play-off" in line for line in st.explanations)
    heads, places, tips = screen(db, ev, qtbot)
    assert heads[-3:] == ["IAV", "GAV", "BH"]
    assert not any("*" in str(p) for p in places) and not any("play-off" in t for t in tips)
    text = printed(db, ev, tmp_path, "round1")
    assert "Pts IAV GAV BH" in text
    assert "play-off" not in text and "⚑" not in text
    db.close()


def test_a_tie_after_round_1_of_3_is_no_playoff_the_same_tie_at_the_end_is(tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Rule BC2: a gaple-club round robin of 4 pairs (3 rounds, T4f) ranks by points alone. After round 1
    two pairs share first place: a tie, not a play-off. At the end A and B are still tied on 2 points:
    a play-off."""
    db = open_db(tmp_path)
    ev, (a, b, c, d) = make_event(
        db, ruleset="gaple-club", fmt="round-robin", players=4, per_entrant=2, entry="pair"
    )
    # rule BC1: A beats C and D, B beats A and D, C beats B, D beats C -> A 2, B 2, C 1, D 1
    beats = {(a, c), (a, d), (b, a), (b, d), (c, b), (d, c)}
    assert play_round(db, ev, beats) == 1
    st = standings.event_standings(db, ev)
    assert [r.rank for r in st.rows] == [1, 1, 3, 3]  # two winners share first place
    assert not any(r.playoff for r in st.rows)
    assert st.explanations and not any("play-off" in line for line in st.explanations)
    _heads, places, tips = screen(db, ev, qtbot)
    assert places == ["1", "1", "3", "3"] and not any("play-off" in t for t in tips)
    text = printed(db, ev, tmp_path, "round1")
    assert "remain tied after points" in text
    assert "play-off" not in text and "⚑" not in text
    play_round(db, ev, beats)
    assert not any(r.playoff for r in standings.event_standings(db, ev).rows)  # round 2 of 3: still none
    assert play_round(db, ev, beats) == 3
    st = standings.event_standings(db, ev)
    assert {r.entrant for r in st.rows if r.playoff} == {a, b}
    assert any("play-off needed for place 1" in line for line in st.explanations)
    _heads, places, tips = screen(db, ev, qtbot)
    assert places[:2] == ["1 *", "1 *"] and "play-off needed for place 1" in tips[0]
    text = printed(db, ev, tmp_path, "end")
    assert "play-off needed for place 1" in text
    assert "⚑ a play-off decides this place (BC2)" in text
    db.close()


def test_a_tie_with_a_table_of_the_last_round_open_is_no_playoff(tmp_path: Path) -> None:
    """Rule BC2: the regular rounds are complete only once every table of the last one is confirmed. X and Y
    win every match before they meet in round 3; with their table still open they share first place on
    points, a tie and no play-off; once X beats Y, X is first alone."""
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="gaple-club", fmt="round-robin", players=4, per_entrant=2, entry="pair")
    first = rounds.propose_round(db, DESK, ev)
    with db.session() as s:
        schedule = reads.state_of(s.get(EventNight, ev))["schedule"]  # the Berger table (T4f)
    (u, v), (x, y) = ([int(e) for e in pair] for pair in schedule[2])
    beats = {(x, u), (x, v), (y, u), (y, v), (u, v), (x, y)}
    play_round(db, ev, beats, first)
    play_round(db, ev, beats)
    rv = rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    t = next(t for t in rv.tables if set(t.sides) == {u, v})
    results.set_score(db, DESK, ev, rv.round, t.table, (2, 1) if t.sides[0] == u else (1, 2), confirm=True)
    st = standings.event_standings(db, ev)
    assert {r.entrant for r in st.rows if r.rank == 1} == {x, y}  # 2 points each, their table open
    assert not any(r.playoff for r in st.rows)
    assert not any("play-off" in line for line in st.explanations)
    t = next(t for t in rv.tables if set(t.sides) == {x, y})
    results.set_score(db, DESK, ev, rv.round, t.table, (2, 1) if t.sides[0] == x else (1, 2), confirm=True)
    st = standings.event_standings(db, ev)
    assert [r.entrant for r in st.rows if r.rank == 1] == [x] and st.finished
    db.close()
