"""Pairing engines (CONTRACTS.md §2). Pure Python: no Qt, no SQL."""

from clubdesk.pairing.types import Entrant, Pair, PairingImpossible

__all__ = ["Entrant", "Pair", "PairingImpossible"]
