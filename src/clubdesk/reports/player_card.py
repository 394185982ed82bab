"""A player card: a member's public facts, FIBS rating (rule T12c), the events he played with
his places and results, every result, and (printed for the organiser only, the page marked private) his
incidents. Never a phone or an e-mail (rule T14): the data handed in has no field for them."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer

from clubdesk.i18n import _
from clubdesk.reports.data import PlayerCard, ReportHeader
from clubdesk.reports.frame import Styles, content_width, esc, fmt_date, grid, heads, render


def player_card(out: str | Path | IO[bytes], header: ReportHeader, data: PlayerCard) -> int:
    width = content_width(header)

    def build(st: Styles) -> list[Flowable]:
        story: list[Flowable] = [Paragraph(esc(_("Player card: {name}").format(name=data.name)), st.title)]
        status = _("provisional (first 30 matches)") if data.provisional else _("established")
        facts = [
            [_("Member number"), data.number, _("Rating"), data.rating],
            [_("Club"), data.club, _("City"), data.city],
            [_("Rated matches"), str(data.matches), _("Experience"), str(data.experience)],
            [_("Rating status"), status, "", ""],
        ]
        story.append(
            grid(facts, [width * 0.18, width * 0.32, width * 0.15, width * 0.35], header_rows=0, zebra=False)
        )
        story.append(Paragraph(esc(_("Events played")), st.h2))
        if data.events:
            rows: list[list[Any]] = [
                [_("Date"), _("Event"), _("Game"), _("Place"), _("Result"), _("Season points"), _("Rating")]
            ]
            for e in data.events:
                rows.append(
                    [
                        fmt_date(e.date, header.language, "short") if e.date else "",
                        Paragraph(esc(e.event), st.cell),
                        Paragraph(esc(e.game), st.cell),
                        e.place,
                        Paragraph(esc(e.result), st.cell),
                        e.season_points,
                        e.rating,
                    ]
                )
            fixed = 20 * mm + 14 * mm + 16 * mm + 16 * mm
            rest = width - fixed
            widths = [20 * mm, rest * 0.4, rest * 0.3, 14 * mm, rest * 0.3, 16 * mm, 16 * mm]
            rows[0] = heads(rows[0], widths)
            story.append(grid(rows, widths, right=(5, 6), center=(3,)))
        else:
            story.append(Paragraph(esc(_("No event played yet.")), st.body))
        story.append(Paragraph(esc(_("Results")), st.h2))
        if data.results:
            rows = [
                [
                    _("Event"),
                    _("Round"),
                    _("Table"),
                    _("Opponent"),
                    _("Side"),
                    _("Score"),
                    _("Result"),
                    _("Rating"),
                ]
            ]
            for m in data.results:
                rows.append(
                    [
                        Paragraph(esc(m.event), st.cell),
                        str(m.round),
                        str(m.table),
                        Paragraph(esc(m.opponent), st.cell),
                        m.side,
                        m.score,
                        Paragraph(esc(m.result), st.cell),
                        m.rating,
                    ]
                )
            fixed = 12 * mm + 12 * mm + 10 * mm + 14 * mm + 16 * mm
            rest = width - fixed
            widths = [rest * 0.34, 12 * mm, 12 * mm, rest * 0.4, 10 * mm, 14 * mm, rest * 0.26, 16 * mm]
            rows[0] = heads(rows[0], widths)
            story.append(grid(rows, widths, center=(1, 2, 4, 5), right=(7,)))
        else:
            story.append(Paragraph(esc(_("No result yet.")), st.body))
        if data.incidents_shown:
            story.append(Spacer(1, 2 * mm))
            story.append(Paragraph(esc(_("Incidents (organiser only)")), st.h2))
            if data.incidents:
                rows = [[_("Event"), _("Round"), _("Table"), _("Incident"), _("Decision"), _("Notes")]]
                for i in data.incidents:
                    rows.append(
                        [
                            Paragraph(esc(i.event), st.cell),
                            i.round,
                            i.table,
                            Paragraph(esc(i.kind), st.cell),
                            Paragraph(esc(i.decision), st.cell),
                            Paragraph(esc(i.text), st.cell),
                        ]
                    )
                rest = width - 24 * mm
                widths = [rest * 0.22, 12 * mm, 12 * mm, rest * 0.26, rest * 0.18, rest * 0.34]
                rows[0] = heads(rows[0], widths)
                story.append(grid(rows, widths, center=(1, 2)))
            else:
                story.append(Paragraph(esc(_("No incident recorded.")), st.body))
        return story

    return render(out, header, lambda: _("Player card"), build, private=data.incidents_shown)
