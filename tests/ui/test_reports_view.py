"""The Reports screen (issue 14): save a PDF through the screen with the file dialog patched; the document is
built in a worker and the progress bar reaches 100 %; a refusal is shown in words and writes nothing; the
preview shows the rendered pages."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtWidgets import QFileDialog  # Save as PDF's dialog (ui/printing.ReportRunner.save_as)

from clubdesk.ui.publishing.reports_view import ReportsSection
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_reports_service import Club, assert_public, seeded_club, text_of
from tests.waits import READY_MS


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Club:
    c = seeded_club(tmp_path_factory, "ui-reports")
    yield c
    c.db.close()


def screen(qtbot, club: Club) -> ReportsSection:  # type: ignore[no-untyped-def]
    view = ReportsSection(DeskState(club.db))
    qtbot.addWidget(view)
    return view


def choose(view: ReportsSection, event: int, kind: str) -> None:
    view.event_box.setCurrentIndex(view.event_box.findData(event))
    view.kind.setCurrentIndex(view.kind.findData(kind))


def test_save_all_score_sheets_of_round_2(qtbot, club: Club, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    view = screen(qtbot, club)
    choose(view, club.swiss, "score-sheets")
    view.round.setValue(2)
    assert view.table.value() == 0 and view.table.specialValueText()  # "all tables"
    target = tmp_path / "round2"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "PDF files (*.pdf)"))
    steps: list[int] = []
    view.progress.valueChanged.connect(steps.append)
    view.save_button.click()
    qtbot.waitUntil(lambda: view.last_result is not None, timeout=READY_MS)
    assert view.progress.value() == 100
    assert steps and steps[-1] == 100
    out = tmp_path / "round2.pdf"  # ".pdf" added to the name typed
    assert out.exists() and view.last_result.pdf == out
    # 8 players: 4 tables, one page each
    assert len(PdfReader(out).pages) == 4
    text = text_of(out)
    assert text.count("Tavla match sheet: table") == 4 and "İsmail Güneş" in text
    assert_public(text)  # rule T14
    assert "4" in view.message.text() and view.save_button.isEnabled()


def test_refusal_is_shown_and_writes_nothing(qtbot, club: Club, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    view = screen(qtbot, club)
    choose(view, club.swiss, "bracket")  # a Swiss has no bracket
    target = tmp_path / "b.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    view.save_button.click()
    qtbot.waitUntil(
        lambda: view.save_button.isEnabled() and "bracket" in view.message.text(), timeout=READY_MS
    )
    assert not target.exists()
    assert view.progress.value() == 0


def test_cancelled_dialog_builds_nothing(qtbot, club: Club, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    view = screen(qtbot, club)
    choose(view, club.swiss, "standings")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: ("", ""))
    view.save_button.click()
    assert view.last_result is None and view.save_button.isEnabled()


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="the preview renders pages with pdftoppm")
def test_preview_shows_the_pages(qtbot, club: Club) -> None:  # type: ignore[no-untyped-def]
    view = screen(qtbot, club)
    choose(view, club.swiss, "standings")
    view.preview_button.click()
    qtbot.waitUntil(lambda: view.last_result is not None, timeout=READY_MS)
    assert view.progress.value() == 100
    assert view.preview_layout.count() == view.last_result.pages == 1
    label = view.preview_layout.itemAt(0).widget()
    # A4 at 60 dpi: 8.27 in x 60 = 496 pixels wide
    assert abs(label.pixmap().width() - 496) <= 2
    # the round and table choices only apply to the kinds that use them
    assert not view.round.isEnabled() and not view.table.isEnabled()


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="the preview renders pages with pdftoppm")
def test_the_preview_follows_the_kind_and_the_language(qtbot, club: Club) -> None:  # type: ignore[no-untyped-def]
    """A preview never shows the previous document once the kind, event or language changed."""
    view = screen(qtbot, club)
    choose(view, club.swiss, "standings")
    view.preview_button.click()
    qtbot.waitUntil(lambda: view.last_result is not None, timeout=READY_MS)
    first = view.last_result
    assert "Standings" in text_of(first.pdf)
    view.kind.setCurrentIndex(view.kind.findData("pairings"))
    view.round.setValue(1)
    qtbot.waitUntil(
        lambda: view.last_result is not first and view.runner.job is None and view.preview_layout.count() > 0,
        timeout=READY_MS,
    )
    qtbot.waitUntil(
        lambda: view.last_result is not None and "Pairings" in text_of(view.last_result.pdf), timeout=READY_MS
    )
    pairings = view.last_result
    assert "Standings" not in text_of(pairings.pdf)
    view.language.setCurrentIndex(view.language.findData("tr"))
    qtbot.waitUntil(lambda: view.last_result is not pairings and view.runner.job is None, timeout=READY_MS)
    assert "Eşleşmeler" in text_of(view.last_result.pdf)
    assert view.preview_layout.count() == view.last_result.pages
