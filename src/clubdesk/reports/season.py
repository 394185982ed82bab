"""The season ranking with the Super Final line (rule T12d)."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer

from clubdesk.i18n import _
from clubdesk.reports.data import ReportHeader, SeasonData
from clubdesk.reports.frame import ACCENT, Styles, content_width, esc, grid, heads, render


def season(out: str | Path | IO[bytes], header: ReportHeader, data: SeasonData) -> int:
    cols = data.event_columns
    wide = len(cols) > 4
    width = content_width(header, wide)

    def build(st: Styles) -> list[Flowable]:
        story: list[Flowable] = [
            Paragraph(esc(_("Season ranking {season}").format(season=data.season)), st.title)
        ]
        head: list[Any] = [
            _("Rank"),
            _("Name"),
            _("Club"),
            _("City"),
            *cols,
            _("Points"),
        ]
        rows: list[list[Any]] = [head]
        extra: list[tuple[Any, ...]] = []
        for r in data.rows:
            name = r.name + (f" ({r.note})" if r.note else "")
            events = list(r.events) + [""] * (len(cols) - len(r.events))
            rows.append(
                [
                    str(r.rank),
                    Paragraph(esc(name), st.cell),
                    Paragraph(esc(r.club), st.cell),
                    Paragraph(esc(r.city), st.cell),
                    *events,
                    r.points_text or str(r.points),
                ]
            )
        if 0 < data.super_final < len(data.rows):
            # the line under the last player invited to the Super Final
            extra.append(("LINEBELOW", (0, data.super_final), (-1, data.super_final), 2.2, ACCENT))
        n = len(cols)
        colw = 15 * mm if n else 0
        fixed = 12 * mm + 16 * mm + n * colw
        rest = width - fixed
        widths = [12 * mm, rest * 0.42, rest * 0.33, rest * 0.25, *([colw] * n), 16 * mm]
        extra.append(("FONT", (-1, 1), (-1, -1), "DejaVuSansCondensed-Bold", 8.5))
        rows[0] = heads(rows[0], widths)
        story.append(grid(rows, widths, right=range(4, 5 + n), center=(0,), extra=extra))
        story.append(Spacer(1, 3 * mm))
        notes = []
        if data.super_final:
            notes.append(
                _("The first {n} are invited to the Super Final (the line under rank {n}).").format(
                    n=data.super_final
                )
            )
        if data.best_of:
            # rule T12d: only each member's best N results count
            notes.append(
                _("Best {n} of {m} results count; dropped results in brackets.").format(
                    n=data.best_of, m=data.events_total
                )
            )
        else:
            notes.append(_("Every result counts ({m} events).").format(m=data.events_total))
        notes.append(_("Season points = placement points × event coefficient (T12d)."))
        for line in notes:
            story.append(Paragraph(esc(line), st.note))
        return story

    return render(out, header, lambda: _("Season ranking"), build, wide=wide)
