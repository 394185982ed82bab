"""The tavla score sheet: the match length, the clock, a row a game with its cube, the Crawford game."""

from __future__ import annotations

from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from clubdesk.games import load_ruleset, replay
from clubdesk.i18n import _
from clubdesk.reports.data import TavlaSheetData
from clubdesk.reports.fonts import COND_BOLD
from clubdesk.reports.frame import HEAD_BG, Styles, esc, grid
from clubdesk.reports.memo import Para
from clubdesk.reports.sheet_parts import (
    NOTE,
    SCORE_COLUMNS,
    blank_table,
    header_widths,
    intro,
    recorded_note,
    score_row,
    score_table,
    sheet_heads,
    sheet_top,
    signatures,
    tavla_rows,
    winner_name,
)


def tavla_sheet(sheet: TavlaSheetData, st: Styles, width: float) -> list[Flowable]:
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
    story = sheet_top(
        _("Tavla match sheet: table {table}").format(table=sheet.table),
        info,
        (0.18, 0.4, 0.17, 0.25),
        sheet,
        st,
        width,
        (a, b),
    )
    story.extend(
        intro(
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
    rows: list[list[Any]] = [sheet_heads(head, widths)]
    extra: list[tuple[Any, ...]] = []
    entries = list(sheet.entries)
    if not entries:
        story.append(
            blank_table(
                rows, tavla_rows(sheet, p.match_length), widths, 7 * mm, font_size=8.5, center=range(2, 11)
            )
        )
        rec = sheet.recorded
        if rec is None:
            winner = ""
            score = ["", ""]
        else:
            # a final-score-only result (``result --score 5-2``): the recorded points and the winner
            story.append(Spacer(1, 2 * mm))
            story.append(recorded_note(rec, st))
            winner = winner_name(rec, (a, b))
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
                    Para(esc(note), NOTE),
                ]
            )
            if game.get("crawford"):
                extra.append(("FONT", (10, len(rows) - 1), (10, len(rows) - 1), COND_BOLD, 8.5))
                extra.append(("BACKGROUND", (0, len(rows) - 1), (-1, len(rows) - 1), HEAD_BG))
        story.append(grid(rows, widths, font_size=8.5, center=range(2, 11), extra=extra))
        winner = "" if result["winner"] is None else sheet.players[int(result["winner"])]
        score = [str(x) for x in result["score"]]
    story.append(Spacer(1, 3 * mm))
    final = [score_row(_("Final score"), (a, b), score, winner)]
    columns = SCORE_COLUMNS
    story.append(score_table(final, width, columns, center=(2, 4), row_height=8 * mm))
    story.append(Spacer(1, 4 * mm))
    # rule T8c: the result is reported by both players and confirmed; the referee approves it
    story.append(signatures([_("Player 1") + f": {a}", _("Player 2") + f": {b}", _("Referee")], st, width))
    return story
