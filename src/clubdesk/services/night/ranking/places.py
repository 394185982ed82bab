"""Place ranges (T12a): bracket places, lives places or the standings' ranks, ties sharing one range;
the disqualified get no place and everybody below moves up (T9c). The standings shown and the final
places stored when an event ends read the same ranges.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.models.event import Event
from clubdesk.models.round import EventNight
from clubdesk.services.night.data import reads
from clubdesk.standings.places import elimination_places
from clubdesk.standings.table import Standings


def _without(places: dict[str, tuple[int, int]], gone: set[str]) -> dict[str, tuple[int, int]]:
    """Rule T9c: the disqualified leave the places; everybody below moves up, groups that shared a
    place (T12a) keep sharing it (places 1, 2, 3–4 without the winner: 1, 2–3)."""
    if not gone & set(places):
        return places
    kept = {e: p for e, p in places.items() if e not in gone}
    groups = sorted(set(kept.values()))
    new: dict[tuple[int, int], tuple[int, int]] = {}
    pos = 1
    for g in groups:
        size = sum(1 for p in kept.values() if p == g)
        new[g] = (pos, pos + size - 1)
        pos += size
    return {e: new[p] for e, p in kept.items()}


def place_ranges(
    s: Session, ev: Event, n: EventNight, played: list[formats.Played], st: Standings
) -> dict[str, tuple[int, int]]:
    """Place ranges: bracket places (T12a), lives places, or the standings' ranks (ties share).
    Disqualified entrants get no place (T9c)."""
    if ev.format in formats.ELIMINATION:
        stt = reads.state_of(n)
        if "bracket" in stt:
            return _without(
                formats.bracket_with_results(stt["bracket"], played).places(),
                set(reads.disqualified_ids(s, ev)),
            )
        return {}
    if ev.format == "lives":
        ids = [r.entrant for r in st.rows]
        left = formats.lives_left(ids, played, n.lives)
        out_round: dict[str, int | None] = {}
        for e in ids:
            lost = 0
            out_round[e] = None
            for p in sorted(played, key=lambda x: x.round):
                if p.loser() == e:
                    lost += 1
                    if lost >= n.lives:
                        out_round[e] = p.round
                        break
        dq = reads.disqualified_ids(s, ev)
        return {
            p.entrant: (p.first, p.last)
            for p in elimination_places(out_round, lives_left=left, disqualified=dq)  # rule T9c
        }
    out: dict[str, tuple[int, int]] = {}
    rows = st.rows
    for r in rows:
        same = [x for x in rows if x.rank == r.rank]
        out[r.entrant] = (r.rank, r.rank + len(same) - 1)
    return out
