"""The pairing wizard from attendance to publish, for a Swiss and a bracket (issue 12)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWizard

from clubdesk.services.desk import registration
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.services.kernel.base import Actor as A
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import results, rounds
from clubdesk.ui.night.pairing_wizard import PairingWizard
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_night_helpers import make_event, open_db
from tests.waits import READY_MS

REF = Actor("Ref", Role.REFEREE)


def run_to_publish(qtbot, wizard: PairingWizard) -> None:  # type: ignore[no-untyped-def]
    qtbot.addWidget(wizard)
    wizard.show()
    assert wizard.currentPage() is wizard.attendance
    wizard.next()
    assert wizard.currentPage() is wizard.proposal
    # the pairing runs in a worker; the page completes when it is back
    qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=READY_MS)
    wizard.next()
    assert wizard.currentPage() is wizard.preview
    wizard.next()
    assert wizard.currentPage() is wizard.tables
    wizard.next()
    assert wizard.currentPage() is wizard.publish_page
    assert wizard.validateCurrentPage()


def test_swiss_from_attendance_to_publish(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=6, rounds=3)
    wizard = PairingWizard(DeskState(db, REF), ev)
    qtbot.addWidget(wizard)
    wizard.show()
    # 6 checked in (T3a)
    assert "6 entrants" in wizard.attendance.summary.text()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=READY_MS)
    # the seed used is shown (T4a: reproducible)
    assert "seed" in wizard.proposal.seed_label.text()
    assert str(wizard.proposed.seed) in wizard.proposal.seed_label.text()
    wizard.next()
    # 6 entrants: 3 tables, each pair explained
    assert wizard.preview.table.rowCount() == 3
    assert wizard.preview.explanations.text()
    assert wizard.preview.warnings.text() == ""
    wizard.next()
    wizard.next()
    assert wizard.validateCurrentPage()
    rv = reads.get_round(db, ev, 1)
    assert rv.status == "published" and len(rv.tables) == 3


def test_manual_swap_warns_live_of_a_rematch(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[3])
    from tests.integration.test_night_helpers import DESK

    rv1 = rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    for t in rv1.tables:
        results.set_score(db, DESK, ev, 1, t.table, (3, 0), confirm=True)
    wizard = PairingWizard(DeskState(db, REF), ev)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=READY_MS)
    wizard.next()
    assert wizard.preview.warnings.text() == ""
    # swap so that round 1's opponents meet again: rule T4e (no two players meet twice) is broken
    a1, b1 = rv1.tables[0].sides
    pairs = wizard.pairs
    pos = {e: (r, c + 1) for r, p in enumerate(pairs) for c, e in enumerate(p)}
    ra, ca = pos[a1]
    partner = pairs[ra][1 if ca == 1 else 0]
    wizard.swap(pos[partner], pos[b1])
    wizard.preview.fill()
    assert wizard.preview.warnings.text() != ""
    assert rv1.tables[0].names[0] in wizard.preview.warnings.text()


def test_bracket_from_attendance_to_publish(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="single-elimination", players=6)
    wizard = PairingWizard(DeskState(db, REF), ev)
    run_to_publish(qtbot, wizard)
    rv = reads.get_round(db, ev, 1)
    # rule T4c: 6 in a bracket of 8: the top 2 seeds get byes, 2 matches are played in round 1
    assert rv.status == "published"
    played = [t for t in rv.tables if t.sides[1] is not None]
    assert len(played) == 2
    # the preview drew the bracket as a tree: 4 + 2 + 1 matches
    assert len(wizard.preview.bracket.boxes) == 7


def test_wizard_with_the_keyboard_only(qtbot, active, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="gaple-tournament", fmt="swiss", players=4, rounds=2)
    wizard = PairingWizard(DeskState(db, REF), ev)
    active(wizard)

    def enter() -> None:
        w = QApplication.focusWidget() or wizard
        qtbot.keyClick(w, Qt.Key.Key_Return)

    enter()  # attendance -> proposal
    assert wizard.currentPage() is wizard.proposal
    qtbot.waitUntil(lambda: wizard.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=READY_MS)
    enter()  # -> preview
    enter()  # -> tables
    enter()  # -> publish
    assert wizard.currentPage() is wizard.publish_page
    enter()  # finish: publish
    assert reads.get_round(db, ev, 1).status == "published"


def test_swapped_sides_are_published(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=6, rounds=3)
    wizard = PairingWizard(DeskState(db, REF), ev)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=READY_MS)
    wizard.next()
    before = list(wizard.pairs)
    # select side B of table 1 and side B of table 2, Ctrl+W swaps them (round 1: no rematch possible)
    table = wizard.preview.table
    table.clearSelection()
    for row in (0, 1):
        table.selectionModel().select(
            table.model().index(row, 2), table.selectionModel().SelectionFlag.Select
        )
    assert wizard.preview.swap_selected()
    assert wizard.preview.warnings.text() == ""
    wizard.next()
    wizard.next()
    assert wizard.validateCurrentPage(), wizard.publish_page.message.text()
    rv = reads.get_round(db, ev, 1)
    expected = [(before[0][0], before[1][1]), (before[1][0], before[0][1]), before[2]]
    assert rv.status == "published"
    assert [(t.sides[0], t.sides[1]) for t in rv.tables] == expected


def test_a_rematch_swap_is_refused_at_publish(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[3])
    from clubdesk.services.kernel.base import Role
    from clubdesk.services.night.data import reads
    from clubdesk.services.night.play import results, rounds
    from tests.integration.test_night_helpers import DESK

    rv1 = rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    for t in rv1.tables:
        results.set_score(db, DESK, ev, 1, t.table, (3, 0), confirm=True)
    wizard = PairingWizard(DeskState(db, A("Sec", Role.SECRETARY)), ev)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=READY_MS)
    wizard.next()
    proposed = list(wizard.pairs)
    wizard.pairs = [(t.sides[0], t.sides[1]) for t in rv1.tables]  # round 1 again (T4e)
    wizard.next()
    wizard.next()
    assert not wizard.validateCurrentPage()
    assert "already played" in wizard.publish_page.message.text()
    rv = reads.get_round(db, ev, 2)
    assert rv.status == "proposed" and [(t.sides[0], t.sides[1]) for t in rv.tables] == proposed


def test_requested_bye_on_the_attendance_page(qtbot, active, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=5, rounds=3)
    wizard = PairingWizard(DeskState(db, REF), ev)
    active(wizard)
    page = wizard.attendance
    assert "5 entrants" in page.summary.text()
    page.table.selectRow(0)
    qtbot.keyClick(page.table, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    # E1 sits out round 1: 4 are paired, the table shows the request
    assert "4 entrants" in page.summary.text()
    assert page.table.item(0, 3).text() == "round 1"
    wizard.next()
    qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=READY_MS)
    assert ids[0] not in {e for p in wizard.pairs for e in p}
    assert wizard.requested == [ids[0]]
    wizard.next()
    assert "Requested bye" in wizard.preview.explanations.text()


def test_a_late_check_in_makes_the_proposal_stale(qtbot, active, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 20: Enter in the check-in field checks in and stays on the page; a check-in after the proposal
    invalidates it, the page says so, and the next page pairs again with everybody (T3a)."""
    from clubdesk.models.event import Entrant as EntrantRow

    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=6, rounds=3)
    with db.session() as s:  # E5 and E6 are late: not checked in yet
        for e in s.query(EntrantRow).filter(EntrantRow.id.in_(ids[4:])):
            e.checked_in_at = None
    wizard = PairingWizard(DeskState(db, REF), ev)
    active(wizard)
    assert "4 entrants" in wizard.attendance.summary.text()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=READY_MS)
    assert len(wizard.proposed.tables) == 2
    wizard.back()
    assert wizard.currentPage() is wizard.attendance
    assert not wizard.attendance.stale.isVisible()
    # E5 arrives: the code typed and Enter checks in and does not move on
    wizard.attendance.checkin.setFocus()
    qtbot.keyClicks(wizard.attendance.checkin, f"C{ev}X4")
    qtbot.keyClick(wizard.attendance.checkin, Qt.Key.Key_Return)
    assert wizard.currentPage() is wizard.attendance
    assert "5 entrants" in wizard.attendance.summary.text()
    # the proposal made for 4 no longer holds, and the page says so
    assert wizard.stale()
    assert wizard.attendance.stale.isVisible()
    assert "paired again" in wizard.attendance.stale.text()
    # the next page pairs again: 5 entrants, E5 among them (2 tables and a bye)
    wizard.next()
    qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=READY_MS)
    assert not wizard.stale()
    paired = {e for p in wizard.pairs for e in p if e is not None}
    assert paired == set(ids[:5])
    assert reads.get_round(db, ev, 1).status == "proposed"
    assert {x for t in reads.get_round(db, ev, 1).tables for x in t.sides if x is not None} == set(ids[:5])


def test_a_late_arrival_checked_in_by_name(qtbot, active, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 36, item 7: the attendance page checks a late arrival in by a player's name; a name several
    entrants answer to is refused naming them, and they are offered to choose from."""
    from clubdesk.models.event import Entrant as EntrantRow

    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=6, rounds=3)
    with db.session() as s:  # E5 and E6 are late: not checked in yet
        for e in s.query(EntrantRow).filter(EntrantRow.id.in_(ids[4:])):
            e.checked_in_at = None
    wizard = PairingWizard(DeskState(db, REF), ev)
    active(wizard)
    field = wizard.attendance.checkin
    field.setFocus()
    qtbot.keyClicks(field, "PLAYER 5")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert wizard.currentPage() is wizard.attendance
    assert "5 entrants" in wizard.attendance.summary.text()
    qtbot.keyClicks(field, "player")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert "E6" in wizard.attendance.message.text() and "E1" in wizard.attendance.message.text()
    assert field.text() == "player"
    (label,) = [c for c in field.choices() if c.startswith("E6 ")]
    field.choose(label)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert "6 entrants" in wizard.attendance.summary.text()
    assert wizard.currentPage() is wizard.attendance


def test_publish_is_refused_while_the_proposal_is_stale(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.services.night.data import reads

    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=6, rounds=3)
    wizard = PairingWizard(DeskState(db, REF), ev)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=READY_MS)
    wizard.next()
    wizard.next()
    wizard.next()
    assert wizard.currentPage() is wizard.publish_page
    # someone withdraws at the desk while the wizard is open on the publish page
    registration.withdraw(db, REF, ev, ids[0])
    assert not wizard.validateCurrentPage()
    assert "pair it again" in wizard.publish_page.message.text()
    assert reads.get_round(db, ev, 1).status == "proposed"


def test_explanations_name_entrants_and_follow_a_manual_swap(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 20, item 5: the preview explains each pair by the entrants' names (never their internal ids)
    and explains the pairs again after a swap by hand."""
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=6, rounds=3)
    wizard = PairingWizard(DeskState(db, REF), ev)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=READY_MS)
    wizard.next()
    text = wizard.preview.explanations.text()
    # make_event names its entrants E1 … E6; their ids are not shown
    for k, e in enumerate(ids, start=1):
        assert f"E{k}" in text
        assert f" {e} plays" not in text and f"plays no. 4 {e}" not in text
    first = wizard.pairs[0]
    # swap side B of tables 1 and 2: the lines are worked out again for the new pairs
    wizard.swap((0, 2), (1, 2))
    wizard.preview.fill()
    after = wizard.preview.explanations.text()
    assert after != text
    a, b = wizard.name(wizard.pairs[0][0]), wizard.name(wizard.pairs[0][1])
    assert wizard.pairs[0] != first
    assert any(a in line and b in line for line in after.splitlines())
    # published with the swap: the round keeps the explanation of the pairs as played, not as proposed
    wizard.next()
    wizard.next()
    assert wizard.validateCurrentPage(), wizard.publish_page.message.text()
    stored = reads.get_round(db, ev, 1).explanations
    assert any(a in line and b in line for line in stored)


def test_wizard_publishes_the_match_start_for_g15(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # rule G15 (issue 19): the start time is recorded; gaple's walkover deadline is 10 minutes before it
    from datetime import datetime, timedelta

    from PySide6.QtCore import QDateTime

    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="gaple-tournament", fmt="swiss", players=4, rounds=2)
    wizard = PairingWizard(DeskState(db, REF), ev)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=READY_MS)
    page = wizard.publish_page
    page.call_at.setDateTime(QDateTime(datetime(2026, 5, 1, 19, 0)))
    page.has_start.setChecked(True)
    page.start_at.setDateTime(QDateTime(datetime(2026, 5, 1, 19, 30)))
    assert page.validatePage()
    rv = reads.get_round(db, ev, 1)
    assert rv.start_at == datetime(2026, 5, 1, 19, 30)
    assert rv.forfeit_due == datetime(2026, 5, 1, 19, 30) - timedelta(minutes=10)


def test_the_proposal_page_shows_the_tables_sides_and_why(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=7, rounds=3)
    wizard = PairingWizard(DeskState(db, REF), ev)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=READY_MS)
    page = wizard.proposal.table
    assert page.isVisibleTo(wizard)
    rows = [[page.item(r, c).text() for c in range(4)] for r in range(page.rowCount())]
    proposed = reads.get_round(db, ev)
    # every table of the proposal in table order, with both sides by name and the reason they meet
    assert [row[0] for row in rows] == [str(t.table) for t in proposed.tables] == ["1", "2", "3", "4"]
    for row, t in zip(rows, proposed.tables, strict=True):
        assert row[1] == t.names[0]
        assert row[2] == (t.names[1] or "— bye —")
        assert t.names[0] in row[3]
        assert row[2] in row[3] if t.names[1] else "bye" in row[3]
    assert not wizard.proposal.notes.isVisibleTo(wizard)  # every line belongs to one table


def test_a_round_robin_proposal_says_why_for_the_whole_round(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="round-robin", players=4, rounds=3)
    wizard = PairingWizard(DeskState(db, REF), ev)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.proposal.isComplete(), timeout=READY_MS)
    assert wizard.proposal.table.rowCount() == 2  # 4 entrants: 2 tables, each listed
    assert wizard.proposal.notes.isVisibleTo(wizard)
    assert "Berger" in wizard.proposal.notes.text()  # rule T4f: the schedule says why
