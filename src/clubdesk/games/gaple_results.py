"""What a gaple sheet comes to: each entry's hand result, the games and the match, and the plain result
shape of CONTRACTS.md §1 (:func:`state_to_dict`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = ["GameState", "HandKind", "HandResult", "MatchState", "NextHand", "state_to_dict"]


class HandKind(StrEnum):
    OUT = "out"
    BLOCK = "block"
    REDEAL = "redeal"
    REPLAY = "replay"  # a drawn duel under duel_tie = "replay" (rule B5)
    SIX_DOUBLES = "six_doubles"
    PENALTY = "penalty"


@dataclass(frozen=True, slots=True)
class HandResult:
    """What one entry did. ``points`` excludes a burn; ``totals`` includes it."""

    index: int
    game: int
    kind: HandKind
    points: tuple[int, int]
    totals: tuple[int, int]
    explanation: str
    pure: int | None = None  # pure value (rule GN4) of a scoring hand
    scorer: int | None = None  # the side the hand's value went to (or would have gone to)
    opened: bool = True  # False when the opening minimum was not reached (GN4, B8)
    warmup: bool = False  # the warm-up hand (G6, G7)
    burned: int | None = None  # the side burned to 0 by this entry (GN6)
    fined: tuple[int, int] = (0, 0)  # caught-double fines (B6)


@dataclass(frozen=True, slots=True)
class GameState:
    hands: tuple[HandResult, ...]
    totals: tuple[int, int]
    winner: int | None


@dataclass(frozen=True, slots=True)
class NextHand:
    """What the sheet needs next (rules G6, G8, G9, G10, G19, B4)."""

    game: int  # index of the game the next entry belongs to
    warmup: bool  # the next hand is the warm-up (G6)
    leader: int | None  # suggested leader seat, None when a tile decides it
    leader_rule: str | None  # the rule behind the suggestion
    opening_tile: str | None  # the tile that must open the next hand ("0-0", "1-0", ...)
    seat_change: bool  # opponents change seats before the next hand (G19)
    # rule B3: tiles that may not lead the next hand (every hand, not only the first); the partner may lead
    barred_leads: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchState:
    games: tuple[GameState, ...]
    games_won: tuple[int, int]
    winner: int | None
    finished: bool
    next: NextHand | None  # None once the match has finished


def _hand_dict(hand: HandResult) -> dict[str, Any]:
    return {
        "points": [hand.points[0], hand.points[1]],
        "totals": [hand.totals[0], hand.totals[1]],
        "kind": hand.kind.value,
        "pure": hand.pure,
        "opened": hand.opened,
        "warmup": hand.warmup,
        "burned": hand.burned,
        "fined": [hand.fined[0], hand.fined[1]],
        "explanation": hand.explanation,
    }


def state_to_dict(state: MatchState) -> dict[str, Any]:
    """The result shape of CONTRACTS.md §1 (plus explanation fields and ``next``)."""
    return {
        "games": [
            {
                "hands": [_hand_dict(h) for h in g.hands],
                "totals": [g.totals[0], g.totals[1]],
                "winner": g.winner,
            }
            for g in state.games
        ],
        "games_won": [state.games_won[0], state.games_won[1]],
        "winner": state.winner,
        "finished": state.finished,
        "next": None if state.next is None else dataclasses.asdict(state.next),
    }
