"""One sheet change on the form's undo stack (Ctrl+Z, Ctrl+Shift+Z)."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtGui import QUndoCommand

from clubdesk.ui.night.score_entry.entries import (
    Entry,
    EntryChange,
)


class SheetForm(Protocol):
    """What an undo command changes: the form's entries, shown again (set) or saved and shown (apply)."""

    def set_entries(self, entries: list[Entry]) -> None: ...

    def apply_entries(self, entries: list[Entry], change: EntryChange) -> None: ...


class EntryCommand(QUndoCommand):
    """One sheet change on the undo stack; the first redo (at push time) is already saved."""

    def __init__(
        self,
        form: SheetForm,
        before: list[Entry],
        after: list[Entry],
        change: EntryChange,
        inverse: EntryChange,
        text: str,
    ) -> None:
        super().__init__(text)
        self.form = form
        self.before = before
        self.after = after
        self.change = change
        self.inverse = inverse
        self.first = True

    def redo(self) -> None:
        if self.first:
            self.first = False
            self.form.set_entries(self.after)
            return
        self.form.apply_entries(self.after, self.change)

    def undo(self) -> None:
        self.form.apply_entries(self.before, self.inverse)
