"""Swiss pairing (rule T4e, club protection T4b) as one maximum-weight matching.

Every round is solved as a single maximum-weight perfect matching (rustworkx's Edmonds blossom algorithm) on
a graph whose vertices are the entrants, plus one dummy vertex for the bye when the field is odd. Edges exist
only where the hard rules allow a pairing (no rematch, no second bye), so *every* perfect matching is a legal
round and a missing perfect matching means no legal round exists.

Each edge weight is one integer made of bit fields, one per criterion, in priority order (as bbpPairings
does): a field's multiplier exceeds the largest total that all lower fields can reach over a whole matching,
so maximising the sum maximises the criteria lexicographically. Criteria, highest first:

1. as many pairs as possible (the matching is searched at maximum cardinality and must be perfect);
2. the bye to the lowest-ranked entrant who has not had one;
3. the smallest sum over pairs of (score difference)²;
4. with ``club_protection`` (T4b): the fewest pairs of the same club;
5. within each score group of ``g`` entrants, ``k = g // 2``: the smallest sum over pairs of the group of
   | (rank distance within the group) − k |  (1st v (k+1)th, 2nd v (k+2)th, ...);
6. (tie-breaks only) a floater meets the nearest-ranked entrant of the other group, then as few pairs as
   possible inside one half of a score group (the top half stays intact, as in the Dutch system).

Speed without losing optimality: if the lowest-ranked entrant without a bye can take the bye, every optimal
pairing gives it to him (criterion 2 comes first), which fixes, for each cut between two consecutive score
groups, whether an odd number of the others lies above it and so must be crossed by some pair. That yields,
for each pair of score groups, a lower bound on the sum of squares of any pairing that contains such a pair
(``_SwissGraph.lower_bounds``). The matching is first solved on the edges whose bound is the least possible
(pairs within a group and single floats across "odd" cuts), then on more if needed. When it finds a pairing
of cost C, every pair of an optimal pairing has a bound ≤ C; so if all edges with bound ≤ C were in the graph,
the pairing is optimal on the complete graph, otherwise one more matching on exactly those edges is. Only when
that bye is impossible is the complete graph used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice

import rustworkx as rx

from clubdesk.i18n import _
from clubdesk.pairing.types import Entrant, PairingImpossible

__all__ = ["explain_swiss", "pair_swiss", "rank_swiss", "swiss_criteria"]


# ----------------------------------------------------------------------------------------------------
# Shared matching machinery (also used by lives.py)
# ----------------------------------------------------------------------------------------------------


def combine(fields_bounds: Sequence[int]) -> list[int]:
    """Multipliers for lexicographic bit fields.

    ``fields_bounds[k]`` is the largest total field ``k`` can reach over one matching (fields highest
    priority first). The multiplier of field k exceeds the largest total of all lower fields together.
    """
    mult = [1] * len(fields_bounds)
    for k in range(len(fields_bounds) - 2, -1, -1):
        mult[k] = mult[k + 1] * (fields_bounds[k + 1] + 1)
    return mult


def _identity(x: int) -> int:
    return x


_EDGE_CHUNK = 8192  # edges handed to the graph at a time (never the whole list in memory)


def perfect_matching(n_nodes: int, edges: Iterable[tuple[int, int, int]]) -> dict[int, int] | None:
    """Maximum-weight perfect matching of ``n_nodes`` vertices, or ``None`` when none is perfect. The
    edges are added in chunks as they come: round 1 of 1,024 entrants has 523,776 of them, and a list of
    them all as Python tuples cost more memory than the graph itself (pairing 1,024 <= 100 MB)."""
    if n_nodes == 0:
        return {}
    graph: rx.PyGraph[None, int] = rx.PyGraph(multigraph=False)
    graph.add_nodes_from([None] * n_nodes)
    it = iter(edges)
    while chunk := list(islice(it, _EDGE_CHUNK)):
        graph.add_edges_from(chunk)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=_identity)
    if 2 * len(matching) != n_nodes:
        return None
    mate: dict[int, int] = {}
    for a, b in matching:
        mate[a] = b
        mate[b] = a
    return mate


def check_ids(entrants: Sequence[Entrant]) -> None:
    seen: set[str] = set()
    for e in entrants:
        if e.id in seen:
            raise ValueError(_("The entrant {id} is listed twice.").format(id=e.id))
        seen.add(e.id)


def pairs_from_mate(ranked: Sequence[Entrant], mate: dict[int, int]) -> list[tuple[str, str | None]]:
    """Pairs in table order: best-ranked table first, better-ranked entrant first, the bye last."""
    n = len(ranked)
    pairs: list[tuple[str, str | None]] = []
    bye: tuple[str, str | None] | None = None
    for i in range(n):
        j = mate[i]
        if j == n:
            bye = (ranked[i].id, None)
        elif i < j:
            pairs.append((ranked[i].id, ranked[j].id))
    if bye is not None:
        pairs.append(bye)
    return pairs


def group_positions(values: Sequence[int]) -> tuple[list[int], list[int]]:
    """For entrants in rank order with group values (scores or lives, non-increasing), each one's position
    within its group (0-based) and its group's size."""
    pos = [0] * len(values)
    size = [0] * len(values)
    start = 0
    for i in range(1, len(values) + 1):
        if i == len(values) or values[i] != values[start]:
            for j in range(start, i):
                pos[j] = j - start
                size[j] = i - start
            start = i
    return pos, size


def half_penalty(i: int, j: int, pos: Sequence[int], size: Sequence[int]) -> int:
    """| rank distance within the group − k | for a pair of the same group of 2k (or 2k+1) entrants."""
    return abs(abs(pos[i] - pos[j]) - size[i] // 2)


def same_half(i: int, j: int, pos: Sequence[int], size: Sequence[int]) -> int:
    """1 when both entrants of a pair of the same group sit in the same half (top k or the rest)."""
    k = size[i] // 2
    return 1 if (pos[i] < k) == (pos[j] < k) else 0


# ----------------------------------------------------------------------------------------------------
# Swiss
# ----------------------------------------------------------------------------------------------------


def rank_swiss(entrants: Sequence[Entrant]) -> list[Entrant]:
    """Entrants in Swiss rank order: score, then rating (both descending), then id (rule T4e)."""
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))


@dataclass(frozen=True)
class SwissCriteria:
    """The criteria of one Swiss round, for comparing pairings (lower is better for each, in order)."""

    pairs: int
    bye_rank: int  # rank (0 = best) of the bye; higher is better, -1 without a bye
    squares: int
    same_club: int
    half: int

    def key(self) -> tuple[int, int, int, int, int]:
        """A tuple that sorts the better pairing first."""
        return (-self.pairs, -self.bye_rank, self.squares, self.same_club, self.half)


def swiss_criteria(
    entrants: Sequence[Entrant], pairs: Sequence[tuple[str, str | None]], *, club_protection: bool = False
) -> SwissCriteria:
    """Evaluate a Swiss round against criteria 1-5 of :func:`pair_swiss` (no legality check)."""
    ranked = rank_swiss(entrants)
    index = {e.id: i for i, e in enumerate(ranked)}
    pos, size = group_positions([e.score for e in ranked])
    n_pairs = 0
    bye_rank = -1
    squares = same_club = half = 0
    for a, b in pairs:
        if b is None:
            bye_rank = index[a]
            continue
        i, j = index[a], index[b]
        n_pairs += 1
        ea, eb = ranked[i], ranked[j]
        squares += (ea.score - eb.score) ** 2
        if club_protection and ea.club is not None and ea.club == eb.club:
            same_club += 1
        if ea.score == eb.score:
            half += half_penalty(i, j, pos, size)
    return SwissCriteria(n_pairs, bye_rank, squares, same_club, half)


class _SwissGraph:
    """Vertices 0..n-1 = entrants in rank order, n = the bye (odd fields only)."""

    def __init__(self, ranked: list[Entrant], club_protection: bool) -> None:
        self.ranked = ranked
        n = self.n = len(ranked)
        self.odd = n % 2 == 1
        ids = {e.id: i for i, e in enumerate(ranked)}
        self.met: list[set[int]] = [{ids[o] for o in e.opponents if o in ids} for e in ranked]
        self.scores = [e.score for e in ranked]
        self.pos, self.size = group_positions(self.scores)
        self.eligible = [i for i in range(n) if ranked[i].byes == 0]
        n_pairs = n // 2
        spread = (self.scores[0] - self.scores[-1]) if n else 0
        self.d2max = spread * spread
        self.club_protection = club_protection
        bounds = [
            n,  # bye rank + 1 (one bye edge)
            n_pairs * self.d2max,  # d2max - d²
            n_pairs if club_protection else 0,  # 1 when not the same club
            n_pairs * n,  # n - half penalty
            n_pairs * n,  # n - rank distance of a floater
            n_pairs,  # 1 unless both sit in the same half of their group
        ]
        self.mult = combine(bounds)
        # groups: (score, first index, end index)
        self.groups: list[tuple[int, int, int]] = []
        start = 0
        for i in range(1, n + 1):
            if i == n or self.scores[i] != self.scores[start]:
                self.groups.append((self.scores[start], start, i))
                start = i

    def weight(self, i: int, j: int) -> int:
        ei, ej = self.ranked[i], self.ranked[j]
        d = ei.score - ej.score
        m = self.mult
        w = (self.d2max - d * d) * m[1]
        if self.club_protection and (ei.club is None or ei.club != ej.club):
            w += m[2]
        n = self.n
        if d == 0:
            pos, size = self.pos, self.size
            w += (n - half_penalty(i, j, pos, size)) * m[3] + n * m[4] + (1 - same_half(i, j, pos, size))
        else:
            w += n * m[3] + (n - abs(i - j)) * m[4] + 1
        return w

    def edges(
        self, allowed: set[tuple[int, int]] | None, byes: Sequence[int]
    ) -> Iterator[tuple[int, int, int]]:
        """Legal edges between the score groups ``allowed`` (pairs of group indices, all when None), plus
        the bye edges of ``byes``, one at a time."""
        groups = self.groups
        weight = self.weight
        for ga, (_sa, a0, a1) in enumerate(groups):
            for gb in range(ga, len(groups)):
                if allowed is not None and (ga, gb) not in allowed:
                    continue
                _sb, b0, b1 = groups[gb]
                for i in range(a0, a1):
                    met = self.met[i]
                    for j in range(max(b0, i + 1), b1):
                        if j not in met:
                            yield (i, j, weight(i, j))
        if self.odd:
            m0 = self.mult[0]
            for i in byes:
                yield (i, self.n, (i + 1) * m0)

    def squares(self, mate: dict[int, int]) -> int:
        return sum((self.scores[i] - self.scores[j]) ** 2 for i, j in mate.items() if i < j < self.n)

    def lower_bounds(self, bye: int | None) -> dict[tuple[int, int], int]:
        """For each pair of score groups (a, b): a lower bound on Σ (score difference)² of any complete
        pairing with ``bye`` as the bye that contains a pair of groups a and b.

        A cut between consecutive score groups c and c+1 (width w_c) must be crossed by at least one pair
        when an odd number of the paired entrants lie above it, and a pair crossing several cuts costs at
        least the sum of their w². A pair of groups a ≤ b costs (s_a − s_b)² itself and crosses the cuts
        a..b−1, which flips their parity for the rest of the field.
        """
        groups = self.groups
        cuts = len(groups) - 1
        width2 = [(groups[c][0] - groups[c + 1][0]) ** 2 for c in range(cuts)]
        odd = []
        for c in range(cuts):
            above = groups[c][2] - (1 if bye is not None and bye < groups[c][2] else 0)
            odd.append(above % 2)
        base = sum(w for w, o in zip(width2, odd, strict=True) if o)
        bounds: dict[tuple[int, int], int] = {}
        for a in range(len(groups)):
            flip = 0
            for b in range(a, len(groups)):
                if b > a:
                    c = b - 1  # crossing cut c flips its parity: odd → even saves w², even → odd costs w²
                    flip += width2[c] * (1 - 2 * odd[c])
                bounds[(a, b)] = (groups[a][0] - groups[b][0]) ** 2 + base + flip
        return bounds

    def solve(self) -> dict[int, int] | None:
        """The optimal perfect matching, certified on small graphs first (see the module docstring)."""
        n = self.n
        n_nodes = n + 1 if self.odd else n
        if self.odd and not self.eligible:
            return None
        best_bye = self.eligible[-1] if self.odd else None
        byes = [best_bye] if best_bye is not None else []
        bounds = self.lower_bounds(best_bye)
        floor = bounds[(0, 0)]
        top = max(bounds.values())
        slack = 0
        while True:
            limit = floor + slack
            allowed = {g for g, v in bounds.items() if v <= limit}
            mate = perfect_matching(n_nodes, self.edges(allowed, byes))
            if mate is not None:
                cost = self.squares(mate)
                if cost > limit:
                    # every pair of an optimal pairing has a bound ≤ its cost ≤ this cost
                    mate = perfect_matching(
                        n_nodes, self.edges({g for g, v in bounds.items() if v <= cost}, byes)
                    )
                return mate
            if limit >= top:
                break
            slack = 2 if slack == 0 else 2 * slack
        # the lowest-ranked entrant without a bye cannot take it: solve the complete graph
        return perfect_matching(n_nodes, self.edges(None, self.eligible))


def _impossible_reason(ranked: list[Entrant]) -> str:
    n = len(ranked)
    ids = {e.id for e in ranked}
    if n % 2 == 1 and all(e.byes > 0 for e in ranked):
        return _("The field is odd and every entrant has already had a bye.")
    for e in ranked:
        if n > 1 and ids - {e.id} <= e.opponents:
            return _("{id} has already played every other entrant.").format(id=e.id)
    return _("No pairing of the whole field avoids a rematch or a second bye.")


def pair_swiss(
    entrants: Sequence[Entrant], *, seed: int = 0, club_protection: bool = False
) -> list[tuple[str, str | None]]:
    """Pair one Swiss round (rules T4e and, with ``club_protection``, T4b).

    Returns one pair per table, best-ranked table first, the better-ranked entrant first, and at most one
    ``(id, None)`` bye (last). Rank = score, then rating (descending), then id. Raises
    :class:`PairingImpossible` when no pairing avoids every rematch and second bye. The result is fully
    determined by the ranks; ``seed`` is accepted for the common engine interface and does not change it.
    """
    del seed  # the Swiss order is fixed by the ranks (T4a: still reproducible)
    check_ids(entrants)
    ranked = rank_swiss(entrants)
    if not ranked:
        return []
    graph = _SwissGraph(ranked, club_protection)
    mate = graph.solve()
    if mate is None:
        raise PairingImpossible(_impossible_reason(ranked))
    return pairs_from_mate(ranked, mate)


# ----------------------------------------------------------------------------------------------------
# Explanations
# ----------------------------------------------------------------------------------------------------


def explain(
    ranked: list[Entrant],
    pairs: Sequence[tuple[str, str | None]],
    group_of: Callable[[Entrant], int],
    group_word: str,
    bye_line: Callable[[str, int], str],
) -> tuple[list[str], dict[str, int]]:
    """Score-group / float / bye lines shared by Swiss and lives (``group_word`` is already translated)."""
    index = {e.id: i for i, e in enumerate(ranked)}
    pos, size = group_positions([group_of(e) for e in ranked])
    # floaters into each group from a higher one, to tell an odd group from a blocked one
    incoming: dict[int, int] = {}
    for a, b in pairs:
        if b is not None and group_of(ranked[index[a]]) != group_of(ranked[index[b]]):
            lower = min(group_of(ranked[index[a]]), group_of(ranked[index[b]]))
            incoming[lower] = incoming.get(lower, 0) + 1
    group_ids: dict[int, set[str]] = {}
    for e in ranked:
        group_ids.setdefault(group_of(e), set()).add(e.id)
    lines: list[str] = []
    for a, b in pairs:
        ea = ranked[index[a]]
        ga = group_of(ea)
        if b is None:
            lines.append(bye_line(a, ga))
            continue
        eb = ranked[index[b]]
        gb = group_of(eb)
        i, j = index[a], index[b]
        if ga == gb:
            if half_penalty(i, j, pos, size) == 0:
                how = _("top half against bottom half")
            else:
                how = _("moved off the top-half-against-bottom-half order by a rematch, bye, float or club")
            lines.append(
                _("{group} {g}: no. {pa} {a} plays no. {pb} {b} of {size}, {how}").format(
                    group=group_word, g=ga, pa=pos[i] + 1, a=a, pb=pos[j] + 1, b=b, size=size[i], how=how
                )
            )
            continue
        high, low, gh, gl = (ea, eb, ga, gb) if ga > gb else (eb, ea, gb, ga)
        if (size[index[high.id]] + incoming.get(gh, 0)) % 2 == 1:
            why = _("the group has an odd number of entrants")
        elif group_ids[gh] - {high.id} <= high.opponents:
            why = _("{a} has already played everyone else in the group").format(a=high.id)
        else:
            why = _("the group cannot be paired completely without a rematch or a worse float")
        lines.append(
            _("{a} floats down from {group} {gh} to play {b} of {group} {gl}: {why}").format(
                a=high.id, group=group_word, gh=gh, b=low.id, gl=gl, why=why
            )
        )
    return lines, index


def _club_notes(
    entrants: Sequence[Entrant],
    pairs: Sequence[tuple[str, str | None]],
    unprotected: Sequence[tuple[str, str | None]],
) -> dict[str, str]:
    """For each entrant whose unprotected pairing was a same-club pair that protection avoided: a note."""
    by_id = {e.id: e for e in entrants}
    taken = {frozenset(p) for p in pairs if p[1] is not None}
    notes: dict[str, str] = {}
    for a, b in unprotected:
        if b is None or frozenset((a, b)) in taken:
            continue
        club = by_id[a].club
        if club is not None and club == by_id[b].club:
            note = _("club clash avoided: {a} and {b} are both of {club}").format(a=a, b=b, club=club)
            notes[a] = note
            notes[b] = note
    return notes


def _fold(ranked: list[Entrant]) -> list[tuple[str, str | None]] | None:
    """The unprotected pairing of a field that is one score group with no rematch and no bye received
    (round 1), without a matching: 1st v (k+1)th, 2nd v (k+2)th, ..., the bye to the last; None otherwise.

    It is the only pairing with every half penalty 0 (criterion 5) once criterion 2 gives the bye to the
    lowest-ranked entrant and criteria 3 and 4 (without club protection) weigh every pair alike, so
    :func:`pair_swiss` finds exactly this one."""
    ids = {e.id for e in ranked}
    if any(e.score != ranked[0].score or e.byes or e.opponents & ids for e in ranked):
        return None
    n = len(ranked)
    k = n // 2
    pairs: list[tuple[str, str | None]] = [(ranked[i].id, ranked[i + k].id) for i in range(k)]
    if n % 2:
        pairs.append((ranked[-1].id, None))
    return pairs


def _unprotected(entrants: Sequence[Entrant], ranked: list[Entrant]) -> list[tuple[str, str | None]]:
    """The pairing without club protection (T4b), for the notes of the clashes protection avoided: none
    to find when no two entrants share a club; round 1 by :func:`_fold`; else the engine once more."""
    check_ids(entrants)  # as pair_swiss would
    clubs = [e.club for e in entrants if e.club is not None]
    if len(clubs) == len(set(clubs)):
        return []  # a note needs a same-club pair, and no two entrants share a club
    fold = _fold(ranked)
    if fold is not None:
        return fold
    try:
        return pair_swiss(entrants)
    except PairingImpossible:
        return []


def explain_swiss(
    entrants: Sequence[Entrant], pairs: Sequence[tuple[str, str | None]], *, club_protection: bool = False
) -> list[str]:
    """One line per pair of a Swiss round (in the order of ``pairs``): the score group and the ranks within
    it, who floated and why, the bye, and a club clash avoided or unavoidable (T4b)."""
    ranked = rank_swiss(entrants)
    lines, _index = explain(
        ranked,
        pairs,
        lambda e: e.score,
        _("score group"),
        lambda a, g: _(
            "{a} gets the bye (score group {g}): the lowest-ranked entrant who can take it"
        ).format(a=a, g=g),
    )
    if not club_protection:
        return lines
    by_id = {e.id: e for e in entrants}
    notes = _club_notes(entrants, pairs, _unprotected(entrants, ranked))
    out: list[str] = []
    for line, (a, b) in zip(lines, pairs, strict=True):
        extra = [notes[x] for x in dict.fromkeys((a, b)) if x is not None and x in notes]
        if b is not None and by_id[a].club is not None and by_id[a].club == by_id[b].club:
            extra.append(_("same club ({club}): no better pairing avoids it").format(club=by_id[a].club))
        out.append("; ".join([line, *dict.fromkeys(extra)]))
    return out
