"""A desk that lasts the night: PySide6 6.12 on Python 3.11 takes a reference from None on every call of a
void method and on every None a model hands Qt, a few hundred per hand entered; without a keeper the
interpreter aborts ("Fatal Python error: none_dealloc") after about a hundred hands. The window keeps
None's count up, and the round's models build no colour or font per call."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from clubdesk.services import night
from clubdesk.services.night.data import reads as data_reads
from clubdesk.services.night.play import rounds
from clubdesk.storage import Database
from clubdesk.ui.night.rounds_section import RoundsSection
from clubdesk.ui.night.score_entry import GapleEntryForm
from clubdesk.ui.night.tables_model import PHONE_ROLE, STATE_ROLE, TABLE_ROLE, TablesModel
from clubdesk.ui.shell import none_refs
from clubdesk.ui.shell.main_window import MainWindow
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_night_helpers import DESK, make_event, open_db
from tests.ui.test_rounds_refresh import REF

HANDS = 2000  # a 64-pair night has ~1,700
PAIRS = 64


def gaple_night(tmp_path: Path) -> tuple[Database, int]:
    """A published first round of a 64-pair gaple Swiss: 32 tables."""
    db = open_db(tmp_path)
    ev, _ids = make_event(
        db, ruleset="gaple-tournament", fmt="swiss", players=2 * PAIRS, entry="pair", per_entrant=2, rounds=2
    )
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev, call_at=data_reads.local_now())
    return db, ev


def test_the_tables_model_takes_nothing_from_none(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Every cell of the round's tables, in every role, many times: the model builds no colour or font per
    call (a fresh QFont's setBold took a reference from None each time)."""
    db, ev = gaple_night(tmp_path)
    tables = night.get_round(db, ev, 1).tables
    states = ("not_started", "in_play", "awaiting_confirmation", "confirmed_at_table", "entered_at_desk")
    phones = {
        t.table: SimpleNamespace(state=states[i % len(states)], hands=i, referee_called=i % 3 == 0)
        for i, t in enumerate(tables)
    }
    model = TablesModel()
    model.set_rows(tables, phones)
    roles = [*range(14), TABLE_ROLE, STATE_ROLE, PHONE_ROLE]
    cells = [model.index(r, c) for r in range(model.rowCount()) for c in range(model.columnCount())]
    for index in cells:  # once, so that what is built once is built
        for role in roles:
            model.data(index, role)
    before = sys.getrefcount(None)
    for _ in range(50):
        for index in cells:
            for role in roles:
                model.data(index, role)
    assert sys.getrefcount(None) >= before
    db.close()


@pytest.mark.skipif(not none_refs.MORTAL_NONE, reason="None is immortal from Python 3.12 on")
def test_a_desk_lasts_two_thousand_hands(qtbot, active, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """2,000 hands entered at the real Rounds screen, table after table of a 64-pair night: None's count
    does not fall over the night and the window is still there."""
    db, ev = gaple_night(tmp_path)
    win = MainWindow(DeskState(db, REF))
    active(win)
    win.show_section("rounds")
    section = win.pages["rounds"]
    assert isinstance(section, RoundsSection)
    section.select_event(ev)
    tables = [t.table for t in section.model.rows if t.names[1]]
    per_table = -(-HANDS // len(tables))
    keeper = none_refs.keep_none()
    assert keeper is not None
    before = keeper.give_back()
    truth = (keeper.levels[id(True)], keeper.levels[id(False)])
    looks: list[int] = []  # None's count right after each of the keeper's looks
    bools: list[tuple[int, int]] = []  # and True's and False's (they lose references alike)
    keeper.timer.timeout.connect(lambda: looks.append(sys.getrefcount(None)))
    keeper.timer.timeout.connect(lambda: bools.append((sys.getrefcount(True), sys.getrefcount(False))))
    entered = 0
    for table in tables:
        panel = section.open_table(table)
        assert panel is not None
        panel.initials.setText("SR")
        panel._initials_given()
        form = panel.form
        assert isinstance(form, GapleEntryForm)
        hands = min(per_table, HANDS - entered)
        for hand in range(hands):
            # a player goes out and the others hold no pips: the hand scores nothing, the match goes on
            form.outcome.setCurrentIndex(form.outcome.findData("out"))
            form.seat.setCurrentIndex(form.seat.findData(hand % 4))
            for field in form.pips:
                if field.isEnabled():
                    field.setText("0")
            assert form.submit(), form.error.text()
            entered += 1
        assert len(form.entries) == hands  # every hand on the table's sheet
        qtbot.wait(1)
    assert entered == HANDS
    # None's count does not fall over the night: at every look of the keeper it is where it was at least
    seen = len(looks)
    qtbot.waitUntil(lambda: len(looks) > seen, timeout=3 * none_refs.INTERVAL_MS)
    assert len(looks) > 2 and min(looks) >= before
    assert min(t for t, _f in bools) >= truth[0] and min(f for _t, f in bools) >= truth[1]
    assert win.isVisible() and section.isVisible()
    win.close()
    db.close()
