"""Issue 25 at the Rounds screen: a desk that shows an older state of a table cannot approve it; it is told
who changed it and shows the table as it is now (rules G13, T8c)."""

from __future__ import annotations

from pathlib import Path

from clubdesk.services import events as ES
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import results, rounds
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, make_event
from tests.waits import READY_MS


def test_approving_a_table_another_desk_corrected_is_refused_and_reloaded(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.ui.night.table_panel import TablePanel

    pass
    from clubdesk.ui.shell.state import DeskState

    club = tmp_path / "club.sqlite3"
    mine, other = Database(club, backups_dir=None), Database(club, backups_dir=None)
    try:
        ev, _ids = make_event(mine, ruleset="tavla", fmt="swiss", players=2, rounds=1, match_lengths=[5])
        rounds.propose_round(mine, DESK, ev)
        rounds.publish_round(mine, DESK, ev)
        results.set_score(mine, DESK, ev, 1, 1, (5, 3))
        shown = reads.get_round(mine, ev, 1).tables[0]
        panel = TablePanel(DeskState(mine), ES.get_event(mine, ev), 1, shown, {})
        qtbot.addWidget(panel)
        # meanwhile at the other desk, Ayşe corrects the score
        ayse = Actor("Ayşe", Role.SECRETARY)
        results.set_score(other, ayse, ev, 1, 1, (3, 5), expected_version=shown.version)
        panel.decisions.approve_a.setText("AB")
        assert panel.decisions.approve(0) is False
        assert "Ayşe" in panel.message.text()
        qtbot.waitUntil(lambda: panel.table.score == (3, 5), timeout=READY_MS)  # shown as it is now
        assert reads.get_round(mine, ev, 1).tables[0].status != "confirmed"  # nothing approved unseen
        assert panel.decisions.approve(0) is True  # what it shows now can be approved
    finally:
        mine.close()
        other.close()
