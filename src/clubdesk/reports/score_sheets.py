"""Score sheets (Hoja de Anotaciones), one page per table: blank before play, filled from the entries after.

Filled sheets are recomputed with the rules engines (:func:`clubdesk.games.replay`), so every running
total, burn, fine and Crawford mark on paper is the one the app scores. Each sheet carries the table's QR
code (``CLUBDESK:TABLE:<event>:<round>:<table>``, CONTRACTS.md §4) that the desk scans to open that table;
while table entry on phones is on it carries the table's address instead (``sheet.qr``), which
the players' phones open and the desk's scan field accepts as well.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from clubdesk.games import load_ruleset, replay
from clubdesk.i18n import _
from clubdesk.reports.cellgrid import fast_grid
from clubdesk.reports.data import (
    DominoSheetData,
    GapleSheetData,
    RecordedScore,
    ReportHeader,
    ScoreSheetData,
    TavlaSheetData,
)
from clubdesk.reports.fonts import COND, COND_BOLD
from clubdesk.reports.frame import (
    CELL_PAD,
    HEAD_BG,
    INK,
    Styles,
    content_width,
    each_from_a_new_page,
    esc,
    grid,
    heads,
    render,
)
from clubdesk.reports.memo import MemoTable, Para
from clubdesk.reports.qr import qr_drawing, table_payload
from clubdesk.text import score_text, signed

QR_SIZE = 27 * mm
SEP_BG = "#e9eef3"
RECORDED_ROWS_SAVED = 6  # blank hand rows left out to make room for a recorded final score
SIDE_ROWS_SAVED = 3  # blank hand rows left out to make room for the sides' approval boxes (phones)


def score_sheets(out: str | Path | IO[bytes], header: ReportHeader, sheets: Sequence[ScoreSheetData]) -> int:
    """Print ``sheets`` (one page each, more if a sheet is long); returns the number of pages."""
    width = content_width(header)

    def build(st: Styles) -> list[Flowable]:
        return each_from_a_new_page(sheet_story(sheet, st, width) for sheet in sheets)

    return render(out, header, lambda: _("Score sheets"), build)


def sheet_story(sheet: ScoreSheetData, st: Styles, width: float) -> list[Flowable]:
    if isinstance(sheet, GapleSheetData):
        return _gaple(sheet, st, width)
    if isinstance(sheet, DominoSheetData):
        return _domino(sheet, st, width)
    return _tavla(sheet, st, width)


# ------------------------------------------------------------------------------------------------ common
def _top(
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
    info = [[Para(esc(c), _INFO) if isinstance(c, str) else c for c in row] for row in info]
    info_table = grid(
        info, [iw * c for c in info_columns], header_rows=0, zebra=False, font_size=9, cls=MemoTable
    )
    # the payload under the code, set small enough to stay inside the code's column
    from reportlab.lib.enums import TA_RIGHT
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase.pdfmetrics import stringWidth

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
        story.extend([_side_boxes(sheet, sides, st, width), Spacer(1, 2 * mm)])
    return story


SIDE_QR = 13 * mm


def _side_boxes(sheet: ScoreSheetData, sides: tuple[str, str], st: Styles, width: float) -> Table:
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


def _signatures(labels: Sequence[str], st: Styles, width: float) -> Table:
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


def _intro(text: str, st: Styles) -> list[Flowable]:
    """The note on how to fill the sheet, under the information block."""
    return [Para(esc(text), st.note), Spacer(1, 2 * mm)]


def _blank_table(
    rows: list[list[Any]], count: int, widths: Sequence[float], row_height: float, **style: Any
) -> Table:
    """``count`` numbered hand rows to fill in by hand under the column heads (``rows``)."""
    columns = len(rows[0])
    for k in range(count):
        rows.append([str(k + 1)] + [""] * (columns - 1))
    return grid(rows, widths, row_height=[None] + [row_height] * (len(rows) - 1), **style)


SCORE_COLUMNS = (0.12, 0.23, 0.05, 0.23, 0.05, 0.07, 0.25)  # label, side, score, side, score, "Winner", name


def _score_table(
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
                else Para(esc(c), _SCORE)
                if k in (1, 3, 6) and c
                else c
                for k, c in enumerate(r)
            ]
        )
    if style.pop("row_height", None) is not None:
        # room to write by hand, yet a long name that wraps still stays inside its row
        style["extra"] = [("TOPPADDING", (0, 0), (-1, -1), 6), ("BOTTOMPADDING", (0, 0), (-1, -1), 6)]
    return grid(cells, widths, header_rows=0, zebra=False, cls=MemoTable, **style)


def _score_row(label: str, sides: tuple[str, str], score: Sequence[str], winner: str) -> list[str]:
    return [label, sides[0], score[0], sides[1], score[1], _("Winner"), winner]


def _recorded_rows(label: str, rec: RecordedScore, sides: tuple[str, str]) -> list[list[str]]:
    """A final-score-only result: the score (and game points, when given) and the winner."""
    rows = [_score_row(label, sides, (str(rec.score[0]), str(rec.score[1])), _winner_name(rec, sides))]
    if rec.points is not None:
        rows.append([_("Points"), sides[0], str(rec.points[0]), sides[1], str(rec.points[1]), "", ""])
    return rows


def _game_won(g: int, pair: str, totals: Sequence[int]) -> str:
    # a game can end below zero (penalties, G3): "260 – −50", never "260–-50"
    return _("Game {n} won by {pair}: {score}").format(
        n=g + 1, pair=pair, score=score_text(totals[0], totals[1])
    )


def _num(v: int | None) -> str:
    return "" if v is None else str(v)


def _seat_no(seat: object) -> str:
    return "" if seat is None else str(int(str(seat)) + 1)


def _recorded_note(rec: RecordedScore, st: Styles) -> Para:
    """Says why a sheet with a result has no hands: the score was recorded on its own (or awarded)."""
    if rec.forfeit:
        text = _("Result awarded by forfeit: the match was not played.")
    else:
        text = _("Result recorded as a final score only: no hands or games were entered.")
    return Para(esc(text), st.note)


def _tavla_rows(sheet: TavlaSheetData, length: int) -> int:
    """A match's longest run of games (2 x length - 1); a long match under the sides' approval boxes
    gives up the last rows it will hardly need, so that the sheet stays one page."""
    rows = 2 * length - 1
    return rows - SIDE_ROWS_SAVED if sheet.side_codes[0] and rows > 17 else rows


def _blank_rows(sheet: GapleSheetData | DominoSheetData) -> int:
    """Hand rows to fill by hand; fewer under a recorded final score and under the sides' approval boxes,
    so that the sheet stays one page."""
    rows = sheet.blank_rows if sheet.recorded is None else max(0, sheet.blank_rows - RECORDED_ROWS_SAVED)
    return max(0, rows - SIDE_ROWS_SAVED) if sheet.side_codes[0] else rows


def _winner_name(rec: RecordedScore | None, names: tuple[str, str]) -> str:
    return "" if rec is None or rec.winner is None else names[rec.winner]


def _separator(row: int, text: str, table_rows: list[list[Any]], extra: list[tuple[Any, ...]]) -> None:
    table_rows.append([text])
    extra.extend(
        [
            ("SPAN", (0, row), (-1, row)),
            ("BACKGROUND", (0, row), (-1, row), SEP_BG),
            ("FONT", (0, row), (-1, row), COND_BOLD, 8.5),
        ]
    )


# -------------------------------------------------------------------------------------------------- gaple
def _gaple(sheet: GapleSheetData, st: Styles, width: float) -> list[Flowable]:
    rs = load_ruleset(sheet.ruleset, sheet.params)
    p = rs.params
    pair_a = sheet.pair_names[0] or _("Pair A")
    pair_b = sheet.pair_names[1] or _("Pair B")
    s = sheet.seats
    info = [
        [_("Seat 1"), s[0], _("Seat 2"), s[1]],
        [_("Seat 3"), s[2], _("Seat 4"), s[3]],
        [_("Pair A (seats 1 + 3)"), pair_a, _("Pair B (seats 2 + 4)"), pair_b],
        [
            _("Game to"),
            str(p.target),
            _("Games to win"),
            str(p.games_to_win),
        ],
    ]
    story = _top(
        _("Gaple score sheet: table {table}").format(table=sheet.table),
        info,
        (0.23, 0.27, 0.23, 0.27),
        sheet,
        st,
        width,
        (pair_a, pair_b),
    )
    # rule G5: play goes counter-clockwise; seat k+1 plays right after seat k
    rules = [_("Seats in playing order, counter-clockwise (G5).")]
    if p.opening_tiles and p.warmup:
        rules.append(_("Hand 1 is the warm-up, led with 0-0; it scores nothing (G6, G7)."))
    if p.opening_tiles:
        rules.append(_("A new game opens with the tile showing the games score: 1-0, then 1-1 (G10)."))
    if p.seat_change:
        rules.append(_("Opponents change seats after every game won (G19)."))
    if p.double_lead_barred:
        # rule B3: on every hand's lead (di awal permainan), not only the first; informational, like G10
        rules.append(_("No hand is led with 0-0 or 6-6; with no other double, the partner leads (B3)."))
    story.extend(_intro(" ".join(rules), st))

    head = [
        "#",
        _("Game"),
        _("Outcome"),
        _("Seat"),
        "S1",
        "S2",
        "S3",
        "S4",
        _("dead 0-0"),
        _("dead 6-6"),
        _("last"),
        _("2 ends"),
        _("pure"),
        "A",
        "B",
        "Σ A",
        "Σ B",
        _("Notes"),
    ]
    widths = header_widths(head, [14, 23, 36, 22, 19, 19, 19, 19, 26, 26, 22, 22, 22, 27, 27, 29, 29], width)
    rows: list[list[Any]] = [_heads(head, widths)]
    extra: list[tuple[Any, ...]] = []
    entries = list(sheet.entries)
    if not entries:
        if p.opening_tiles and p.warmup:
            _separator(len(rows), _("Game 1 · opening tile 0-0 (warm-up, G6)"), rows, extra)
        story.append(
            _blank_table(
                rows, _blank_rows(sheet), widths, 6 * mm, font_size=8, right=range(4, 17), extra=extra
            )
        )
        story.append(Spacer(1, 3 * mm))
        rec = sheet.recorded
        if rec is None:
            won = [_score_row(_("Games won"), (pair_a, pair_b), ("", ""), "")]
        else:
            story.append(_recorded_note(rec, st))
            won = _recorded_rows(_("Games won"), rec, (pair_a, pair_b))
        story.append(_score_table(won, width, row_height=8 * mm))
    else:
        result, tiles = _gaple_replay(rs, entries)
        outcomes = _gaple_outcomes()
        starts = _game_starts(result)
        n = 0
        for g, game in enumerate(result["games"]):
            opening = tiles[starts[g]] if tiles is not None else _opening_tile(rs, entries, starts[g])
            label = _("Game {n}").format(n=g + 1)
            if opening:
                label += " · " + _("opening tile {tile}").format(tile=opening)
            _separator(len(rows), label, rows, extra)
            for hand in game["hands"]:
                entry = entries[n]
                rows.append(_gaple_row(n, g, entry, hand, outcomes))
                n += 1
            if game["winner"] is not None:
                text = _game_won(g, pair_a if game["winner"] == 0 else pair_b, game["totals"])
                if p.seat_change and g + 1 < len(result["games"]):
                    text += " · " + _("opponents change seats (G19)")
                _separator(len(rows), text, rows, extra)
        # the hands drawn straight on the canvas (the same look as grid())
        story.append(fast_grid(rows, widths, font_size=8, right=range(4, 17), extra=extra))
        story.append(Spacer(1, 3 * mm))
        gw = result["games_won"]
        winner = "" if result["winner"] is None else (pair_a if result["winner"] == 0 else pair_b)
        won = [_score_row(_("Games won"), (pair_a, pair_b), (str(gw[0]), str(gw[1])), winner)]
        story.append(_score_table(won, width, center=(2, 4)))
    story.append(Spacer(1, 4 * mm))
    # rule G13: counting is done together with the opponents; both pairs sign
    story.append(
        _signatures([_("Pair A") + f": {pair_a}", _("Pair B") + f": {pair_b}", _("Referee")], st, width)
    )
    return story


def _game_starts(result: Mapping[str, Any]) -> list[int]:
    starts, n = [], 0
    for game in result["games"]:
        starts.append(n)
        n += len(game["hands"])
    return starts


def _gaple_replay(
    rs: Any, entries: list[Mapping[str, object]]
) -> tuple[dict[str, Any], list[str | None] | None]:
    """The engine's result of a gaple sheet and, for each k, the tile the engine names to open the hand
    after the first k entries (rules G6, G10), in one pass over the entries (replaying every
    game's prefix again made each sheet score its hands twice). ``None`` for the tiles: no opening tiles
    in this ruleset (or not a gaple engine), the sheet then asks :func:`_opening_tile`."""
    if rs.family != "gaple" or not rs.params.opening_tiles:
        return replay(rs, entries), None
    from clubdesk.games.gaple import Entry, GapleMatch, state_to_dict

    match = GapleMatch(rs.params)
    tiles: list[str | None] = []
    for raw in entries:  # as score_match applies them
        nxt = match.state().next
        tiles.append(None if nxt is None or not nxt.opening_tile else str(nxt.opening_tile))
        if isinstance(raw, Entry):
            match.apply(raw)
        else:
            match.apply_raw(raw)
    state = match.state()
    tiles.append(None if state.next is None or not state.next.opening_tile else str(state.next.opening_tile))
    return state_to_dict(state), tiles


def _opening_tile(rs: Any, entries: list[Mapping[str, object]], start: int) -> str | None:
    """Rules G6, G10: the tile that opens the game starting at entry ``start`` (as the engine says)."""
    if not rs.params.opening_tiles:
        return None
    nxt = replay(rs, entries[:start]).get("next") or {}
    tile = nxt.get("opening_tile")
    return str(tile) if tile else None


def _gaple_outcomes() -> dict[str, str]:
    """The outcome column's words, by entry type (looked up once per sheet)."""
    return {
        "out": _("out"),
        "block": _("block"),
        "redeal": _("redeal"),
        "six_doubles": _("six doubles"),
        "penalty": _("penalty"),
    }


def _gaple_row(
    n: int,
    g: int,
    entry: Mapping[str, object],
    hand: Mapping[str, Any],
    labels: Mapping[str, str] | None = None,
) -> list[Any]:
    kind = str(entry.get("type"))
    if labels is None:
        labels = _gaple_outcomes()
    pips = entry.get("pips") or ["", "", "", ""]
    dead = entry.get("dead") or {}
    assert isinstance(dead, Mapping)
    notes: list[str] = []
    if hand.get("warmup"):
        notes.append(_("warm-up (G7)"))
    if hand.get("opened") is False:
        notes.append(_("not opened (GN4)"))
    if hand.get("burned") is not None:
        notes.append(_("{pair} burned (GN6)").format(pair="AB"[int(hand["burned"])]))
    fined = hand.get("fined") or [0, 0]
    for side in (0, 1):
        if fined[side]:
            notes.append(_("{pair} fined {n} (B6)").format(pair="AB"[side], n=fined[side]))
    if kind == "penalty":
        notes.append(
            _("{pair} −{n} (G3, B7)").format(pair="AB"[int(str(entry.get("side")))], n=entry.get("points"))
        )
    seat = entry.get("seat")
    pts = hand["points"]
    return [
        str(n + 1),
        str(g + 1),
        labels.get(kind, kind),
        _seat_no(seat) if seat is not None else "",
        *[str(x) for x in list(pips)[:4]],  # type: ignore[call-overload]
        _seat_no(dead.get("0-0")),
        _seat_no(dead.get("6-6")),
        str(entry.get("last_tile") or ""),
        "×2" if entry.get("two_ends") else "",
        _num(hand.get("pure")),
        signed(pts[0]),
        signed(pts[1]),
        signed(hand["totals"][0]),
        signed(hand["totals"][1]),
        Para(esc("; ".join(notes)), _NOTE) if notes else "",
    ]


def _note_style() -> Any:
    from reportlab.lib.styles import ParagraphStyle

    from clubdesk.reports.fonts import register_fonts

    register_fonts()
    return ParagraphStyle("sheetnote", fontName=COND, fontSize=7, leading=8)


_NOTE = _note_style()


def _info_style() -> Any:
    from reportlab.lib.styles import ParagraphStyle

    return ParagraphStyle("sheetinfo", parent=_NOTE, fontSize=9, leading=10.5)


_INFO = _info_style()


def _score_style() -> Any:
    from reportlab.lib.styles import ParagraphStyle

    return ParagraphStyle("sheetscore", parent=_NOTE, fontSize=8.5, leading=10)


_SCORE = _score_style()


# ---------------------------------------------------------------------------------------------- domino-es
def _domino(sheet: DominoSheetData, st: Styles, width: float) -> list[Flowable]:
    rs = load_ruleset(sheet.ruleset, sheet.params)
    p = rs.params
    pl = sheet.players
    pair1 = sheet.pair_names[0] or _("Pair 1")
    pair2 = sheet.pair_names[1] or _("Pair 2")
    info = [
        ["1 " + _("(leader)"), pl[0], "2 " + _("(to his right)"), pl[1]],
        ["3 " + _("(partner)"), pl[2], "4 " + _("(to his left)"), pl[3]],
        [_("Pair 1 (1 + 3, home)"), pair1, _("Pair 2 (2 + 4)"), pair2],
        [_("Game to"), str(p.target), _("Games to win"), str(p.games_to_win)],
    ]
    story = _top(
        _("Score sheet (Hoja de Anotaciones): table {table}").format(table=sheet.table)
        + (" · " + _("game {n} of the encounter (E7b)").format(n=sheet.game) if sheet.game else ""),
        info,
        (0.22, 0.28, 0.22, 0.28),
        sheet,
        st,
        width,
        (pair1, pair2),
    )
    story.extend(
        _intro(
            _(
                "Players numbered as drawn (E7). The lead passes to the right (E7.3). "
                "Each hand is written "
                "only after the counter approves it with his initials (E6)."
            ),
            st,
        )
    )
    if sheet.seat_note:
        story.extend(_intro(sheet.seat_note, st))  # rule E7: equal tiles drawn again among the tied
    head = [
        "#",
        _("Game"),
        _("Leader"),
        _("Outcome"),
        "1",
        "2",
        "3",
        "4",
        _("Pair 1"),
        _("Pair 2"),
        "Σ 1",
        "Σ 2",
        _("Initials"),
        _("Notes"),
    ]
    widths = header_widths(head, [16, 24, 32, 62, 20, 20, 20, 20, 40, 40, 32, 32, 36], width)
    rows: list[list[Any]] = [_heads(head, widths)]
    extra: list[tuple[Any, ...]] = []
    entries = list(sheet.entries)
    if not entries:
        story.append(
            _blank_table(rows, _blank_rows(sheet), widths, 6.5 * mm, font_size=8, right=range(4, 12))
        )
        if sheet.recorded is not None:
            story.extend(_domino_recorded(sheet.recorded, (pair1, pair2), sheet.encounter, st, width))
        else:  # the final line to fill in by hand: each pair's points and the winner (E18)
            blank = [_score_row(_("Points"), (pair1, pair2), ("", ""), "")]
            story.append(Spacer(1, 3 * mm))
            story.append(_score_table(blank, width, row_height=8 * mm))
    else:
        result = replay(rs, entries)
        n = 0
        for g, game in enumerate(result["games"]):
            seating = game.get("seating") or [0, 1, 2, 3]
            text = _("Game {n}").format(n=g + 1)
            if list(seating) != [0, 1, 2, 3]:
                order = ", ".join(pl[int(x)] for x in seating)
                text += " · " + _("pair that lost swaps seats (E7b): {order}").format(order=order)
            _separator(len(rows), text, rows, extra)
            for hand in game["hands"]:
                rows.append(_domino_row(n, g, entries[n], hand, sheet.initials))
                n += 1
            if game.get("winner") is not None:
                won_by = pair1 if game["winner"] == 0 else pair2
                end = ""
                if game.get("end") == "abandoned":
                    # rule E20: the sheet says whether the abandonment lost the game only or the match too
                    ends = bool(getattr(rs.params, "abandon_ends_match", False))
                    end = (
                        _(" (abandonment, E20: the pair loses the match)")
                        if ends
                        else _(" (abandonment, E20: the pair loses the game)")
                    )
                _separator(len(rows), _game_won(g, won_by, game["totals"]) + end, rows, extra)
        story.append(fast_grid(rows, widths, font_size=8, right=range(4, 12), center=(2, 12), extra=extra))
        # the final line: games won and the winner, as the engine has them (E18)
        gw = result.get("games_won") or [0, 0]
        winner = "" if result.get("winner") is None else (pair1, pair2)[int(result["winner"])]
        final = [_score_row(_("Games won"), (pair1, pair2), (str(gw[0]), str(gw[1])), winner)]
        story.append(Spacer(1, 3 * mm))
        story.append(_score_table(final, width, center=(2, 4)))
    story.append(Spacer(1, 3 * mm))
    story.extend(_substitution_block(sheet, st, width))
    story.append(Spacer(1, 3 * mm))
    # rule E6: the home pair's scorer and the rival pair's counter, players of each pair, named with the
    # approval each gave and a signature box; when the referee scored, the approving players of each pair
    p1 = _("Scorer (anotador), pair 1")
    p2 = _("Counter (recuento), pair 2")
    approved = _("Approved")
    if sheet.referee_scored:
        p1 = _("Approval for pair 1 (scorer's place)")
        p2 = _("Approval for pair 2 (counter's place)")
    sig = [
        [p1, sheet.scorer, p2, sheet.counter],
        [approved, sheet.approvals[0], approved, sheet.approvals[1]],
        [_("Signature"), "", _("Signature"), ""],
    ]
    sig = [[Para(esc(c), _INFO) if c else "" for c in row] for row in sig]
    story.append(
        grid(
            sig,
            [width * 0.22, width * 0.28, width * 0.22, width * 0.28],
            header_rows=0,
            zebra=False,
            extra=[("ROWBACKGROUNDS", (0, 0), (-1, -1), ["white"]), ("BOTTOMPADDING", (0, 2), (-1, 2), 20)],
        )
    )
    if sheet.referee_scored:
        story.append(
            Para(
                esc(
                    _(
                        "Scored and counted by the referee {name}, with the approval of both pairs (E6)."
                    ).format(name=sheet.referee_scored)
                ),
                st.note,
            )
        )
    story.append(Spacer(1, 3 * mm))
    referee = sheet.referee or sheet.referee_scored
    story.append(_signatures([_("Referee") + (f": {referee}" if referee else "")], st, width / 2))
    return story


def _substitution_block(sheet: DominoSheetData, st: Styles, width: float) -> list[Flowable]:
    """Rules E7.2, E20: who left, who came in, from which hand (blank lines on a sheet before play)."""
    head = [_("Pair"), _("Player out"), _("Player in"), _("Game"), _("From hand"), _("Reason")]
    widths = [width * 0.22, width * 0.2, width * 0.2, width * 0.08, width * 0.1, width * 0.2]
    rows: list[list[Any]] = [_heads(head, widths)]
    for sub in sheet.substitutions:
        rows.append(
            [
                Para(esc(sub.side), _INFO),
                Para(esc(sub.player_out), _INFO),
                Para(esc(sub.player_in), _INFO),
                str(sub.game),
                _num(sub.from_hand),
                Para(esc(sub.reason), _NOTE),
            ]
        )
    if not sheet.substitutions:
        if sheet.entries or sheet.recorded is not None:
            rows.append([Para(esc(_("none")), _NOTE), "", "", "", "", ""])
        else:
            rows.extend([[""] * 6, [""] * 6])  # to fill in by hand
    title = Para("<b>" + esc(_("Substitutions (E7.2, E20)")) + "</b>", _NOTE)
    return [title, Spacer(1, 1 * mm), grid(rows, widths, font_size=8, center=(3, 4), row_height=None)]


def _domino_recorded(
    rec: RecordedScore, pairs: tuple[str, str], encounter: bool, st: Styles, width: float
) -> list[Flowable]:
    """The final score of a final-score-only result: games won (the encounter's, E7b), points, winner."""
    label = _("Encounter score") if encounter else _("Games won")
    rows = _recorded_rows(label, rec, pairs)
    return [
        Spacer(1, 3 * mm),
        _recorded_note(rec, st),
        _score_table(rows, width, center=(2, 4), row_height=8 * mm),
    ]


def _domino_row(
    n: int, g: int, entry: Mapping[str, object], hand: Mapping[str, Any], initials: Sequence[str]
) -> list[Any]:
    kind = str(entry.get("type"))
    seat = entry.get("seat")
    if kind == "domino":
        outcome = _("domino by {n}").format(n=_seat_no(seat))
    else:
        outcome = {
            "block": _("block (cierre)"),
            "annulled": _("annulled"),
            "penalty": _("penalty"),
            "abandon": _("abandonment"),
        }.get(kind, kind)
    pips = entry.get("pips") or ["", "", "", ""]
    pts = hand["points"]
    leader = hand.get("leader")
    return [
        str(n + 1),
        str(g + 1),
        _seat_no(leader),
        outcome,
        *[str(x) for x in list(pips)[:4]],  # type: ignore[call-overload]
        signed(pts[0]),
        signed(pts[1]),
        signed(hand["totals"][0]),
        signed(hand["totals"][1]),
        initials[n] if n < len(initials) else "",
        Para(esc(str(hand.get("explanation", ""))), _NOTE),
    ]


def _bold_note_style() -> Any:
    from reportlab.lib.enums import TA_CENTER
    from reportlab.lib.styles import ParagraphStyle

    return ParagraphStyle("sheetnoteb", fontName=COND_BOLD, fontSize=7, leading=8, alignment=TA_CENTER)


HEAD_SIZE = 7.0  # pt, the sheets' column headers
HEAD_FLOOR = 5.5  # pt: a header is set no smaller; its column widens instead
NOTES_MIN = 40.0  # pt: the last (notes) column keeps at least this much


def header_widths(labels: Sequence[str], fixed: Sequence[float], width: float) -> list[float]:
    """Column widths from the (translated) headers: each fixed column is at least as wide as the longest
    word of its header needs at :data:`HEAD_FLOOR`; the last column takes what is left (at least
    :data:`NOTES_MIN`). When the headers need more than the page, every column is scaled down alike."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    need = []
    for f, label in zip(fixed, labels, strict=False):
        longest = max((stringWidth(w, COND_BOLD, HEAD_FLOOR) for w in str(label).split()), default=0.0)
        need.append(max(f, longest + CELL_PAD + 0.5))
    room = width - NOTES_MIN
    if sum(need) > room:
        need = [w * room / sum(need) for w in need]
    return [*need, width - sum(need)]


def _heads(labels: Sequence[Any], widths: Sequence[float]) -> list[Any]:
    """Header cells that wrap between words in narrow columns and shrink rather than break a word; made
    once per set of labels and widths (every sheet of a night has the same heads)."""
    if all(isinstance(x, str) for x in labels):
        return list(_same_heads(tuple(labels), tuple(widths)))
    return heads(labels, widths, size=HEAD_SIZE, center=True)


@lru_cache(maxsize=32)
def _same_heads(labels: tuple[str, ...], widths: tuple[float, ...]) -> tuple[Any, ...]:
    return tuple(heads(labels, widths, size=HEAD_SIZE, center=True, cls=Para))


_NOTE_B = _bold_note_style()


# -------------------------------------------------------------------------------------------------- tavla
def _tavla(sheet: TavlaSheetData, st: Styles, width: float) -> list[Flowable]:
    rs = load_ruleset(sheet.ruleset, sheet.params)
    p = rs.params
    a, b = sheet.players
    if p.clock_minutes_per_point:
        # rule T8b: total time plus a delay per move; out of time loses the match
        clock = _("{m} min per point ({total} min each), {d} s delay per move").format(
            m=p.clock_minutes_per_point,
            total=p.clock_minutes_per_point * p.match_length,
            d=p.clock_delay_seconds,
        )
    else:
        clock = _("no clock")
    info = [
        [_("Player 1"), a, _("Club"), sheet.clubs[0]],
        [_("Player 2"), b, _("Club"), sheet.clubs[1]],
        [
            _("Match to"),
            _("{n} points").format(n=p.match_length),
            _("Crawford rule"),
            _("yes") if p.crawford else _("no"),
        ],
        [_("Clock (T8b)"), clock, "", ""],
    ]
    story = _top(
        _("Tavla match sheet: table {table}").format(table=sheet.table),
        info,
        (0.18, 0.4, 0.17, 0.25),
        sheet,
        st,
        width,
        (a, b),
    )
    story.extend(
        _intro(
            _(
                "Gammon ×2, backgammon ×3, times the cube (T7c). "
                "A dropped double loses at the cube's value "
                "(T7a). No cube in the Crawford game (T7b). Write the score after every game (T8c)."
            ),
            st,
        )
    )
    head = [
        _("Game"),
        _("Winner"),
        _("single"),
        _("gammon"),
        _("backg."),
        _("Cube"),
        _("Dropped"),
        _("Points"),
        _("Player 1"),
        _("Player 2"),
        _("Crawford"),
        _("Notes"),
    ]
    widths = header_widths(head, [28, 90, 32, 38, 32, 28, 40, 32, 48, 48, 40], width)
    rows: list[list[Any]] = [_heads(head, widths)]
    extra: list[tuple[Any, ...]] = []
    entries = list(sheet.entries)
    if not entries:
        story.append(
            _blank_table(
                rows, _tavla_rows(sheet, p.match_length), widths, 7 * mm, font_size=8.5, center=range(2, 11)
            )
        )
        rec = sheet.recorded
        if rec is None:
            winner = ""
            score = ["", ""]
        else:
            # a final-score-only result (``result --score 5-2``): the recorded points and the winner
            story.append(Spacer(1, 2 * mm))
            story.append(_recorded_note(rec, st))
            winner = _winner_name(rec, (a, b))
            score = [str(rec.score[0]), str(rec.score[1])]
    else:
        result = replay(rs, entries)
        mark = "✓"
        for k, (entry, game) in enumerate(zip(entries, result["games"], strict=False)):
            kind = str(entry.get("type"))
            win = int(game["winner"])  # the engine's winner of this game (T8c), never worked out again
            if kind == "game":
                gk = str(entry.get("kind"))
                cells = [
                    mark if gk == "single" else "",
                    mark if gk == "gammon" else "",
                    mark if gk == "backgammon" else "",
                    str(entry.get("cube", 1)),
                    mark if entry.get("dropped") else "",
                ]
                note = ""
            elif kind == "game_loss":
                cells = ["", "", "", "", ""]
                note = _("game loss penalty (T9d)")
            else:
                cells = ["", "", "", "", ""]
                reason = str(entry.get("reason"))
                note = {
                    "absent": _("forfeit: absent (T9a)"),
                    "time": _("forfeit: out of time (T8b)"),
                    "penalty": _("forfeit: match loss penalty (T9d)"),
                }.get(reason, reason)
            rows.append(
                [
                    str(k + 1),
                    sheet.players[win],
                    *cells,
                    str(game["points"][win]),
                    str(game["score"][0]),
                    str(game["score"][1]),
                    _("Crawford") if game.get("crawford") else "",
                    Para(esc(note), _NOTE),
                ]
            )
            if game.get("crawford"):
                extra.append(("FONT", (10, len(rows) - 1), (10, len(rows) - 1), COND_BOLD, 8.5))
                extra.append(("BACKGROUND", (0, len(rows) - 1), (-1, len(rows) - 1), HEAD_BG))
        story.append(grid(rows, widths, font_size=8.5, center=range(2, 11), extra=extra))
        winner = "" if result["winner"] is None else sheet.players[int(result["winner"])]
        score = [str(x) for x in result["score"]]
    story.append(Spacer(1, 3 * mm))
    final = [_score_row(_("Final score"), (a, b), score, winner)]
    columns = SCORE_COLUMNS
    story.append(_score_table(final, width, columns, center=(2, 4), row_height=8 * mm))
    story.append(Spacer(1, 4 * mm))
    # rule T8c: the result is reported by both players and confirmed; the referee approves it
    story.append(_signatures([_("Player 1") + f": {a}", _("Player 2") + f": {b}", _("Referee")], st, width))
    return story
