"""The common frame of every ClubDesk PDF: page size, header, footer, fonts, language.

Header: the club's logo and name, the event, the report's title, round and date. Footer: "printed on"
with the moment of printing, and "page X of Y". A report is written in the language of its
:class:`ReportHeader` (switched with :func:`clubdesk.i18n.set_language` for the time of the print and
restored after); dates and money follow that locale through Babel.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.pagesizes import landscape as to_landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageBreak,
    PageTemplate,
    Paragraph,
    Table,
    TableStyle,
)

from clubdesk import i18n
from clubdesk.i18n import _, ngettext
from clubdesk.reports.data import ReportHeader
from clubdesk.reports.fonts import COND, COND_BOLD, SANS, SANS_BOLD, register_fonts

MARGIN = 14 * mm
HEADER_H = 20 * mm
FOOTER_H = 9 * mm

INK = colors.HexColor("#1a1a1a")
RULE = colors.HexColor("#7a7a7a")
HEAD_BG = colors.HexColor("#dfe5ec")
ZEBRA = colors.HexColor("#f4f6f8")
ACCENT = colors.HexColor("#1f3b5a")

_BABEL_LOCALES = {"en": "en_GB", "id": "id_ID", "es": "es_ES", "tr": "tr_TR"}


def babel_locale(lang: str) -> str:
    """The Babel locale for a ClubDesk language (the pseudo-locale ``xx`` formats as English)."""
    return _BABEL_LOCALES.get(lang, "en_GB")


@contextmanager
def report_language(lang: str) -> Iterator[str]:
    """Switch :func:`_` to ``lang`` for one print; the app's language comes back afterwards."""
    previous = i18n.current_language()
    i18n.set_language(lang)
    try:
        yield lang
    finally:
        i18n.set_language(previous)


def fmt_date(value: dt.date | None, lang: str, fmt: str = "long") -> str:
    from babel.dates import format_date

    if value is None:
        return ""
    return str(format_date(value, format=fmt, locale=babel_locale(lang)))


def fmt_datetime(value: dt.datetime, lang: str) -> str:
    from babel.dates import format_datetime

    return str(format_datetime(value, format="medium", locale=babel_locale(lang)))


def fmt_money(amount: int, currency: str, lang: str) -> str:
    """Minor units to text for the locale: Rp 5.000, 25,00 €, ₺250,00."""
    from clubdesk.standings.money import format_money

    return format_money(amount, currency, babel_locale(lang))


@dataclass(frozen=True)
class Styles:
    """Paragraph styles in DejaVu Sans; ``lang`` is the report's language."""

    lang: str
    body: ParagraphStyle
    small: ParagraphStyle
    cell: ParagraphStyle
    cell_bold: ParagraphStyle
    cell_right: ParagraphStyle
    cell_center: ParagraphStyle
    head: ParagraphStyle
    title: ParagraphStyle
    h2: ParagraphStyle
    note: ParagraphStyle


def make_styles(lang: str) -> Styles:
    register_fonts()
    body = ParagraphStyle("body", fontName=SANS, fontSize=9.5, leading=12.5, textColor=INK)
    cell = ParagraphStyle("cell", parent=body, fontName=COND, fontSize=8.5, leading=10)
    return Styles(
        lang=lang,
        body=body,
        small=ParagraphStyle("small", parent=body, fontSize=7.5, leading=9.5),
        cell=cell,
        cell_bold=ParagraphStyle("cellb", parent=cell, fontName=COND_BOLD),
        cell_right=ParagraphStyle("cellr", parent=cell, alignment=TA_RIGHT),
        cell_center=ParagraphStyle("cellc", parent=cell, alignment=TA_CENTER),
        head=ParagraphStyle("head", parent=cell, fontName=COND_BOLD, fontSize=8, leading=9.5),
        title=ParagraphStyle(
            "title", parent=body, fontName=SANS_BOLD, fontSize=14, leading=18, spaceAfter=4, textColor=ACCENT
        ),
        h2=ParagraphStyle(
            "h2", parent=body, fontName=SANS_BOLD, fontSize=11, leading=14, spaceBefore=6, spaceAfter=3
        ),
        note=ParagraphStyle(
            "note", parent=body, fontSize=8, leading=10.5, textColor=colors.HexColor("#333333")
        ),
    )


def esc(text: object) -> str:
    """Text safe for a Paragraph (ReportLab's mini-markup)."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def grid(
    rows: Sequence[Sequence[Any]],
    widths: Sequence[float],
    *,
    header_rows: int = 1,
    zebra: bool = True,
    font_size: float = 8.5,
    right: Sequence[int] = (),
    center: Sequence[int] = (),
    row_height: float | Sequence[float | None] | None = None,
    extra: Sequence[tuple[Any, ...]] = (),
    cls: type[Table] = Table,
) -> Table:
    """A ruled table in the house style: bold shaded header rows, light stripes, aligned number columns
    (``cls``: ``Table`` or a subclass of it, e.g. one that lays itself out once)."""
    register_fonts()
    table = cls(
        [list(r) for r in rows], colWidths=list(widths), repeatRows=header_rows, rowHeights=row_height
    )
    style: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), COND, font_size),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK),
        ("GRID", (0, 0), (-1, -1), 0.4, RULE),
        ("BOX", (0, 0), (-1, -1), 0.9, INK),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]
    if header_rows:
        style.append(("FONT", (0, 0), (-1, header_rows - 1), COND_BOLD, font_size))
        style.append(("BACKGROUND", (0, 0), (-1, header_rows - 1), HEAD_BG))
    for c in right:
        style.append(("ALIGN", (c, 0), (c, -1), "RIGHT"))
    for c in center:
        style.append(("ALIGN", (c, 0), (c, -1), "CENTER"))
    if zebra:
        for r in range(header_rows, len(rows)):
            if (r - header_rows) % 2 == 1:
                style.append(("BACKGROUND", (0, r), (-1, r), ZEBRA))
    style.extend(extra)
    table.setStyle(TableStyle(style))
    return table


HEAD_MIN = 4.5  # pt: the smallest a column header is set
CELL_PAD = 6.0  # the grid's left + right padding


def heads(
    labels: Sequence[Any],
    widths: Sequence[float],
    size: float = 8,
    center: bool = False,
    cls: type[Paragraph] = Paragraph,
) -> list[Any]:
    """Column headers that wrap between words inside their column and never break inside a word: a
    (translated) header whose longest word is wider than its column is set smaller until it fits
    (``cls``: ``Paragraph`` or a subclass of it)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts()
    out: list[Any] = []
    for k, label in enumerate(labels):
        if not isinstance(label, str):
            out.append(label)
            continue
        room = widths[k] - CELL_PAD
        longest = max((stringWidth(w, COND_BOLD, size) for w in label.split()), default=0.0)
        fs = size if longest <= room else max(HEAD_MIN, size * room / longest)
        style = ParagraphStyle(
            f"head-{fs:.2f}-{center}",
            fontName=COND_BOLD,
            fontSize=fs,
            leading=fs + 1.5,
            textColor=INK,
            alignment=TA_CENTER if center else 0,
            splitLongWords=0,  # a header wraps between words only, never inside one
        )
        out.append(cls(esc(label), style))
    return out


def header_fits(label: str, width: float, size: float) -> bool:
    """Whether every word of ``label`` fits a column of ``width`` at ``size`` (the layout tests)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return all(stringWidth(w, COND_BOLD, size) <= width - CELL_PAD + 0.01 for w in label.split())


class _NumberedCanvas(Canvas):  # type: ignore[misc]
    """Holds every page until the end so that the footer can say "page X of Y"."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._report: _Report = kwargs.pop("report")
        kwargs.setdefault("initialFontName", SANS)  # never a stray Helvetica (it cannot print ğ ş ı İ)
        kwargs.setdefault("initialFontSize", 9)
        super().__init__(*args, **kwargs)
        self._pages: list[dict[str, Any]] = []

    def showPage(self) -> None:  # noqa: N802 (ReportLab's name)
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            self._report.draw_footer(self, self._pageNumber, total)
            super().showPage()
        self._report.pages = total
        super().save()


class _Report:
    def __init__(
        self, header: ReportHeader, title: str, styles: Styles, private: bool, pagesize: Any
    ) -> None:
        self.header = header
        self.title = title
        self.styles = styles
        self.private = private
        self.pagesize = pagesize
        self.pages = 0
        self.printed = header.printed_on or dt.datetime.now().replace(microsecond=0)
        self._printed_line: str | None = None  # the footer's "printed on" line, formatted once
        self._logo: bool | None = None
        self._header_text: tuple[Any, ...] | None = None

    def _header_layout(self, room: float) -> tuple[Any, ...]:
        """The header's texts, fitted once per report (every page of a long report has the
        same header, and Babel's date formatting and the fitting loops cost as much as a sheet's cells)."""
        if self._header_text is None or self._header_text[0] != room:
            h = self.header
            width = self.pagesize[0]
            bits = []
            if h.round is not None:
                bits.append(_("Round {n}").format(n=h.round))
            if h.date is not None:
                bits.append(fmt_date(h.date, h.language))
            self._header_text = (
                room,
                fit_lines(h.club_name, SANS_BOLD, room, (12, 9), max_lines=3),
                fit_lines(h.event_name, SANS, room, (9.5, 7), max_lines=1),
                fit_lines(self.title, SANS_BOLD, width / 2 - MARGIN, (11, 7), max_lines=1),
                " · ".join(bits),
            )
        return self._header_text

    def draw_header(self, canvas: Canvas, doc: Any) -> None:
        h = self.header
        width, height = self.pagesize
        top = height - MARGIN
        canvas.saveState()
        x = MARGIN
        logo = h.logo_path
        if self._logo is None:
            self._logo = bool(logo and Path(logo).is_file())
        if logo and self._logo:
            try:
                canvas.drawImage(
                    logo,
                    MARGIN,
                    top - 14 * mm,
                    width=14 * mm,
                    height=14 * mm,
                    preserveAspectRatio=True,
                    mask="auto",
                )
                x += 17 * mm
            except Exception:  # a broken logo never stops a print
                pass
        room = width / 2 - x
        # the whole club name, always: set smaller, then over two or three lines, never cut
        _room, (size, lines), (ev_size, ev_lines), (t_size, t_lines), date_line = self._header_layout(room)
        canvas.setFillColor(ACCENT)
        canvas.setFont(SANS_BOLD, size)
        y = top - 5 * mm if len(lines) == 1 else top - 1.2 * mm - size * 0.25
        for line in lines:
            canvas.drawString(x, y, line)
            y -= size * 1.12
        canvas.setFillColor(INK)
        canvas.setFont(SANS, ev_size)
        canvas.drawString(x, min(top - 10 * mm, y - 1.5), ev_lines[0] if ev_lines else "")
        right = width - MARGIN
        canvas.setFont(SANS_BOLD, t_size)
        canvas.drawRightString(right, top - 5 * mm, t_lines[0] if t_lines else "")
        canvas.setFont(SANS, 9)
        canvas.drawRightString(right, top - 10 * mm, date_line)
        canvas.setStrokeColor(ACCENT)
        canvas.setLineWidth(1.2)
        canvas.line(MARGIN, top - HEADER_H + 3 * mm, right, top - HEADER_H + 3 * mm)
        canvas.restoreState()

    def draw_footer(self, canvas: Canvas, page: int, total: int) -> None:
        width, _height = self.pagesize
        canvas.saveState()
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.5)
        canvas.line(MARGIN, MARGIN + 5 * mm, width - MARGIN, MARGIN + 5 * mm)
        canvas.setFont(SANS, 7.5)
        canvas.setFillColor(INK)
        if self._printed_line is None:  # formatted once per report (Babel), not once per page
            self._printed_line = _("Printed on {when} with ClubDesk").format(
                when=fmt_datetime(self.printed, self.header.language)
            )
        canvas.drawString(MARGIN, MARGIN + 1.5 * mm, self._printed_line)
        canvas.drawRightString(
            width - MARGIN, MARGIN + 1.5 * mm, _("Page {page} of {total}").format(page=page, total=total)
        )
        if self.header.audit_head:  # a signed sheet: the audit log as it stood when printed
            canvas.setFont(SANS, 6.5)
            canvas.drawRightString(
                width - MARGIN,
                MARGIN + 6 * mm,
                ngettext(
                    "Audit log {head} · {n} row", "Audit log {head} · {n} rows", self.header.audit_rows
                ).format(head=self.header.audit_head[:12], n=self.header.audit_rows),
            )
        if self.private:
            canvas.setFont(SANS_BOLD, 8)
            canvas.setFillColor(colors.HexColor("#a0141e"))
            # above the footer rule: a long "printed on" line (Turkish) no longer runs into it
            canvas.drawCentredString(width / 2, MARGIN + 6 * mm, _("PRIVATE: organiser and referee only"))
        canvas.restoreState()


def _wrap_words(text: str, font: str, size: float, width: float) -> list[str]:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    lines: list[str] = []
    for word in text.split():
        if lines and stringWidth(lines[-1] + " " + word, font, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def fit_lines(
    text: str, font: str, width: float, sizes: tuple[float, float], max_lines: int = 2
) -> tuple[float, list[str]]:
    """The font size and the lines that show all of ``text`` in ``width``: one line from ``sizes[0]``
    down to ``sizes[1]``, then more lines (up to ``max_lines``), smaller still (to 5 pt) if it must.
    Words are never broken; only a single word wider than ``width`` at 5 pt is clipped."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    big, small = sizes
    size = big
    while size >= small:
        if stringWidth(text, font, size) <= width:
            return size, [text] if text else []
        size -= 0.5
    size = small
    while size >= 5:
        lines = _wrap_words(text, font, size, width)
        if len(lines) <= max_lines and all(stringWidth(w, font, size) <= width for w in lines):
            return size, lines
        size -= 0.5
    lines = _wrap_words(text, font, 5, width)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    return 5, [_clip(line, font, 5, width) for line in lines]


def _clip(text: str, font: str, size: float, width: float) -> str:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def page_size(header: ReportHeader, wide: bool = False) -> tuple[float, float]:
    base = LETTER if header.page_size == "Letter" else A4
    size: tuple[float, float] = to_landscape(base) if wide else base
    return size


def content_width(header: ReportHeader, wide: bool = False) -> float:
    return float(page_size(header, wide)[0] - 2 * MARGIN)


def content_height(header: ReportHeader, wide: bool = False) -> float:
    return float(page_size(header, wide)[1] - 2 * MARGIN - HEADER_H - FOOTER_H)


def each_from_a_new_page(stories: Iterable[list[Flowable]]) -> list[Flowable]:
    """Several documents in one report (the sheets of a round, the acts of its encounters), each from a new
    page."""
    story: list[Flowable] = []
    for k, part in enumerate(stories):
        if k:
            story.append(PageBreak())
        story.extend(part)
    return story


def render(
    out: str | Path | IO[bytes],
    header: ReportHeader,
    title: Callable[[], str],
    build: Callable[[Styles], list[Flowable]],
    *,
    wide: bool = False,
    private: bool = False,
) -> int:
    """Write one report to ``out`` (a path or a binary file); returns its number of pages.

    ``title`` and ``build`` are called with the report's language in force, so every ``_()`` inside them
    speaks that language.
    """
    register_fonts()
    with report_language(header.language):
        styles = make_styles(header.language)
        size = page_size(header, wide)
        report = _Report(header, title(), styles, private, size)
        target = str(out) if isinstance(out, Path) else out
        doc = BaseDocTemplate(
            target,
            pagesize=size,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=MARGIN + HEADER_H,
            bottomMargin=MARGIN + FOOTER_H,
            title=report.title,
            author=header.club_name,
            creator="ClubDesk",
            invariant=header.printed_on is not None,
            initialFontName=SANS,
            initialFontSize=9,
        )
        frame = Frame(
            MARGIN,
            MARGIN + FOOTER_H,
            size[0] - 2 * MARGIN,
            content_height(header, wide),
            id="body",
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
        )
        doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=report.draw_header)])
        story = build(styles)
        if not story:
            story = [Paragraph(esc(_("Nothing to print.")), styles.body)]

        def maker(*args: Any, **kwargs: Any) -> _NumberedCanvas:
            return _NumberedCanvas(*args, report=report, **kwargs)

        doc.build(story, canvasmaker=maker)
        return report.pages
