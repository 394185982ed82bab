"""The season ranking (rules T12d, T12e)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SeasonRowData:
    rank: int
    name: str
    points: int
    club: str = ""
    city: str = ""
    events: tuple[str, ...] = ()  # per event column: points, "" not played, "(12)" dropped
    note: str = ""
    points_text: str = ""  # printed instead of ``points`` when set (e.g. "12.50" from centipoints)


@dataclass(frozen=True)
class SeasonData:
    """The season ranking with the Super Final line (rule T12d)."""

    season: str
    event_columns: tuple[str, ...]
    rows: tuple[SeasonRowData, ...]
    super_final: int = 0  # the first N are invited; a line is drawn after them
    best_of: int | None = None
    events_total: int = 0  # events of the season with a final ranking (the M of "best N of M")
