"""Print times of the heavy reports (issue 14; target: each under 1 s).

64 filled gaple score sheets, standings of 512 entrants, a 64-entrant single and double elimination bracket.
Run: .venv/bin/python benchmarks/reports.py
"""

from __future__ import annotations

import datetime as dt
import io
import random
import time

from clubdesk.games import EntryError, replay
from clubdesk.pairing import Entrant
from clubdesk.pairing.elimination import double_elimination, single_elimination
from clubdesk.reports import data as d
from clubdesk.reports.bracket import bracket, from_bracket
from clubdesk.reports.score_sheets import score_sheets
from clubdesk.reports.standings import standings

H = d.ReportHeader("Kulübü Ağaçlı İzmir", "Bahar Turnuvası", round=3, date=dt.date(2025, 5, 4))


def gaple_match(rng: random.Random) -> tuple[dict[str, object], ...]:
    entries: list[dict[str, object]] = []
    while True:
        seat = rng.randrange(4)
        pips = [0 if s == seat else rng.randrange(0, 40) for s in range(4)]
        e = {
            "type": "out",
            "seat": seat,
            "pips": pips,
            "last_tile": None,
            "two_ends": rng.random() < 0.1,
            "dead": {"0-0": None, "6-6": None},
        }
        try:
            res = replay("gaple-tournament", [*entries, e])
        except EntryError:
            break
        entries.append(e)
        if res["finished"]:
            break
    return tuple(entries)


def sixty_four_sheets() -> list[d.GapleSheetData]:
    """The 64 filled gaple sheets of issue 22's row (seeded)."""
    rng = random.Random(1)
    return [
        d.GapleSheetData("7", 3, t + 1, ("Ayşe", "Iğdır", "İsmail", "Peña"), entries=gaple_match(rng))
        for t in range(64)
    ]


def canvas_floor(out: object, sheets: list[d.GapleSheetData]) -> int:
    """The floor of issue 22's row: a bare ReportLab canvas drawing the same hand cells (18 per hand: the
    entry's fields and the running totals as text, right-aligned numbers) with one path of rules per
    page and a page per sheet, in the same font; no layout, no header, no QR code."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    from clubdesk.reports.fonts import COND, register_fonts

    register_fonts()
    c = Canvas(out, pagesize=A4)  # type: ignore[arg-type]
    widths = [14, 23, 36, 22, 19, 19, 19, 19, 26, 26, 22, 22, 22, 27, 27, 29, 29, 60]
    xs = [30.0]
    for w in widths:
        xs.append(xs[-1] + w)
    for sheet in sheets:
        c.setFont(COND, 8)
        y = 780.0
        tot = [0, 0]
        rows = []
        for n, e in enumerate(sheet.entries):
            pips = list(e.get("pips") or [0, 0, 0, 0])  # type: ignore[call-overload]
            a, b = int(pips[1]) + int(pips[3]), int(pips[0]) + int(pips[2])
            tot = [tot[0] + a, tot[1] + b]
            dead = e.get("dead") or {}
            rows.append(
                [str(n + 1), "1", str(e.get("type")), str(e.get("seat")), *[str(x) for x in pips]]
                + [str(dead.get("0-0") or ""), str(dead.get("6-6") or ""), str(e.get("last_tile") or "")]  # type: ignore[union-attr]
                + ["×2" if e.get("two_ends") else "", "", str(a), str(b), str(tot[0]), str(tot[1]), ""]
            )
        p = c.beginPath()
        for cells in rows:
            for i, text in enumerate(cells):
                if text:
                    if 4 <= i < 17:
                        c.drawRightString(xs[i + 1] - 3, y, text)
                    else:
                        c.drawString(xs[i] + 3, y, text)
            p.moveTo(xs[0], y - 4)
            p.lineTo(xs[-1], y - 4)
            y -= 14.1
        for x in xs:
            p.moveTo(x, 784)
            p.lineTo(x, y + 10)
        c.drawPath(p, stroke=1, fill=0)
        c.showPage()
    c.save()
    return len(sheets)


def timed(label: str, fn: object) -> None:
    t0 = time.perf_counter()
    pages = fn()  # type: ignore[operator]
    print(f"{label:<40} {time.perf_counter() - t0:6.3f} s  ({pages} pages)")


def main() -> None:
    rng = random.Random(1)
    sheets = sixty_four_sheets()
    print(f"(64 gaple matches, {sum(len(s.entries) for s in sheets)} hands in all)")
    timed("64 filled gaple score sheets", lambda: score_sheets(io.BytesIO(), H, sheets))
    timed("  floor: a bare canvas, the same cells", lambda: canvas_floor(io.BytesIO(), sheets))
    rows = tuple(
        d.StandingsRow(
            i + 1,
            f"Oyuncu Ğüşİ {i + 1}",
            "Kulüp",
            "İzmir",
            str(512 - i),
            {"BH": str(rng.randrange(200)), "SB": str(rng.randrange(200)), "WIN": str(rng.randrange(9))},
        )
        for i in range(512)
    )
    data = d.StandingsData("7", ("PTS", "BH", "SB", "WIN"), rows, explanations=("x",) * 50)
    timed("standings of 512", lambda: standings(io.BytesIO(), H, data))
    ents = [Entrant(f"e{i}", rating=2000 - i) for i in range(64)]
    names = {f"e{i}": f"Oyuncu {i + 1}" for i in range(64)}
    timed(
        "64-entrant single elimination",
        lambda: bracket(io.BytesIO(), H, from_bracket(single_elimination(ents), names)),
    )
    timed(
        "64-entrant double elimination",
        lambda: bracket(io.BytesIO(), H, from_bracket(double_elimination(ents), names)),
    )


if __name__ == "__main__":
    main()
