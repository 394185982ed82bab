"""The standings table model: tie-break columns and explanation tooltips (issue 12)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from clubdesk.standings import MatchResult, event_from_matches, standings
from clubdesk.ui.ranking.standings_model import (
    COL_NAME,
    COL_PLACE,
    COL_POINTS,
    FIRST_TIEBREAK_COL,
    StandingsModel,
    lines_from_engine,
)

NAMES = {"a": "Ana", "b": "Bora", "c": "Cem", "d": "Deniz"}


def model_for_small_swiss() -> StandingsModel:
    # round 1: Ana beats Bora, Cem beats Deniz; round 2: Ana beats Cem, Deniz beats Bora
    matches = [
        MatchResult(1, "a", "b", 1, 0),
        MatchResult(1, "c", "d", 1, 0),
        MatchResult(2, "a", "c", 1, 0),
        MatchResult(2, "d", "b", 1, 0),
    ]
    data = event_from_matches(["a", "b", "c", "d"], matches)
    st = standings(data, ("PTS", "DE", "WIN"), names=NAMES)
    model = StandingsModel()
    model.set_standings(lines_from_engine(st, NAMES), st.codes)
    return model


def text(model: StandingsModel, row: int, col: int, role: int = Qt.ItemDataRole.DisplayRole) -> object:
    return model.data(model.index(row, col), role)


def test_rows_columns_and_tie_explanation() -> None:
    model = model_for_small_swiss()
    # points: Ana 2 wins, Cem 1, Deniz 1, Bora 0
    names = [text(model, r, COL_NAME) for r in range(model.rowCount())]
    # rule T12b order: points, then head-to-head: Cem beat Deniz in round 1, so Cem is ahead
    assert names == ["Ana", "Cem", "Deniz", "Bora"]
    assert [text(model, r, COL_POINTS) for r in range(4)] == ["2", "1", "1", "0"]
    assert [text(model, r, COL_PLACE) for r in range(4)] == ["1", "2", "3", "4"]
    # one column per tie-break after points; the header's tooltip names it in full
    assert model.columnCount() == FIRST_TIEBREAK_COL + 2
    assert model.headerData(FIRST_TIEBREAK_COL, Qt.Orientation.Horizontal) == "DE"
    assert model.headerData(FIRST_TIEBREAK_COL, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) == (
        "direct encounter"
    )
    # the tie between Cem and Deniz is explained on their rows; Ana's row (not tied) has no tooltip
    tip = str(text(model, 1, COL_NAME, Qt.ItemDataRole.ToolTipRole))
    assert "Cem" in tip and "Deniz" in tip and "direct encounter" in tip
    assert text(model, 0, COL_NAME, Qt.ItemDataRole.ToolTipRole) is None


def test_lives_standings_have_a_lives_column_and_explanations_follow_the_places(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 20, item 8 (rule T4g): a Lives column; the explanation never says "B ahead of A" next to A
    placed above B (the places, not the points tie-breaks, decide a lives event)."""
    from clubdesk.services.kernel.base import Actor, Role
    from clubdesk.services.night.data import settings
    from clubdesk.services.night.play import results, rounds
    from clubdesk.ui.ranking.standings_view import StandingsSection
    from clubdesk.ui.shell.state import DeskState
    from tests.integration.test_night_helpers import DESK, make_event, open_db

    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="lives", players=4, match_lengths=[3])
    settings.configure(db, DESK, ev, lives=2)
    for r in (1, 2):
        rv = rounds.propose_round(db, DESK, ev)
        rounds.publish_round(db, DESK, ev)
        for t in rv.tables:
            if t.sides[1] is not None:
                results.set_score(db, DESK, ev, r, t.table, (3, 0), confirm=True)
    section = StandingsSection(DeskState(db, Actor("Ref", Role.REFEREE)))
    qtbot.addWidget(section)
    section.select_event(ev)
    model = section.model
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert "Lives" in headers
    col = headers.index("Lives")
    lives = [int(model.data(model.index(r, col))) for r in range(model.rowCount())]
    names = [model.data(model.index(r, COL_NAME)) for r in range(model.rowCount())]
    # two rounds, 2 lives each: every loss costs one (T4g); the list goes from most lives to fewest
    assert lives == sorted(lives, reverse=True)
    assert sum(2 - n for n in lives) == 4  # 2 tables a round, 2 rounds: 4 losses
    # no explanation puts a lower row ahead of a higher one
    for i, upper in enumerate(names):
        for lower in names[i + 1 :]:
            for r in range(model.rowCount()):
                tip = model.data(model.index(r, COL_NAME), Qt.ItemDataRole.ToolTipRole) or ""
                assert f"{lower} ahead of {upper}" not in tip
