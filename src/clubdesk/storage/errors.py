"""The one error every storage module raises: a stable ``code`` and a translated message."""

from __future__ import annotations

from clubdesk.i18n import _


class DatabaseError(Exception):
    """A database that cannot be opened or used; ``code`` is stable, ``str()`` is translated."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def busy_error() -> DatabaseError:
    """A lock held by another desk longer than the busy timeout: one clear refusal, file or server."""
    return DatabaseError("busy", _("The database is busy at another desk; try again."))
