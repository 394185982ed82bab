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


def timed(label: str, fn: object) -> None:
    t0 = time.perf_counter()
    pages = fn()  # type: ignore[operator]
    print(f"{label:<40} {time.perf_counter() - t0:6.3f} s  ({pages} pages)")


def main() -> None:
    rng = random.Random(1)
    sheets = [
        d.GapleSheetData("7", 3, t + 1, ("Ayşe", "Iğdır", "İsmail", "Peña"), entries=gaple_match(rng))
        for t in range(64)
    ]
    print(f"(64 gaple matches, {sum(len(s.entries) for s in sheets)} hands in all)")
    timed("64 filled gaple score sheets", lambda: score_sheets(io.BytesIO(), H, sheets))
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
