"""Languages complete at run time: the language switched live in Settings reaches every section, its tabs and
the main dialogs and wizard pages (Qt's own buttons included); no text shown is a word of another language
(an English msgid left untranslated, or another catalog's translation)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

import pytest
from babel.messages.pofile import read_po
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QTabBar,
    QTabWidget,
    QWidget,
    QWizard,
)

from clubdesk import i18n, labels
from clubdesk.services import events
from clubdesk.ui.shell.qt_i18n import OWN_CATALOGS, install_qt_translator
from tests.waits import READY_MS

LANGS = ("id", "es", "tr")
STORED_KEYS = (
    labels.FORMAT_LABELS,
    labels.ENTRY_TYPE_LABELS,
    labels.EVENT_STATUS_LABELS,
    labels.ENTRANT_STATUS_LABELS,
    labels.TABLE_STATUS_LABELS,
    labels.ROUND_STATUS_LABELS,
    labels.PAYMENT_METHOD_LABELS,
    labels.APPEAL_STATUS_LABELS,
    labels.CLASS_LABELS,
)
# pieces of a text checked on their own: "name · game · date", "Table 3 (in play)", "Round: 2"
MAJOR = re.compile(r"\s*(?:·|\||\n)\s*")
SPLIT = re.compile(r"\s*(?:, |\(|\)|: |—\s|\s—)\s*")
TAG = re.compile(r"<[^>]+>")
CELL_ROWS = 40  # the first rows of each list are enough to see its words


def _plain(text: str) -> str:
    return TAG.sub("", text).replace("&&", "\0").replace("&", "").replace("\0", "&").strip()


@cache
def _catalog(lang: str) -> dict[str, str]:
    """msgid -> msgstr of ``lang`` (every plural form's msgid and msgstr)."""
    with (i18n.locale_dir() / lang / "LC_MESSAGES" / "clubdesk.po").open("rb") as fh:
        cat = read_po(fh, locale=lang)
    out: dict[str, str] = {}
    for msg in cat:
        if not msg.id or msg.fuzzy:
            continue
        ids = msg.id if isinstance(msg.id, tuple) else (msg.id,)
        strs = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        for k, msgid in enumerate(ids):
            out[_plain(msgid)] = _plain(strs[min(k, len(strs) - 1)] or msgid)
    return out


@cache
def foreign_words(lang: str) -> frozenset[str]:
    """Whole texts that belong to another language than ``lang``: the English msgids and the other catalogs'
    translations, less every text ``lang`` itself shows (its translations, and its words the same as
    English). Texts with a placeholder are left out (they are shown filled in)."""
    english = set(_catalog("id"))
    own = set(english) if lang == "en" else set(_catalog(lang).values())
    others = set().union(*(set(_catalog(o).values()) for o in LANGS if o != lang))
    found = english | others if lang != "en" else others
    if lang == "en":  # a preset's name as its file writes it, in the game's home language ("Tavla — turnuva")
        own -= {_catalog(o).get(name, name) for o in LANGS for name in labels.RULESET_NAMES.values()}
    # a stored key shown as it is stored ("registered", "round-robin", "no_show") instead of its label
    found |= {key for table in STORED_KEYS for key, label in table.items() if key != label}
    if lang != "en":  # Qt's own English words (the wizard's "< Back", "Next >", a button box's "Cancel")
        qt_words = OWN_CATALOGS["id"].items()
        found |= {_plain(src) for (_ctx, src), word in qt_words if _plain(word) != _plain(src)}
    return frozenset(t for t in found - own if len(t) > 3 and "{" not in t and "%" not in t and t.strip())


PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@cache
def foreign_templates(lang: str) -> re.Pattern[str] | None:
    """The English texts with a placeholder ("Event in use: {event}") that ``lang`` words otherwise, as one
    pattern matching a whole text shown untranslated."""
    if lang == "en":
        return None
    own = _catalog(lang)
    branches = []
    for msgid, msgstr in own.items():
        literal = PLACEHOLDER.sub("", msgid)
        if "{" not in msgid or msgstr == msgid or len(literal.strip()) < 6:
            continue
        parts = PLACEHOLDER.split(msgid)
        branches.append(".+?".join(re.escape(part) for part in parts))
    return re.compile("|".join(f"(?:{b})" for b in branches)) if branches else None


def texts_of(root: QWidget) -> set[str]:
    """Every text a person sees in ``root`` (visible widgets, list headers and first cells, combo items)."""
    out: set[str] = set()
    widgets = [root, *root.findChildren(QWidget)]
    for w in widgets:
        if not w.isVisible():
            continue
        if isinstance(w, QLabel):
            out.add(w.text())
        elif isinstance(w, QAbstractButton):
            out.add(w.text())
            out.add(w.toolTip())
        elif isinstance(w, QGroupBox):
            out.add(w.title())
        elif isinstance(w, QLineEdit):
            out.add(w.placeholderText())
        elif isinstance(w, QComboBox):
            out |= {w.itemText(i) for i in range(w.count())}
        elif isinstance(w, QTabBar):
            out |= {w.tabText(i) for i in range(w.count())}
        elif isinstance(w, QListWidget):
            out |= {w.item(i).text() for i in range(w.count())}
        if isinstance(w, QAbstractItemView) and w.model() is not None:
            model = w.model()
            top = QModelIndex()
            columns = 1 if isinstance(w, QListView) else model.columnCount(top)
            for c in range(columns):
                out.add(str(model.headerData(c, Qt.Orientation.Horizontal) or ""))
                for r in range(min(model.rowCount(top), CELL_ROWS)):
                    out.add(str(model.data(model.index(r, c, top)) or ""))
        if w.isWindow():
            out.add(w.windowTitle())
    return {t for t in out if t}


def strangers(texts: Iterable[tuple[str, str]], lang: str) -> set[str]:
    """The texts (or pieces of them) that are words of another language than ``lang``, with where."""
    foreign = foreign_words(lang)
    templates = foreign_templates(lang)
    found = set()
    for where, text in texts:
        plain = _plain(text)
        if templates is not None and templates.fullmatch(plain):
            found.add(f"{where}: untranslated {plain[:90]!r}")
        parts = MAJOR.split(plain)
        for piece in [plain, *parts, *(p for part in parts for p in SPLIT.split(part))]:
            if piece.strip() in foreign:
                found.add(f"{where}: {piece.strip()!r} in {plain[:90]!r}")
    return found


def _every_tab(window, where: str) -> set[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """The section in front, tab after tab: (where, text)."""
    page = window.current_page()
    texts = texts_of(window)
    for tabs in page.findChildren(QTabWidget):
        for k in range(tabs.count()):
            tabs.setCurrentIndex(k)
            QApplication.processEvents()
            texts |= texts_of(window)
    return {(where, t) for t in texts}


def _dialogs(window) -> list[QWidget]:  # type: ignore[no-untyped-def]
    """The main dialogs, built the way their screens build them (shown, not run modally)."""
    from clubdesk.ui.members.member_dialog import MemberDialog
    from clubdesk.ui.night.pairing_wizard import PairingWizard
    from clubdesk.ui.publishing.projector import open_projector
    from clubdesk.ui.publishing.share_dialog import ShareDialog
    from clubdesk.ui.shell.actor_dialog import ActorDialog

    state = window.state
    event_id = state.event_in_use
    window.show_section("discipline")
    discipline = window.current_page()
    made: list[QWidget] = [
        MemberDialog(state, None, window),
        ActorDialog(state, window),
        ShareDialog(state, event_id, "standings", None, window),
    ]
    for build in (discipline.incident_dialog, discipline.penalty_dialog, discipline.appeal_dialog):
        dialog = build()
        if dialog is not None:
            made.append(dialog)
    pairable = next(
        (e.id for e in events.events_in_order(state.db) if e.name == "Demo night: Gaple Open League"), None
    )
    if pairable is not None:
        made.append(PairingWizard(state, pairable, window))
    control = open_projector(window, ask_screen=False)
    if control is not None:
        made.append(control)
    return made


def _dialog_texts(dialog: QWidget) -> set[str]:
    dialog.show()
    QApplication.processEvents()
    texts = texts_of(dialog)
    if isinstance(dialog, QWizard):  # every page, the wizard's own buttons too
        seen: set[int] = set()
        while dialog.currentId() not in seen and dialog.currentId() >= 0:
            seen.add(dialog.currentId())
            page = dialog.currentPage()
            if hasattr(page, "isComplete") and not page.isComplete():
                from PySide6.QtTest import QTest

                deadline = 0
                while not page.isComplete() and deadline < READY_MS // 20:
                    QTest.qWait(20)
                    deadline += 1
            texts |= texts_of(dialog)
            if page.isFinalPage() or dialog.nextId() < 0:
                break
            dialog.next()
    return texts


def switch_live(window, qtbot, lang: str) -> None:  # type: ignore[no-untyped-def]
    """Settings › Language, saved: the window switches without a restart."""
    window.show_section("settings")
    page = window.pages["settings"]
    page.language.setCurrentIndex(page.language.findData(lang))
    assert page.save() is True
    qtbot.waitUntil(
        lambda: i18n.current_language() == lang and window.pages["settings"] is not page, timeout=READY_MS
    )
    QApplication.processEvents()  # Qt's LanguageChange, posted to the windows by the switch


def everything_shown(window) -> set[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """Every section and tab, the status bar, the menus, the main dialogs and every wizard page."""
    seen: set[tuple[str, str]] = set()
    for key in list(window.pages):
        window.show_section(key)
        seen |= _every_tab(window, key)
    season = window.pages["season"]  # every season: the demo's 2026 one has classes (local, regional)
    window.show_section("season")
    for k in range(season.season_box.count()):
        season.season_box.setCurrentIndex(k)
        seen |= {(f"season {k}", t) for t in texts_of(season)}
    seen |= {("status bar", t) for t in texts_of(window.statusBar())}
    for action in window.menuBar().actions():
        seen.add(("menu", action.text()))
        menu = action.menu()
        if menu is not None:
            seen |= {("menu", a.text()) for a in menu.actions()}
    for dialog in _dialogs(window):
        name = dialog.objectName() or type(dialog).__name__
        seen |= {(name, t) for t in _dialog_texts(dialog)}
        dialog.close()
    return seen


@pytest.mark.parametrize("lang", [*LANGS, "en"])
def test_a_live_switch_leaves_no_word_of_another_language(window, qtbot, lang: str) -> None:  # type: ignore[no-untyped-def]
    window.resize(1366, 768)
    from clubdesk.ui.publishing.projector import open_projector

    open_projector(window, ask_screen=False)  # open while the language switches: it follows
    try:
        switch_live(window, qtbot, "tr" if lang == "en" else lang)
        if lang == "en":  # and back to English, live too
            switch_live(window, qtbot, "en")
        shown = everything_shown(window)
        assert any(where == "pairingWizard" for where, _text in shown)  # the wizard's pages were read
        found = sorted(strangers(shown, lang))
        assert found == [], "\n".join(found)
    finally:
        i18n.set_language("en")
        install_qt_translator(QApplication.instance(), "en")


def test_the_check_finds_the_words_of_another_language(window) -> None:  # type: ignore[no-untyped-def]
    """The English window read as if it were Turkish: its English words are found (the check can fail)."""
    found = strangers({("members", t) for t in texts_of(window)}, "tr")
    assert any("'Members'" in line for line in found)
    assert strangers({("x", "Event in use: Demo · Tavla — tournament · 2026-12-07")}, "en") == set()
    assert strangers({("x", "Demo · Tavla — turnuva")}, "en")  # a Turkish preset name in English
    assert strangers({("x", "Liguilla · Turnamen")}, "tr")  # Spanish and Indonesian words in a Turkish window
    assert strangers({("x", "Event in use: Demo · Tavla — tournament")}, "es")  # a filled-in English text


def test_qt_words_in_indonesian_come_from_our_own_catalog(qtbot) -> None:  # type: ignore[no-untyped-def]
    """PySide6 ships no qtbase_id: the wizard's and the button boxes' words come from ClubDesk's catalog,
    and go when the window goes back to English."""
    from PySide6.QtWidgets import QDialogButtonBox, QWizardPage

    app = QApplication.instance()
    try:
        assert install_qt_translator(app, "id") is True
        wizard = QWizard()
        qtbot.addWidget(wizard)
        wizard.addPage(QWizardPage())
        wizard.addPage(QWizardPage())
        wizard.show()
        shown = {
            wizard.button(b).text()
            for b in (QWizard.WizardButton.BackButton, QWizard.WizardButton.NextButton)
        }
        assert shown == {"< &Kembali", "&Lanjut >"}
        assert wizard.button(QWizard.WizardButton.CancelButton).text() == "Batal"
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        qtbot.addWidget(box)
        assert {b.text() for b in box.buttons()} == {"Simpan", "Batal"}
    finally:
        install_qt_translator(app, "en")
    assert QApplication.translate("QPlatformTheme", "Cancel") == "Cancel"
