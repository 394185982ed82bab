"""The Season section (rules T12d, T4g, issue 21): on the demo club its ranking is the services' season data
(best 2 of 3, shared places averaged), the Super Final list with the starting lives of the season scale, the
season PDF, and the empty states."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt

from clubdesk.services.demo.season import SEASON_DEMO_SCALE
from clubdesk.services.events import events
from clubdesk.services.publishing import season_ranking, season_screen
from clubdesk.storage import Database
from clubdesk.ui.ranking.season_view import SeasonSection
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_night_helpers import DESK
from tests.waits import READY_MS


def _cells(section: SeasonSection) -> list[list[str]]:
    m = section.ranking_model
    return [
        [str(m.data(m.index(r, c), Qt.ItemDataRole.DisplayRole)) for c in range(m.columnCount())]
        for r in range(m.rowCount())
    ]


def test_demo_season_ranking_is_the_services_season_data(qtbot, demo_file: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "demo.sqlite3"
    shutil.copy(demo_file, path)
    db = Database(path)
    section = SeasonSection(DeskState(db, DESK))
    qtbot.addWidget(section)
    ov = section.overview
    assert ov is not None and section.season_box.currentData() == ov.season
    data = season_ranking.season_data(db, ov.reference_event)
    assert data.rows  # the demo's finished nights give a ranking
    shown = _cells(section)
    assert [row[:4] for row in shown] == [[str(r.rank), r.name, r.club, r.points_text] for r in data.rows]
    assert [row[4 : 4 + data.events_total] for row in shown] == [list(r.events) for r in data.rows]
    # rule T12d: best 2 of the 3 finished nights; a dropped result is in brackets, never more than 2 counted
    assert data.best_of == 2 and data.events_total == 3
    for row in shown:
        counted = [c for c in row[4:7] if c and not c.startswith("(")]
        assert len(counted) <= 2
    # the points of the counted results add up to the total (shared places averaged to 1/100)
    for r in data.rows:
        counted = [float(c) for c in r.events if c and not c.startswith("(")]
        assert abs(sum(counted) - float(r.points_text)) < 0.011
    # the events with their coefficients (x1 local, x1.5 regional)
    ev = section.events_model
    coeff = {
        ev.data(ev.index(r, 1), Qt.ItemDataRole.DisplayRole): ev.data(
            ev.index(r, 5), Qt.ItemDataRole.DisplayRole
        )
        for r in range(ev.rowCount())
    }
    assert coeff["Demo season: Regional Cup"] == "×1.5" and coeff["Demo season: Kadıköy Night 1"] == "×1"
    # the Super Final: the top 4 of the ranking, with the lives of the season scale's bands (T4g)
    fm = section.finalists_model
    assert [f.name for f in fm.rows] == [r.name for r in data.rows[: SEASON_DEMO_SCALE["super_final"]]]  # type: ignore[misc]
    assert [f.lives for f in fm.rows] == [3, 2, 2, 1]
    db.close()


def test_season_pdf_lists_the_ranking(qtbot, demo_file: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from pypdf import PdfReader

    path = tmp_path / "demo.sqlite3"
    shutil.copy(demo_file, path)
    db = Database(path)
    section = SeasonSection(DeskState(db, DESK))
    qtbot.addWidget(section)
    out = tmp_path / "season.pdf"
    section.save_pdf(str(out))
    qtbot.waitUntil(lambda: section.last_result is not None, timeout=READY_MS)
    text = " ".join(p.extract_text() for p in PdfReader(str(out)).pages)
    assert section.overview is not None
    for r in section.overview.data.rows[:5]:
        assert r.name in text and r.points_text in text
    db.close()


def test_season_empty_states(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = Database(tmp_path / "empty.sqlite3")
    section = SeasonSection(DeskState(db, DESK))
    qtbot.addWidget(section)
    assert "Give events a season" in section.empty.text() and "Night settings" in section.empty.text()
    assert not section.print_button.isEnabled()
    events.create_event(
        db,
        DESK,
        events.EventData(name="Autumn night", ruleset="tavla", format="swiss", rounds=3, season="Autumn"),
    )
    section.reload()
    assert section.season_box.currentData() == "Autumn"
    assert "No season scale yet" in section.ranking_note.text()
    assert "No event of this season has ended yet" in section.ranking_note.text()
    assert "Nobody to invite yet" in section.finalists_note.text()
    assert season_screen.seasons(db) == ["Autumn"]
    db.close()
