"""Seats at a domino table (rules E7, E7b): the tile draw for the lead and the seats, the swap for game 2 of
an encounter, a substitute's seat. Seats 0-3 in playing order, side A (home, E6) at seats 0 and 2."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from clubdesk.competition.errors import CompetitionError
from clubdesk.i18n import _


def tile_rank(tile: tuple[int, int]) -> tuple[int, int]:
    """Higher tile: more pips, then the higher half (6-0 beats 5-1)."""
    return (tile[0] + tile[1], max(tile))


def seat_draw(seed: int, side_a: Sequence[str], side_b: Sequence[str]) -> dict[str, Any]:
    """Rule E7: each player lifts a tile; the highest tile leads; his partner sits opposite; the opponent
    with the higher tile sits to the leader's right (plays right after him). Seats 0-3 in playing order
    with side A (home, E6) at seats 0 and 2; ``leader`` is the leader's seat.

    A tile's value is its pips. Equal tiles (6-3 and 5-4 both 9) where the order matters (for the lead, or
    between the two opponents) are lifted again by the tied players alone, until they differ; every redraw
    is in ``redraws`` (``[{"players": [...], "tiles": {player: tile}}]``) so that the sheet can say so;
    ``tiles`` holds the first lift."""
    if len(side_a) != 2 or len(side_b) != 2:
        raise CompetitionError("seat-draw-four", _("A seat draw needs two players on each side."))
    rng = random.Random(seed)
    tiles = [(i, j) for i in range(7) for j in range(i, 7)]
    lifted = rng.sample(tiles, 4)
    players = [*side_a, *side_b]
    first = dict(zip(players, lifted, strict=True))
    tile_of = dict(first)
    redraws: list[dict[str, Any]] = []

    def pips(p: str) -> int:
        return tile_of[p][0] + tile_of[p][1]

    def settle(group: list[str]) -> str:
        """The highest of ``group``; the players tied on top draw again among themselves (rule E7)."""
        top = [p for p in group if pips(p) == max(pips(q) for q in group)]
        while len(top) > 1:
            held = {tile_of[p] for p in players if p not in top}
            again = rng.sample([t for t in tiles if t not in held], len(top))
            for p, t in zip(top, again, strict=True):
                tile_of[p] = t
            redraws.append(
                {"players": list(top), "tiles": {p: f"{tile_of[p][0]}-{tile_of[p][1]}" for p in top}}
            )
            top = [p for p in top if pips(p) == max(pips(q) for q in top)]
        return top[0]

    leader = settle(players)
    own, other = (side_a, side_b) if leader in side_a else (side_b, side_a)
    partner = own[1] if own[0] == leader else own[0]
    right = settle(list(other))
    left = other[1] if other[0] == right else other[0]
    order = [leader, right, partner, left]  # players 1, 2, 3, 4 of rule E7
    if leader in side_a:
        seats, lead_seat = order, 0
    else:  # rotate so that side A sits at seats 0 and 2
        seats, lead_seat = [order[3], order[0], order[1], order[2]], 1
    return {
        "tiles": {p: f"{t[0]}-{t[1]}" for p, t in first.items()},
        "seats": seats,
        "leader": lead_seat,
        "seed": seed,
        "redraws": redraws,
    }


def seat_draw_note(draw: Mapping[str, Any], names: Mapping[str, str] | None = None) -> str:
    """Rule E7: what the sheet says about equal tiles drawn again ("" when no one drew again)."""
    parts = []
    for r in draw.get("redraws") or []:
        who = [f"{(names or {}).get(p, p)} {r['tiles'][p]}" for p in r["players"]]
        parts.append(", ".join(who))
    if not parts:
        return ""
    return _("Equal tiles drawn again among the tied (E7): {draws}.").format(draws="; ".join(parts))


def swap_seats(seats: Sequence[str], losing_side: int) -> list[str]:
    """Rule E7b: for game 2 of an encounter the pair that lost game 1 swaps seats."""
    out = list(seats)
    i, j = (0, 2) if losing_side == 0 else (1, 3)
    out[i], out[j] = out[j], out[i]
    return out


def substitute(seats: Sequence[str], out_player: str, in_player: str) -> list[str]:
    """Rule E7b: a substitute takes the seat of the player he replaces."""
    if out_player not in seats:
        raise CompetitionError("not-seated", _("{p} is not seated at this table.").format(p=out_player))
    return [in_player if s == out_player else s for s in seats]
