"""Issue 21 (items 4, 5, 8): the Ratings section, the Standings' cross-table tab and the player card.

Rule T12c: 1500 v 1500 to 5 points with K = 5 moves each side by 22.3607 (REFERENCES.md "FIBS rating").
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel
from sqlalchemy import delete, select

from clubdesk.models.member import Member
from clubdesk.models.result import RatingEntry
from clubdesk.services.discipline import incidents
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.services.night.play import results, rounds
from clubdesk.services.night.ranking import ratings
from clubdesk.services.publishing import share
from clubdesk.storage import Database
from clubdesk.ui.ranking.crosstable_panel import DETAIL_ROLE, FIXED
from clubdesk.ui.ranking.players_view import PlayerCardDialog, RatingsSection
from clubdesk.ui.ranking.standings_view import StandingsSection
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_night_helpers import DESK, REF, make_event
from tests.integration.test_players import member_of
from tests.waits import READY_MS

STEP = 4 * 5 * math.sqrt(5) * 0.5


@pytest.fixture
def night(tmp_path: Path):  # type: ignore[no-untyped-def]
    db = Database(tmp_path / "club.sqlite3")
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[5])
    rv = rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    for t in rv.tables:
        results.set_score(db, DESK, ev, 1, t.table, (5, 3), confirm=True)
    yield db, ev, rv
    db.close()


def shown(section: RatingsSection) -> dict[str, tuple[str, str, str, str]]:
    """Number -> (rating, matches, experience, status) as the table shows them."""
    m = section.proxy
    out = {}
    for r in range(m.rowCount()):
        cells = [m.index(r, c).data() for c in range(m.columnCount())]
        out[cells[1]] = (cells[3], cells[4], cells[5], cells[6])
    return out


def test_ratings_screen_shows_the_ratings_and_follows_a_correction(qtbot, night) -> None:  # type: ignore[no-untyped-def]
    db, ev, rv = night
    state = DeskState(db)
    section = RatingsSection(state)
    qtbot.addWidget(section)
    a, b = rv.tables[0].sides
    win, lose = member_of(db, a), member_of(db, b)
    rows = shown(section)
    assert rows[win] == (f"{1500 + STEP:.1f}", "1", "5", "provisional")
    assert rows[lose][0] == f"{1500 - STEP:.1f}"
    # best rating first
    first = section.proxy.index(0, 3).data()
    assert float(first) == pytest.approx(1500 + STEP, abs=0.05)
    # rule T10/T12c: the referee corrects round 1 once round 2 is out; the screen follows the data signal
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    results.set_score(db, REF, ev, 1, rv.tables[0].table, (3, 5), confirm=True, override="sheet misread")
    state.dataChanged.emit("rounds")
    rows = shown(section)
    assert rows[win][0] == f"{1500 - STEP:.1f}" and rows[lose][0] == f"{1500 + STEP:.1f}"


def test_the_chart_draws_the_history_of_the_selected_player(qtbot, night) -> None:  # type: ignore[no-untyped-def]
    db, _ev, rv = night
    section = RatingsSection(DeskState(db))
    qtbot.addWidget(section)
    win = member_of(db, rv.tables[0].sides[0])
    section.select_number(win)
    assert section.chart.values == pytest.approx([1500.0, 1500 + STEP], abs=1e-3)
    section.chart.resize(400, 200)
    pts = section.chart.points(section.chart.plot_area())
    assert pts[1].y() < pts[0].y()  # the rating went up: the line rises
    assert section.history_model.rowCount() == 1


def test_ratings_empty_state_says_what_to_do_first(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = Database(tmp_path / "empty.sqlite3")
    section = RatingsSection(DeskState(db))
    qtbot.addWidget(section)
    assert section.stack.currentWidget() is section.empty
    assert "create a tavla event" in section.empty.text()
    make_event(db, ruleset="tavla", fmt="swiss", players=2)
    section.state.dataChanged.emit("desk")
    assert section.stack.currentWidget() is not section.empty
    assert section.hint.text().startswith("No tavla results yet: ratings appear after the first confirmed")
    db.close()


def test_crosstable_tab_shows_the_cells_of_crosstable_data(qtbot, night) -> None:  # type: ignore[no-untyped-def]
    db, ev, _rv = night
    section = StandingsSection(DeskState(db))
    qtbot.addWidget(section)
    section.select_event(ev)
    panel = section.crosstable
    assert section.tabs.tabText(section.tabs.indexOf(panel)) == "Cross-table"
    data = share.crosstable_data(db, ev)
    model = panel.model
    grid = [
        [model.index(r, c).data() for c in range(FIXED, model.columnCount())] for r in range(model.rowCount())
    ]
    assert grid == [list(r.cells) for r in data.rows]
    assert [model.index(r, 1).data() for r in range(model.rowCount())] == [r.name for r in data.rows]
    tip = model.index(0, FIXED).data(Qt.ItemDataRole.ToolTipRole)
    assert "table" in tip and "side" in tip
    # under each round-1 result: the side and the score (every table ended 5-3 for side A)
    details = sorted(model.index(r, FIXED).data(DETAIL_ROLE) for r in range(model.rowCount()))
    assert details == ["A 5–3", "A 5–3", "B 3–5", "B 3–5"]


def test_crosstable_empty_state_before_round_one(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = Database(tmp_path / "c.sqlite3")
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4)
    section = StandingsSection(DeskState(db))
    qtbot.addWidget(section)
    section.select_event(ev)
    panel = section.crosstable
    assert panel.stack.currentWidget() is panel.empty
    assert panel.empty.text().startswith("No round yet: draw round 1 in Rounds")
    assert not panel.print_button.isEnabled()
    db.close()


def _tab_titles(dialog: PlayerCardDialog) -> list[str]:
    return [dialog.tabs.tabText(k) for k in range(dialog.tabs.count())]


def test_player_card_shows_incidents_to_the_organiser_only(qtbot, night) -> None:  # type: ignore[no-untyped-def]
    db, ev, rv = night
    number = member_of(db, rv.tables[0].sides[0])
    incidents.record_incident(
        db, REF, ev, round_no=1, table_no=rv.tables[0].table, kind="stalling", text="slow", player=number
    )
    organiser = PlayerCardDialog(DeskState(db, DESK), number)
    qtbot.addWidget(organiser)
    assert "Incidents" in _tab_titles(organiser)
    assert organiser.incidents_view is not None
    assert organiser.incidents_view.model().index(0, 5).data() == "slow"
    assert organiser.results_model.rows[0].score == "5–3"
    scorer = PlayerCardDialog(DeskState(db, Actor("Sayıcı", Role.SCORER)), number)
    qtbot.addWidget(scorer)
    assert "Incidents" not in _tab_titles(scorer) and scorer.incidents_view is None
    texts = " ".join(w.text() for w in scorer.findChildren(QLabel))
    assert "slow" not in texts


def test_player_card_saves_its_pdf(qtbot, night, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db, _ev, rv = night
    number = member_of(db, rv.tables[0].sides[0])
    dialog = PlayerCardDialog(DeskState(db), number)
    qtbot.addWidget(dialog)
    out = tmp_path / "card.pdf"
    dialog.save_pdf(str(out))
    qtbot.waitUntil(lambda: dialog.runner.last_result is not None, timeout=READY_MS)
    assert out.is_file() and "Saved" in dialog.message.text()


def test_members_section_opens_the_player_card(qtbot, night) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.ui.members.register_view import MembersSection

    db, _ev, rv = night
    section = MembersSection(DeskState(db))
    qtbot.addWidget(section)
    panel = section.members
    number = member_of(db, rv.tables[0].sides[0])
    row = next(k for k, m in enumerate(panel.model.rows) if m.number == number)
    panel.view.selectRow(panel.proxy.mapFromSource(panel.model.index(row, 0)).row())
    action = next(a for a in panel.toolbar.actions() if a.objectName() == "playerCardAction")
    action.trigger()
    QApplication.processEvents()
    cards = [w for w in QApplication.topLevelWidgets() if isinstance(w, PlayerCardDialog) and w.isVisible()]
    assert [c.number for c in cards] == [number]
    for c in cards:
        c.close()


def test_a_player_with_earlier_matches_has_a_count_that_agrees_with_his_chart(qtbot, night) -> None:  # type: ignore[no-untyped-def]
    """Rule T12c: 40 matches the register counted before ClubDesk are no rated match of the chart; the
    count beside the chart is its points, the earlier ones named apart."""
    db, _ev, rv = night
    win = member_of(db, rv.tables[0].sides[0])
    with db.session() as s:
        mem = s.scalar(select(Member).where(Member.number == win))
        assert mem is not None
        mem.rating_experience, mem.rating = 40, 1500.0  # as the register had him before his first match
        s.execute(delete(RatingEntry))
        ratings.recompute_ratings(s)
    section = RatingsSection(DeskState(db))
    qtbot.addWidget(section)
    section.select_number(win)
    rating = shown(section)[win][0]
    assert section.player.text() == f"Player 1: {rating} after 1 rated match (and 40 matches before ClubDesk)"
    assert len(section.chart.values) == 2 and section.history_model.rowCount() == 1
    assert shown(section)[win][1] == "1"
    card = PlayerCardDialog(section.state, win)
    qtbot.addWidget(card)
    assert card.findChild(QLabel, "fact4").text() == "1"  # "Rated matches": the chart's one point
