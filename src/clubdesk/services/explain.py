"""Pairing explanations in names (issue 20): "Ayşe plays Mehmet", "same club (Kadıköy TK)", never the
internal entrant ids or club keys ("no. 1 73 plays no. 4 69", "same club (club2)"), and worked out again
for a pairing changed by hand in the wizard.

The naming itself is :mod:`clubdesk.services.pair_names` (``rounds`` builds on it when it proposes a
round); the explanation of a proposed round edited by hand is ``rounds.explain_in``. Every old name stays
importable from here (issue 22: no import cycle between ``rounds`` and this module).
"""

from __future__ import annotations

from collections.abc import Sequence

from clubdesk.services import rounds as R
from clubdesk.services.pair_names import CLUB_MARK as CLUB_MARK
from clubdesk.services.pair_names import ID_MARK as ID_MARK
from clubdesk.services.pair_names import Pairs as Pairs
from clubdesk.services.pair_names import club_names as club_names
from clubdesk.services.pair_names import explain_round as explain_round
from clubdesk.services.pair_names import named as named
from clubdesk.services.rounds import explain_in
from clubdesk.storage import Database


def explain_pairing(db: Database, event_id: int, pairs: Sequence[tuple[int, int | None]]) -> list[str] | None:
    """The proposed round's pairs as they are now (after manual swaps in the wizard) explained again, in
    names; None when the format's explanation cannot be worked out again (brackets, fixed schedules)."""
    with db.session() as s:
        return explain_in(s, R.get_event(s, event_id), pairs)
