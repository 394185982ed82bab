"""The "Share…" button of the Rounds and Standings screens and its dialog (issue 28): the images of the
chosen kind are drawn, the selected one goes to the clipboard (to paste into a chat), the images are saved
elsewhere; a refused kind (no bracket in a Swiss) says why in the dialog."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QPushButton

from clubdesk.ui.publishing.share_dialog import ShareDialog
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_reports_service import DESK, Club, seeded_club


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Club:
    c = seeded_club(tmp_path_factory, "share-ui")
    yield c
    c.db.close()


def test_dialog_copies_and_saves_the_images(qtbot, club: Club, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dialog = ShareDialog(DeskState(club.db, DESK), club.swiss, "pairings", round_no=2)
    qtbot.addWidget(dialog)
    # round 2 of 8 entrants: the tables and the list by name, one image each
    assert [dialog.list.item(i).text() for i in range(dialog.list.count())] == [
        f"pairings-{club.swiss}-r2-01.png",
        f"pairings-{club.swiss}-r2-02.png",
    ]
    dialog.copy_button.click()
    image = QGuiApplication.clipboard().image()
    assert image.width() == 1080 and 0 < image.height() <= 1350
    dialog.save_images(str(tmp_path))
    assert sorted(p.name for p in tmp_path.glob("*.png")) == [f.name for f in dialog.files]
    dialog.kind.setCurrentIndex(dialog.kind.findData("season"))
    assert dialog.list.count() == 1 and dialog.files[0].name == f"season-{club.swiss}-01.png"
    dialog.kind.setCurrentIndex(dialog.kind.findData("bracket"))
    assert dialog.list.count() == 0 and not dialog.copy_button.isEnabled()
    assert "not an elimination event" in dialog.message.text()


def test_rounds_and_standings_screens_have_a_share_button(qtbot, club: Club) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.ui.night.rounds_section import RoundsSection

    pass
    from clubdesk.ui.ranking.standings_view import StandingsSection

    state = DeskState(club.db, DESK)
    for section in (RoundsSection(state), StandingsSection(state)):
        qtbot.addWidget(section)
        assert section.findChild(QPushButton, "shareButton") is not None
    rounds = RoundsSection(state)
    qtbot.addWidget(rounds)
    rounds.event_box.setCurrentIndex(rounds.event_box.findData(club.swiss))
    event, round_no, kind = rounds._share_target()
    assert (event, kind) == (club.swiss, "pairings") and round_no == 3
