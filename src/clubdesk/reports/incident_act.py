"""The match act, Acta del Encuentro.

Teams and players, every incident, decision, penalty and appeal with its reasons, and signature lines for
the captains and the referee (rules E8-E20, G2, G3, G16, T1, T9d, T10, T11).
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle

from clubdesk.i18n import _
from clubdesk.reports.data import IncidentActData, ReportHeader
from clubdesk.reports.frame import INK, Styles, content_width, esc, fmt_money, grid, render


def _ordinal_count(n: int) -> str:
    return _("time {n} by this pair in this game").format(n=n)


def incident_act(out: str | Path | IO[bytes], header: ReportHeader, data: IncidentActData) -> int:
    width = content_width(header)

    def build(st: Styles) -> list[Flowable]:
        lang = header.language
        story: list[Flowable] = [Paragraph(esc(_("Match act (Acta del Encuentro)")), st.title)]
        facts = [data.encounter]
        if data.round is not None:
            facts.append(_("Round {n}").format(n=data.round))
        if data.table is not None:
            facts.append(_("Table {n}").format(n=data.table))
        story.append(Paragraph("<b>" + esc(" · ".join(facts)) + "</b>", st.body))
        if data.referee:
            story.append(Paragraph(esc(_("Referee: {name}").format(name=data.referee)), st.body))
        story.append(Spacer(1, 3 * mm))

        if data.teams:
            cols = []
            for team in data.teams:
                lines = [f"<b>{esc(team.name)}</b>"]
                for p in team.players:
                    num = " " + esc(_("(licence {number})").format(number=p.number)) if p.number else ""
                    cap = " · " + esc(_("captain")) if team.captain and team.captain == p.name else ""
                    lines.append(esc(p.name) + num + cap)
                cols.append(Paragraph("<br/>".join(lines), st.cell))
            story.append(grid([cols], [width / len(cols)] * len(cols), header_rows=0, zebra=False))
            story.append(Spacer(1, 3 * mm))

        story.append(Paragraph(esc(_("Incidents")), st.h2))
        if data.incidents:
            rows: list[list[Any]] = [
                [
                    _("Time"),
                    _("Table"),
                    _("Hand"),
                    _("Player"),
                    _("Kind"),
                    _("What happened"),
                    _("Decision"),
                    _("Recorded by"),
                ]
            ]
            for i in data.incidents:
                player = i.player + (f" ({i.player_number})" if i.player_number else "")
                text = i.text
                if i.count:
                    # rule E19: the per-pair count in this game is written in the act
                    text += f" [{_ordinal_count(i.count)}]"
                rows.append(
                    [
                        i.time,
                        "" if i.table is None else str(i.table),
                        "" if i.hand is None else str(i.hand),
                        Paragraph(esc(player), st.cell),
                        Paragraph(esc(i.kind), st.cell),
                        Paragraph(esc(text), st.cell),
                        Paragraph(esc(i.decision), st.cell),
                        Paragraph(esc(i.recorded_by), st.cell),
                    ]
                )
            fixed = [11 * mm, 10 * mm, 10 * mm]
            rest = width - sum(fixed)
            w = [*fixed, rest * 0.17, rest * 0.15, rest * 0.32, rest * 0.21, rest * 0.15]
            story.append(grid(rows, w, center=(0, 1, 2), font_size=8))
        else:
            story.append(Paragraph(esc(_("No incidents.")), st.note))

        story.append(Paragraph(esc(_("Penalties")), st.h2))
        if data.penalties:
            rows = [[_("Table"), _("Side"), _("Penalty"), _("Points"), _("Reason"), _("Decided by")]]
            for pen in data.penalties:
                rows.append(
                    [
                        "" if pen.table is None else str(pen.table),
                        Paragraph(esc(pen.side), st.cell),
                        Paragraph(esc(pen.kind), st.cell),
                        "" if pen.points is None else str(pen.points),
                        Paragraph(esc(pen.reason), st.cell),
                        Paragraph(esc(pen.decided_by), st.cell),
                    ]
                )
            rest = width - 24 * mm
            story.append(
                grid(
                    rows,
                    [10 * mm, rest * 0.22, rest * 0.2, 14 * mm, rest * 0.42, rest * 0.16],
                    center=(0,),
                    right=(3,),
                    font_size=8,
                )
            )
        else:
            story.append(Paragraph(esc(_("No penalties.")), st.note))

        story.append(Paragraph(esc(_("Appeals")), st.h2))
        if data.appeals:
            for a in data.appeals:
                decision = {"upheld": _("upheld"), "rejected": _("rejected")}.get(a.decision, _("pending"))
                fee = ""
                if a.fee:
                    fee = _("fee {fee}").format(fee=fmt_money(a.fee, a.currency, lang))
                    if a.refund:
                        fee += ", " + _("refunded {amount} (G16)").format(
                            amount=fmt_money(a.refund, a.currency, lang)
                        )
                rows = [
                    [_("Filed by"), a.by, _("Filed at"), a.filed_at],
                    [_("Appeal"), Paragraph(esc(a.text), st.cell), "", ""],
                    [_("Both sides heard"), Paragraph(esc(a.heard), st.cell), "", ""],
                    [_("Decision"), decision, _("Fee"), fee],
                    [_("Reasons"), Paragraph(esc(a.reasons), st.cell), "", ""],
                ]
                extra: list[tuple[Any, ...]] = [("SPAN", (1, r), (3, r)) for r in (1, 2, 4)]
                extra.append(("FONT", (0, 0), (0, -1), "DejaVuSansCondensed-Bold", 8.5))
                story.append(
                    KeepTogether(
                        [
                            grid(
                                rows,
                                [width * 0.17, width * 0.38, width * 0.12, width * 0.33],
                                header_rows=0,
                                zebra=False,
                                extra=extra,
                            ),
                            Spacer(1, 2 * mm),
                        ]
                    )
                )
        else:
            story.append(Paragraph(esc(_("No appeals.")), st.note))

        story.append(Spacer(1, 8 * mm))
        labels = []
        for team in data.teams[:2]:
            labels.append(
                _("Captain, {team}").format(team=team.name) + (f": {team.captain}" if team.captain else "")
            )
        labels.append(_("Referee") + (f": {data.referee}" if data.referee else ""))
        sig = Table(
            [[""] * len(labels), [Paragraph(esc(x), st.small) for x in labels]],
            colWidths=[width / len(labels)] * len(labels),
            rowHeights=[14 * mm, None],
        )
        sig.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), "DejaVuSans", 9),
                    ("LINEBELOW", (0, 0), (-1, 0), 0.6, INK),
                    ("LEFTPADDING", (0, 0), (-1, -1), 6),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 6),
                ]
            )
        )
        story.append(KeepTogether([sig]))
        return story

    return render(out, header, lambda: _("Match act"), build)
