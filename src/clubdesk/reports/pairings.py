"""Pairings of a round: by table, and for the notice board by name (public: name, club, city; rule T14)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer

from clubdesk.collation import sort_key
from clubdesk.i18n import _
from clubdesk.reports.data import PairingsData, PairingSide, ReportHeader
from clubdesk.reports.frame import Styles, content_width, esc, grid, heads, render


@dataclass(frozen=True)
class NameLine:
    """One line of the pairings by name: a player (with his pair or team), his table and opponent."""

    name: str
    side: PairingSide
    table: int
    opponent: str


def by_name_lines(data: PairingsData) -> list[NameLine]:
    """The notice board's list, alphabetical: a pair or team under each of its players ("Agus Wijaya
    (Budi Santoso / Agus Wijaya)"), so a player finds his table under his own name, first or second."""
    lines: list[NameLine] = []
    for t in data.tables:
        a, b = t.sides
        for me, other in ((a, b), (b, a)):
            if me is None:
                continue
            opp = other.name if other is not None else _("BYE")
            people = [p for p in me.players if p] if len(me.players) > 1 else [me.name]
            for person in people:
                shown = (
                    person
                    if person == me.name
                    else _("{player} ({side})").format(player=person, side=me.name)
                )
                lines.append(NameLine(shown, me, t.table, opp))
    lines.sort(key=lambda line: (name_key(line.name), line.name, line.table))
    return lines


def name_key(name: str) -> tuple[object, ...]:
    """Alphabetical order for a notice board in the report's language (in force while it is built): Turkish
    C < Ç and ı < i, Spanish n < ñ < o; Ö never after Z."""
    return sort_key(name)


def _who(side: PairingSide, st: Styles) -> Paragraph:
    extra = " · ".join(x for x in (side.club, side.city) if x)
    text = f"<b>{esc(side.name)}</b>"
    if extra:
        text += f' <font size="7">{esc(extra)}</font>'
    return Paragraph(text, st.cell)


def pairings(out: str | Path | IO[bytes], header: ReportHeader, data: PairingsData) -> int:
    width = content_width(header)

    def build(st: Styles) -> list[Flowable]:
        story: list[Flowable] = [Paragraph(esc(_("Pairings, round {n}").format(n=data.round)), st.title)]
        if data.call_time:
            story.append(
                Paragraph(esc(_("Tables are called at {time}.").format(time=data.call_time)), st.body)
            )
            story.append(Spacer(1, 2 * mm))
        rows: list[list[Any]] = [[_("Table"), _("Pts"), _("Side 1"), _("Result"), _("Side 2"), _("Pts")]]
        for t in data.tables:
            a, b = t.sides
            rows.append(
                [
                    str(t.table),
                    a.points,
                    _who(a, st),
                    t.result,
                    _who(b, st) if b is not None else Paragraph(f"<b>{esc(_('BYE'))}</b>", st.cell),
                    b.points if b is not None else "",
                ]
            )
        w = [15 * mm, 13 * mm, 0.0, 18 * mm, 0.0, 13 * mm]
        rest = (width - sum(w)) / 2
        w[2] = w[4] = rest
        rows[0] = heads(rows[0], w, size=9)
        story.append(grid(rows, w, center=(0, 1, 3, 5), font_size=9))
        if data.by_name:
            story.append(PageBreak())
            story.append(Paragraph(esc(_("Pairings by name, round {n}").format(n=data.round)), st.title))
            rows = [[_("Name"), _("Club"), _("Table"), _("Opponent")]]
            for line in by_name_lines(data):
                cells = [Paragraph(esc(x), st.cell) for x in (line.name, line.side.club)]
                rows.append([*cells, str(line.table), Paragraph(esc(line.opponent), st.cell)])
            w2 = [width * 0.34, width * 0.24, width * 0.1, width * 0.32]
            rows[0] = heads(rows[0], w2, size=9)
            story.append(grid(rows, w2, center=(2,), font_size=9))
        return story

    return render(out, header, lambda: _("Pairings"), build)
