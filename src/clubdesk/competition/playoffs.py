"""Rule BC2's play-off among the entrants tied for first: the places it decides and how far it has gone
(:class:`Playoff`); its matches are the event's with refs ``PO1``, ``PO2``... (``formats.is_playoff``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from clubdesk.competition.formats import PLAYOFF_PREFIX, Played


def playoff_places(complete: bool) -> tuple[int, ...]:
    """Rule BC2: the places a tie that survives every tie-break sends to a play-off: first place, once
    the event's regular rounds are all played and confirmed (:func:`formats.schedule_played` and no table
    open); none before, where a tie on points is only the standings of the moment."""
    return (1,) if complete else ()


@dataclass(frozen=True)
class Playoff:
    """Rule BC2: how far the play-off among the entrants tied for first has gone.

    ClubDesk's reading for a tie of two or more: a knockout among the tied, seeded in their standings
    order. Each play-off round pairs the contenders still in, best seed against worst; with an odd number
    the best seed waits (a bye, as the top seeds get in rule T4c). Two tied: one match. Three tied: seeds
    2 and 3 play, the winner meets seed 1. Four tied: 1-4 and 2-3, then the two winners. Each match is a
    normal match of the event (gaple: best of 3). Losers of the same play-off round share a place (T12a).
    """

    tied: tuple[str, ...]
    remaining: tuple[str, ...]
    out_round: Mapping[str, int]  # entrant -> play-off round (1, 2, ...) in which he lost
    matches: int  # play-off matches already played

    @property
    def champion(self) -> str | None:
        return self.remaining[0] if len(self.tied) > 1 and len(self.remaining) == 1 else None

    def next_pairs(self) -> list[tuple[str, str]]:
        """The next play-off round: best remaining seed against worst; the best seed waits when odd."""
        rest = list(self.remaining[1:] if len(self.remaining) % 2 else self.remaining)
        return [(rest[i], rest[-1 - i]) for i in range(len(rest) // 2)]

    def ranks(self) -> dict[str, int]:
        """Places among the tied once the play-off is over: the champion 1, the final's loser 2, the
        losers of the round before share the next places (4 tied: 1, 2, 3, 3)."""
        last = max(self.out_round.values(), default=0) + 1
        lost = {e: self.out_round.get(e, last) for e in self.tied}
        return {e: 1 + sum(1 for x in self.tied if lost[x] > lost[e]) for e in self.tied}


def playoff_progress(tied: Sequence[str], played: Sequence[Played]) -> Playoff:
    """Replay the play-off matches (refs ``PO1``, ``PO2``... in round order) among ``tied``."""
    po = [p for p in played if p.ref.startswith(PLAYOFF_PREFIX)]  # is_playoff inline
    rounds = sorted({p.round for p in po})
    remaining = list(tied)
    out: dict[str, int] = {}
    for i, r in enumerate(rounds, start=1):
        for p in po:
            lo = p.loser()
            if p.round == r and lo in remaining and p.winner in remaining:
                remaining.remove(lo)
                out[lo] = i
    return Playoff(tuple(tied), tuple(remaining), out, len(po))
