"""What a use case changed, as a typed value (Anki's ``OpChanges`` is the model): a face refreshes what
the value names instead of re-reading a whole round or broadcasting a section name."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Changes:
    """What one change to an event night touched.

    ``tables``: the table numbers of round ``round_no`` whose result or sheet changed. ``entries``: a
    table's sheet (its hands or games) changed. ``approvals``: a side's approval or the confirmation of a
    result was given or taken back (G13, E6, T8c). ``rounds``: a round's state moved (in play, closed).
    ``standings``: the standings may read differently (a table's result counts, or counted, in them).
    ``money``: fees, prizes or the cash box may read differently (the event ended or re-opened: prizes,
    T13). ``event``: the event's own state moved (finished, its places).
    """

    event_id: int
    round_no: int | None = None
    tables: frozenset[int] = frozenset()
    entries: bool = False
    approvals: bool = False
    rounds: bool = False
    standings: bool = False
    money: bool = False
    event: bool = False

    @property
    def nothing(self) -> bool:
        """True when the change touched nothing (a repeated post, stored once already)."""
        return not (
            self.tables
            or self.entries
            or self.approvals
            or self.rounds
            or self.standings
            or self.money
            or self.event
        )

    def merged(self, other: Changes) -> Changes:
        """Both changes at once (same event; tables of another round widen the change to the round's)."""
        if other.event_id != self.event_id:
            raise ValueError("changes of two events do not merge")
        same_round = self.round_no == other.round_no or self.nothing or other.nothing
        round_no = self.round_no if not self.nothing else other.round_no
        return Changes(
            self.event_id,
            round_no if same_round else None,
            self.tables | other.tables if same_round else frozenset(),
            self.entries or other.entries,
            self.approvals or other.approvals,
            self.rounds or other.rounds or not same_round,
            self.standings or other.standings,
            self.money or other.money,
            self.event or other.event,
        )
