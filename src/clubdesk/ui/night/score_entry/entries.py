"""An entry form's values: an entry, one change to a sheet (for the save callback), an input that cannot be
read yet, and the no-choice-yet first item of a combo box.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from PySide6.QtWidgets import (
    QComboBox,
    QWidget,
)

from clubdesk.games import EntryError
from clubdesk.i18n import _
from clubdesk.ui.widgets.fit import fit_combo

Entry = dict[str, Any]


@dataclass(frozen=True)
class EntryChange:
    """One change to a sheet, handed to the save callback.

    ``action``: ``"append"`` (``entry`` added at ``index`` = the end), ``"replace"`` (entry ``index``
    corrected), ``"delete"`` (entry ``index`` removed; ``entry`` is None) or ``"insert"`` (``entry`` put
    back before
    ``index``, when a deletion is undone). ``entries`` is the whole sheet after the change.
    """

    action: Literal["append", "replace", "delete", "insert"]
    index: int
    entry: Entry | None
    entries: tuple[Entry, ...] = field(default=())


SaveCallback = Callable[[EntryChange], None]


# asked before an earlier entry is corrected or deleted; gets the entries after the change; False cancels
CorrectionCheck = Callable[[list[Entry]], bool]


class InputProblem(ValueError):
    """An input that cannot be read at all (not a number ...): shown next to the form like an engine error.

    ``pending``: nothing is wrong yet, a choice is still to be made (the live preview says what is missing
    without an error)."""

    def __init__(self, message: str, widget: QWidget | None = None, *, pending: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.widget = widget
        self.pending = pending


PROMPT_MARGIN = 1  # character: Qt sizes a fitted combo in widths of "X"


def add_no_choice(combo: QComboBox, text: str) -> None:
    """The combo's first item: no choice made yet (its data is None, its text starts with no letter or
    digit, so typing an item's first letter picks that item)."""
    prompt = f"— {text} —"
    combo.insertItem(0, prompt, None)
    combo.setCurrentIndex(0)
    # the prompt says what to type: shown whole in every language ("— tarafı yazın (1 veya 2) —" lost its
    # end to the screen's 14-character combo boxes), names longer than it still cut
    metrics = combo.fontMetrics()
    fit_combo(combo, -(-metrics.horizontalAdvance(prompt) // metrics.horizontalAdvance("X")) + PROMPT_MARGIN)


def chosen(combo: QComboBox, what: str) -> Any:
    """The combo's choice, or an InputProblem saying what is still to be chosen."""
    data = combo.currentData()
    if data is None:
        raise InputProblem(_("Choose {what}.").format(what=what), combo, pending=True)
    return data


def entry_message(exc: Exception) -> str:
    if isinstance(exc, EntryError):
        return _("Entry {n}: {message}").format(n=exc.index + 1, message=exc.message or exc.code)
    message = getattr(exc, "message", None)
    return str(message) if message else str(exc)
