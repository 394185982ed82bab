"""Incidents, penalties and appeals.

The package's face: what ui/, cli/, web/ and the packages above may use. A name is imported from its module
when first used, so a screen that needs one use case does not load the whole package (the first
section paints before the engines load)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clubdesk.services.discipline.appeals import (
        appeal_window,
        decide_appeal,
        file_appeal,
        hear_appeal,
        reopen_appeal,
        set_appeal_window,
    )
    from clubdesk.services.discipline.incidents import (
        appeal_entrants,
        discipline_list,
        disqualify,
        impose_penalty,
        kinds_for_event,
        record_incident,
    )
    from clubdesk.services.discipline.records import AppealView, IncidentView, PenaltyView

_HOMES = {
    "AppealView": "clubdesk.services.discipline.records",
    "IncidentView": "clubdesk.services.discipline.records",
    "PenaltyView": "clubdesk.services.discipline.records",
    "appeal_entrants": "clubdesk.services.discipline.incidents",
    "appeal_window": "clubdesk.services.discipline.appeals",
    "decide_appeal": "clubdesk.services.discipline.appeals",
    "discipline_list": "clubdesk.services.discipline.incidents",
    "disqualify": "clubdesk.services.discipline.incidents",
    "file_appeal": "clubdesk.services.discipline.appeals",
    "hear_appeal": "clubdesk.services.discipline.appeals",
    "impose_penalty": "clubdesk.services.discipline.incidents",
    "kinds_for_event": "clubdesk.services.discipline.incidents",
    "record_incident": "clubdesk.services.discipline.incidents",
    "reopen_appeal": "clubdesk.services.discipline.appeals",
    "set_appeal_window": "clubdesk.services.discipline.appeals",
}

__all__ = [
    "AppealView",
    "IncidentView",
    "PenaltyView",
    "appeal_entrants",
    "appeal_window",
    "decide_appeal",
    "discipline_list",
    "disqualify",
    "file_appeal",
    "hear_appeal",
    "impose_penalty",
    "kinds_for_event",
    "record_incident",
    "reopen_appeal",
    "set_appeal_window",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from the module that defines it on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
