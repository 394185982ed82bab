"""The cross-table of an event: every entrant in standings order and, per round, the opponent's
rank and the result, with the side and the score below (rule T12b's order; the cells of
``services.publishing.share.crosstable_data``). Public: names and results only (rule T14)."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer

from clubdesk.i18n import _
from clubdesk.reports.data import CrossTableView, ReportHeader
from clubdesk.reports.frame import Styles, content_width, esc, grid, heads, render


def crosstable(out: str | Path | IO[bytes], header: ReportHeader, data: CrossTableView, legend: str) -> int:
    n = len(data.rounds)
    wide = n > 8
    width = content_width(header, wide)

    def build(st: Styles) -> list[Flowable]:
        story: list[Flowable] = [Paragraph(esc(_("Cross-table")), st.title)]
        if not data.lines:
            story.append(Paragraph(esc(_("No entrant yet.")), st.body))
            return story
        head = [_("Rank"), _("Name"), _("Pts"), *[_("R{n}").format(n=r) for r in data.rounds]]
        rows: list[list[Any]] = [head]
        for line in data.lines:
            cells: list[Any] = []
            for c in line.cells:
                below = " ".join(x for x in (c.side, c.score) if x)
                text = f"<b>{esc(c.text)}</b>" + (f"<br/><font size=6.5>{esc(below)}</font>" if below else "")
                cells.append(Paragraph(text, st.cell_center))
            rows.append([str(line.rank), Paragraph(esc(line.name), st.cell), line.points, *cells])
        cell_w = min(18 * mm, (width - 12 * mm - 13 * mm - 40 * mm) / max(n, 1))
        name_w = width - 12 * mm - 13 * mm - n * cell_w
        widths = [12 * mm, name_w, 13 * mm, *([cell_w] * n)]
        rows[0] = heads(rows[0], widths, center=True)
        story.append(grid(rows, widths, center=(0, 2, *range(3, 3 + n))))
        story.append(Spacer(1, 3 * mm))
        story.append(Paragraph(esc(legend), st.note))
        story.append(
            Paragraph(
                esc(_("Below each result: the side at the table (A first named) and the score.")), st.note
            )
        )
        return story

    return render(out, header, lambda: _("Cross-table"), build, wide=wide)
