"""Plain values shared by every pairing engine (CONTRACTS.md §2)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entrant:
    """One entrant as the pairing engines see it.

    ``score`` is an integer (half points, where a format has them, are stored doubled).
    ``opponents`` are the ids already met; ``byes`` the byes already received; ``lives``
    the lives left in a lives event (T4g).
    """

    id: str
    score: int = 0
    rating: int = 0
    club: str | None = None
    opponents: frozenset[str] = field(default_factory=frozenset)
    byes: int = 0
    lives: int | None = None


class PairingImpossible(Exception):
    """No pairing satisfies the hard rules; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


Pair = tuple[str, str | None]
