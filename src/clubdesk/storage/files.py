"""Files ClubDesk writes beside the club file (prints, exports): written whole or not at all.

The content goes to a hidden temporary file in the target's folder and is moved into place only when
complete; a failure (a full disk, a read-only medium) removes the temporary file and is one clear
:class:`~clubdesk.storage.errors.DatabaseError` naming the target.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from clubdesk.storage.errors import write_refusal

_T = TypeVar("_T")


def write_atomically(target: Path, writer: Callable[[Path], _T], *, suffix: str = ".part") -> _T:
    """``writer(tmp)`` writes the whole file; then it replaces ``target``. Returns what ``writer`` returns."""
    tmp: Path | None = None
    try:
        fd, name = tempfile.mkstemp(prefix=".clubdesk-", suffix=suffix, dir=target.parent)
        os.close(fd)
        tmp = Path(name)
        out = writer(tmp)
        os.replace(tmp, target)
        tmp = None
        return out
    except OSError as exc:
        refused = write_refusal(exc, target)
        if refused is None:  # pragma: no cover - write_refusal answers every OSError
            raise
        raise refused from exc
    finally:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
