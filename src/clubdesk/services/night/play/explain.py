"""Pairing explanations in names: "Ayşe plays Mehmet", "same club (Kadıköy TK)", never the
internal entrant ids or club keys ("no. 1 73 plays no. 4 69", "same club (club2)"), and worked out again
for a pairing changed by hand in the wizard.

The naming itself is :mod:`clubdesk.services.night.play.pair_names` (``rounds`` builds on it when it proposes
a round); the explanation of a proposed round edited by hand is ``proposal.explain_in``.
"""

from __future__ import annotations

from collections.abc import Sequence

from clubdesk.services.night.data import reads
from clubdesk.services.night.play.proposal import explain_in
from clubdesk.storage import Database


def explain_pairing(db: Database, event_id: int, pairs: Sequence[tuple[int, int | None]]) -> list[str] | None:
    """The proposed round's pairs as they are now (after manual swaps in the wizard) explained again, in
    names; None when the format's explanation cannot be worked out again (brackets, fixed schedules)."""
    with db.session() as s:
        return explain_in(s, reads.get_event(s, event_id), pairs)
