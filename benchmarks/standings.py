"""Benchmark: standings with four tie-breaks for a season league of 20,000 matches and for a
512-entrant, 9-round Swiss. Prints times (target: under 100 ms each). Run:
    .venv/bin/python benchmarks/standings.py
"""

from __future__ import annotations

import random
import time

from clubdesk.standings import (
    CHESS_SCHEME,
    Format,
    MatchResult,
    PointsScheme,
    event_from_matches,
    standings,
)


def league(n_matches: int = 20_000, seed: int = 1) -> tuple[list[str], list[MatchResult]]:
    """Round robins of 101 entrants (5,050 matches each) played again until n_matches (about four)."""
    rnd = random.Random(seed)
    ids = [f"m{i:03d}" for i in range(101)]
    matches: list[MatchResult] = []
    rnd_no = 0
    while len(matches) < n_matches:
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if len(matches) >= n_matches:
                    break
                rnd_no += 1
                sa = 5
                sb = rnd.randint(0, 4)
                if rnd.random() < 0.5:
                    sa, sb = sb, sa
                matches.append(MatchResult(rnd_no // 50 + 1, a, b, sa, sb))
    return ids, matches


def swiss(n: int = 512, rounds: int = 9, seed: int = 2) -> tuple[list[str], list[MatchResult]]:
    rnd = random.Random(seed)
    ids = [f"s{i:03d}" for i in range(n)]
    score = dict.fromkeys(ids, 0)
    matches: list[MatchResult] = []
    for r in range(1, rounds + 1):
        order = sorted(ids, key=lambda e: (-score[e], rnd.random()))
        for a, b in zip(order[::2], order[1::2], strict=True):
            res = rnd.choice([(1, 0), (0, 1), (1, 1)])
            matches.append(MatchResult(r, a, b, *res))
            score[a] += 2 if res == (1, 0) else 1 if res == (1, 1) else 0
            score[b] += 2 if res == (0, 1) else 1 if res == (1, 1) else 0
    return ids, matches


def timed(label: str, fn: object, repeat: int = 5) -> None:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - t0)
    print(f"{label:<60} {best * 1000:8.1f} ms (best of {repeat})")


def main() -> None:
    ids, matches = league()
    ev = event_from_matches(ids, matches, PointsScheme(win=1, loss=0), fmt=Format.ROUND_ROBIN)
    print(f"league: {len(ids)} entrants, {len(matches)} matches")
    timed("league: build records from 20,000 matches", lambda: event_from_matches(ids, matches))
    timed("league: standings PTS, DE, GAV, BH (T12b-like)", lambda: standings(ev, ("PTS", "DE", "GAV", "BH")))
    timed(
        "league: standings PTS, IAV, GAV, BH (tavla preset)",
        lambda: standings(ev, ("PTS", "IAV", "GAV", "BH")),
    )

    ids, matches = swiss()
    ev = event_from_matches(ids, matches, CHESS_SCHEME, fmt=Format.SWISS)
    print(f"swiss: {len(ids)} entrants, 9 rounds, {len(matches)} games")
    timed("swiss: standings PTS, BH-C1, BH, SB", lambda: standings(ev, ("PTS", "BH-C1", "BH", "SB")))
    timed("swiss: standings PTS, DE, BH-C1, SB-C1", lambda: standings(ev, ("PTS", "DE", "BH-C1", "SB-C1")))


if __name__ == "__main__":
    main()
