"""Pairs drawn by lot (rule B1; T4a).

The competition's partner pairs are drawn by lot from a list of players, reproducibly from a seed.
Clubs that redraw every night may ask to avoid last time's partners: the draw then has the fewest
repeated partnerships possible (none whenever that can be done).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from clubdesk.i18n import _


def draw_pairs(
    players: Sequence[str], *, seed: int = 0, avoid: Iterable[tuple[str, str]] = ()
) -> list[tuple[str, str | None]]:
    """Partner pairs by lot (rule B1). With an odd number of players, the one drawn last is left
    without a partner: ``(id, None)``, last in the list. ``avoid``: partnerships to avoid
    (e.g. last time's); repeated only when there is no other way, and then as few as possible."""
    if len(set(players)) != len(players):
        raise ValueError("duplicate player id")
    rng = random.Random(seed)
    order: list[str | None] = list(players)
    rng.shuffle(order)
    if len(order) % 2:
        order.insert(rng.randrange(len(order) + 1), None)  # the seat without a partner, by lot
    banned = {frozenset(p) for p in avoid if p[0] != p[1]}
    for budget in range(len(order) // 2 + 1):
        found = _match(order, banned, budget)
        if found is not None:
            pairs = [(a, b) for a, b in found if a is not None and b is not None]
            alone = [a if a is not None else b for a, b in found if a is None or b is None]
            return pairs + [(x, None) for x in alone if x is not None]
    raise AssertionError("unreachable: with the full budget every draw is allowed")


def _match(
    order: list[str | None], banned: set[frozenset[str]], budget: int
) -> list[tuple[str | None, str | None]] | None:
    """Pair ``order`` front to back, each with the first allowed later one (backtracking)."""
    steps = [0]
    limit = 20000

    def rec(rest: list[str | None], budget: int) -> list[tuple[str | None, str | None]] | None:
        if not rest:
            return []
        steps[0] += 1
        if steps[0] > limit:
            return None
        a, others = rest[0], rest[1:]
        for i, b in enumerate(others):
            cost = 1 if a is not None and b is not None and frozenset((a, b)) in banned else 0
            if cost > budget:
                continue
            tail = rec(others[:i] + others[i + 1 :], budget - cost)
            if tail is not None:
                return [(a, b), *tail]
        return None

    return rec(order, budget)


def explain_pairs(
    pairs: Sequence[tuple[str, str | None]], *, seed: int, avoid: Iterable[tuple[str, str]] = ()
) -> list[str]:
    """One line per pair, for the wizard."""
    banned = {frozenset(p) for p in avoid}
    lines: list[str] = []
    for a, b in pairs:
        if b is None:
            lines.append(_("{a}: no partner this time (odd number of players), drawn by lot.").format(a=a))
        elif frozenset((a, b)) in banned:
            lines.append(
                _(
                    "{a} and {b}: drawn by lot (seed {seed}); partners again because no other draw avoids it."
                ).format(a=a, b=b, seed=seed)
            )
        else:
            lines.append(_("{a} and {b}: drawn by lot (seed {seed}).").format(a=a, b=b, seed=seed))
    return lines
