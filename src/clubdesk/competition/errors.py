"""The one error the competition rules raise."""

from __future__ import annotations

from typing import Any


class CompetitionError(Exception):
    """A request the competition rules refuse. ``code`` is stable for programs; ``message`` is translated
    for people; ``params`` name the values it is about. Services turn it into their own refusal."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params
