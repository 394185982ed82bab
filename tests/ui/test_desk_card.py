"""Issue 30: the desk card lists exactly the keys the window binds (read back from the PDF), each with its
words, on one page, in the window's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtWidgets import QApplication

from clubdesk.i18n import _
from clubdesk.services.events import events
from clubdesk.ui.night.pairing_wizard import PairingWizard
from clubdesk.ui.shell import keymap
from clubdesk.ui.shell.sections import SECTIONS
from clubdesk.ui.shell.shortcuts import bindings

KEY = r"(?:(?:Ctrl|Alt|Shift)\+)*(?:F\d{1,2}|PgDown|PgUp|Return|Enter|Del|[A-Z0-9])"
ROW = re.compile(rf"^\s*({KEY}(?: / {KEY})*)(?:\s|$)")


def _keys(root) -> set[str]:  # type: ignore[no-untyped-def]
    QApplication.processEvents()
    return {b.key for b in bindings(root) if b.what.startswith(("shortcut", "action"))}


def bound_keys(window) -> set[str]:  # type: ignore[no-untyped-def]
    """Every key the window binds: each section, a table open for entry, each page of the pairing wizard."""
    keys = _keys(window)
    for section in SECTIONS:
        window.show_section(section.key)
        keys |= _keys(window)
    rounds = window.pages["rounds"]
    window.show_section("rounds")
    for ev in events.list_events(window.state.db, include_finished=True):
        rounds.select_event(ev.id)
        if rounds.round is None:
            continue
        for table in rounds.round.tables:
            if table.sides[1] is None:
                continue
            panel = rounds.open_table(table.table)
            if panel is not None and panel.form is None:
                panel.initials.setText("SR")
                panel._initials_given()
            keys |= _keys(window)
    for ev in events.list_events(window.state.db):
        try:
            wizard = PairingWizard(window.state, ev.id, window)
        except Exception:  # noqa: BLE001 - this event cannot pair now
            continue
        wizard.show()
        for _page in range(len(wizard.pageIds())):
            keys |= _keys(wizard)
            if wizard.nextId() < 0:
                break
            wizard.next()
        wizard.close()
    return keys


def card_keys(pdf: Path) -> tuple[set[str], str, int]:
    reader = PdfReader(str(pdf))
    text = "\n".join(page.extract_text() for page in reader.pages)
    keys: set[str] = set()
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            keys |= set(m.group(1).split(" / "))
    return keys, text, len(reader.pages)


def test_the_card_lists_exactly_the_keys_the_window_binds(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pdf = keymap.write_card(window, tmp_path / "card.pdf")
    printed, text, pages = card_keys(pdf)
    bound = bound_keys(window)
    assert {"F1", "F2", "Ctrl+1", "Ctrl+8", "Ctrl+P", "Ctrl+T", "F6", "Ctrl+Z"} <= bound
    assert printed == bound
    assert pages == 1


def test_every_key_on_the_card_says_what_it_does(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    groups = keymap.collect(window)
    silent = [(g.where, k) for g in groups for k, text in g.keys.items() if not text]
    assert silent == [], "a key without words: add it to keymap.DESCRIPTIONS (and translate it)"
    everywhere = groups[0].keys
    assert everywhere["Ctrl+4"] == _("Rounds") and everywhere["F1"]


@pytest.mark.parametrize("lang", ["tr", "es"])
def test_the_card_is_in_the_window_language(qtbot, window, tmp_path: Path, lang: str) -> None:  # type: ignore[no-untyped-def]
    window.set_language(lang)
    QApplication.processEvents()
    pdf = keymap.write_card(window, tmp_path / f"card-{lang}.pdf")
    printed, text, _pages = card_keys(pdf)
    flat = " ".join(text.split())
    assert _("change the person acting") != "change the person acting"  # the catalog has it
    assert _("change the person acting") in flat
    assert _("Members") in flat
    assert "F2" in printed
