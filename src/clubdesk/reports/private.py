"""Private outputs (rule T14): a member's own history, and the organiser's contact list of an event.

Only these carry phone and e-mail; each page says it is private.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer

from clubdesk.i18n import _
from clubdesk.reports.data import ContactList, MemberHistory, PersonalRecord, PersonalSection, ReportHeader
from clubdesk.reports.frame import Styles, content_width, esc, fmt_date, grid, render


def member_history(out: str | Path | IO[bytes], header: ReportHeader, data: MemberHistory) -> int:
    width = content_width(header)

    def build(st: Styles) -> list[Flowable]:
        story: list[Flowable] = [Paragraph(esc(_("History of {name}").format(name=data.name)), st.title)]
        facts = [
            [_("Member number"), data.number, _("Rating"), data.rating],
            [_("Club"), data.club, _("City"), data.city],
            [_("Phone"), data.phone, _("E-mail"), data.email],
        ]
        story.append(
            grid(facts, [width * 0.18, width * 0.32, width * 0.15, width * 0.35], header_rows=0, zebra=False)
        )
        story.append(Spacer(1, 4 * mm))
        rows: list[list[Any]] = [
            [_("Date"), _("Event"), _("Place"), _("Result"), _("Season points"), _("Rating")]
        ]
        for r in data.rows:
            rows.append(
                [
                    fmt_date(r.date, header.language, "short"),
                    Paragraph(esc(r.event), st.cell),
                    r.place,
                    r.result,
                    r.season_points,
                    r.rating,
                ]
            )
        rest = width - 22 * mm - 4 * 20 * mm
        story.append(
            grid(rows, [22 * mm, rest, 20 * mm, 20 * mm, 20 * mm, 20 * mm], right=(4, 5), center=(2, 3))
        )
        return story

    return render(out, header, lambda: _("Member history"), build, private=True)


def contact_list(out: str | Path | IO[bytes], header: ReportHeader, data: ContactList) -> int:
    width = content_width(header)

    def build(st: Styles) -> list[Flowable]:
        story: list[Flowable] = [Paragraph(esc(_("Entrants with contact details")), st.title)]
        rows: list[list[Any]] = [[_("Name"), _("Number"), _("Club"), _("Phone"), _("E-mail"), _("Status")]]
        for r in data.rows:
            rows.append(
                [
                    Paragraph(esc(r.name), st.cell),
                    r.number,
                    Paragraph(esc(r.club), st.cell),
                    r.phone,
                    Paragraph(esc(r.email), st.cell),
                    r.status,
                ]
            )
        story.append(grid(rows, [width * x for x in (0.24, 0.1, 0.17, 0.15, 0.22, 0.12)]))
        return story

    return render(out, header, lambda: _("Contact list"), build, private=True)


def personal_record(out: str | Path | IO[bytes], header: ReportHeader, data: PersonalRecord) -> int:
    """Everything held about a member, section by section (an empty one says so)."""
    width = content_width(header)

    def build(st: Styles) -> list[Flowable]:
        title = _("Everything the club holds about {name} ({number})").format(
            name=data.name, number=data.number
        )
        story: list[Flowable] = [Paragraph(esc(title), st.title)]
        for section in data.sections:
            story.append(Spacer(1, 3 * mm))
            story.append(Paragraph(esc(section.title), st.h2))
            if not section.rows:
                story.append(Paragraph(esc(_("Nothing held.")), st.cell))
                continue
            rows: list[list[Any]] = [list(section.columns)]
            rows += [[Paragraph(esc(cell), st.cell) for cell in row] for row in section.rows]
            story.append(grid(rows, _widths(section, width)))
        return story

    return render(out, header, lambda: _("Personal data"), build, private=True)


def _widths(section: PersonalSection, width: float) -> list[float]:
    """Each column's share of the width by how much it holds (a JSON change gets more than a row number)."""
    weights = []
    for k, head in enumerate(section.columns):
        longest = max([len(head), *(min(len(row[k]), 60) for row in section.rows)])
        weights.append(max(longest, 8))
    total = sum(weights)
    return [width * w / total for w in weights]
