"""Final places in elimination events (single and double elimination, lives).

Rule T12a: entrants who go out in the same round share the place (3-4, 5-8, 9-16 ...). The input is
plain: for every entrant the round in which he went out (``None`` for those never eliminated, e.g.
the winner). In a lives event (rule T4g) survivors may be ordered by the lives they have left.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from clubdesk.i18n import _


@dataclass(frozen=True)
class Place:
    entrant: str
    first: int  # best place of the shared range
    last: int  # worst place of the shared range (== first when not shared)

    @property
    def shared(self) -> bool:
        return self.first != self.last

    def label(self) -> str:
        """``"5–8"`` or ``"1"``."""
        return str(self.first) if not self.shared else f"{self.first}–{self.last}"


def elimination_places(
    out_round: Mapping[str, int | None],
    *,
    lives_left: Mapping[str, int] | None = None,
    disqualified: Iterable[str] = (),
) -> list[Place]:
    """Places from the round each entrant went out in; the later, the better.

    Entrants never eliminated come first; several of them (an unfinished lives event) are ordered
    by ``lives_left`` (more is better) and share a place when equal. Everyone out in the same round
    shares the range of places (rule T12a). Disqualified entrants get no place (rule T9c).
    """
    dq = set(disqualified)
    lives = lives_left or {}
    for e, r in out_round.items():
        if r is not None and r < 1:
            raise ValueError(
                _("{entrant}: elimination round must be 1 or more, not {r}").format(entrant=e, r=r)
            )
    groups: dict[tuple[int, int], list[str]] = defaultdict(list)
    for e, r in out_round.items():
        if e in dq:
            continue
        # sort key: not eliminated first (round = infinity), then later rounds, then more lives left
        key = (-(10**9) if r is None else -r, -lives.get(e, 0) if r is None else 0)
        groups[key].append(e)
    out: list[Place] = []
    pos = 1
    for key in sorted(groups):  # rule T12a: everyone out in the same round shares the range
        members = sorted(groups[key])
        for e in members:
            out.append(Place(e, pos, pos + len(members) - 1))
        pos += len(members)
    return out
