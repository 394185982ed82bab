"""The Spanish dominoes' score sheet (domino-es): pairs, hands to 11 columns, the substitutions block."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from clubdesk.games import load_ruleset, replay
from clubdesk.i18n import _
from clubdesk.reports.cellgrid import fast_grid
from clubdesk.reports.data import DominoSheetData, RecordedScore
from clubdesk.reports.frame import Styles, esc, grid
from clubdesk.reports.memo import Para
from clubdesk.reports.sheet_parts import (
    INFO,
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
from clubdesk.text import signed


def domino_sheet(sheet: DominoSheetData, st: Styles, width: float) -> list[Flowable]:
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
    story = sheet_top(
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
        intro(
            _(
                "Players numbered as drawn (E7). The lead passes to the right (E7.3). "
                "Each hand is written "
                "only after the counter approves it with his initials (E6)."
            ),
            st,
        )
    )
    if sheet.seat_note:
        story.extend(intro(sheet.seat_note, st))  # rule E7: equal tiles drawn again among the tied
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
    rows: list[list[Any]] = [sheet_heads(head, widths)]
    extra: list[tuple[Any, ...]] = []
    entries = list(sheet.entries)
    if not entries:
        story.append(blank_table(rows, blank_rows(sheet), widths, 6.5 * mm, font_size=8, right=range(4, 12)))
        if sheet.recorded is not None:
            story.extend(_domino_recorded(sheet.recorded, (pair1, pair2), sheet.encounter, st, width))
        else:  # the final line to fill in by hand: each pair's points and the winner (E18)
            blank = [score_row(_("Points"), (pair1, pair2), ("", ""), "")]
            story.append(Spacer(1, 3 * mm))
            story.append(score_table(blank, width, row_height=8 * mm))
    else:
        result = replay(rs, entries)
        n = 0
        for g, game in enumerate(result["games"]):
            seating = game.get("seating") or [0, 1, 2, 3]
            text = _("Game {n}").format(n=g + 1)
            if list(seating) != [0, 1, 2, 3]:
                order = ", ".join(pl[int(x)] for x in seating)
                text += " · " + _("pair that lost swaps seats (E7b): {order}").format(order=order)
            separator(len(rows), text, rows, extra)
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
                separator(len(rows), game_won(g, won_by, game["totals"]) + end, rows, extra)
        story.append(fast_grid(rows, widths, font_size=8, right=range(4, 12), center=(2, 12), extra=extra))
        # the final line: games won and the winner, as the engine has them (E18)
        gw = result.get("games_won") or [0, 0]
        winner = "" if result.get("winner") is None else (pair1, pair2)[int(result["winner"])]
        final = [score_row(_("Games won"), (pair1, pair2), (str(gw[0]), str(gw[1])), winner)]
        story.append(Spacer(1, 3 * mm))
        story.append(score_table(final, width, center=(2, 4)))
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
    sig = [[Para(esc(c), INFO) if c else "" for c in row] for row in sig]
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
    story.append(signatures([_("Referee") + (f": {referee}" if referee else "")], st, width / 2))
    return story


def _substitution_block(sheet: DominoSheetData, st: Styles, width: float) -> list[Flowable]:
    """Rules E7.2, E20: who left, who came in, from which hand (blank lines on a sheet before play)."""
    head = [_("Pair"), _("Player out"), _("Player in"), _("Game"), _("From hand"), _("Reason")]
    widths = [width * 0.22, width * 0.2, width * 0.2, width * 0.08, width * 0.1, width * 0.2]
    rows: list[list[Any]] = [sheet_heads(head, widths)]
    for sub in sheet.substitutions:
        rows.append(
            [
                Para(esc(sub.side), INFO),
                Para(esc(sub.player_out), INFO),
                Para(esc(sub.player_in), INFO),
                str(sub.game),
                num_text(sub.from_hand),
                Para(esc(sub.reason), NOTE),
            ]
        )
    if not sheet.substitutions:
        if sheet.entries or sheet.recorded is not None:
            rows.append([Para(esc(_("none")), NOTE), "", "", "", "", ""])
        else:
            rows.extend([[""] * 6, [""] * 6])  # to fill in by hand
    title = Para("<b>" + esc(_("Substitutions (E7.2, E20)")) + "</b>", NOTE)
    return [title, Spacer(1, 1 * mm), grid(rows, widths, font_size=8, center=(3, 4), row_height=None)]


def _domino_recorded(
    rec: RecordedScore, pairs: tuple[str, str], encounter: bool, st: Styles, width: float
) -> list[Flowable]:
    """The final score of a final-score-only result: games won (the encounter's, E7b), points, winner."""
    label = _("Encounter score") if encounter else _("Games won")
    rows = recorded_rows(label, rec, pairs)
    return [
        Spacer(1, 3 * mm),
        recorded_note(rec, st),
        score_table(rows, width, center=(2, 4), row_height=8 * mm),
    ]


def _domino_row(
    n: int, g: int, entry: Mapping[str, object], hand: Mapping[str, Any], initials: Sequence[str]
) -> list[Any]:
    kind = str(entry.get("type"))
    seat = entry.get("seat")
    if kind == "domino":
        outcome = _("domino by {n}").format(n=seat_no(seat))
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
        seat_no(leader),
        outcome,
        *[str(x) for x in list(pips)[:4]],  # type: ignore[call-overload]
        signed(pts[0]),
        signed(pts[1]),
        signed(hand["totals"][0]),
        signed(hand["totals"][1]),
        initials[n] if n < len(initials) else "",
        Para(esc(str(hand.get("explanation", ""))), NOTE),
    ]
