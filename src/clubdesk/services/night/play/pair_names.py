"""Pairing explanations in names: "Ayşe plays Mehmet", "same club (Kadıköy TK)", never the
internal entrant ids or club keys ("no. 1 73 plays no. 4 69", "same club (club2)"), and worked out again
for a pairing changed by hand in the wizard.

The engines explain with ids (they are pure and know no names). :func:`named` runs an explainer on the same
entrants with each id and club key replaced by a token that sorts exactly as the id does (so the engine's
rank order, which breaks ties by id, is unchanged), then writes the names in for the tokens.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.models.club import Club
from clubdesk.models.event import Event
from clubdesk.pairing import Entrant, explain_lives, explain_swiss
from clubdesk.standings.records import PointsScheme

Pairs = Sequence[tuple[str, str | None]]


ID_MARK = "\x01"  # lower than any character of an id: a token sorts exactly as its id does


CLUB_MARK = "\x02"
_ID_TOKEN = re.compile(f"{ID_MARK}([^{ID_MARK}]*){ID_MARK}")
_CLUB_TOKEN = re.compile(f"{CLUB_MARK}([^{CLUB_MARK}]*){CLUB_MARK}")


def club_names(s: Session) -> dict[str, str]:
    """The field's club keys ("club<id>", ``proposal.the_field``) to the clubs' names."""
    return {f"club{cid}": name for cid, name in s.execute(select(Club.id, Club.name)).all()}


def named(
    explain: Callable[..., list[str]],
    entrants: Sequence[Entrant],
    pairs: Pairs,
    names: Mapping[str, str],
    clubs: Mapping[str, str],
    **options: object,
) -> list[str]:
    """``explain(entrants, pairs, **options)`` with names written in for ids and club keys."""

    def tok(e: str) -> str:
        return f"{ID_MARK}{e}{ID_MARK}"

    def ctok(c: str | None) -> str | None:
        return None if c is None else f"{CLUB_MARK}{c}{CLUB_MARK}"

    ents = [
        dataclasses.replace(
            e, id=tok(e.id), club=ctok(e.club), opponents=frozenset(tok(o) for o in e.opponents)
        )
        for e in entrants
    ]
    tpairs = [(tok(a), None if b is None else tok(b)) for a, b in pairs]
    lines = explain(ents, tpairs, **options)
    # every token written over in one pass per line (not one replace per entrant and line)
    ids = {e.id for e in entrants}
    known = {e.club for e in entrants if e.club is not None}

    def name(m: re.Match[str]) -> str:
        e = m.group(1)
        return names.get(e, e) if e in ids else e

    def club(m: re.Match[str]) -> str:
        c = m.group(1)
        return clubs.get(c, c) if c in known else c

    out: list[str] = []
    for line in lines:
        line = _ID_TOKEN.sub(name, line)
        line = _CLUB_TOKEN.sub(club, line)
        out.append(line.replace(ID_MARK, "").replace(CLUB_MARK, ""))
    return out


def with_names(line: str, ids: Sequence[str], names: Mapping[str, str]) -> str:
    """``line`` of an engine that writes entrant ids (a league's or a bracket's match) with the names of
    ``ids`` written in, whole words only ("64 vs 65" → "Ayu / Budi vs Eko / Sri"; "164" stays)."""
    for e in ids:
        if e in names:
            line = _write_word(line, e, names[e])
    return line


def _write_word(line: str, word: str, by: str) -> str:
    """``line`` with ``word`` (a whole word) written as ``by``, taken as it is (no backslash escapes)."""
    return re.sub(rf"(?<![\w]){re.escape(word)}(?![\w])", lambda _m: by, line)


def explain_round(
    s: Session,
    ev: Event,
    number: int,
    fld: formats.Field,
    played: Sequence[formats.Played],
    scheme: PointsScheme,
    pairs: Pairs,
    names: Mapping[str, str],
    lives: int | None = None,
) -> list[str] | None:
    """The explanation of a Swiss or lives round's pairs, in names; None for the other formats."""
    fmt = ev.format
    clubs = club_names(s)
    if fmt == "lives":
        ents = formats.pairing_entrants(fld, played, scheme, lives=lives)
        return named(explain_lives, ents, pairs, names, clubs)
    if fmt == "swiss":
        ents = formats.pairing_entrants(fld, played, scheme)
        return named(explain_swiss, ents, pairs, names, clubs, club_protection=number == 1)
    return None
