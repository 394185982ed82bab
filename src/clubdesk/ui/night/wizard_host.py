"""What the pairing wizard's pages need from the wizard that shows them.

The pages (``wizard_pages.py``, ``wizard_print.py``) are built by the wizard (``pairing_wizard.py``) and talk
back to it through this Protocol, so the page modules never import the wizard's module.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from clubdesk.services import events, night
from clubdesk.ui.shell.state import DeskState

Pair = tuple[int, int | None]
# who is here and who asked for a bye: a proposal is for one attendance only
Attendance = frozenset[tuple[int, bool, int | None]]


class WizardHost(Protocol):
    """The pairing wizard as its pages see it: the event, the proposal being edited and the verbs on it."""

    state: DeskState
    event_id: int
    ev_info: events.EventInfo
    proposed: night.RoundView | None
    proposed_for: Attendance | None
    published: night.RoundView | None
    pairs: list[Pair]

    def latest_round(self) -> int: ...

    def name(self, entrant: int | None) -> str: ...

    def stale(self) -> bool: ...

    def set_proposed(self, rv: night.RoundView) -> None: ...

    def verify(self) -> list[str]: ...

    def swap(self, first: tuple[int, int], second: tuple[int, int]) -> None: ...

    def move_pair(self, row: int, table_index: int) -> None: ...

    def explanations(self) -> list[str]: ...

    def publish(self, call_at: datetime, start_at: datetime | None = None) -> tuple[bool, str]: ...
