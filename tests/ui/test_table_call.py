"""Alarms that are true: a round published without a typed call time is called after the night's call
notice, and the Rounds screen warns that waiting tables can be forfeited only once the waiting time of
T3b (tavla, after the call) or G15 (gaple, before the start; the call when no start is recorded) has
really passed."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QDateTime

from clubdesk.services import night
from clubdesk.services.night.data import reads, settings
from clubdesk.services.night.play import rounds
from clubdesk.storage import Database
from clubdesk.ui.night.pairing_wizard import PairingWizard
from clubdesk.ui.night.rounds_section import RoundsSection
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_night_helpers import DESK, REF, make_event, open_db

NOTICE = 15  # the night's call notice (call_minutes)


def published(tmp_path: Path, ruleset: str) -> tuple[Database, int]:
    db = open_db(tmp_path)
    if ruleset == "tavla":
        ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=2, match_lengths=[3])
    else:
        ev, _ids = make_event(db, ruleset=ruleset, fmt="swiss", players=4, rounds=2)
    settings.configure(db, DESK, ev, call_minutes=NOTICE)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)  # no call time typed
    return db, ev


@pytest.mark.parametrize(("ruleset", "rule"), [("gaple-tournament", "G15"), ("tavla", "T3b")])
def test_no_forfeit_warning_before_the_waiting_time(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str, rule: str
) -> None:
    before = reads.local_now()
    db, ev = published(tmp_path, ruleset)
    rv = reads.get_round(db, ev, 1)
    assert rv.call_at is not None and rv.forfeit_rule == rule
    # the call is the publication plus the night's notice, not the publication itself
    assert before + timedelta(minutes=NOTICE) <= rv.call_at <= reads.local_now() + timedelta(minutes=NOTICE)
    section = RoundsSection(DeskState(db, REF))
    qtbot.addWidget(section)
    section.select_event(ev)
    # right after the publication: a countdown, no "time is up"
    assert "forfeit of absent sides in" in section.call_label.text()
    assert "time is up" not in section.call_label.text()
    due = section.call_due_at()
    # T3b: the notice after the call; G15 without a start time: the call is the start, warned from the call
    assert due == rv.call_at + timedelta(minutes=NOTICE if rule == "T3b" else 0)
    # a minute before the waiting time has passed: still no alarm; at the time: the alarm
    monkeypatch.setattr(night, "local_now", lambda: due - timedelta(minutes=1))
    section._tick()
    assert "time is up" not in section.call_label.text()
    monkeypatch.setattr(night, "local_now", lambda: due)
    section._tick()
    assert "time is up: 2 tables waiting can be forfeited" in section.call_label.text()


def test_the_wizard_offers_the_call_after_the_notice(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="gaple-tournament", fmt="swiss", players=4, rounds=2)
    settings.configure(db, DESK, ev, call_minutes=NOTICE)
    wizard = PairingWizard(DeskState(db, REF), ev)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=5000)
    while wizard.currentPage() is not wizard.publish_page:
        wizard.next()
    offered = wizard.publish_page.call_at.dateTime().toPython()
    assert isinstance(offered, datetime)
    now = QDateTime.currentDateTime().toPython()
    assert isinstance(now, datetime)
    assert abs(offered - (now + timedelta(minutes=NOTICE))) < timedelta(minutes=1)
    assert wizard.validateCurrentPage(), wizard.publish_page.message.text()
    assert reads.get_round(db, ev, 1).call_at == offered
