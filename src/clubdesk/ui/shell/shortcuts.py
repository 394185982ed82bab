"""One keyboard map without clashes.

The window owns Ctrl+1 … Ctrl+0 (the sidebar's sections) and F2 (the acting person); a section's own keys
never repeat them. Inside a section, tabs move with Ctrl+PgDown / Ctrl+PgUp (and their Alt+letter), Tab
leaves a table for the next field, and opening a section puts the focus in its first field.

:func:`bindings` lists every key that can fire now in a window (shortcuts, actions and the Alt+letter
mnemonics of visible buttons, labels and tabs); :func:`clashes` finds two that would fire for the same
keystroke (Qt then fires neither).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QWidget,
)

Context = Qt.ShortcutContext


@dataclass(frozen=True)
class Binding:
    key: str  # portable text, e.g. "Ctrl+1", "Alt+E"
    context: Context
    widget: QWidget  # where it lives (its context is relative to this widget)
    what: str  # for messages: the object that owns it

    def covers(self, other: Binding) -> bool:
        """Both fire for the same keystroke somewhere (a focus exists where both match)."""
        if self.key != other.key:
            return False
        a, b = self, other
        window = (Context.WindowShortcut, Context.ApplicationShortcut)
        if a.context in window or b.context in window:
            return True
        if (
            a.context == Context.WidgetWithChildrenShortcut
            and b.context == Context.WidgetWithChildrenShortcut
        ):
            return a.widget is b.widget or a.widget.isAncestorOf(b.widget) or b.widget.isAncestorOf(a.widget)
        if a.context == Context.WidgetShortcut and b.context == Context.WidgetShortcut:
            return a.widget is b.widget
        wide, narrow = (a, b) if a.context == Context.WidgetWithChildrenShortcut else (b, a)
        return wide.widget is narrow.widget or wide.widget.isAncestorOf(narrow.widget)


def _mnemonic(text: str) -> str | None:
    i = 0
    while True:
        i = text.find("&", i)
        if i < 0 or i + 1 >= len(text):
            return None
        if text[i + 1] != "&":
            return "Alt+" + text[i + 1].upper()
        i += 2


def _live(w: QWidget) -> bool:
    return w.isVisible() and w.isEnabled()


def _owner(obj: QObject) -> QWidget | None:
    parent = obj.parent()
    while parent is not None and not isinstance(parent, QWidget):
        parent = parent.parent()
    return parent


def bindings(root: QWidget) -> list[Binding]:
    """Every key that can fire now under ``root``'s window (hidden sections' keys cannot)."""
    out: list[Binding] = []
    for sc in root.findChildren(QShortcut):
        w = _owner(sc)
        if w is None or not sc.isEnabled() or not _live(w):
            continue
        for seq in sc.keys() or [sc.key()]:
            key_text = seq.toString(QKeySequence.SequenceFormat.PortableText)
            if key_text:
                out.append(
                    Binding(key_text, sc.context(), w, f"shortcut on {type(w).__name__} {w.objectName()!r}")
                )
    for w in [root, *root.findChildren(QWidget)]:
        if not _live(w):
            continue
        for action in w.actions():
            if not isinstance(action, QAction) or not action.isEnabled():
                continue
            for seq in action.shortcuts():
                action_key = seq.toString(QKeySequence.SequenceFormat.PortableText)
                if action_key:
                    out.append(
                        Binding(
                            action_key,
                            action.shortcutContext(),
                            w,
                            f"action {action.text()!r} on {type(w).__name__}",
                        )
                    )
        text: str | None = None
        if isinstance(w, QAbstractButton):
            text = w.text()
        elif isinstance(w, QLabel) and w.buddy() is not None:
            text = w.text()
        elif isinstance(w, QGroupBox):
            text = w.title()
        if text and (key := _mnemonic(text)):
            out.append(Binding(key, Context.WindowShortcut, w, f"{type(w).__name__} {text!r}"))
        if isinstance(w, QTabBar):
            for k in range(w.count()):
                if w.isTabVisible(k) and w.isTabEnabled(k) and (key := _mnemonic(w.tabText(k))):
                    out.append(Binding(key, Context.WindowShortcut, w, f"tab {w.tabText(k)!r}"))
    return out


def clashes(items: list[Binding]) -> list[tuple[Binding, Binding]]:
    found: list[tuple[Binding, Binding]] = []
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            if a.covers(b) and not (a.widget is b.widget and a.what == b.what):
                found.append((a, b))
    return found


FIELD_TYPES = (QLineEdit, QComboBox, QAbstractSpinBox, QAbstractItemView, QPlainTextEdit, QTextEdit)


def first_field(page: QWidget) -> QWidget | None:
    """The first field of a screen in Tab order (an input, a list or a table), visible and enabled."""
    w = page.nextInFocusChain()
    seen: set[int] = set()
    while w is not None and id(w) not in seen:
        seen.add(id(w))
        if page.isAncestorOf(w) and isinstance(w, FIELD_TYPES) and _live(w):
            if w.focusPolicy() & Qt.FocusPolicy.TabFocus:
                return w
        w = w.nextInFocusChain()
    return None


def tab_pages(tabs: QTabWidget, scope: QWidget | None = None) -> None:
    """Ctrl+PgDown / Ctrl+PgUp move between ``tabs``' pages wherever the focus is inside ``scope`` (the
    section holding them; the tabs themselves by default)."""
    for keys, step in (("Ctrl+PgDown", 1), ("Ctrl+PgUp", -1)):
        sc = QShortcut(QKeySequence(keys), scope or tabs)
        sc.setContext(Context.WidgetWithChildrenShortcut)
        sc.activated.connect(
            lambda step=step: tabs.setCurrentIndex((tabs.currentIndex() + step) % tabs.count())
        )


def leave_tables_by_tab(root: QWidget) -> None:
    """Tab moves on from a table to the next field instead of from cell to cell."""
    for view in root.findChildren(QAbstractItemView):
        view.setTabKeyNavigation(False)
