"""The words the reports print for their data: titles, round headings, a place, season points.

One function each, used by the PDFs, the shared images, the static site, the projector and the hall screen,
so that every face says the same thing in the same language.
"""

from __future__ import annotations

from clubdesk.i18n import N_, _
from clubdesk.reports.data import BracketData, BracketMatchData, StandingsData

#: CONTRACTS.md §3 codes and their long names for a legend (the PDF, the site, the hall's screen): each says
#: what it counts, where the screens' ``standings.tiebreaks.TIEBREAK_NAMES`` only name it
TIEBREAK_LEGEND: dict[str, str] = {
    "PTS": N_("points"),
    "DE": N_("direct encounter between the tied"),
    "IAV": N_("ikili averaj: point difference among the tied"),
    "GAV": N_("genel averaj: point difference overall"),
    "BH": N_("Buchholz: sum of the opponents' points"),
    "BH-C1": N_("Buchholz cut 1: without the lowest opponent"),
    "BH-C2": N_("Buchholz cut 2: without the two lowest"),
    "BH-M1": N_("median Buchholz: without the highest and the lowest"),
    "SB": N_("Sonneborn-Berger"),
    "SB-C1": N_("Sonneborn-Berger cut 1"),
    "SB-C2": N_("Sonneborn-Berger cut 2"),
    "PS": N_("progressive score"),
    "PS-C1": N_("progressive score cut 1"),
    "WIN": N_("wins"),
    "ARO": N_("average rating of the opponents"),
}


def standings_title(sd: StandingsData) -> str:
    if sd.final:
        return _("Final standings")
    if sd.after_round is not None:
        return _("Standings after round {n}").format(n=sd.after_round)
    return _("Standings")


def bracket_rounds(bd: BracketData) -> list[tuple[str, list[BracketMatchData]]]:
    """The matches of each bracket round in order, with the round's heading."""
    order = {"W": 0, "L": 1, "3P": 2, "GF": 3, "GF2": 4}
    groups: dict[tuple[int, int], list[BracketMatchData]] = {}
    for m in bd.matches:
        groups.setdefault((order.get(m.bracket, 9), m.round), []).append(m)
    out = []
    for (b, rno), ms in sorted(groups.items()):
        if b == 0:
            head = _("Round {n}").format(n=rno)
        elif b == 1:
            head = _("Losers' bracket") + " · " + _("Round {n}").format(n=rno)
        elif b == 2:
            head = _("Third place")
        elif b == 3:
            head = _("Grand final")
        elif b == 4:  # double elimination: the second final, played when the losers' bracket won the first
            head = _("Grand final, reset")
        else:
            head = _("Final")
        out.append((head, sorted(ms, key=lambda m: m.number)))
    return out


def side_text(m: BracketMatchData, k: int) -> str:
    """A bracket side: the name, else where it comes from ("Winner of W1-2"), else a dash."""
    name = m.sides[k]
    return name if name is not None else (m.labels[k] or "—")


def crosstable_legend() -> str:
    return _("Per round: the opponent's rank and the result (+ won, − lost, = drawn); + alone: a bye.")


def place_text(a: int, b: int) -> str:
    """A place, or a shared one (rule T12a): "3", "3–4"."""
    return str(a) if a == b else f"{a}–{b}"


def centi_text(v: int) -> str:
    """Season points kept in hundredths: 1200 → "12", 1250 → "12.50"."""
    return str(v // 100) if v % 100 == 0 else f"{v / 100:.2f}"
