"""Who sits where at a dominoes table (gaple pairs, domino-es encounters), by name, for the entry screens.

Seats are numbered as the engines number them (CONTRACTS.md §1): side A at seats 1 and 3, side B at 2
and 4. A gaple pairs table seats its pairs in register order (as the printed score sheet does); a domino-es
encounter uses the seat draw (E7) and, from game 2, the seats after the losers' swap (E7b).
"""

from __future__ import annotations

from sqlalchemy import select

from clubdesk.models.member import Member
from clubdesk.services.kernel import ServiceError
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import table_sides
from clubdesk.storage import Database


def seat_names(
    db: Database, event_id: int, round_no: int, table_no: int, game_no: int = 1
) -> list[str] | None:
    """The players' names at seats 1–4 of a table, or None when the table is not four players (a singles
    or tavla table, a bye, a pair short of a player) or the seats of that game are not known yet."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        family, _params = reads.params_of(ev)
        if family not in ("gaple", "domino"):
            return None
        _rnd, m = reads.find_table(s, ev, round_no, table_no)
        if m.side_b is None:
            return None
        drawn = bool(m.seats)
        a = [x.name for x in reads.entrant_members(s, m.side_a)]
        b = [x.name for x in reads.entrant_members(s, m.side_b)]
    if not drawn:  # pairs in register order, as on the printed sheet
        return [a[0], b[0], a[1], b[1]] if len(a) == 2 and len(b) == 2 else None
    try:  # the seat draw (E7), swapped for game 2 (E7b)
        numbers = table_sides.encounter_seats(db, event_id, round_no, table_no, game_no)
    except ServiceError:
        return None
    if len(numbers) != 4:
        return None
    with db.session() as s:
        rows = s.execute(select(Member.number, Member.name).where(Member.number.in_(numbers))).all()
        names = {str(number): str(name) for number, name in rows}
    return [names.get(n, n) for n in numbers]
