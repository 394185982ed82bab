"""Lives pairing (rule T4g) as one maximum-weight matching.

Every entrant with lives left plays; a loss costs a life and no lives left means out (the event records the
results; this module only pairs a round). Like the Swiss engine (:mod:`clubdesk.pairing.swiss`), the round is
one maximum-weight perfect matching whose integer edge weights hold a bit field per criterion, highest first:

1. everybody with lives left is paired, with one bye when their number is odd;
2. the bye to the entrant with the fewest lives left, then the fewest byes so far, then the lowest rank (T4g);
3. as few rematches as possible (they are allowed when the field is too small to avoid them);
4. pairs within equal lives as far as possible: the smallest sum over pairs of (lives difference)² (T4g);
5. within each lives group, top half against bottom half by rank, as in the Swiss engine;
6. (tie-breaks only) an entrant who floats meets the nearest-ranked entrant of the other group, then as few
   pairs as possible inside one half of a lives group.

Rank = lives left, score, rating (all descending), then id. A season final may start its entrants with
different lives: the engine only reads ``Entrant.lives``.
"""

from __future__ import annotations

from collections.abc import Sequence

from clubdesk.i18n import _
from clubdesk.pairing.swiss import (
    check_ids,
    combine,
    explain,
    group_positions,
    half_penalty,
    pairs_from_mate,
    perfect_matching,
    same_half,
)
from clubdesk.pairing.types import Entrant, PairingImpossible

__all__ = ["alive", "explain_lives", "pair_lives", "rank_lives"]


def _lives(e: Entrant) -> int:
    if e.lives is None:
        raise PairingImpossible(_("{id} has no number of lives: this is not a lives event.").format(id=e.id))
    return e.lives


def alive(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The entrants still in: those with at least one life left (T4g)."""
    return [e for e in entrants if _lives(e) > 0]


def rank_lives(entrants: Sequence[Entrant]) -> list[Entrant]:
    """Rank order of a lives event: lives left, score, rating (descending), then id."""
    return sorted(entrants, key=lambda e: (-_lives(e), -e.score, -e.rating, e.id))


def pair_lives(entrants: Sequence[Entrant], *, seed: int = 0) -> list[tuple[str, str | None]]:
    """Pair one round of a lives event (rule T4g).

    Entrants without lives left are out and are not paired. Returns one pair per table, best-ranked table
    first, the better-ranked entrant first, and at most one ``(id, None)`` bye (last). Raises
    :class:`PairingImpossible` when fewer than two entrants have lives left (the event is over). The result is
    determined by the entrants; ``seed`` is accepted for the common engine interface and does not change it.
    """
    del seed
    check_ids(entrants)
    ranked = rank_lives(alive(entrants))
    n = len(ranked)
    if n < 2:
        raise PairingImpossible(_("Fewer than two entrants have lives left: the event is over."))
    lives = [_lives(e) for e in ranked]
    ids = {e.id: i for i, e in enumerate(ranked)}
    met = [{ids[o] for o in e.opponents if o in ids} for e in ranked]
    pos, size = group_positions(lives)
    n_pairs = n // 2
    spread = lives[0] - lives[-1]
    d2max = spread * spread
    mult = combine([n, n_pairs, n_pairs * d2max, n_pairs * n, n_pairs * n, n_pairs])
    edges: list[tuple[int, int, int]] = []
    for i in range(n):
        for j in range(i + 1, n):
            d = lives[i] - lives[j]
            w = (0 if j in met[i] else mult[1]) + (d2max - d * d) * mult[2]  # rule T4g: within equal lives
            if d == 0:
                w += (n - half_penalty(i, j, pos, size)) * mult[3] + n * mult[4]
                w += 1 - same_half(i, j, pos, size)
            else:
                w += n * mult[3] + (n - (j - i)) * mult[4] + 1
            edges.append((i, j, w))
    if n % 2 == 1:
        # rule T4g: the bye to the fewest lives left, then the fewest byes, then the lowest rank
        preference = sorted(range(n), key=lambda i: (lives[i], ranked[i].byes, -i))
        for place, i in enumerate(preference):
            edges.append((i, n, (n - place) * mult[0]))
    mate = perfect_matching(n + n % 2, edges)
    assert mate is not None  # the graph is complete
    return pairs_from_mate(ranked, mate)


def explain_lives(entrants: Sequence[Entrant], pairs: Sequence[tuple[str, str | None]]) -> list[str]:
    """One line per pair of a lives round (in the order of ``pairs``): the lives group and ranks within it,
    who floated to another lives group and why, the bye, and an unavoidable rematch."""
    ranked = rank_lives(alive(entrants))
    lines, index = explain(
        ranked,
        pairs,
        _lives,
        _("lives"),
        lambda a, g: _("{a} gets the bye (lives {g}): the fewest lives left, then the fewest byes").format(
            a=a, g=g
        ),
    )
    out: list[str] = []
    for line, (a, b) in zip(lines, pairs, strict=True):
        if b is not None and b in ranked[index[a]].opponents:
            line = "; ".join([line, _("a rematch: this field allows no fewer rematches")])
        out.append(line)
    return out
