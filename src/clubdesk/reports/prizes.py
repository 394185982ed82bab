"""The prize list with payments (rules T13a-T13e)."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer

from clubdesk.i18n import _
from clubdesk.reports.data import PrizeListData, ReportHeader
from clubdesk.reports.frame import Styles, content_width, esc, fmt_date, fmt_money, grid, heads, render


def prizes(out: str | Path | IO[bytes], header: ReportHeader, data: PrizeListData) -> int:
    width = content_width(header)

    def build(st: Styles) -> list[Flowable]:
        lang = header.language
        story: list[Flowable] = [Paragraph(esc(_("Prize list")), st.title)]
        story.extend(_plan(data, st, width))
        if data.rows or not data.has_plan:
            story.append(Paragraph(esc(_("Prizes awarded")), st.h2))
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
        rows[0] = heads(rows[0], w)
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


def _pct(basis: int) -> str:
    return f"{basis / 100:g} %"


def _plan(data: PrizeListData, st: Styles, width: float) -> list[Flowable]:
    """The event's prize plan (T13a, T13b): entrants, fees, the pool, and every place with its money and,
    once the event is over, who holds it."""
    lang = st.lang
    cur = data.currency
    story: list[Flowable] = [Paragraph(esc(_("Prize plan")), st.h2)]
    if not data.has_plan:
        story.append(Paragraph(esc(_("This event has no prize plan.")), st.note))
        return story
    facts = [
        _("Entrants: {n}").format(n=data.entrants),
        _("Fees collected (net of refunds): {amount}").format(amount=fmt_money(data.collected, cur, lang)),
        _("Prize pool ({rate} of the fees, T13b): {amount}").format(
            rate=_pct(data.pool_rate), amount=fmt_money(data.pool, cur, lang)
        ),
    ]
    story.append(Paragraph(esc(" · ".join(facts)), st.body))
    if not data.final:
        story.append(
            Paragraph(esc(_("The event is not over: the pool and the places may still change.")), st.note)
        )
    story.append(Spacer(1, 2 * mm))
    rows: list[list[Any]] = [[_("Place"), _("Fixed"), _("Pool share"), _("Amount"), _("Items"), _("Entrant")]]
    for line in data.plan:
        holder = ", ".join(line.entrants) if line.entrants else ("—" if data.final else _("to be decided"))
        rows.append(
            [
                line.place,
                fmt_money(line.fixed, cur, lang) if line.fixed else "",
                _pct(line.share) if line.share else "",
                fmt_money(line.amount, cur, lang),
                Paragraph(esc(line.items), st.cell),
                Paragraph(esc(holder), st.cell),
            ]
        )
    w = [16 * mm, 26 * mm, 20 * mm, 28 * mm, 0.0, 0.0]
    rest = width - sum(w)
    w[4], w[5] = rest * 0.3, rest * 0.7
    rows[0] = heads(rows[0], w)
    story.append(grid(rows, w, right=(1, 2, 3), center=(0,)))
    story.append(Spacer(1, 3 * mm))
    return story
