"""The Prizes tab (rule T13e, issue 19): prizes listed paid or unpaid; a payment recorded once."""

from __future__ import annotations

from pathlib import Path

from clubdesk.models.money import Payment
from clubdesk.services import prize_payments as PP
from clubdesk.services import rounds as R
from clubdesk.ui.prizes_panel import PrizesPanel
from clubdesk.ui.state import DeskState
from tests.integration.test_night_helpers import DESK, make_event, open_db
from tests.integration.test_night_paths import run_bracket


def test_prizes_tab_records_a_payment_once(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="single-elimination", players=4)
    with db.session() as s:
        for e in ids:
            s.add(Payment(entrant_id=e, amount=1000, currency="EUR", method="cash", recorded_by="t"))
    R.configure(db, DESK, ev, prize_plan={"pool_rate": 10000, "places": [{"place": 1, "pool_share": 10000}]})
    seed = {e: k for k, e in enumerate(ids)}
    run_bracket(db, ev, lambda _r, a, b: a if seed[a] < seed[b] else b)
    panel = PrizesPanel(DeskState(db, DESK))
    qtbot.addWidget(panel)
    panel.show_event(ev)
    assert "40.00 EUR" in panel.list.toPlainText() and "unpaid" in panel.list.toPlainText()
    panel.place.setValue(1)
    panel.method.setCurrentIndex(panel.method.findData("transfer"))
    assert panel.record()
    text = panel.list.toPlainText()
    assert "unpaid" not in text and "transfer" in text and "Desk" in text
    assert not panel.record()  # never twice
    assert "never twice" in panel.message.text()
    assert [p.method for p in PP.prize_lines(db, ev)] == ["transfer"]
    db.close()
