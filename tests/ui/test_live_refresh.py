"""Live refresh (issue 25): another desk's change on the club server reaches this window's dataChanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from clubdesk.services.events import events as events_events
from clubdesk.services.night.play import results, rounds
from clubdesk.storage import Database
from tests.conftest import BACKENDS, DbMaker
from tests.integration.test_night_helpers import DESK, make_event
from tests.waits import READY_MS

GAME = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}


def _listening(db: Database) -> bool:
    """The window's listener is connected: a session of this club's database has run LISTEN."""
    sql = (
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND pid <> pg_backend_pid() AND left(query, 6) = 'LISTEN'"
    )
    with db.engine.connect() as c:
        return bool(c.exec_driver_sql(sql).scalar())


@pytest.mark.skipif("postgresql" not in BACKENDS, reason="no test server (CLUBDESK_TEST_PG_URL)")
def test_another_desks_hand_reloads_this_window_within_a_second(
    qtbot, tmp_path: Path, request: pytest.FixtureRequest
) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.ui.shell.live_refresh import LiveRefresh
    from clubdesk.ui.shell.state import DeskState

    maker = DbMaker("postgresql", tmp_path, request)
    try:
        target = maker.url_or_path("club")
        mine, other = Database(target), Database(target)
        ev, _ids = make_event(other, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[9])
        rounds.propose_round(other, DESK, ev)
        rv = rounds.publish_round(other, DESK, ev).round
        state = DeskState(mine)
        seen: list[str] = []
        state.dataChanged.connect(seen.append)
        live = LiveRefresh(state)
        live.start()
        try:
            qtbot.waitUntil(lambda: _listening(other), timeout=READY_MS)
            seen.clear()
            results.add_entry(other, DESK, ev, 1, rv.tables[0].table, GAME)
            qtbot.waitUntil(lambda: "rounds" in seen, timeout=READY_MS)  # how soon: benchmarks/
            assert {"rounds", "desk"} <= set(seen)
        finally:
            live.stop()
        mine.close()
        other.close()
    finally:
        maker.cleanup()


def test_on_the_file_nothing_listens(db: Database) -> None:
    from clubdesk.ui.shell.live_refresh import LiveRefresh
    from clubdesk.ui.shell.state import DeskState

    live = LiveRefresh(DeskState(db))
    live.start()
    assert live._thread is None  # SQLite: one PC, nothing to hear


@pytest.mark.skipif("postgresql" not in BACKENDS, reason="no test server (CLUBDESK_TEST_PG_URL)")
def test_connect_to_club_server_remembers_the_server_not_the_password(
    qtbot, home: Path, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy.engine import make_url

    from clubdesk import server
    from clubdesk.ui.club import server_dialog

    maker = DbMaker("postgresql", tmp_path, request)
    try:
        u = make_url(maker.url_or_path(empty=True))
        kept: list[tuple[str, str]] = []
        monkeypatch.setattr(server_dialog, "store_password", lambda key, pw: kept.append((key, pw)) or True)
        monkeypatch.setattr(server_dialog.QMessageBox, "information", lambda *a, **k: None)
        dialog = server_dialog.ServerDialog()
        qtbot.addWidget(dialog)
        dialog.host.setText(str(u.query["host"]))  # the test server's socket folder stands for its host
        dialog.database.setText("")
        dialog.try_connect()
        assert "Write the server" in dialog.message.text() and server.load_choice() is None
        dialog.database.setText(str(u.database))
        dialog.user.setText(str(u.username))
        dialog.password.setText("secret")
        dialog.try_connect()
        choice = server.load_choice()
        assert choice is not None and choice.database == u.database and choice.user == u.username
        assert "secret" not in server.choice_file().read_text(encoding="utf-8")  # the keyring has it
        assert kept == [(choice.key, "secret")]
        monkeypatch.setattr(server_dialog, "keyring_password", lambda key: "secret")
        opened = server_dialog.open_chosen_server()
        assert opened is not None and opened.is_server and opened.revision() is not None
        opened.close()
        server_dialog.use_this_pc_file()
        assert server.load_choice() is None and server_dialog.open_chosen_server() is None
    finally:
        maker.cleanup()


def test_a_database_refusal_no_screen_caught_is_shown_not_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from PySide6.QtWidgets import QMessageBox

    from clubdesk import app
    from clubdesk.storage import DatabaseError
    from clubdesk.storage.server import unreachable_error

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(str(a[2])))
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # put back after the test
    app._show_database_refusals(None)
    refusal = unreachable_error("club@hall-pc", OSError("connection refused"))
    sys.excepthook(DatabaseError, refusal, None)
    assert shown == [str(refusal)] and "cannot be reached" in shown[0] and "nothing was saved" in shown[0]


def test_another_desks_new_event_reaches_the_standings_list(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """What a notification makes the window do (issue 25): an event another desk created appears in the
    Standings section's list without the user pressing anything (the Events section, built too, follows)."""
    from clubdesk.ui.events.events_view import EventsSection
    from clubdesk.ui.ranking.standings_view import StandingsSection
    from clubdesk.ui.shell.live_refresh import LiveRefresh
    from clubdesk.ui.shell.state import DeskState

    club = tmp_path / "club.sqlite3"
    mine, other = Database(club, backups_dir=None), Database(club, backups_dir=None)
    try:
        state = DeskState(mine)
        standings, events = StandingsSection(state), EventsSection(state)
        qtbot.addWidget(standings)
        qtbot.addWidget(events)
        made = events_events.create_event(
            other, DESK, events_events.EventData(name="Perşembe Gecesi", ruleset="tavla", format="swiss")
        )
        assert standings.event_box.findData(made.id) < 0
        LiveRefresh(state)._flush()  # what the LISTEN thread triggers once another desk's commit is heard
        assert standings.event_box.findData(made.id) >= 0
        assert "Perşembe Gecesi" in standings.event_box.itemText(standings.event_box.findData(made.id))
    finally:
        mine.close()
        other.close()
