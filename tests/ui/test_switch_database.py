"""Issue 25: Settings switches this desk between the club server and this PC's file without a restart:
every screen reloads on the new database, the old one gets its closing backup and is closed, and where the
new one has staff accounts the person acting proves it by PIN (issue 23)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clubdesk.services.club import staff
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.services.members import edit, records, search
from clubdesk.storage import Database
from tests.conftest import BACKENDS, DbMaker
from tests.waits import READY_MS

SEC = Actor("Sekreter", Role.SECRETARY)


def _club(path: Path, member: str) -> Database:
    db = Database(path, backups_dir=path.parent / "backups")
    edit.create_member(db, SEC, records.MemberData(name=member))
    return db


def test_switching_reloads_every_screen_on_the_new_database(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.ui.club.server_dialog import switch_desk
    from clubdesk.ui.shell.main_window import MainWindow
    from clubdesk.ui.shell.state import DeskState

    here, there = (
        _club(tmp_path / "here.sqlite3", "Ayşe Yılmaz"),
        _club(tmp_path / "there.sqlite3", "Budi Santoso"),
    )
    state = DeskState(here, SEC)
    window = MainWindow(state)
    qtbot.addWidget(window)
    window.show_section("members")
    qtbot.waitUntil(lambda: "Ayşe Yılmaz" in _members_text(window), timeout=READY_MS)
    assert switch_desk(state, there, window)
    assert state.db is there
    qtbot.waitUntil(lambda: "Budi Santoso" in _members_text(window), timeout=READY_MS)
    assert "Ayşe Yılmaz" not in _members_text(window)
    assert str(tmp_path / "there.sqlite3") in window.db_label.text()
    assert window.current_section() == "members"  # on the section that was open
    # the file it left got its closing backup and was closed cleanly (no sidecar of an open database)
    assert any(p.name.startswith("here-") and "close" in p.name for p in (tmp_path / "backups").iterdir())
    assert not (tmp_path / "here.sqlite3.open").exists()
    there.close()


def test_a_database_with_staff_accounts_asks_for_the_pin_first(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.ui.club import safety_panel
    from clubdesk.ui.club.server_dialog import switch_desk
    from clubdesk.ui.shell.state import DeskState

    here, there = _club(tmp_path / "here.sqlite3", "Ayşe Yılmaz"), _club(tmp_path / "there.sqlite3", "Budi")
    staff.add_staff(there, SEC, "Rıza", Role.SECRETARY, "4711")
    state = DeskState(here, SEC)
    monkeypatch.setattr(safety_panel.PinDialog, "exec", lambda self: 0)  # the PIN dialog is cancelled
    assert switch_desk(state, there) is False
    assert state.db is here  # nothing changed for this desk
    assert search.list_members(here)  # still usable
    here.close()


def _members_text(window) -> str:  # type: ignore[no-untyped-def]
    """Every cell of every table the open section shows."""
    from PySide6.QtWidgets import QAbstractItemView

    page = window.current_page()
    cells = []
    for view in page.findChildren(QAbstractItemView) if page is not None else []:
        model = view.model()
        if model is None:
            continue
        for r in range(model.rowCount()):
            cells += [str(model.index(r, c).data() or "") for c in range(model.columnCount())]
    return " ".join(cells)


@pytest.mark.skipif("postgresql" not in BACKENDS, reason="no test server (CLUBDESK_TEST_PG_URL)")
def test_switching_to_the_club_server_starts_listening(
    qtbot, tmp_path: Path, request: pytest.FixtureRequest
) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.ui.club.server_dialog import switch_desk
    from clubdesk.ui.shell.live_refresh import LiveRefresh
    from clubdesk.ui.shell.state import DeskState

    maker = DbMaker("postgresql", tmp_path, request)
    try:
        here = _club(tmp_path / "here.sqlite3", "Ayşe")
        server = Database(maker.url_or_path("club"), backups_dir=tmp_path / "backups")
        state = DeskState(here, SEC)
        live = LiveRefresh(state)
        live.start()
        assert live._thread is None  # a file: nothing to hear
        try:
            assert switch_desk(state, server)
            assert live._thread is not None and live._thread.is_alive()  # the server: other desks heard
        finally:
            live.stop()
        server.close()
    finally:
        maker.cleanup()
