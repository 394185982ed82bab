"""Round robin by the FIDE Berger tables (rule T4f; REFERENCES.md "Round robin: Berger tables").

``berger_schedule`` gives the table by player number; ``round_robin_rounds`` applies it to entrant
ids (their order is the draw: pass ``seed`` to draw the numbers by lot, rule T4a).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from clubdesk.pairing.types import Pair


def berger_schedule(n: int, *, double: bool = False) -> list[list[tuple[int, int]]]:
    """Rounds of the FIDE Berger table for ``n`` players (rule T4f, FIDE C.05 Annex 1).

    Players are numbered 1..N, N = ``n`` rounded up to even; with an odd ``n`` whoever is paired
    with N has the bye. Each round lists its pairs in board order as (first, second) of the table.
    Round 1: board b is b vs N−b+1. Each later round adds N/2 to every number except N, modulo
    N−1 (counting 1..N−1), keeping the sides; player N alternates side on board 1.
    ``double``: a second cycle repeats the first with sides reversed.
    """
    if n < 0:
        raise ValueError("n must not be negative")
    if n < 2:
        return [[(1, 2)]] if n == 1 else []
    big = n + (n % 2)
    half = big // 2
    current = [(b, big - b + 1) for b in range(1, half + 1)]
    rounds: list[list[tuple[int, int]]] = []
    for r in range(1, big):
        if r > 1:
            current = [(_shift(a, big, half), _shift(b, big, half)) for a, b in current]
            # board 1 holds player N: N is second in odd rounds, first in even rounds
            other = current[0][0] if current[0][1] == big else current[0][1]
            current[0] = (other, big) if r % 2 == 1 else (big, other)
        rounds.append(list(current))
    if double:
        rounds += [[(b, a) for a, b in rnd] for rnd in rounds]
    return rounds


def _shift(x: int, big: int, half: int) -> int:
    if x == big:
        return x
    return (x - 1 + half) % (big - 1) + 1


def draw_order(ids: Sequence[str], seed: int) -> list[str]:
    """The entrants in the order of a seeded draw by lot (rule T4a): position k gets number k+1."""
    order = list(ids)
    random.Random(seed).shuffle(order)
    return order


def round_robin_rounds(
    ids: Sequence[str], *, double: bool = False, seed: int | None = None
) -> list[list[Pair]]:
    """Every round of a round robin among ``ids`` (rule T4f).

    The k-th id (after the draw when ``seed`` is given) plays as number k+1 of the Berger table.
    With an odd field the one paired with the phantom number N gets ``(id, None)``: the bye, last
    in the round's list. Pairs are (first, second) as in the table.
    """
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate entrant id")
    order = draw_order(ids, seed) if seed is not None else list(ids)
    n = len(order)
    out: list[list[Pair]] = []
    for rnd in berger_schedule(n, double=double):
        games: list[Pair] = []
        bye: Pair | None = None
        for a, b in rnd:
            if a > n:
                bye = (order[b - 1], None)
            elif b > n:
                bye = (order[a - 1], None)
            else:
                games.append((order[a - 1], order[b - 1]))
        if bye is not None:
            games.append(bye)
        out.append(games)
    return out
