"""Issue 30: F1 (and Help › User guide) opens the built guide at the page of the section in use, in the
window's language; nothing is launched (QDesktopServices.openUrl is replaced)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QDesktopServices

from clubdesk import guide
from clubdesk.ui.shell.sections import SECTIONS
from tests.waits import READY_MS

LANGUAGES = ("en", "id", "es", "tr")


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch, built_guide: Path) -> list[str]:
    monkeypatch.setenv("CLUBDESK_GUIDE_DIR", str(built_guide))
    urls: list[str] = []
    monkeypatch.setattr(
        QDesktopServices, "openUrl", staticmethod(lambda url: urls.append(url.toString()) or True)
    )
    return urls


def _target(url: str) -> tuple[Path, str]:
    parsed = urlparse(url)
    assert parsed.scheme == "file"
    return Path(unquote(parsed.path)), parsed.fragment


def test_every_section_has_a_page_that_explains_it() -> None:
    assert set(guide.SECTION_PAGES) == {s.key for s in SECTIONS}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_f1_on_each_section_opens_its_page_in_the_window_language(  # type: ignore[no-untyped-def]
    qtbot, window, opened: list[str], built_guide: Path, lang: str
) -> None:
    if lang != "en":
        window.set_language(lang)
    for section in SECTIONS:
        window.show_section(section.key)
        qtbot.keyClick(window.focusWidget() or window, Qt.Key.Key_F1)
        assert len(opened) == 1, f"F1 on {section.key} opened {opened}"
        path, anchor = _target(opened.pop())
        page, _sep, want_anchor = guide.SECTION_PAGES[section.key].partition("#")
        assert path == (built_guide / lang / page).resolve()
        assert anchor == want_anchor
        html = path.read_text(encoding="utf-8")
        assert f'lang="{lang}"' in html and f'id="{anchor}"' in html


def test_help_menu_opens_the_same_page(qtbot, window, opened: list[str], built_guide: Path) -> None:  # type: ignore[no-untyped-def]
    window.show_section("discipline")
    menu = window.help_menu  # Help › User guide (the last menu, after View)
    assert window.menuBar().actions()[-1].menu() is menu
    guide_item = next(a for a in menu.actions() if a.objectName() == "guideAction")
    assert guide_item.shortcut().toString() == "F1"
    guide_item.trigger()
    path, anchor = _target(opened.pop())
    assert path == (built_guide / "en" / "corrections.html").resolve() and anchor == "discipline"


def test_a_language_without_a_built_guide_opens_the_english_one(tmp_path: Path, built_guide: Path) -> None:
    import shutil

    shutil.copytree(built_guide / "en", tmp_path / "en")
    url = guide.page_url("rounds", "tr", tmp_path)
    assert url is not None and _target(url)[0] == (tmp_path / "en" / "first-night.html").resolve()


def test_f1_without_a_built_guide_says_so(  # type: ignore[no-untyped-def]
    qtbot, window, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CLUBDESK_GUIDE_DIR", str(tmp_path / "none"))
    urls: list[object] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: urls.append(url) or True))
    qtbot.keyClick(window.focusWidget() or window, Qt.Key.Key_F1)
    assert urls == []
    assert "scripts/dev.sh guide" in window.statusBar().currentMessage()


def test_f1_in_an_open_dialog_opens_the_page_of_its_section(  # type: ignore[no-untyped-def]
    qtbot, window, opened: list[str], built_guide: Path
) -> None:
    """A scorer in a dialog (a correction, a new event) presses F1: the guide of the section opens."""
    from PySide6.QtWidgets import QDialog, QLineEdit, QVBoxLayout

    window.show_section("events")
    dialog = QDialog(window)
    QVBoxLayout(dialog).addWidget(field := QLineEdit())
    dialog.setModal(True)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.windowHandle().requestActivate()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=READY_MS)
    field.setFocus()
    qtbot.waitUntil(field.hasFocus, timeout=READY_MS)
    qtbot.keyClick(field, Qt.Key.Key_F1)
    dialog.close()
    assert len(opened) == 1, opened
    path, _anchor = _target(opened.pop())
    page = guide.SECTION_PAGES["events"].partition("#")[0]
    assert path == (built_guide / "en" / page).resolve()


def test_f1_on_a_guide_without_its_screenshots_says_its_pictures_are_blank(  # type: ignore[no-untyped-def]
    qtbot, window, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, built_guide: Path
) -> None:
    """A wheel's guide is built without screenshots (scripts/guide.py build --placeholders): F1 opens it and
    the status bar says so."""
    import shutil

    shutil.copytree(built_guide / "en", tmp_path / "en")
    (tmp_path / "en" / guide.MISSING_PICTURES).write_text("members.png\n", encoding="utf-8")
    monkeypatch.setenv("CLUBDESK_GUIDE_DIR", str(tmp_path))
    urls: list[object] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: urls.append(url) or True))
    qtbot.keyClick(window.focusWidget() or window, Qt.Key.Key_F1)
    assert len(urls) == 1
    assert window.statusBar().currentMessage() == guide.without_pictures()


def test_a_language_without_its_catalog_is_said_in_the_status_bar(  # type: ignore[no-untyped-def]
    qtbot, window, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from clubdesk import i18n

    monkeypatch.setattr(i18n, "locale_dir", lambda: tmp_path)
    window.set_language("tr")
    assert window.statusBar().currentMessage() == i18n.missing_catalog_warning("tr")
    assert "Türkçe" in window.statusBar().currentMessage()
