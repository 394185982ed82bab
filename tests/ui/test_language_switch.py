"""Switching the language in Settings (issue 17, item 5): the whole window changes at once, no restart,
and the choice is kept in this database."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from PySide6.QtWidgets import QApplication, QLabel, QListWidget, QPushButton

from clubdesk import i18n
from clubdesk.services.club import settings
from clubdesk.services.kernel.base import Actor
from clubdesk.storage import Database
from clubdesk.ui.shell.main_window import MainWindow
from clubdesk.ui.shell.qt_i18n import install_qt_translator
from clubdesk.ui.shell.state import DeskState
from tests.ui.conftest import show_active
from tests.waits import READY_MS

PLACEHOLDER = "Open a table: type its number or scan its sheet, then Enter."
# used only while the real Turkish catalog is not in resources/locale (words of seed 003: tur, ayarlar)
TINY = {
    "Members": "Üyeler",
    "Rounds": "Turlar",
    "Settings": "Ayarlar",
    "Reports": "Raporlar",
    PLACEHOLDER: "Bir masa açın: numarasını yazın ya da kâğıdını okutun, sonra Enter.",
}


@pytest.fixture
def turkish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The Turkish words of the catalog in use: the real one when it is there, else a tiny test catalog."""
    po = i18n.locale_dir() / "tr" / "LC_MESSAGES" / "clubdesk.po"
    if po.is_file():
        with po.open("rb") as fh:
            cat = read_po(fh, locale="tr")
        return {k: str(cat[k].string) for k in TINY}
    catalog = Catalog(locale="tr", domain="clubdesk")
    for k, v in TINY.items():
        catalog.add(k, v)
    target = tmp_path / "locale" / "tr" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "clubdesk.mo").open("wb") as fh:
        write_mo(fh, catalog)
    monkeypatch.setattr(i18n, "locale_dir", lambda: tmp_path / "locale")
    return TINY


def test_settings_switches_the_window_to_turkish_without_a_restart(  # type: ignore[no-untyped-def]
    qtbot, db: Database, turkish: dict[str, str]
) -> None:
    window = MainWindow(DeskState(db))
    show_active(qtbot, window)
    nav = window.findChild(QListWidget, "navigation")
    assert nav.item(0).text() == "Members"
    window.show_section("settings")
    page = window.pages["settings"]
    page.language.setCurrentIndex(page.language.findData("tr"))
    try:
        assert page.save() is True
        qtbot.waitUntil(lambda: nav.item(0).text() == turkish["Members"], timeout=READY_MS)
        titles = [nav.item(i).text() for i in range(nav.count())]
        assert turkish["Rounds"] in titles and turkish["Settings"] in titles and "Members" not in titles
        assert window.current_section() == "settings"  # the secretary stays where she was
        assert window.pages["settings"] is not page  # the Settings screen itself was rebuilt in Turkish
        window.show_section("rounds")
        rounds = window.pages["rounds"]
        shown = [w.text() for w in rounds.findChildren(QLabel) + rounds.findChildren(QPushButton)]
        assert turkish[PLACEHOLDER] in shown and PLACEHOLDER not in shown
        # Qt's own buttons follow (qtbase_tr ships with PySide6)
        assert QApplication.translate("QPlatformTheme", "Cancel") == "İptal"
        # kept in this database: the next start opens in Turkish
        assert settings.club_settings(db).language == "tr"
    finally:
        i18n.set_language("en")
        install_qt_translator(QApplication.instance(), "en")


def test_the_language_is_per_database(tmp_path: Path) -> None:
    from clubdesk.services.club import settings

    one, two = Database(tmp_path / "a.sqlite3"), Database(tmp_path / "b.sqlite3")
    settings.save_club_settings(one, Actor("AB"), "Kadıköy Tavla", None, "tr")
    settings.save_club_settings(two, Actor("AB"), "Peña Dominó", None, "es")
    assert settings.club_settings(one).language == "tr"
    assert settings.club_settings(two).language == "es"
    one.close()
    two.close()


def test_pseudo_locale_on_the_demo_club_asks_only_for_extracted_strings(  # type: ignore[no-untyped-def]
    qtbot, demo_db: tuple[Database, object]
) -> None:
    """With the demo club's events, rounds and audit rows on screen, every string the screens translate
    (table cells, statuses, formats, audit actions included) is in the template, and every section's labels
    and buttons are marked."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QTableView

    from clubdesk.i18n_tools import template_ids

    db, _result = demo_db
    i18n.set_language("xx")
    i18n.pseudo_seen(clear=True)
    window = MainWindow(DeskState(db))
    show_active(qtbot, window)
    unmarked = []
    for key, page in window.pages.items():
        window.show_section(key)
        for w in page.findChildren(QLabel) + page.findChildren(QPushButton):
            if w.isVisibleTo(page) and w.text().strip() and "⟦" not in w.text():
                unmarked.append((key, w.text()))
        for view in page.findChildren(QTableView):
            model = view.model()
            for r in range(min(model.rowCount(), 20)):
                for c in range(model.columnCount()):
                    model.data(model.index(r, c), Qt.ItemDataRole.DisplayRole)
                    model.data(model.index(r, c), Qt.ItemDataRole.ToolTipRole)
    # the score entry of a table of every demo event (gaple, dominoes, tavla; each format)
    window.show_section("rounds")
    rounds = window.pages["rounds"]
    opened = 0
    for ev in range(1, 10):
        rounds.select_event(ev)
        panel = rounds.open_table(1)
        if panel is None:
            continue
        opened += 1
        for w in panel.findChildren(QLabel) + panel.findChildren(QPushButton):
            if w.isVisibleTo(panel) and w.text().strip() and "⟦" not in w.text():
                unmarked.append((f"table 1 of event {ev}", w.text()))
    assert opened >= 5
    assert sorted(i18n.pseudo_seen() - template_ids()) == []
    # labels that show data (a name, a number, a file) are not marked: only words may not slip through
    assert [t for t in unmarked if any(ch.isalpha() for ch in t[1]) and " " in t[1]] == []
