"""The schema revisions ClubDesk knows: the Alembic scripts packaged in ``clubdesk/models/migrations``."""

from __future__ import annotations

import re
from pathlib import Path

from clubdesk.i18n import _
from clubdesk.storage.errors import DatabaseError

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "models" / "migrations"


def known_revisions() -> list[str]:
    """Revision ids in order. Each migration file is named after its revision id (``0003_events.py``)."""
    return sorted(p.stem for p in (MIGRATIONS_DIR / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))


def head_revision() -> str:
    return known_revisions()[-1]


_NUMBERED = re.compile(r"(\d{4})_[a-z0-9_]+")


def unknown_revision_error(path: object, revision: str) -> DatabaseError:
    """The refusal of a file (or server) whose schema revision is not in our chain. Only a revision
    numbered as ours are (``0019_…``) and later than our newest is called newer; any other id is not
    ours, and may be another program's (Alembic is used by many), so it is named as unknown."""
    ours = _NUMBERED.fullmatch(head_revision())
    theirs = _NUMBERED.fullmatch(revision)
    if ours is not None and theirs is not None and int(theirs.group(1)) > int(ours.group(1)):
        return DatabaseError(
            "schema-too-new",
            _(
                "{path} was written by a newer ClubDesk (schema {rev}). "
                "Install the newer ClubDesk to open it; nothing was changed."
            ).format(path=path, rev=revision),
        )
    return DatabaseError(
        "unknown-revision",
        _(
            "{path} has the unknown schema revision {rev}: not one of this ClubDesk's, nor a later one. "
            "It may be another program's database or a changed copy; it was left alone."
        ).format(path=path, rev=revision),
    )
