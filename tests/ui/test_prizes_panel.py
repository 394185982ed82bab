"""The Prizes tab (rules T13a-T13e, issues 19 and 21): the plan edited and saved like night-config, a live
preview that follows the entrant count (compared with the prize engine), the awards of a finished event
with a shared place split, payments recorded once and refused the second time, and the empty states."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox

from clubdesk.models.event import Event
from clubdesk.models.money import Payment
from clubdesk.models.result import PrizeAward
from clubdesk.services.money import prize_payments
from clubdesk.services.night.data import prize_plans, settings
from clubdesk.standings.prizes import PrizePlan, award_prizes
from clubdesk.standings.season import Placing
from clubdesk.ui.ranking.prizes_panel import PrizesPanel
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.money import money
from tests.integration.test_night_helpers import DESK, make_event, open_db
from tests.integration.test_night_paths import run_bracket
from tests.waits import READY_MS

PLAN = {
    "pool_rate": 8000,
    "places": [
        {"place": 1, "pool_share": 5000, "items": [{"kind": "trophy", "description": "Cup"}]},
        {"place": 2, "pool_share": 3000},
        {"place": 3, "fixed": 1500, "pool_share": 2000},
    ],
}


def _event(tmp_path: Path, players: int = 4, fee: int = 1000, plan: dict[str, object] | None = PLAN):  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="single-elimination", players=players)
    with db.session() as s:
        e = s.get(Event, ev)
        assert e is not None
        e.fee = fee
        for k, en in enumerate(ids):
            if k < players - 1:  # one entrant has not paid: the pool is what was actually collected (T13b)
                s.add(Payment(entrant_id=en, amount=fee, currency="EUR", method="cash", recorded_by="t"))
    if plan is not None:
        settings.configure(db, DESK, ev, prize_plan=plan)
    return db, ev, ids


def _engine(plan: PrizePlan, n: int, collected: int) -> dict[str, str]:
    """What the prize engine awards each place with n entrants at places 1..n (T13a-T13c)."""
    awarded = award_prizes(
        plan, [Placing(f"x{k}", k) for k in range(1, n + 1)], event_date=date.today(), collected=collected
    )
    out: dict[str, int] = {}
    for a in awarded.awards:
        out[str(a.place_from)] = out.get(str(a.place_from), 0) + a.amount
    return {p: money(v, "EUR") for p, v in out.items() if v}


def test_preview_follows_the_entrant_count_as_the_engine_awards(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db, ev, _ids = _event(tmp_path)
    panel = PrizesPanel(DeskState(db, DESK))
    qtbot.addWidget(panel)
    panel.show_event(ev)
    plan = prize_plans.prize_plan_from(PLAN, "EUR")
    assert plan is not None
    # 4 entrants, 3 paid 10.00: the pool is 80 % of 30.00 = 24.00 (T13b)
    assert panel.preview_n.value() == 4
    now = panel.preview_amounts()
    assert now == _engine(plan, 4, 3000)
    assert now["1"] == money(1200, "EUR") and now["3"] == money(1500 + 480, "EUR")
    # if 10 entrants each pay the entry fee: 80 % of 100.00
    panel.preview_n.setValue(10)
    ten = panel.preview_amounts()
    assert ten == _engine(plan, 10, 10_000) and ten["1"] == money(4000, "EUR")
    assert "10" in panel.preview_basis.text()
    # with 2 entrants nobody gets the 3rd place prize
    panel.preview_n.setValue(2)
    two = panel.preview_amounts()
    assert two["1"] == _engine(plan, 2, 2000)["1"] and two["3"] == "nobody (too few entrants)"
    db.close()


def test_the_plan_is_edited_previewed_and_saved_like_night_config(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db, ev, _ids = _event(tmp_path, plan=None)
    panel = PrizesPanel(DeskState(db, DESK))
    qtbot.addWidget(panel)
    panel.show_event(ev)
    assert "Set a prize plan" in panel.preview_empty.text()  # the empty state says what to do first
    assert "Set a prize plan" in panel.awards_empty.text()
    panel.add_place_row()
    share = panel.places.cellWidget(0, 2)
    assert isinstance(share, QDoubleSpinBox)
    share.setValue(60)
    kind = panel.places.cellWidget(0, 3)
    assert isinstance(kind, QComboBox)
    kind.setCurrentIndex(kind.findData("trophy"))
    text = panel.places.cellWidget(0, 4)
    assert isinstance(text, QLineEdit)
    text.setText("Gold cup")
    panel.add_place_row()
    place = panel.places.cellWidget(1, 0)
    assert isinstance(place, QSpinBox) and place.value() == 2
    fixed = panel.places.cellWidget(1, 1)
    assert isinstance(fixed, QDoubleSpinBox)
    fixed.setValue(25)
    assert fixed.text() == money(2500, "EUR")  # typed as the prize list shows it: 25,00 €
    panel.add_category_row()
    cfixed = panel.categories.cellWidget(0, 2)
    assert isinstance(cfixed, QDoubleSpinBox)
    cfixed.setValue(5)
    panel.pool_rate.setValue(50)
    # live: 50 % of 30.00 = 15.00, 60 % of it to the winner
    assert panel.preview_amounts()["1"] == money(900, "EUR")
    assert panel.preview_amounts()["2"] == money(2500, "EUR")
    panel.refresh()  # a result confirmed meanwhile: the unsaved plan stays on screen
    assert panel.places.rowCount() == 2 and panel.pool_rate.value() == 50
    assert panel.preview_amounts()["1"] == money(900, "EUR")
    assert panel.save_plan()
    saved = json.loads(settings.night_settings(db, ev)["prize_plan"])
    assert saved["pool_rate"] == 5000
    assert saved["places"][0] == {
        "place": 1,
        "fixed": 0,
        "pool_share": 6000,
        "items": [{"kind": "trophy", "description": "Gold cup"}],
    }
    assert saved["places"][1]["fixed"] == 2500
    assert saved["categories"][0]["code"] == "women" and saved["categories"][0]["fixed"] == 500
    # the saved plan is shown again; shares above 100 %: refused next to the button, nothing written
    assert panel.places.rowCount() == 2 and panel.categories.rowCount() == 1
    share = panel.places.cellWidget(0, 2)
    assert isinstance(share, QDoubleSpinBox) and share.value() == 60
    share.setValue(100)
    share2 = panel.places.cellWidget(1, 2)
    assert isinstance(share2, QDoubleSpinBox)
    share2.setValue(10)
    assert "100%" in panel.preview_empty.text()
    assert not panel.save_plan()
    assert "100%" in panel.plan_message.text()
    assert json.loads(settings.night_settings(db, ev)["prize_plan"]) == saved
    db.close()


def test_awards_split_a_shared_place_and_a_prize_is_paid_once(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db, ev, ids = _event(tmp_path)
    seed = {e: k for k, e in enumerate(ids)}
    run_bracket(db, ev, lambda _r, a, b: a if seed[a] < seed[b] else b)
    panel = PrizesPanel(DeskState(db, DESK))
    qtbot.addWidget(panel)
    panel.show_event(ev)
    assert panel.inner.currentIndex() == 1  # the event is over: the awards first
    assert not panel.save_button.isEnabled() and "over" in panel.lock_reason.text()
    rows = {(r.place_text, r.kind): r for r in panel.awards_model.rows}
    # rule T13c: places 3-4 shared by the two semi-final losers: 15.00 + 20 % of 24.00 = 19.80 split
    assert rows[("3-4", "money")].amount == 990
    assert sorted(r.amount for r in panel.awards_model.rows if r.place_text == "3-4") == [990, 990]
    assert rows[("1", "money")].amount == 1200 and rows[("1", "trophy")].description == "Cup"
    assert panel.select_place(1)
    panel.method.setCurrentIndex(panel.method.findData("transfer"))
    assert panel.record()
    paid = [r for r in panel.awards_model.rows if r.place == 1]
    assert all(r.paid_at is not None and r.method == "transfer" and r.paid_by == "Desk" for r in paid)
    with db.session() as s:
        before = [
            (a.id, a.paid_at, a.paid_method, a.paid_by) for a in s.query(PrizeAward).order_by(PrizeAward.id)
        ]
    # rule T13e: never twice; the refusal is shown and the database is unchanged
    assert panel.select_place(1)
    panel.method.setCurrentIndex(panel.method.findData("cash"))
    assert not panel.record()
    assert "never twice" in panel.message.text()
    with db.session() as s:
        after = [
            (a.id, a.paid_at, a.paid_method, a.paid_by) for a in s.query(PrizeAward).order_by(PrizeAward.id)
        ]
    assert after == before
    assert [p.method for p in prize_payments.prize_lines(db, ev) if p.place == 1] == ["transfer", "transfer"]
    db.close()


def test_prize_list_pdf_shows_the_awards_and_payment(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from pypdf import PdfReader

    db, ev, ids = _event(tmp_path)
    seed = {e: k for k, e in enumerate(ids)}
    run_bracket(db, ev, lambda _r, a, b: a if seed[a] < seed[b] else b)
    prize_payments.pay_prize(db, DESK, ev, 1, "card")
    panel = PrizesPanel(DeskState(db, DESK))
    qtbot.addWidget(panel)
    panel.show_event(ev)
    out = tmp_path / "prizes.pdf"
    panel.save_pdf(str(out))
    qtbot.waitUntil(lambda: panel.last_result is not None, timeout=READY_MS)
    text = " ".join(p.extract_text() for p in PdfReader(str(out)).pages)
    lines = prize_payments.prize_lines(db, ev)
    for line in lines:
        assert line.name in text
    assert "unpaid" in text  # the places 2 and 3-4 are not paid yet
    db.close()


def test_empty_states_say_what_to_do_first(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db, ev, _ids = _event(tmp_path)
    panel = PrizesPanel(DeskState(db, DESK))
    qtbot.addWidget(panel)
    panel.show_event(None)
    assert "Create an event first" in panel.preview_empty.text()
    panel.show_event(ev)
    assert panel.preview_empty.text() == ""  # a plan: the preview shows its amounts
    assert "when the event ends" in panel.awards_empty.text()
    assert not panel.pay_button.isEnabled()
    db.close()
