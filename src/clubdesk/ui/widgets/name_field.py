"""A field where a member or entrant is asked for by name: as the user types, a list offers the
matching names (accent-insensitive: "sukru" finds "Şükrü"); choosing one puts the name in the field and
:meth:`NameField.value` gives the services what they take (a member number, a check-in code). A number,
code, phone or QR typed as before still works: ``value()`` is then the text itself."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QCompleter, QLineEdit, QWidget

from clubdesk.services.desk import Choice
from clubdesk.services.kernel import ServiceError

Lookup = Callable[[str], Sequence[Choice]]
MIN_CHARS = 2  # letters typed before names are offered


class NameField(QLineEdit):
    # a name picked from the list by the user (Enter or a click), after it is in the field: a screen where
    # the name is all it needs (check-in) acts on it at once; where more is typed (a partner) it does not
    picked = Signal(str)

    def __init__(self, lookup: Lookup, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lookup = lookup
        self.keys: dict[str, str] = {}
        self.names = QStringListModel(self)
        self.completer_ = QCompleter(self.names, self)
        # the list is already filtered (accent-insensitive) by the lookup: the completer shows it as it is
        self.completer_.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self.completer_.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer_.setWidget(self)
        self.completer_.activated[str].connect(self._clicked)  # type: ignore[index]
        self.textEdited.connect(self._offer)
        popup = self.completer_.popup()  # made here, with the completer's own filter: ours sees keys first
        if popup is not None:
            popup.installEventFilter(self)

    def choices(self) -> list[str]:
        return self.names.stringList()

    def _offer(self, text: str) -> None:
        query = text.strip()
        if len(query) < MIN_CHARS or query.isdigit() or ":" in query:  # a number, code or QR: as typed
            self.names.setStringList([])
            self._hide()
            return
        try:
            found = list(self.lookup(query))
        except ServiceError:
            found = []
        self.keys = {c.label: c.key for c in found}
        self.names.setStringList([c.label for c in found])
        if found:
            self.completer_.complete()
        else:
            self._hide()

    def offer(self, choices: Sequence[Choice]) -> None:
        """Show these names to choose from (e.g. the entrants a refused name matches several of)."""
        self.keys = {c.label: c.key for c in choices}
        self.names.setStringList([c.label for c in choices])
        if choices:
            self.completer_.complete()

    def _hide(self) -> None:
        popup = self.completer_.popup()
        if popup is not None:
            popup.hide()

    def _chosen(self, label: str) -> None:
        self.setText(label)

    def _clicked(self, label: str) -> None:
        self._chosen(label)
        self.picked.emit(label)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        """Enter on the list picks the highlighted name (the only one offered, when none is highlighted;
        with several, the first is highlighted) and goes no further: the field's own Enter (register,
        check in) is the next one, with the chosen name in the field, never the half-typed text."""
        popup = self.completer_.popup()
        if (
            watched is popup
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and popup.isVisible()
            and self.choices()
        ):
            picked = popup.selectionModel().selectedIndexes()  # highlighted with the arrows or the mouse
            if not picked and len(self.choices()) > 1:  # several, none highlighted: the first is
                popup.setCurrentIndex(self.completer_.completionModel().index(0, 0))
                return True
            label = str(picked[0].data()) if picked else self.choices()[0]
            popup.hide()
            self._chosen(label)
            self.picked.emit(label)
            return True
        return super().eventFilter(watched, event)

    def choose(self, label: str) -> None:
        """Pick an offered name (what clicking it or Enter on it does)."""
        self._chosen(label)

    def value(self) -> str:
        """What the services take: the chosen name's key, else the text as typed."""
        text = self.text().strip()
        return self.keys.get(text, text)

    def clear(self) -> None:
        super().clear()
        self.keys = {}
        self.names.setStringList([])
