"""What every score sheet shares: the title block with the table's QR code and the sides' approval boxes,
the blank and final-score tables, the signatures, the column headers sized by their words and the styles."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from clubdesk.i18n import _
from clubdesk.reports.data import (
    DominoSheetData,
    GapleSheetData,
    RecordedScore,
    ScoreSheetData,
    TavlaSheetData,
)
from clubdesk.reports.fonts import COND, COND_BOLD, register_fonts
from clubdesk.reports.frame import CELL_PAD, INK, Styles, esc, grid, heads
from clubdesk.reports.memo import MemoTable, Para
from clubdesk.reports.qr import qr_drawing, table_payload
from clubdesk.text import score_text

QR_SIZE = 27 * mm
SEP_BG = "#e9eef3"
RECORDED_ROWS_SAVED = 6  # blank hand rows left out to make room for a recorded final score
SIDE_ROWS_SAVED = 3  # blank hand rows left out to make room for the sides' approval boxes (phones)


def _note_style() -> Any:
    register_fonts()
    return ParagraphStyle("sheetnote", fontName=COND, fontSize=7, leading=8)


NOTE = _note_style()


def _info_style() -> Any:
    return ParagraphStyle("sheetinfo", parent=NOTE, fontSize=9, leading=10.5)


INFO = _info_style()


def _score_style() -> Any:
    return ParagraphStyle("sheetscore", parent=NOTE, fontSize=8.5, leading=10)


SCORE = _score_style()


def sheet_top(
    title: str,
    info: list[list[Any]],
    info_columns: Sequence[float],
    sheet: ScoreSheetData,
    st: Styles,
    width: float,
    sides: tuple[str, str] = ("", ""),
) -> list[Flowable]:
    """Title, the information block on the left (the table and round, then ``info``; ``info_columns``:
    each column's share of it) and the table's QR code on the right; while table entry is on, each
    side's box with its own approval code (text and a small QR) under them."""
    payload = sheet.qr or table_payload(sheet.event_id, sheet.round, sheet.table)
    iw = width - QR_SIZE - 8 * mm
    info = [[_("Table"), str(sheet.table), _("Round"), str(sheet.round)], *info]
    # long pair, team and player names wrap inside their cells instead of crossing the border
    info = [[Para(esc(c), INFO) if isinstance(c, str) else c for c in row] for row in info]
    info_table = grid(
        info, [iw * c for c in info_columns], header_rows=0, zebra=False, font_size=9, cls=MemoTable
    )
    # the payload under the code, set small enough to stay inside the code's column
    size = min(
        st.small.fontSize, 7.5 * (QR_SIZE + 7 * mm) / max(1.0, stringWidth(payload, st.small.fontName, 7.5))
    )
    caption = ParagraphStyle(
        "qrcaption", parent=st.small, fontSize=size, leading=size + 1.5, alignment=TA_RIGHT
    )
    qr_cell = [qr_drawing(payload, QR_SIZE), Para(esc(payload), caption)]
    outer = MemoTable([[info_table, qr_cell]], colWidths=[width - QR_SIZE - 8 * mm, QR_SIZE + 8 * mm])
    outer.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), "DejaVuSans", 9),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("ALIGN", (1, 0), (1, 0), "RIGHT"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    story: list[Flowable] = [Para(esc(title), st.title), outer, Spacer(1, 3 * mm)]
    if sheet.side_codes[0] and sheet.side_codes[1]:
        story.extend([side_boxes(sheet, sides, st, width), Spacer(1, 2 * mm)])
    return story


SIDE_QR = 13 * mm


def side_boxes(sheet: ScoreSheetData, sides: tuple[str, str], st: Styles, width: float) -> Table:
    """Rules G13, E6, T8c: each side approves on the phones for itself, with the code in its own box
    (scanned, or typed when one phone is handed from side to side); the table's QR stays the way in."""
    cells = []
    for k in (0, 1):
        code = sheet.side_codes[k]
        spaced = f"{code[:3]} {code[3:]}"
        label = esc(_("Approval code of {side}").format(side=sides[k] or str(k + 1)))
        text = [
            Para(f"{label}: <b>{esc(spaced)}</b>", st.body),
            Para(esc(_("Scan it, or type it on the table's page, to approve the result.")), st.small),
        ]
        qr = qr_drawing(sheet.side_qr[k], SIDE_QR) if sheet.side_qr[k] else ""
        cells += [qr, text]
    half = width / 2
    box = MemoTable([cells], colWidths=[SIDE_QR + 3 * mm, half - SIDE_QR - 3 * mm] * 2)
    box.setStyle(
        TableStyle(
            [
                ("BOX", (0, 0), (1, 0), 0.6, INK),
                ("BOX", (2, 0), (3, 0), 0.6, INK),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LEFTPADDING", (0, 0), (-1, -1), 3),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    return box


def signatures(labels: Sequence[str], st: Styles, width: float) -> Table:
    cells = [[Para(esc(label), st.small) for label in labels]]
    table = MemoTable(
        [[""] * len(labels), *cells],
        colWidths=[width / len(labels)] * len(labels),
        rowHeights=[13 * mm, None],
    )
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), "DejaVuSans", 9),
                ("LINEBELOW", (0, 0), (-1, 0), 0.6, INK),
                ("LEFTPADDING", (0, 0), (-1, -1), 6),
                ("RIGHTPADDING", (0, 0), (-1, -1), 6),
            ]
        )
    )
    return table


def intro(text: str, st: Styles) -> list[Flowable]:
    """The note on how to fill the sheet, under the information block."""
    return [Para(esc(text), st.note), Spacer(1, 2 * mm)]


def blank_table(
    rows: list[list[Any]], count: int, widths: Sequence[float], row_height: float, **style: Any
) -> Table:
    """``count`` numbered hand rows to fill in by hand under the column heads (``rows``)."""
    columns = len(rows[0])
    for k in range(count):
        rows.append([str(k + 1)] + [""] * (columns - 1))
    return grid(rows, widths, row_height=[None] + [row_height] * (len(rows) - 1), **style)


SCORE_COLUMNS = (0.12, 0.23, 0.05, 0.23, 0.05, 0.07, 0.25)  # label, side, score, side, score, "Winner", name


def score_table(
    rows: list[list[str]], width: float, columns: Sequence[float] = SCORE_COLUMNS, **style: Any
) -> Table:
    """The final line(s) under the hands: each side with its score, and the winner (names wrap)."""
    widths = [width * c for c in columns]
    cells = []
    for r in rows:
        cells.append(
            [
                heads([c], [widths[k]], size=8.5)[0]  # a label shrinks rather than break a word
                if k in (0, 5) and c
                else Para(esc(c), SCORE)
                if k in (1, 3, 6) and c
                else c
                for k, c in enumerate(r)
            ]
        )
    if style.pop("row_height", None) is not None:
        # room to write by hand, yet a long name that wraps still stays inside its row
        style["extra"] = [("TOPPADDING", (0, 0), (-1, -1), 6), ("BOTTOMPADDING", (0, 0), (-1, -1), 6)]
    return grid(cells, widths, header_rows=0, zebra=False, cls=MemoTable, **style)


def score_row(label: str, sides: tuple[str, str], score: Sequence[str], winner: str) -> list[str]:
    return [label, sides[0], score[0], sides[1], score[1], _("Winner"), winner]


def recorded_rows(label: str, rec: RecordedScore, sides: tuple[str, str]) -> list[list[str]]:
    """A final-score-only result: the score (and game points, when given) and the winner."""
    rows = [score_row(label, sides, (str(rec.score[0]), str(rec.score[1])), winner_name(rec, sides))]
    if rec.points is not None:
        rows.append([_("Points"), sides[0], str(rec.points[0]), sides[1], str(rec.points[1]), "", ""])
    return rows


def game_won(g: int, pair: str, totals: Sequence[int]) -> str:
    # a game can end below zero (penalties, G3): "260 – −50", never "260–-50"
    return _("Game {n} won by {pair}: {score}").format(
        n=g + 1, pair=pair, score=score_text(totals[0], totals[1])
    )


def num_text(v: int | None) -> str:
    return "" if v is None else str(v)


def seat_no(seat: object) -> str:
    return "" if seat is None else str(int(str(seat)) + 1)


def recorded_note(rec: RecordedScore, st: Styles) -> Para:
    """Says why a sheet with a result has no hands: the score was recorded on its own (or awarded)."""
    if rec.forfeit:
        text = _("Result awarded by forfeit: the match was not played.")
    else:
        text = _("Result recorded as a final score only: no hands or games were entered.")
    return Para(esc(text), st.note)


def tavla_rows(sheet: TavlaSheetData, length: int) -> int:
    """A match's longest run of games (2 x length - 1); a long match under the sides' approval boxes
    gives up the last rows it will hardly need, so that the sheet stays one page."""
    rows = 2 * length - 1
    return rows - SIDE_ROWS_SAVED if sheet.side_codes[0] and rows > 17 else rows


def blank_rows(sheet: GapleSheetData | DominoSheetData) -> int:
    """Hand rows to fill by hand; fewer under a recorded final score and under the sides' approval boxes,
    so that the sheet stays one page."""
    rows = sheet.blank_rows if sheet.recorded is None else max(0, sheet.blank_rows - RECORDED_ROWS_SAVED)
    return max(0, rows - SIDE_ROWS_SAVED) if sheet.side_codes[0] else rows


def winner_name(rec: RecordedScore | None, names: tuple[str, str]) -> str:
    return "" if rec is None or rec.winner is None else names[rec.winner]


def separator(row: int, text: str, table_rows: list[list[Any]], extra: list[tuple[Any, ...]]) -> None:
    table_rows.append([text])
    extra.extend(
        [
            ("SPAN", (0, row), (-1, row)),
            ("BACKGROUND", (0, row), (-1, row), SEP_BG),
            ("FONT", (0, row), (-1, row), COND_BOLD, 8.5),
        ]
    )


HEAD_SIZE = 7.0  # pt, the sheets' column headers
HEAD_FLOOR = 5.5  # pt: a header is set no smaller; its column widens instead
NOTES_MIN = 40.0  # pt: the last (notes) column keeps at least this much


def header_widths(labels: Sequence[str], fixed: Sequence[float], width: float) -> list[float]:
    """Column widths from the (translated) headers: each fixed column is at least as wide as the longest
    word of its header needs at :data:`HEAD_FLOOR`; the last column takes what is left (at least
    :data:`NOTES_MIN`). When the headers need more than the page, every column is scaled down alike."""
    need = []
    for f, label in zip(fixed, labels, strict=False):
        longest = max((stringWidth(w, COND_BOLD, HEAD_FLOOR) for w in str(label).split()), default=0.0)
        need.append(max(f, longest + CELL_PAD + 0.5))
    room = width - NOTES_MIN
    if sum(need) > room:
        need = [w * room / sum(need) for w in need]
    return [*need, width - sum(need)]


def sheet_heads(labels: Sequence[Any], widths: Sequence[float]) -> list[Any]:
    """Header cells that wrap between words in narrow columns and shrink rather than break a word; made
    once per set of labels and widths (every sheet of a night has the same heads)."""
    if all(isinstance(x, str) for x in labels):
        return list(_same_heads(tuple(labels), tuple(widths)))
    return heads(labels, widths, size=HEAD_SIZE, center=True)


@lru_cache(maxsize=32)
def _same_heads(labels: tuple[str, ...], widths: tuple[float, ...]) -> tuple[Any, ...]:
    return tuple(heads(labels, widths, size=HEAD_SIZE, center=True, cls=Para))
