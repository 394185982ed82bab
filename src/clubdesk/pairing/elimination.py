"""Building single and double elimination brackets: seeding, byes and club protection (rules T4a, T4b,
T4c, T4d; REFERENCES.md).

:func:`single_elimination` and :func:`double_elimination` seed the entrants (by rating or by lot), give the
top seeds the byes of a field that is not a power of two, keep same-club entrants apart in round 1 where
possible, and lay out the matches of a :class:`~clubdesk.pairing.bracket.Bracket`, which then follows the
results.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Literal

from clubdesk.i18n import _
from clubdesk.pairing.bracket import Bracket, BracketMatch, Source, SourceKind, seed_tier
from clubdesk.pairing.types import Entrant

Seeding = Literal["rating", "random"]


def bracket_order(size: int) -> list[int]:
    """The seed in each slot of a bracket of ``size`` (a power of two), rule T4c.

    Start with [1, 2]; repeatedly replace each seed s by (s, 2·len+1−s) (REFERENCES.md).
    """
    if size < 1 or size & (size - 1):
        raise ValueError("bracket size must be a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def bracket_size(n: int) -> int:
    """The smallest power of two holding ``n`` entrants."""
    size = 1
    while size < n:
        size *= 2
    return size


# -------------------------------------------------------------------- seeding (T4a, T4b, T4c)
def seed_order(entrants: Sequence[Entrant], *, seeding: Seeding = "rating", seed: int = 0) -> list[str]:
    """Entrant ids from seed 1 down (rule T4a): by rating (equal ratings drawn by lot) or all by lot."""
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate entrant id")
    rng = random.Random(seed)
    lot = {i: rng.random() for i in sorted(ids)}
    if seeding == "random":
        return sorted(ids, key=lambda i: lot[i])
    if seeding != "rating":
        raise ValueError(f"unknown seeding {seeding!r}")
    return [e.id for e in sorted(entrants, key=lambda e: (-e.rating, lot[e.id]))]


def _place_seeds(
    entrants: Sequence[Entrant], seeding: Seeding, seed: int, club_protection: bool
) -> tuple[list[str | None], list[tuple[int, int, str]]]:
    if len(entrants) < 2:
        raise ValueError(_("An elimination bracket needs at least 2 entrants."))
    order = seed_order(entrants, seeding=seeding, seed=seed)
    size = bracket_size(len(order))
    # rule T4c: seeds N+1..P are byes, so seeds 1..P−N meet a bye in round 1
    seeds: list[str | None] = [*order, *([None] * (size - len(order)))]
    swaps: list[tuple[int, int, str]] = []
    if club_protection:
        club = {e.id: e.club for e in entrants}
        swaps = _protect_clubs(seeds, club)
    return seeds, swaps


def _protect_clubs(seeds: list[str | None], club: Mapping[str, str | None]) -> list[tuple[int, int, str]]:
    """Rule T4b: same-club entrants avoid each other in round 1, by swapping within a seed tier."""
    size = len(seeds)
    slots = bracket_order(size)
    opponent = {}
    for i in range(0, size, 2):
        opponent[slots[i]] = slots[i + 1]
        opponent[slots[i + 1]] = slots[i]

    def clash(pos: int) -> str | None:
        a, b = seeds[pos - 1], seeds[opponent[pos] - 1]
        if a is None or b is None:
            return None
        ca = club.get(a)
        return ca if ca is not None and ca == club.get(b) else None

    swaps: list[tuple[int, int, str]] = []
    for _round in range(size):
        bad = [p for p in range(1, size + 1) if p < opponent[p] and clash(p) is not None]
        if not bad:
            break
        progress = False
        for p in bad:
            cl = clash(p)
            if cl is None:
                continue
            for mover in (opponent[p], p):  # move the lower seed first
                tier = seed_tier(mover)
                for q in range(1, size + 1):
                    if q == mover or seed_tier(q) != tier or seeds[q - 1] is None or q == opponent[mover]:
                        continue
                    seeds[mover - 1], seeds[q - 1] = seeds[q - 1], seeds[mover - 1]
                    if clash(mover) is None and clash(q) is None:
                        swaps.append((min(mover, q), max(mover, q), cl))
                        progress = True
                        break
                    seeds[mover - 1], seeds[q - 1] = seeds[q - 1], seeds[mover - 1]
                else:
                    continue
                break
        if not progress:
            break  # T4b asks "where possible"
    return swaps


# -------------------------------------------------------------------- single elimination (T4c)
def single_elimination(
    entrants: Sequence[Entrant],
    *,
    seeding: Seeding = "rating",
    seed: int = 0,
    club_protection: bool = False,
    third_place: bool = False,
) -> Bracket:
    """A single-elimination bracket (rules T4a, T4b, T4c, T12a)."""
    seeds, swaps = _place_seeds(entrants, seeding, seed, club_protection)
    size = len(seeds)
    k = (size - 1).bit_length()
    matches = _winners_bracket(size, single=True)
    if third_place and k >= 2:
        sf = k - 1
        matches.append(
            BracketMatch(
                "3P",
                "3P",
                k,
                1,
                (Source(SourceKind.LOSER, f"W{sf}-1"), Source(SourceKind.LOSER, f"W{sf}-2")),
                2 * k - 1,
            )
        )
    return Bracket(
        "single",
        tuple(seeds),
        tuple(matches),
        third_place=third_place and k >= 2,
        swaps=tuple(swaps),
        seeding=seeding,
    )


def _winners_bracket(size: int, *, single: bool) -> list[BracketMatch]:
    slots = bracket_order(size)
    k = (size - 1).bit_length()
    matches: list[BracketMatch] = []
    for r in range(1, k + 1):
        for i in range(1, size // 2**r + 1):
            if r == 1:
                srcs = (
                    Source(SourceKind.SEED, str(slots[2 * i - 2])),
                    Source(SourceKind.SEED, str(slots[2 * i - 1])),
                )
            else:
                srcs = (
                    Source(SourceKind.WINNER, f"W{r - 1}-{2 * i - 1}"),
                    Source(SourceKind.WINNER, f"W{r - 1}-{2 * i}"),
                )
            matches.append(BracketMatch(f"W{r}-{i}", "W", r, i, srcs, 2 * r if single else 0))
    return matches


# -------------------------------------------------------------------- double elimination (T4d)
def double_elimination(
    entrants: Sequence[Entrant],
    *,
    seeding: Seeding = "rating",
    seed: int = 0,
    club_protection: bool = False,
    reset: bool = True,
) -> Bracket:
    """A double-elimination bracket (rule T4d): out after two losses; the losers' bracket winner meets
    the winners' bracket winner in the grand final ("GF"), with a reset match ("GF2") when ``reset``
    and the losers' side wins the first one. Any field size (byes to the top seeds)."""
    seeds, swaps = _place_seeds(entrants, seeding, seed, club_protection)
    size = len(seeds)
    k = (size - 1).bit_length()
    matches = _winners_bracket(size, single=False)
    lb_final: Source
    if k == 1:
        lb_final = Source(SourceKind.LOSER, "W1-1")
        stage = 0
    else:
        matches += _losers_bracket(size)
        stage = 2 * (k - 1)
        lb_final = Source(SourceKind.WINNER, f"L{stage}-1")
    matches.append(
        BracketMatch("GF", "GF", 1, 1, (Source(SourceKind.WINNER, f"W{k}-1"), lb_final), stage + 1)
    )
    if reset:
        matches.append(
            BracketMatch(
                "GF2",
                "GF2",
                2,
                1,
                (Source(SourceKind.WINNER, "GF"), Source(SourceKind.LOSER, "GF")),
                stage + 2,
            )
        )
    return Bracket("double", tuple(seeds), tuple(matches), reset=reset, swaps=tuple(swaps), seeding=seeding)


def _losers_bracket(size: int) -> list[BracketMatch]:
    """Losers' bracket of 2(k−1) rounds (rule T4d, REFERENCES.md "Double elimination").

    Drop-in order: the loser of W{j+1}-b meets the survivor of the losers' match with the
    *neighbouring* number (b XOR 1), so he never meets someone from his own winners' sub-bracket, whom
    he may have beaten, in his first losers' match. Compared (by counting the pairs of bracket slots
    that may already have met) with every reversed, shifted and XOR order for brackets of 8 to 64,
    this order has no possible rematch in any drop-in round before the losers' final and the fewest
    in the merge rounds.
    """
    k = (size - 1).bit_length()
    matches: list[BracketMatch] = []
    # LB round 1: the round-1 losers play each other
    cur: list[Source] = []
    for i in range(1, size // 4 + 1):
        srcs = (Source(SourceKind.LOSER, f"W1-{2 * i - 1}"), Source(SourceKind.LOSER, f"W1-{2 * i}"))
        matches.append(BracketMatch(f"L1-{i}", "L", 1, i, srcs, 1))
        cur.append(Source(SourceKind.WINNER, f"L1-{i}"))
    for j in range(1, k):
        lr = 2 * j  # drop-in round: the losers of W{j+1} come in
        m = len(cur)
        nxt: list[Source] = []
        for i in range(m):
            drop = Source(SourceKind.LOSER, f"W{j + 1}-{(i ^ 1 if m > 1 else i) + 1}")
            mid = f"L{lr}-{i + 1}"
            matches.append(BracketMatch(mid, "L", lr, i + 1, (cur[i], drop), lr))
            nxt.append(Source(SourceKind.WINNER, mid))
        cur = nxt
        if j < k - 1:  # merge round 2j+1: the survivors play each other
            merged: list[Source] = []
            for i in range(len(cur) // 2):
                mid = f"L{lr + 1}-{i + 1}"
                matches.append(BracketMatch(mid, "L", lr + 1, i + 1, (cur[2 * i], cur[2 * i + 1]), lr + 1))
                merged.append(Source(SourceKind.WINNER, mid))
            cur = merged
    return matches
