"""The proposed round as the pairing wizard shows it before anything is published: each table with its sides
by name and the reason for that pairing (the explanation line that names both sides), and the lines that
explain the round as a whole (a Berger table, a requested bye of several entrants)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from clubdesk.services.night.data.reads import RoundView


@dataclass(frozen=True)
class ProposedTable:
    table: int
    sides: tuple[str, str | None]  # names; None: a bye
    kind: str  # "played", "bye" or a requested bye's kind
    reason: str  # why these two meet (or why this side has the bye); "" when only the round says why


@dataclass(frozen=True)
class ProposalSummary:
    round: int
    seed: int
    tables: tuple[ProposedTable, ...]
    notes: tuple[str, ...]  # lines about the round as a whole


def _names_in(line: str, names: list[str]) -> bool:
    """Every one of ``names`` is in ``line`` as a whole word ("E1" is not in "E11")."""
    return all(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", line) for name in names)


def proposal_summary(rv: RoundView) -> ProposalSummary:
    """``rv``'s tables in table order, each with the explanation line of its pairing (the line naming its
    sides, the first unused one); lines naming no single table are the round's notes."""
    lines = list(rv.explanations)
    used: set[int] = set()
    tables: list[ProposedTable] = []
    for t in sorted(rv.tables, key=lambda x: x.table):
        names = [n for n in t.names if n]
        reason = ""
        for i, line in enumerate(lines):
            if i not in used and names and _names_in(line, names):
                others = [m for o in rv.tables if o is not t for m in o.names if m and m not in names]
                if t.sides[1] is None and any(_names_in(line, [m]) for m in others):
                    continue  # a line naming several byes is about the round
                used.add(i)
                reason = line
                break
        tables.append(ProposedTable(t.table, (t.names[0], t.names[1]), t.kind, reason))
    notes = tuple(line for i, line in enumerate(lines) if i not in used)
    return ProposalSummary(rv.round, rv.seed, tuple(tables), notes)
