"""The desk's clock: payments, refunds, check-ins and withdrawals are stamped with local wall-clock time to
the second, like the event's close and start times, so prices and the cash box follow the club's local day."""

from __future__ import annotations

from datetime import datetime


class DeskClock:
    """One clock for every desk use case (a test sets it to an evening by replacing :meth:`now`)."""

    def now(self) -> datetime:
        return datetime.now().replace(microsecond=0)

    def at(self, when: datetime | None) -> datetime:
        """``when`` if the caller gave one, else the clock's time."""
        return when if when is not None else self.now()


DESK_CLOCK = DeskClock()
