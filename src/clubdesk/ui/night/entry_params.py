"""What a table's entry form is built from: the night's settings (result mode, encounter games, call
minutes), the ruleset's parameters with the event's overrides and the table's match length, and a sheet's
match score as the services count it."""

from __future__ import annotations

from typing import Any

from clubdesk.competition import formats
from clubdesk.services import events as events_service
from clubdesk.services import night
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.shell.state import DeskState


def night_settings(state: DeskState, event_id: int) -> dict[str, Any]:
    """The event night's settings as ``night-config`` wrote them (result mode, call minutes, ...)."""
    try:
        return night.night_settings(state.db, event_id)
    except ServiceError:
        return {"result_mode": "entries", "call_minutes": 10}


def form_params(event: events_service.EventInfo, match_length: int | None) -> dict[str, Any]:
    params: dict[str, Any] = dict(event.overrides or {})
    if event.target:
        params.setdefault("target", event.target)
    if match_length:
        params["match_length"] = match_length
    return params


def sheet_score(result: dict[str, Any]) -> tuple[int, int]:
    """A sheet's match score as the services count it: tavla points, dominoes games won."""
    if "score" in result:
        return int(result["score"][0]), int(result["score"][1])
    won = result.get("games_won", [0, 0])
    return int(won[0]), int(won[1])


def family_of(ev: events_service.EventInfo) -> str:
    """The event's game family ("tavla", "gaple", ...); "" when its ruleset cannot be read."""
    try:
        return str(formats.ruleset_params(ev.ruleset, dict(ev.overrides or {}))[0])
    except (ServiceError, ValueError, KeyError):
        return ""
