"""Every letter whole (a tab not selected reads "İtirazlar", never "Itirazlar"): every tab bar and
table header of every section, in Turkish, Spanish and Indonesian, at 100 % and 150 %, has as many rows of ink
as its text drawn freely: no dot of İ, Ö or Ñ and no descender clipped."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from clubdesk import i18n
from clubdesk.storage import Database
from clubdesk.ui.shell.main_window import MainWindow
from clubdesk.ui.shell.sections import SECTIONS
from clubdesk.ui.shell.state import DeskState
from tests.ui.conftest import show_active
from tests.ui.scaled import at_150_percent
from tests.ui.whole_letters import clipped, labels

LANGS = ("tr", "es", "id")


def walk(window: MainWindow) -> tuple[list[str], int]:
    """Visit every section; the clipped labels found and how many labels were looked at."""
    found: list[str] = []
    seen = 0
    for section in SECTIONS:
        window.show_section(section.key)
        QApplication.processEvents()
        page = window.pages.get(section.key)
        if page is None:
            continue
        seen += sum(1 for _ in labels(page))
        found += [f"{section.key}: {line}" for line in clipped(page)]
    return found, seen


@pytest.mark.parametrize("lang", LANGS)
def test_no_tab_or_header_letter_is_clipped(qtbot, demo_file: Path, tmp_path: Path, lang: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "demo.sqlite3"
    shutil.copy(demo_file, path)
    db = Database(path)
    i18n.set_language(lang)
    try:
        window = MainWindow(DeskState(db))
        window.resize(1366, 768)
        show_active(qtbot, window)
        found, seen = walk(window)
        window.close()
    finally:
        i18n.set_language("en")
        db.close()
    assert seen > 20  # the walk really looked at the tab bars and headers
    assert found == []


def test_no_letter_is_clipped_at_150_percent(demo_file: Path, tmp_path: Path) -> None:
    result = at_150_percent(demo_file, tmp_path, "tests.ui.test_whole_letters:walk", (1280, 720), LANGS)
    for lang in LANGS:
        found, seen = result[lang]
        assert seen > 20, lang
        assert found == [], (lang, found)
