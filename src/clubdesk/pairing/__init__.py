"""Pairing engines (CONTRACTS.md §2). Pure Python: no Qt, no SQL."""

from clubdesk.pairing.elimination import bracket_order
from clubdesk.pairing.roundrobin import berger_schedule
from clubdesk.pairing.types import Entrant, Pair, PairingImpossible
from clubdesk.pairing.verify import verify_pairing

__all__ = ["Entrant", "Pair", "PairingImpossible"]
__all__ += ["verify_pairing"]
__all__ += ["berger_schedule"]
from clubdesk.pairing.lives import explain_lives, pair_lives  # noqa: E402
from clubdesk.pairing.swiss import explain_swiss, pair_swiss  # noqa: E402

__all__ += ["explain_lives", "explain_swiss", "pair_lives", "pair_swiss"]
__all__ += ["bracket_order"]
