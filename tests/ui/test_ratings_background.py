"""Issue 22: a correction of an old tavla match in a club with many later matches is saved at once and
re-rated in the background (rule T12c): the window keeps working (a timer fires during the work), the
status bar shows the progress, the ratings screen reloads when it is done, and the ratings equal a full
recompute."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer

from clubdesk.services.night.play import results
from clubdesk.services.night.ranking import ratings_background
from clubdesk.services.publishing import players
from clubdesk.storage import Database
from clubdesk.ui.ranking.players_view import RatingsSection
from clubdesk.ui.shell.main_window import MainWindow
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_night_helpers import REF
from tests.rating_league import full_recompute, ratings_now, tavla_league
from tests.ui.conftest import show_active


def test_an_old_correction_re_rates_in_the_background_while_the_window_works(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = Database(tmp_path / "club.sqlite3")
    lg = tavla_league(db, 3000, players=40)
    before = ratings_now(db)
    win = MainWindow(DeskState(db))
    show_active(qtbot, win)
    catch = win.ratings_catch_up
    screen = RatingsSection(win.state)  # the ratings screen, as the window shows it
    shown_before = {r.number: r.rating for r in screen.ratings}
    ticks: list[tuple[bool, bool]] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append((catch.running(), catch.bar.isVisible())))
    timer.start(5)
    # the referee corrects round 1 (rule T10 override), as the rounds screen does: service, then dataChanged
    results.set_score(db, REF, lg, 1, 1, (0, 5), confirm=True, override="score misread")
    assert ratings_background.pending(db)  # saved at once; nothing re-rated yet
    assert ratings_now(db) == before
    with qtbot.waitSignal(catch.done, timeout=120_000) as done:
        win.state.dataChanged.emit("rounds")
        assert catch.running()
    timer.stop()
    assert done.args == [3000]

    assert sum(1 for running, bar in ticks if running and bar) >= 3  # the window ran its timer meanwhile
    assert not catch.running() and not catch.bar.isVisible()
    assert not ratings_background.pending(db)
    after = ratings_now(db)
    assert after != before
    shown_after = {r.number: r.rating for r in screen.ratings}
    assert shown_after != shown_before  # the ratings screen reloaded
    assert shown_after == {r.number: r.rating for r in players.tavla_ratings(db)}
    assert after == full_recompute(db)
    win.close()
    ratings_background.rerate_in_background(db, False)
    db.close()
