"""Standings with the event's tie-break columns, a legend of the codes and every tie explained (T12b, BC2)."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer

from clubdesk.i18n import _
from clubdesk.reports.data import ReportHeader, StandingsData
from clubdesk.reports.frame import HEAD_BG, Styles, content_width, esc, grid, heads, render
from clubdesk.reports.words import TIEBREAK_LEGEND


def standings(out: str | Path | IO[bytes], header: ReportHeader, data: StandingsData) -> int:
    codes = tuple(c for c in data.codes if c != "PTS")
    wide = len(codes) > 5
    width = content_width(header, wide)

    def build(st: Styles) -> list[Flowable]:
        if data.final:
            title = _("Final standings")
        elif data.after_round is not None:
            title = _("Standings after round {n}").format(n=data.after_round)
        else:
            title = _("Standings")
        story: list[Flowable] = [Paragraph(esc(title), st.title)]
        head = [_("Rank"), _("Name"), _("Club"), _("City"), _("Pts"), *codes]
        rows: list[list[Any]] = [head]
        extra: list[tuple[Any, ...]] = []
        for r in data.rows:
            name = r.name
            if r.playoff:
                name += "  ⚑"
            if r.note:
                name += f" ({r.note})"
            rows.append(
                [
                    f"{r.rank}{'=' if r.tied else ''}",
                    Paragraph(esc(name), st.cell),
                    Paragraph(esc(r.club), st.cell),
                    Paragraph(esc(r.city), st.cell),
                    r.points,
                    *[r.tiebreaks.get(c, "") for c in codes],
                ]
            )
        n = len(codes)
        fixed = 12 * mm + 13 * mm + n * 14 * mm
        rest = width - fixed
        widths = [12 * mm, rest * 0.42, rest * 0.33, rest * 0.25, 13 * mm, *([14 * mm] * n)]
        extra.append(("FONT", (4, 1), (4, -1), "DejaVuSansCondensed-Bold", 8.5))
        extra.append(("BACKGROUND", (4, 0), (4, 0), HEAD_BG))
        rows[0] = heads(rows[0], widths)
        story.append(grid(rows, widths, right=range(4, 5 + n), center=(0,), extra=extra))
        story.append(Spacer(1, 4 * mm))
        legend = [f"<b>{esc(c)}</b>: {esc(_(TIEBREAK_LEGEND.get(c, c)))}" for c in ("PTS", *codes)]
        story.append(Paragraph(esc(_("Legend")), st.h2))
        story.append(Paragraph(" · ".join(legend), st.note))
        marks = [_("= still tied after every tie-break")]
        if any(r.playoff for r in data.rows):
            marks.append(_("⚑ a play-off decides this place (BC2)"))
        story.append(Paragraph(esc(" · ".join(marks)), st.note))
        if data.explanations:
            story.append(Paragraph(esc(_("How the ties were broken")), st.h2))
            for line in data.explanations:
                story.append(Paragraph("• " + esc(line), st.note))
        return story

    return render(out, header, lambda: _("Standings"), build, wide=wide)
