"""Names, not numbers: what a member or entrant field offers as the user types.

Matching is the register's own search (``services.members.list_members``: every word, case and accents
ignored, never on phone or e-mail, rule T14); each choice is a label to show and the key the services take
(a member number, an entrant's check-in code).
"""

from __future__ import annotations

from dataclasses import dataclass

from clubdesk.services import members
from clubdesk.services.desk import lists
from clubdesk.storage import Database
from clubdesk.text import fold, matches

LIMIT = 12


@dataclass(frozen=True)
class Choice:
    label: str  # "Şükrü Işık — 1023 · Kadıköy TK"
    key: str  # what the service takes: a member number, an entrant's check-in code


def member_choices(db: Database, text: str, limit: int = LIMIT) -> list[Choice]:
    """Active members whose number, name, club or city match ``text`` (accent-insensitive)."""
    if not fold(text).strip():
        return []
    out: list[Choice] = []
    for m in members.list_members(db, text, limit=limit):  # LIMIT in SQL
        extra = f" · {m.club}" if m.club else ""
        out.append(Choice(f"{m.name} — {m.number}{extra}", m.number))
    return out


def entrant_choices(
    db: Database, event_id: int, text: str, limit: int = LIMIT, *, include_withdrawn: bool = False
) -> list[Choice]:
    """An event's entrants whose name, code or member numbers match ``text`` (accent-insensitive)."""
    if not fold(text).strip():
        return []
    rows = lists.entrants(db, event_id, include_withdrawn=include_withdrawn)
    found = [e for e in rows if matches(text, e.name, e.code, *e.members)]
    found.sort(key=lambda e: fold(e.name))
    return [Choice(f"{e.name} — {e.code}", e.code) for e in found[:limit]]


def entrant_member_choices(db: Database, event_id: int, text: str, limit: int = LIMIT) -> list[Choice]:
    """The members playing in an event (an incident's player, a substitute's partner), by name."""
    if not fold(text).strip():
        return []
    numbers = {n for e in lists.entrants(db, event_id, include_withdrawn=True) for n in e.members}
    return [c for c in member_choices(db, text, limit=10 * limit) if c.key in numbers][:limit]
