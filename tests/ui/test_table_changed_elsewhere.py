"""Issue 25 at the Rounds screen: a desk that shows an older state of a table cannot approve it; it is told
who changed it and shows the table as it is now (rules G13, T8c)."""

from __future__ import annotations

from pathlib import Path

from clubdesk.db import Database
from clubdesk.services import events as ES
from clubdesk.services import results as RS
from clubdesk.services import rounds as R
from clubdesk.services.base import Actor, Role
from tests.integration.test_night_helpers import DESK, make_event


def test_approving_a_table_another_desk_corrected_is_refused_and_reloaded(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.ui.rounds_view import TablePanel
    from clubdesk.ui.shell.state import DeskState

    club = tmp_path / "club.sqlite3"
    mine, other = Database(club, backups_dir=None), Database(club, backups_dir=None)
    try:
        ev, _ids = make_event(mine, ruleset="tavla", fmt="swiss", players=2, rounds=1, match_lengths=[5])
        R.propose_round(mine, DESK, ev)
        R.publish_round(mine, DESK, ev)
        RS.set_score(mine, DESK, ev, 1, 1, (5, 3))
        shown = R.get_round(mine, ev, 1).tables[0]
        panel = TablePanel(DeskState(mine), ES.get_event(mine, ev), 1, shown, {}, lambda: None)
        qtbot.addWidget(panel)
        # meanwhile at the other desk, Ayşe corrects the score
        ayse = Actor("Ayşe", Role.SECRETARY)
        RS.set_score(other, ayse, ev, 1, 1, (3, 5), expected_version=shown.version)
        panel.approve_a.setText("AB")
        assert panel.approve(0) is False
        assert "Ayşe" in panel.message.text()
        qtbot.waitUntil(lambda: panel.table.score == (3, 5), timeout=2000)  # shown as it is now
        assert R.get_round(mine, ev, 1).tables[0].status != "confirmed"  # nothing approved unseen
        assert panel.approve(0) is True  # what it shows now can be approved
    finally:
        mine.close()
        other.close()
