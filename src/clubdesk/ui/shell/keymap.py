"""The keys the window binds, screen by screen, for the desk card.

:func:`collect` walks a live :class:`MainWindow`: every section, a table open for entry in the Rounds screen
and the pairing wizard, and reads what :func:`clubdesk.ui.shell.shortcuts.bindings` finds there (shortcuts and
actions; the Alt+letter of buttons and labels are underlined on screen and left off the card). Each key gets
its words from :data:`DESCRIPTIONS`; a key bound without words there is listed with an empty description
(``tests/ui/test_desk_card.py`` fails then, so that the card never misses a key nor explains it wrongly).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtWidgets import QApplication, QWidget

from clubdesk.i18n import N_, _
from clubdesk.ui.shell.sections import SECTIONS
from clubdesk.ui.shell.shortcuts import Binding, bindings

WINDOW = "window"
TABLE = "table"
WIZARD = "wizard"

# (where, key) -> what it does; "*" is any screen (the section's tabs)
DESCRIPTIONS: dict[tuple[str, str], str] = {
    (WINDOW, "F1"): N_("the user guide, at the page of this screen"),
    ("*", "F1"): N_("the user guide, at the page of this screen"),  # in the window's dialogs too
    (WINDOW, "F2"): N_("change the person acting"),
    ("*", "Ctrl+PgDown"): N_("next tab"),
    ("*", "Ctrl+PgUp"): N_("previous tab"),
    ("members", "Ctrl+F"): N_("search the register"),
    ("members", "Ctrl+N"): N_("new member"),
    ("members", "Ctrl+I"): N_("import members from a CSV file"),
    ("members", "Ctrl+E"): N_("export members to a CSV file"),
    ("members", "Ctrl+M"): N_("merge two members"),
    ("members", "Return"): N_("edit the selected member"),
    ("members", "Enter"): N_("edit the selected member"),
    ("members", "Del"): N_("deactivate the selected member"),
    ("events", "Ctrl+N"): N_("new event"),
    ("events", "Ctrl+S"): N_("save the event"),
    ("events", "Ctrl+Shift+N"): N_("new event from the selected one (next week's night)"),
    ("ratings", "Return"): N_("the player card of the selected player"),
    ("ratings", "Enter"): N_("the player card of the selected player"),
    ("ratings", "F5"): N_("refresh"),
    ("rounds", "Ctrl+P"): N_("pair the next round"),
    ("rounds", "Ctrl+T"): N_("open a table: its number or its sheet's QR code"),
    ("rounds", "Ctrl+L"): N_("the list of tables"),
    (TABLE, "Ctrl+Z"): N_("undo the last entry"),
    (TABLE, "Ctrl+Shift+Z"): N_("redo"),
    (TABLE, "Ctrl+Y"): N_("redo"),
    (TABLE, "F6"): N_("go to the sheet, to correct an entry"),
    (TABLE, "Alt+A"): N_("approval of the first side"),
    (TABLE, "Alt+B"): N_("approval of the second side"),
    (TABLE, "Ctrl+I"): N_("record an incident at this table"),
    (TABLE, "Ctrl+U"): N_("substitute a player (E7b)"),
    (TABLE, "Alt+G"): N_("the game of the encounter"),
    (WIZARD, "Del"): N_("withdraw the selected entrant"),
    (WIZARD, "Ctrl+B"): N_("bye requested / cancel"),
    (WIZARD, "Ctrl+R"): N_("pair again with the same seed"),
    (WIZARD, "Ctrl+W"): N_("swap the two selected sides"),
    ("standings", "F5"): N_("refresh"),
    ("discipline", "Ctrl+I"): N_("new incident"),
    ("discipline", "Ctrl+P"): N_("new penalty"),
    ("discipline", "Ctrl+Shift+A"): N_("new appeal"),
    ("discipline", "F5"): N_("refresh"),
}
GROUP_TITLES = {
    WINDOW: N_("Everywhere"),
    TABLE: N_("Rounds: a table open for entry"),
    WIZARD: N_("Rounds: the pairing wizard"),
}


@dataclass
class KeyGroup:
    where: str  # WINDOW, a section key, TABLE or WIZARD
    title: str  # translated
    keys: dict[str, str] = field(default_factory=dict)  # key -> translated description ("" if none)


def _is_key(b: Binding) -> bool:
    return b.what.startswith(("shortcut", "action"))  # not the mnemonics of buttons, labels and tabs


def describe(where: str, key: str) -> str:
    text = DESCRIPTIONS.get((where, key)) or DESCRIPTIONS.get(("*", key))
    return _(text) if text else ""


def _keys_under(root: QWidget, where: str, exclude: set[str]) -> dict[str, str]:
    QApplication.processEvents()
    found: dict[str, str] = {}
    for b in bindings(root):
        if _is_key(b) and b.key not in exclude:
            found.setdefault(b.key, describe(where, b.key))
    return found


def window_keys(window: QWidget) -> dict[str, str]:
    """The window's own keys: Ctrl+1 … Ctrl+9 and Ctrl+0 (the sections), F1, F2."""
    keys: dict[str, str] = {}
    for b in bindings(window):
        if _is_key(b) and b.widget is window:
            keys[b.key] = describe(WINDOW, b.key)
    for i, section in enumerate(SECTIONS):
        if i >= 10:
            break
        key = f"Ctrl+{(i + 1) % 10}"  # the tenth section: Ctrl+0 (main_window.section_digit)
        if key in keys:
            keys[key] = _(section.title)
    return keys


def collect(window) -> list[KeyGroup]:  # type: ignore[no-untyped-def]
    """Every key of the window, grouped by where it works (the window must be shown)."""
    from clubdesk.services import events as events_service

    groups = [KeyGroup(WINDOW, _(GROUP_TITLES[WINDOW]), window_keys(window))]
    common = set(groups[0].keys)
    for section in SECTIONS:
        window.show_section(section.key)
        if window.current_section() != section.key:
            continue  # hidden for this role
        groups.append(KeyGroup(section.key, _(section.title), _keys_under(window, section.key, common)))
        if section.key != "rounds":
            continue
        rounds = window.current_page()
        outside = set(groups[-1].keys) | common
        table_keys = _open_table_keys(window, rounds, outside)
        if table_keys:
            groups.append(KeyGroup(TABLE, _(GROUP_TITLES[TABLE]), table_keys))
        wizard = _wizard(window, rounds, events_service)
        if wizard is not None:
            groups.append(KeyGroup(WIZARD, _(GROUP_TITLES[WIZARD]), _wizard_keys(wizard)))
            wizard.close()
            wizard.deleteLater()
    # the keys of every screen with tabs are listed once, with the window's
    for g in groups[1:]:
        for key in [k for k in g.keys if (g.where, k) not in DESCRIPTIONS and ("*", k) in DESCRIPTIONS]:
            groups[0].keys.setdefault(key, g.keys.pop(key))
    return [g for g in groups if g.keys]


def card_rows(group: KeyGroup) -> list[tuple[list[str], str]]:
    """The group's keys as the card prints them: keys doing the same thing on one row (Return / Enter)."""
    rows: list[tuple[list[str], str]] = []
    for key, text in group.keys.items():
        same = next((r for r in rows if text and r[1] == text), None)
        if same is not None:
            same[0].append(key)
        else:
            rows.append(([key], text))
    return rows


def _open_table_keys(window, rounds, outside: set[str]) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The keys of a team table of dominoes open for entry (it has every key a table can have)."""
    from clubdesk.games import load_ruleset
    from clubdesk.services import events as events_service

    keys: dict[str, str] = {}
    events = events_service.list_events(window.state.db, include_finished=True)
    events.sort(key=lambda e: (e.entry_type != "team", load_ruleset(e.ruleset).family != "domino"))
    for ev in events:
        rounds.select_event(ev.id)
        if rounds.open_for_entry("SR") is None:
            continue
        for key, text in _keys_under(window, TABLE, outside).items():
            keys.setdefault(key, text)
        if keys:
            return keys
    return keys


def _wizard_keys(wizard) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Each page's keys, page after page (nothing is published: the last page is not finished)."""
    keys: dict[str, str] = {}
    wizard.show()
    seen: set[int] = set()
    while wizard.currentId() not in seen:
        seen.add(wizard.currentId())
        for key, text in _keys_under(wizard, WIZARD, set()).items():
            keys.setdefault(key, text)
        if wizard.currentPage().isFinalPage() or wizard.nextId() < 0:
            break
        wizard.next()
    return keys


def _wizard(window: Any, rounds: Any, events_service: Any) -> Any:
    """The pairing wizard of an event that can pair its next round, or None."""
    from clubdesk.ui.night.pairing_wizard import PairingWizard

    for ev in events_service.list_events(window.state.db):
        try:
            return PairingWizard(window.state, ev.id, window)
        except Exception:  # noqa: BLE001 - an event that cannot pair now: try the next
            continue
    return None


def write_card(window, path):  # type: ignore[no-untyped-def]
    """The desk card PDF of ``window``'s keys, in the language in force."""
    from clubdesk.reports.deskcard import write_desk_card

    groups = [(g.title, card_rows(g)) for g in collect(window)]
    return write_desk_card(
        path,
        _("ClubDesk: the keyboard at the desk"),
        _("F1 opens the user guide at the page of the screen in use."),
        groups,
    )
