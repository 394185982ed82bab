"""The prize list with payments (rules T13a-T13e)."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer

from clubdesk.i18n import _
from clubdesk.reports.data import PrizeListData, ReportHeader
from clubdesk.reports.frame import Styles, content_width, esc, fmt_date, fmt_money, grid, render


def prizes(out: str | Path | IO[bytes], header: ReportHeader, data: PrizeListData) -> int:
    width = content_width(header)

    def build(st: Styles) -> list[Flowable]:
        lang = header.language
        story: list[Flowable] = [Paragraph(esc(_("Prize list")), st.title)]
        if data.pool:
            story.append(
                Paragraph(
                    esc(_("Prize pool: {amount}").format(amount=fmt_money(data.pool, data.currency, lang))),
                    st.body,
                )
            )
            story.append(Spacer(1, 2 * mm))
        rows: list[list[Any]] = [[_("Place"), _("Name"), _("Club"), _("Prize"), _("Amount"), _("Paid")]]
        total = paid = 0
        for r in data.rows:
            total += r.amount
            if r.paid:
                paid += r.amount
            state = _("unpaid")  # rule T13e: every prize shows whether it was paid
            if r.paid:
                state = "✓ " + " ".join(x for x in (fmt_date(r.paid_on, lang, "short"), r.method) if x)
            rows.append(
                [
                    r.place,
                    Paragraph(esc(r.name), st.cell),
                    Paragraph(esc(r.club), st.cell),
                    Paragraph(esc(r.prize), st.cell),
                    fmt_money(r.amount, data.currency, lang) if r.amount else "",
                    state,
                ]
            )
        rows.append(
            [
                "",
                "",
                "",
                _("Total"),
                fmt_money(total, data.currency, lang),
                fmt_money(paid, data.currency, lang),
            ]
        )
        w = [16 * mm, 0.0, 0.0, 0.0, 28 * mm, 32 * mm]
        rest = width - sum(w)
        w[1], w[2], w[3] = rest * 0.34, rest * 0.26, rest * 0.4
        extra = [
            ("FONT", (0, -1), (-1, -1), "DejaVuSansCondensed-Bold", 8.5),
            ("LINEABOVE", (0, -1), (-1, -1), 1, "black"),
        ]
        story.append(grid(rows, w, right=(4,), center=(0,), extra=extra))
        story.append(Spacer(1, 3 * mm))
        story.append(
            Paragraph(
                esc(
                    _(
                        "Players sharing a place share its prizes equally (T13c); "
                        "every payment is recorded (T13e)."
                    )
                ),
                st.note,
            )
        )
        return story

    return render(out, header, lambda: _("Prize list"), build)
