"""Incidents, penalties and appeals.

The package's face: what ui/, cli/ and web/ may use. Everything else is the package's own."""

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
