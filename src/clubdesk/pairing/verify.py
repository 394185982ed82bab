"""Independent checker for any proposed pairing (CONTRACTS.md §2).

Like bbpPairings' checker, this module shares NO code with the pairing engines: it re-reads the
hard rules from the entrants' history and lists, in words, every rule the proposed round breaks.
The pairing wizard runs it after every manual edit.

Hard rules checked:
- every pair names known entrants, and nobody plays himself;
- nobody is paired twice and nobody (still in the event) is left out;
- at most one bye, and never a second bye for the same entrant (T4e, T4g);
- no rematch (T4e: "no two players meet twice");
- with ``club_protection``: two entrants of the same club should not meet (T4b); a breach is listed
  too, so the wizard can show it, even though T4b only asks for it "where possible".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from clubdesk.i18n import _
from clubdesk.pairing.types import Entrant


def verify_pairing(
    entrants: Sequence[Entrant],
    pairs: Sequence[tuple[str, str | None]],
    *,
    club_protection: bool = False,
    allow_rematches: bool = False,
) -> list[str]:
    """Every broken hard rule of ``pairs`` in words; ``[]`` when the pairing is valid.

    ``entrants`` are the entrants of the round (an entrant with ``lives == 0`` is out of the event:
    he must not be paired and is not missed when absent). ``allow_rematches`` is for formats that
    permit a second meeting (none of the built-in ones do by default).
    """
    problems: list[str] = []
    by_id: dict[str, Entrant] = {}
    for e in entrants:
        if e.id in by_id:
            problems.append(_("Entrant {id} is listed twice among the entrants.").format(id=e.id))
        by_id[e.id] = e

    def out(e: Entrant) -> bool:
        return e.lives is not None and e.lives <= 0

    seen: Counter[str] = Counter()
    byes: list[str] = []
    for table, (a, b) in enumerate(pairs, start=1):
        names = [a] if b is None else [a, b]
        for name in names:
            seen[name] += 1
            if name not in by_id:
                problems.append(
                    _("Table {table}: {id} is not an entrant of this round.").format(table=table, id=name)
                )
            elif out(by_id[name]):
                problems.append(
                    _("Table {table}: {id} has no lives left and is out of the event.").format(
                        table=table, id=name
                    )
                )
        if b is None:
            byes.append(a)
            ea = by_id.get(a)
            if ea is not None and ea.byes > 0:
                problems.append(
                    _("Table {table}: {id} would receive a second bye (already had {n}).").format(
                        table=table, id=a, n=ea.byes
                    )
                )
            continue
        if a == b:
            problems.append(_("Table {table}: {id} is paired with himself.").format(table=table, id=a))
            continue
        ea, eb = by_id.get(a), by_id.get(b)
        if ea is None or eb is None:
            continue
        if not allow_rematches and (b in ea.opponents or a in eb.opponents):
            problems.append(
                _("Table {table}: {a} and {b} have already played each other (rematch).").format(
                    table=table, a=a, b=b
                )
            )
        if club_protection and ea.club is not None and ea.club == eb.club:
            problems.append(
                _("Table {table}: {a} and {b} are both from the club {club} (club protection).").format(
                    table=table, a=a, b=b, club=ea.club
                )
            )

    for name, count in sorted(seen.items()):
        if count > 1:
            problems.append(_("{id} is paired {n} times in this round.").format(id=name, n=count))
    for e in entrants:
        if not out(e) and seen[e.id] == 0:
            problems.append(_("{id} is left out of this round.").format(id=e.id))
    if len(byes) > 1:
        problems.append(
            _("There are {n} byes in this round ({ids}); at most one is allowed.").format(
                n=len(byes), ids=", ".join(byes)
            )
        )
    return problems
