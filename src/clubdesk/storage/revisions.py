"""The schema revisions ClubDesk knows: the Alembic scripts packaged in ``clubdesk/models/migrations``."""

from __future__ import annotations

from pathlib import Path

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "models" / "migrations"


def known_revisions() -> list[str]:
    """Revision ids in order. Each migration file is named after its revision id (``0003_events.py``)."""
    return sorted(p.stem for p in (MIGRATIONS_DIR / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))


def head_revision() -> str:
    return known_revisions()[-1]
