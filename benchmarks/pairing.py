"""Benchmark of the Swiss pairing engine (issue 7).

For 64, 256, 512 and 1,024 entrants: play four random rounds with ``pair_swiss`` (club protection in round 1),
then time the pairing of round 5 and, beside it, one bare rustworkx ``max_weight_matching`` on the complete
graph of the same size (the floor of a one-matching approach) with unit weights and with random 40-bit
weights. Prints the times and the ratio of the pairing time to the floors.

Run: ``.venv/bin/python benchmarks/pairing.py [sizes...]``
"""

from __future__ import annotations

import random
import sys
import time

import rustworkx as rx

from clubdesk.pairing import Entrant, pair_swiss


def play_round(
    entrants: list[Entrant], pairs: list[tuple[str, str | None]], rng: random.Random
) -> list[Entrant]:
    by_id = {e.id: e for e in entrants}
    score = {e.id: e.score for e in entrants}
    opp = {e.id: set(e.opponents) for e in entrants}
    byes = {e.id: e.byes for e in entrants}
    for a, b in pairs:
        if b is None:
            score[a] += 2
            byes[a] += 1
            continue
        fav, other = (a, b) if by_id[a].rating >= by_id[b].rating else (b, a)
        r = rng.random()
        if r < 0.55:
            score[fav] += 2
        elif r < 0.9:
            score[other] += 2
        else:  # a draw: 1 each (half points stored doubled)
            score[a] += 1
            score[b] += 1
        opp[a].add(b)
        opp[b].add(a)
    return [Entrant(e.id, score[e.id], e.rating, e.club, frozenset(opp[e.id]), byes[e.id]) for e in entrants]


def field_before_round_5(n: int, seed: int = 5) -> list[Entrant]:
    rng = random.Random(seed)
    entrants = [
        Entrant(f"p{i:04d}", rating=rng.randint(1000, 2400), club=f"club{rng.randint(1, 40)}")
        for i in range(n)
    ]
    for rnd in range(1, 5):
        entrants = play_round(entrants, pair_swiss(entrants, club_protection=rnd == 1), rng)
    return entrants


def bare_matching(n: int, random_weights: bool) -> float:
    rng = random.Random(n)
    graph: rx.PyGraph[None, int] = rx.PyGraph()
    graph.add_nodes_from([None] * n)
    graph.add_edges_from(
        [(i, j, rng.randrange(1 << 40) if random_weights else 1) for i in range(n) for j in range(i + 1, n)]
    )
    t0 = time.perf_counter()
    rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return time.perf_counter() - t0


def main(sizes: list[int]) -> None:
    head = ("entrants", "groups", "pair r5 (s)", "floor 1 (s)", "ratio", "floor rnd (s)", "ratio")
    widths = (8, 6, 11, 11, 6, 13, 6)
    print(" ".join(h.rjust(w) for h, w in zip(head, widths, strict=True)))
    for n in sizes:
        entrants = field_before_round_5(n)
        groups = len({e.score for e in entrants})
        t0 = time.perf_counter()
        pairs = pair_swiss(entrants)
        t_pair = time.perf_counter() - t0
        assert len(pairs) == (n + 1) // 2
        t_unit = bare_matching(n, random_weights=False)
        t_rand = bare_matching(n, random_weights=True)
        print(
            f"{n:>8} {groups:>6} {t_pair:>11.3f} {t_unit:>11.3f} {t_pair / t_unit:>6.2f}"
            f" {t_rand:>13.3f} {t_pair / t_rand:>6.2f}"
        )


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [64, 256, 512, 1024])
