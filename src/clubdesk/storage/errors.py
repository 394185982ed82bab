"""The one error every storage module raises: a stable ``code`` and a translated message."""

from __future__ import annotations

import errno
from pathlib import Path

from clubdesk.i18n import _


class DatabaseError(Exception):
    """A database that cannot be opened or used; ``code`` is stable, ``str()`` is translated."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def busy_error() -> DatabaseError:
    """A lock held by another desk longer than the busy timeout: one clear refusal, file or server."""
    return DatabaseError("busy", _("The database is busy at another desk; try again."))


def is_disk_full(exc: BaseException) -> bool:
    """Whether a write failed because the disk (or the user's quota) is full: the OS's ENOSPC/EDQUOT or
    SQLite's SQLITE_FULL."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    return "database or disk is full" in str(exc).lower()


def is_read_only(exc: BaseException) -> bool:
    """Whether a write failed because the medium or the file is read-only: the OS's EROFS or SQLite's
    SQLITE_READONLY."""
    if isinstance(exc, OSError) and exc.errno == errno.EROFS:
        return True
    return "attempt to write a readonly database" in str(exc).lower()


def disk_full_error(path: Path | str) -> DatabaseError:
    return DatabaseError(
        "disk-full",
        _(
            "The disk is full: {path} was not written and nothing half-written was left. "
            "Free some space and try again."
        ).format(path=path),
    )


def read_only_error(path: Path | str) -> DatabaseError:
    return DatabaseError(
        "read-only",
        _(
            "{path} is read-only (a read-only medium, folder or file): it can be read, but nothing can be "
            "saved in it. Copy it to a writable folder to change it."
        ).format(path=path),
    )


def write_refusal(exc: BaseException, path: Path | str) -> DatabaseError | None:
    """The clear refusal of a failed write of ``path`` (disk full, read-only, no permission), or None for
    another failure."""
    if is_disk_full(exc):
        return disk_full_error(path)
    if is_read_only(exc):
        return read_only_error(path)
    if isinstance(exc, OSError):
        return DatabaseError(
            "cannot-write",
            _("{path} could not be written ({reason}); nothing half-written was left.").format(
                path=path, reason=exc.strerror or exc
            ),
        )
    return None
