"""Issue 27, the desk's side in the window: the Desk's "Table entry on phones" switch starts and stops the
server and shows a QR that decodes to the hall's address; the Rounds screen shows a phone's hand and a
referee call without any user action; the scan field opens a table from its phone address."""

from __future__ import annotations

import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from clubdesk.services.night.data.tokens import round_tokens
from clubdesk.services.night.play import rounds
from clubdesk.services.phones import desk_side, posts, table_page
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, make_event
from tests.waits import READY_MS, READY_S

GAME = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    d = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "backups")
    try:
        yield d
    finally:
        d.close()


def night(db: Database) -> int:
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[5])
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    return ev


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=READY_S) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def decode(pixmap) -> list[str]:  # type: ignore[no-untyped-def]
    import zxingcpp
    from PIL import Image
    from PySide6.QtCore import QBuffer, QIODevice

    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    pixmap.save(buf, "PNG")
    import io

    return [r.text for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(bytes(buf.data()))))]


def test_the_desk_switch_starts_the_server_shows_its_qr_and_stops_it(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.ui.phones.phones_view import PhonesView, stop_table_entry
    from clubdesk.ui.shell.state import DeskState

    night(db)
    state = DeskState(db)
    view = PhonesView(state)
    qtbot.addWidget(view)
    assert not view.toggle.isChecked() and desk_side.base_url(db) is None  # off by default
    addresses = [view.address.itemData(i) for i in range(view.address.count())]
    assert addresses[-1] == "127.0.0.1" and all(a.count(".") == 3 for a in addresses)
    view.address.setCurrentIndex(view.address.count() - 1)
    port = free_port()
    view.port.setValue(port)
    try:
        view.toggle.setChecked(True)
        hall = f"http://127.0.0.1:{port}/"
        assert view.entry.running and view.url.text() == hall
        assert decode(view.qr.pixmap()) == [hall]  # a phone scanning the Desk's QR opens the hall
        assert answers(hall)
        assert (
            desk_side.base_url(db) == f"http://127.0.0.1:{port}"
        )  # printed sheets carry table addresses now
        assert not view.address.isEnabled()  # the address stays what the server binds to
        view.toggle.setChecked(False)
        assert not view.entry.running and not answers(hall) and desk_side.base_url(db) is None
        assert view.url.text() == "" and view.qr.pixmap().isNull()
        # the port in use: said, and the switch stays off
        with socket.socket() as busy:
            busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # the stopped server's TIME_WAIT
            busy.bind(("127.0.0.1", port))
            busy.listen(1)
            view.toggle.setChecked(True)
            assert not view.toggle.isChecked() and not view.entry.running
            assert str(port) in view.message.text() and "in use" in view.message.text()
        # on again, then the window closes: the server stops with it
        view.toggle.setChecked(True)
        assert answers(hall)
    finally:
        stop_table_entry(state)
    assert not answers(hall) and desk_side.base_url(db) is None


def test_rounds_screen_shows_a_phones_hand_and_a_referee_call_without_user_action(
    qtbot, db: Database, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.ui.night.rounds_section import RoundsSection

    pass
    from clubdesk.ui.night.tables_model import COL_PHONES, PHONE_ROLE
    from clubdesk.ui.shell.live_refresh import LiveRefresh
    from clubdesk.ui.shell.state import DeskState

    ev = night(db)
    desk_side.set_base_url(db, DESK, "http://127.0.0.1:8765")  # table entry on
    state = DeskState(db)
    section = RoundsSection(state)
    qtbot.addWidget(section)
    section.resize(1300, 700)
    section.show()
    live = LiveRefresh(state)
    live.start()
    try:
        table = section.round.tables[0].table
        model = section.model

        def cell(role: int = 0) -> str:
            row = next(i for i, t in enumerate(model.rows) if t.table == table)
            return str(model.data(model.index(row, COL_PHONES), role) or "")

        assert cell() == "not started"
        assert not section.view.isColumnHidden(COL_PHONES)
        # a phone on the hall's network (the server in another process: another connection to the file)
        phone_db = Database(db.path)
        try:
            ref = table_page.table_for_token(phone_db, round_tokens(phone_db, ev, 1)[table])
            assert ref is not None
            shown = posts.table_status(phone_db, ev, 1)[table].version  # the version the page showed
            posts.post_entry(phone_db, ref, GAME, client_id="p-1", version=shown, side=0, address="10.0.0.7")
            # tavla: game by game; within 1 s (+ Qt's queue)
            qtbot.waitUntil(lambda: cell() == "in play · 1 game", timeout=READY_MS)
            assert cell(PHONE_ROLE) == "in_play"
            shown = posts.table_status(phone_db, ev, 1)[table].version
            posts.call_referee(phone_db, ref, client_id="p-2", version=shown, address="10.0.0.7")
            qtbot.waitUntil(lambda: cell().startswith("referee called"), timeout=READY_MS)
            button = section.referee_button
            assert button.isVisible() and f"table {table}" in button.text()
            button.click()  # the referee came: the flag goes, the table's state stays
            qtbot.waitUntil(lambda: cell() == "in play · 1 game", timeout=READY_MS)
            assert not button.isVisible() and posts.referee_calls(db, ev, open_only=True) == []
        finally:
            phone_db.close()
    finally:
        live.stop()


def test_table_entry_off_hides_the_phones_column(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.ui.night.rounds_section import RoundsSection

    pass
    from clubdesk.ui.night.tables_model import COL_PHONES
    from clubdesk.ui.shell.state import DeskState

    night(db)
    section = RoundsSection(DeskState(db))
    qtbot.addWidget(section)
    section.resize(1300, 700)
    section.show()
    assert section.view.isColumnHidden(COL_PHONES)  # a desk-only night: the State column says it all


def test_scan_field_opens_the_table_of_a_sheets_phone_address(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.ui.night.rounds_section import RoundsSection
    from clubdesk.ui.night.table_query import parse_table_url

    pass
    pass
    from clubdesk.ui.shell.state import DeskState

    ev = night(db)
    second = round_tokens(db, ev, 1)
    table = sorted(second)[1]
    section = RoundsSection(DeskState(db))
    qtbot.addWidget(section)
    section.table_field.setText(f"http://192.168.1.20:8765/t/{second[table]}")
    section.open_from_field()
    assert section.panel is not None and section.panel.key == (ev, 1, table)
    section.table_field.setText("http://192.168.1.20:8765/t/not-a-token-of-ours")
    section.open_from_field()
    assert "not one of this club's tables" in section.info.text()
    # today's payload still works
    section.table_field.setText(f"CLUBDESK:TABLE:{ev}:1:{sorted(second)[0]}")
    section.open_from_field()
    assert section.panel.key == (ev, 1, sorted(second)[0])
    assert parse_table_url("https://desk/t/AbC-_9/") == "AbC-_9"
    for bad in ("http://desk/x/abc", "http://desk/t/", "http://desk/t/a/b", "ftp://desk/t/abc", "12"):
        assert parse_table_url(bad) is None
