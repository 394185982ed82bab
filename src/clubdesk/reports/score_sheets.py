"""Score sheets (Hoja de Anotaciones), one page per table: blank before play, filled from the entries after.

Filled sheets are recomputed with the rules engines (:func:`clubdesk.games.replay`), so every running
total, burn, fine and Crawford mark on paper is the one the app scores. Each sheet carries the table's QR
code (``CLUBDESK:TABLE:<event>:<round>:<table>``, CONTRACTS.md §4) that the desk scans to open that table;
while table entry on phones is on it carries the table's address instead (``sheet.qr``), which
the players' phones open and the desk's scan field accepts as well.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from clubdesk.games import load_ruleset, replay
from clubdesk.i18n import _
from clubdesk.reports.cellgrid import fast_grid
from clubdesk.reports.data import DominoSheetData, GapleSheetData, ReportHeader, ScoreSheetData
from clubdesk.reports.domino_sheet import domino_sheet
from clubdesk.reports.frame import Styles, content_width, each_from_a_new_page, esc, render
from clubdesk.reports.memo import Para
from clubdesk.reports.sheet_parts import (
    NOTE,
    blank_rows,
    blank_table,
    game_won,
    header_widths,
    intro,
    num_text,
    recorded_note,
    recorded_rows,
    score_row,
    score_table,
    seat_no,
    separator,
    sheet_heads,
    sheet_top,
    signatures,
)
from clubdesk.reports.tavla_sheet import tavla_sheet
from clubdesk.text import signed


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
        return domino_sheet(sheet, st, width)
    return tavla_sheet(sheet, st, width)


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
    story = sheet_top(
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
    story.extend(intro(" ".join(rules), st))

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
    rows: list[list[Any]] = [sheet_heads(head, widths)]
    extra: list[tuple[Any, ...]] = []
    entries = list(sheet.entries)
    if not entries:
        if p.opening_tiles and p.warmup:
            separator(len(rows), _("Game 1 · opening tile 0-0 (warm-up, G6)"), rows, extra)
        story.append(
            blank_table(rows, blank_rows(sheet), widths, 6 * mm, font_size=8, right=range(4, 17), extra=extra)
        )
        story.append(Spacer(1, 3 * mm))
        rec = sheet.recorded
        if rec is None:
            won = [score_row(_("Games won"), (pair_a, pair_b), ("", ""), "")]
        else:
            story.append(recorded_note(rec, st))
            won = recorded_rows(_("Games won"), rec, (pair_a, pair_b))
        story.append(score_table(won, width, row_height=8 * mm))
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
            separator(len(rows), label, rows, extra)
            for hand in game["hands"]:
                entry = entries[n]
                rows.append(_gaple_row(n, g, entry, hand, outcomes))
                n += 1
            if game["winner"] is not None:
                text = game_won(g, pair_a if game["winner"] == 0 else pair_b, game["totals"])
                if p.seat_change and g + 1 < len(result["games"]):
                    text += " · " + _("opponents change seats (G19)")
                separator(len(rows), text, rows, extra)
        # the hands drawn straight on the canvas (the same look as grid())
        story.append(fast_grid(rows, widths, font_size=8, right=range(4, 17), extra=extra))
        story.append(Spacer(1, 3 * mm))
        gw = result["games_won"]
        winner = "" if result["winner"] is None else (pair_a if result["winner"] == 0 else pair_b)
        won = [score_row(_("Games won"), (pair_a, pair_b), (str(gw[0]), str(gw[1])), winner)]
        story.append(score_table(won, width, center=(2, 4)))
    story.append(Spacer(1, 4 * mm))
    # rule G13: counting is done together with the opponents; both pairs sign
    story.append(
        signatures([_("Pair A") + f": {pair_a}", _("Pair B") + f": {pair_b}", _("Referee")], st, width)
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
    from clubdesk.games.gaple import GapleMatch
    from clubdesk.games.gaple_entries import Entry
    from clubdesk.games.gaple_results import state_to_dict

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
        seat_no(seat) if seat is not None else "",
        *[str(x) for x in list(pips)[:4]],  # type: ignore[call-overload]
        seat_no(dead.get("0-0")),
        seat_no(dead.get("6-6")),
        str(entry.get("last_tile") or ""),
        "×2" if entry.get("two_ends") else "",
        num_text(hand.get("pure")),
        signed(pts[0]),
        signed(pts[1]),
        signed(hand["totals"][0]),
        signed(hand["totals"][1]),
        Para(esc("; ".join(notes)), NOTE) if notes else "",
    ]
