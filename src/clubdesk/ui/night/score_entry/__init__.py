"""Score entry forms, one per game family, driven by the rules engines (``clubdesk.games``).

:func:`entry_form_for` picks the form for a ruleset: gaple and domino-es hand by hand, tavla game by game.
:class:`FinalScoreForm` takes the final score only, for events that record results only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtWidgets import QWidget

from clubdesk.games import load_ruleset
from clubdesk.ui.night.score_entry.base import SheetEntryForm
from clubdesk.ui.night.score_entry.dominoes import DominoEntryForm, GapleEntryForm
from clubdesk.ui.night.score_entry.entries import CorrectionCheck, EntryChange, SaveCallback
from clubdesk.ui.night.score_entry.final_score import FinalScoreForm
from clubdesk.ui.night.score_entry.tavla import TavlaEntryForm

__all__ = [
    "DominoEntryForm",
    "EntryChange",
    "FinalScoreForm",
    "GapleEntryForm",
    "SheetEntryForm",
    "TavlaEntryForm",
    "entry_form_for",
]

_FORMS: dict[str, type[SheetEntryForm]] = {
    "gaple": GapleEntryForm,
    "domino": DominoEntryForm,
    "tavla": TavlaEntryForm,
}


def entry_form_for(
    ruleset: str,
    entries: Sequence[Mapping[str, Any]] = (),
    params: Mapping[str, object] | None = None,
    save: SaveCallback | None = None,
    side_names: Sequence[str] = (),
    seat_names: Sequence[str] | None = None,
    confirm_correction: CorrectionCheck | None = None,
    parent: QWidget | None = None,
) -> SheetEntryForm:
    """The hand-by-hand or game-by-game form for ``ruleset`` (a preset id)."""
    family = load_ruleset(ruleset, dict(params) if params else None).family
    cls = _FORMS[family]
    return cls(ruleset, entries, params, save, side_names, seat_names, confirm_correction, parent)
