"""The pairing wizard's last step (issue 12): once the round is published, print the pairings and all score
sheets of the round, or save them as PDF, through the Reports screen's worker (``ui/shell/printing.py``)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QWizard

from clubdesk.models.event import Entrant
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.services.night.data import reads
from clubdesk.ui.night.pairing_wizard import PairingWizard
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_night_helpers import make_event, open_db
from tests.integration.test_reports_service import layout_lines, text_of
from tests.waits import READY_MS

REF = Actor("Ref", Role.REFEREE)
# entrant k is seed k + 1 (make_event rates 2000, 1990, ...)
NAMES = ("Ayşe Yılmaz", "Şükrü Işık", "Can Öz", "Deniz Ak", "İsmail Güneş", "Ñandú Pérez")


def test_save_the_published_pairings_as_pdf(qtbot, active, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=6, rounds=3)
    with db.session() as s:
        for e, name in zip(ids, NAMES, strict=True):
            s.get(Entrant, e).name = name  # type: ignore[union-attr]
    wizard = PairingWizard(DeskState(db, REF), ev)
    active(wizard)

    def enter() -> None:
        qtbot.keyClick(QApplication.focusWidget() or wizard, Qt.Key.Key_Return)

    enter()  # attendance -> proposal
    qtbot.waitUntil(lambda: wizard.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=READY_MS)
    enter()  # -> preview
    enter()  # -> tables
    enter()  # -> publish
    assert wizard.currentPage() is wizard.publish_page
    enter()  # Publish
    assert reads.get_round(db, ev, 1).status == "published"
    page = wizard.print_page
    assert wizard.currentPage() is page
    # published: there is no going back to change the pairing
    assert not wizard.button(QWizard.WizardButton.BackButton).isEnabled()
    assert page.print_sheets_button.text().replace("&", "") == "Print all score sheets of round 1"

    target = tmp_path / "round1-pairings"
    asked: list[str] = []

    def dialog(*args: object, **kwargs: object) -> tuple[str, str]:
        asked.append(str(args[2]))  # the name offered
        return str(target), "PDF files (*.pdf)"

    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)
    # Alt+A: "Save pairings as PDF…" (a mnemonic clicks its button after a short animation)
    qtbot.keyClick(page, Qt.Key.Key_A, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: bool(asked), timeout=READY_MS)
    assert asked == [f"pairings-{ev}-r1.pdf"]
    qtbot.waitUntil(lambda: page.runner.last_result is not None, timeout=READY_MS)
    out = tmp_path / "round1-pairings.pdf"  # ".pdf" added to the name typed
    assert page.runner.last_result.pdf == out and out.exists()
    assert page.progress.value() == 100 and "Saved" in page.message.text()
    assert page.save_pairings_button.isEnabled() and page.isComplete()

    assert "Pairings, round 1" in text_of(out)
    lines = layout_lines(out)
    # rule T4e: round 1 by rating, top half against bottom half: seeds 1-4, 2-5, 3-6
    for a, b in ((0, 3), (1, 4), (2, 5)):
        assert any(NAMES[a] in line and NAMES[b] in line for line in lines), (NAMES[a], NAMES[b], lines)
