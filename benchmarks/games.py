"""Benchmark the gaple engine: replay a 3-game, 90-hand match; time per entry; correcting hand 1 of 90.

Run: ``.venv/bin/python benchmarks/games.py``. Prints figures (nothing is asserted). Correcting hand 1 must
recompute well within a frame (16 ms).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from clubdesk.games import replay
from clubdesk.games.sheet import Sheet

RULESET = "gaple-tournament"


def _out(side: int, a: int, b: int) -> dict[str, object]:
    """Side ``side`` goes out (seat = side); its opponents hold a and b pips."""
    pips = [a, a, b, b]
    pips[side] = 0
    pips[side + 2] = 1
    return {"type": "out", "seat": side, "pips": pips, "last_tile": None, "two_ends": False, "dead": {}}


def _game(winner: int, redeals: int) -> list[dict[str, object]]:
    # winner opens with 30, loser 26 (no burn: 26 < 30), winner 24 x 9 = 246, redeals, winner 9 -> 255
    loser = 1 - winner
    hands = [_out(winner, 15, 15), _out(loser, 13, 13)] + [_out(winner, 4, 5) for _ in range(24)]
    return hands + [{"type": "redeal"}] * redeals + [_out(winner, 4, 5)]


def build_match() -> list[dict[str, object]]:
    """A valid 90-entry sheet: the warm-up, then games won by side 0, side 1, side 0 (2-1)."""
    warmup = _out(0, 10, 10)
    return [warmup, *_game(0, 3), *_game(1, 3), *_game(0, 2)]


def _time(fn: Callable[[], object], repeat: int = 200) -> list[float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    entries = build_match()
    result = replay(RULESET, entries)
    n = len(entries)
    print(
        f"{RULESET}: {n} entries, {len(result['games'])} games, games won {result['games_won']}, "
        f"finished {result['finished']}"
    )
    t_full = _time(lambda: replay(RULESET, entries))
    med = statistics.median(t_full)
    print(f"replay whole sheet: median {med * 1e3:.3f} ms = {med / n * 1e6:.1f} µs per entry")

    sheet = Sheet.open(RULESET, entries)
    corrected = _out(0, 16, 16)  # hand 1 (after the warm-up) was really 32, not 30
    t_fix = _time(lambda: sheet.replace(1, corrected))
    print(
        f"correct hand 1 of {n}: median {statistics.median(t_fix) * 1e3:.3f} ms, "
        f"max {max(t_fix) * 1e3:.3f} ms (frame budget 16 ms)"
    )
    t_del = _time(lambda: sheet.delete(n - 1))
    print(f"delete the last entry: median {statistics.median(t_del) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
