"""Payment receipts with the check-in QR code (rules T2b, T3a); two receipts per page, cut along the line."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle

from clubdesk.i18n import _
from clubdesk.reports.data import ReceiptData, ReportHeader
from clubdesk.reports.frame import RULE, Styles, content_width, esc, fmt_date, fmt_money, grid, render
from clubdesk.reports.qr import checkin_payload, qr_drawing

QR = 34 * mm


def receipts(out: str | Path | IO[bytes], header: ReportHeader, items: Sequence[ReceiptData]) -> int:
    width = content_width(header)

    def build(st: Styles) -> list[Flowable]:
        story: list[Flowable] = []
        for k, r in enumerate(items):
            story.append(KeepTogether(_receipt(r, st, width, header.language)))
            if k + 1 < len(items):
                cut = Table([[""]], colWidths=[width], rowHeights=[10 * mm])
                cut.setStyle(
                    TableStyle(
                        [
                            ("FONT", (0, 0), (-1, -1), "DejaVuSans", 9),
                            ("LINEBELOW", (0, 0), (-1, 0), 0.5, RULE, None, (3, 3)),
                        ]
                    )
                )
                story.append(cut)
                story.append(Spacer(1, 8 * mm))
        return story

    return render(out, header, lambda: _("Receipts"), build)


def _receipt(r: ReceiptData, st: Styles, width: float, lang: str) -> list[Flowable]:
    title = Paragraph(esc(_("Receipt {no}").format(no=r.receipt_no)), st.title)
    who = [[_("Name"), r.name], [_("Member number"), r.number], [_("Club"), r.club]]
    if r.partner:
        who.append([_("Partner"), r.partner])
    who.append([_("Check-in code"), r.checkin_code])
    info = grid(
        who,
        [32 * mm, width - QR - 42 * mm],
        header_rows=0,
        zebra=False,
        font_size=9.5,
        extra=[("FONT", (0, 0), (0, -1), "DejaVuSansCondensed-Bold", 9.5)],
    )
    payload = checkin_payload(r.event_id, r.checkin_code)
    qr_cell = [qr_drawing(payload, QR), Paragraph(esc(_("Show this code at check-in (T3a).")), st.small)]
    top = Table([[info, qr_cell]], colWidths=[width - QR - 6 * mm, QR + 6 * mm])
    top.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), "DejaVuSans", 9),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    rows: list[list[Any]] = [[_("Item"), _("Amount")]]
    total = 0
    for line in r.lines:
        rows.append([Paragraph(esc(line.description), st.cell), fmt_money(line.amount, r.currency, lang)])
        total += line.amount
    rows.append([_("Total"), fmt_money(total, r.currency, lang)])
    paid_text = _("Paid")
    detail = " · ".join(x for x in (r.method, r.reference, fmt_date(r.paid_on, lang)) if x)
    if detail:
        paid_text += f" ({detail})"
    rows.append([paid_text, fmt_money(r.paid, r.currency, lang)])
    # what is still owed, as the desk service works it out (rule T2b); plain data without it: total - paid
    due = r.owed if r.owed is not None else total - r.paid
    if due:
        rows.append([_("Still due"), fmt_money(due, r.currency, lang)])
    bold = [("FONT", (0, len(r.lines) + 1), (-1, -1), "DejaVuSansCondensed-Bold", 9)]
    money = grid(rows, [width - 40 * mm, 40 * mm], right=(1,), font_size=9, extra=bold)
    return [title, top, Spacer(1, 3 * mm), money]
