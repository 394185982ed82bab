"""FIDE TRF16 import and export for Swiss and round-robin events.

Columns as in ``shared/data/tiebreaks/TRF-FORMAT.md`` (FIDE C.04 Annex 2). Player lines (``001``) are
read strictly: a malformed one raises :class:`TrfError` with its 1-based line number. Other lines
(tournament data, engine extensions, column rulers) are kept verbatim for export; ``XXR`` (rounds)
and the bbpPairings point lines ``BBW BBD BBL BBZ BBF BBU`` are understood.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

from clubdesk.i18n import _
from clubdesk.standings.records import CHESS_SCHEME, EventData, Format, Kind, PointsScheme, RoundRecord
from clubdesk.standings.tiebreaks import Rules


class TrfError(ValueError):
    """A malformed TRF line: ``line`` is its 1-based number, ``reason`` a translated sentence."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(_("line {line}: {reason}").format(line=line, reason=reason))
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class TrfRound:
    opponent: int  # 0 = none
    colour: str  # "w", "b" or "-"
    # one of 1 = 0 + - W D L H F U Z (upper case); "" = paired but not played yet (open round)
    result: str

    @property
    def pending(self) -> bool:
        """Paired, no result yet: the round is still being played."""
        return self.result == "" and self.opponent != 0


@dataclass(frozen=True)
class TrfPlayer:
    start_no: int
    name: str
    rating: int = 0
    points: str = ""  # as written in the file (cols 81-84)
    rank: int = 0
    rounds: tuple[TrfRound, ...] = ()
    sex: str = " "
    title: str = "   "
    federation: str = "   "
    fide_id: str = ""
    birth: str = ""
    rating_text: str = ""  # columns 49-52 as written ("0000" and blank both mean unrated)


@dataclass(frozen=True)
class TrfTournament:
    players: tuple[TrfPlayer, ...]
    header: tuple[str, ...] = ()  # non-player lines, verbatim, in file order
    rounds: int = 0
    scheme: PointsScheme = field(default_factory=lambda: CHESS_SCHEME)

    @property
    def written_rounds(self) -> int:
        """Rounds written in the player lines (the longest line); ``XXR`` may announce more."""
        return max((len(p.rounds) for p in self.players), default=0)

    @property
    def open_round(self) -> int:
        """The first round with a pairing but no result yet (0 when every written round is complete)."""
        pending = [r for p in self.players for r, rd in enumerate(p.rounds, start=1) if rd.pending]
        return min(pending, default=0)

    @property
    def complete_rounds(self) -> int:
        """Rounds whose results are all in: the standings are computed up to this round."""
        return self.open_round - 1 if self.open_round else self.written_rounds


_RESULTS = set("10=+-WDLHFUZ")
_POINT_LINES = {
    "BBW": "win",
    "BBD": "draw",
    "BBL": "loss",
    "BBZ": "zero_bye",
    "BBF": "forfeit_loss",
    "BBU": "bye",
}


def _field(line: str, first: int, last: int) -> str:
    """Columns ``first``..``last`` (1-based, inclusive)."""
    return line[first - 1 : last]


def _parse_player(line: str, no: int) -> TrfPlayer:
    start = _field(line, 5, 8).strip()
    if not start.isdigit() or int(start) == 0:
        raise TrfError(no, _("start number in columns 5-8 is not a positive number: {v!r}").format(v=start))
    rating_s = _field(line, 49, 52).strip()
    if rating_s and not rating_s.isdigit():
        raise TrfError(no, _("rating in columns 49-52 is not a number: {v!r}").format(v=rating_s))
    points_s = _field(line, 81, 84).strip()
    if points_s and not re.fullmatch(r"\d+(\.\d+)?", points_s):
        raise TrfError(no, _("points in columns 81-84 are not a number: {v!r}").format(v=points_s))
    rank_s = _field(line, 86, 89).strip()
    if rank_s and not rank_s.isdigit():
        raise TrfError(no, _("rank in columns 86-89 is not a number: {v!r}").format(v=rank_s))
    rounds: list[TrfRound] = []
    base = 92
    while len(line.rstrip()) >= base:
        opp_s = _field(line, base, base + 3).strip()
        colour = (_field(line, base + 5, base + 5).strip() or "-").lower()
        result = _field(line, base + 7, base + 7).strip().upper()
        rno = len(rounds) + 1
        if opp_s and not opp_s.isdigit():
            raise TrfError(no, _("round {r}: opponent is not a start number: {v!r}").format(r=rno, v=opp_s))
        if colour not in ("w", "b", "-"):
            raise TrfError(no, _("round {r}: unknown colour {v!r}").format(r=rno, v=colour))
        if result and result not in _RESULTS:
            raise TrfError(no, _("round {r}: unknown result {v!r}").format(r=rno, v=result))
        opp = int(opp_s) if opp_s else 0
        if not result and opp == 0:
            # a blank field (or a blank result without an opponent) is an unplayed round, TRF16: Z
            result = "Z"
        if opp == 0 and result not in "HFUZ-+":
            raise TrfError(no, _("round {r}: result {v!r} without an opponent").format(r=rno, v=result))
        if opp != 0 and result and result in "HFUZ":
            raise TrfError(no, _("round {r}: a bye ({v}) with an opponent").format(r=rno, v=result))
        rounds.append(TrfRound(opp, colour, result))
        base += 10
    return TrfPlayer(
        start_no=int(start),
        name=_field(line, 15, 47).strip(),
        rating=int(rating_s) if rating_s else 0,
        points=points_s,
        rank=int(rank_s) if rank_s else 0,
        rounds=tuple(rounds),
        sex=_field(line, 10, 10) or " ",
        title=_field(line, 11, 13).ljust(3),
        federation=_field(line, 54, 56).ljust(3),
        fide_id=_field(line, 58, 68).strip(),
        birth=_field(line, 70, 79).strip(),
        rating_text=rating_s,
    )


def parse_trf(text: str) -> TrfTournament:
    """Read TRF16 text (LF, CRLF or bare CR line ends). Raises :class:`TrfError` on a bad line."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    players: list[TrfPlayer] = []
    header: list[str] = []
    where: dict[int, int] = {}
    rounds = 0
    scheme = CHESS_SCHEME
    for no, line in enumerate(lines, start=1):
        code = line[:3]
        if _is_team_line(code, line):
            raise TrfError(
                no,
                _(
                    "this is a team tournament file ({code} line); only individual tournaments can be read"
                ).format(code=code),
            )
        if code == "001":
            p = _parse_player(line, no)
            if p.start_no in where:
                raise TrfError(no, _("start number {n} appears twice").format(n=p.start_no))
            where[p.start_no] = no
            players.append(p)
            continue
        if not line.strip():
            continue
        header.append(line.rstrip("\n"))
        if code in ("XXR", "142"):
            v = line[3:].strip()
            if not v.isdigit():
                raise TrfError(no, _("XXR needs the number of rounds: {v!r}").format(v=v))
            rounds = int(v)
        elif code in _POINT_LINES:
            v = line[3:].strip()
            try:
                pts = Fraction(v)
            except ValueError:
                raise TrfError(
                    no, _("{code} needs a number of points: {v!r}").format(code=code, v=v)
                ) from None
            if (pts * 2).denominator != 1:
                raise TrfError(no, _("{code}: points must be whole or half: {v!r}").format(code=code, v=v))
            scheme = replace(scheme, **{_POINT_LINES[code]: int(pts * 2)})
    if not players:
        raise TrfError(len(lines), _("no player lines (001)"))
    # every opponent must exist and name the player back in the same round
    by_no = {p.start_no: p for p in players}
    for p in players:
        for r, rd in enumerate(p.rounds, start=1):
            if rd.opponent == 0:
                continue
            other = by_no.get(rd.opponent)
            if other is None:
                raise TrfError(where[p.start_no], _("round {r}: no player {n}").format(r=r, n=rd.opponent))
            if (
                len(other.rounds) < r
                or other.rounds[r - 1].opponent != p.start_no
                or bool(other.rounds[r - 1].result) != bool(rd.result)
            ):
                raise TrfError(
                    where[p.start_no],
                    _("round {r}: player {n} does not name {m} as opponent").format(
                        r=r, n=rd.opponent, m=p.start_no
                    ),
                )
    played = max(len(p.rounds) for p in players)
    return TrfTournament(tuple(players), tuple(header), max(rounds, played), scheme)


#: Lines that only team tournament files have: team lines (013, TRF-2026 310), team match
#: results (TRF-2026 320-362); 082 = number of teams; 192 names a team point system.
_TEAM_CODES = frozenset({"013", "310", "320", "330", "340", "350", "360", "362"})


def _is_team_line(code: str, line: str) -> bool:
    if code in _TEAM_CODES:
        return True
    rest = line[3:].strip()
    if code == "082":
        return rest.split()[0].isdigit() and int(rest.split()[0]) > 0 if rest else False
    return code == "192" and "TEAM" in rest.upper()


def read_trf(path: str | Path) -> TrfTournament:
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return parse_trf(text)


def _kind(result: str, has_opp: bool) -> tuple[Kind, int]:
    """Record kind and played outcome (1 win, 0 draw, -1 loss) for a TRF result code."""
    if result in ("1", "W"):
        return Kind.PLAYED, 1
    if result in ("=", "D"):
        return Kind.PLAYED, 0
    if result in ("0", "L"):
        return Kind.PLAYED, -1
    if result == "+":
        return (Kind.FORFEIT_WIN, 1) if has_opp else (Kind.FULL_BYE, 1)
    if result == "-":
        return (Kind.FORFEIT_LOSS, -1) if has_opp else (Kind.ZERO_BYE, -1)
    return {"H": Kind.HALF_BYE, "F": Kind.FULL_BYE, "U": Kind.BYE}.get(result, Kind.ZERO_BYE), 0


def event_from_trf(t: TrfTournament, fmt: Format | None = None) -> EventData:
    """The standings input for a TRF tournament; entrants are start numbers as strings.

    The format is a round robin when the ``092`` line says so, otherwise Swiss."""
    if fmt is None:
        kind_line = " ".join(h[3:] for h in t.header if h.startswith("092")).lower()
        fmt = Format.ROUND_ROBIN if "round" in kind_line or "robin" in kind_line else Format.SWISS
    recs: dict[str, tuple[RoundRecord, ...]] = {}
    # Rounds written in the lines, up to the last complete one: a round paired without results is
    # not played yet (the standings stop before it); a line shorter than the others (a player who
    # withdrew, blank trailing rounds) has zero-point unplayed rounds (Z) there, as FIDE TEC's
    # tie-break checker reads them (REFERENCES.md: voluntarily unplayed rounds).
    complete = t.complete_rounds
    for p in t.players:
        lst = []
        padded = list(p.rounds[:complete])
        padded += [TrfRound(0, "-", "Z")] * (complete - len(padded))
        for r, rd in enumerate(padded, start=1):
            kind, outcome = _kind(rd.result, rd.opponent != 0)
            pts = t.scheme.points_for(kind, outcome)
            opp = str(rd.opponent) if rd.opponent else None
            # score difference for IAV/GAV: points for minus the opponent's points in the game
            against = 0
            if opp is not None:
                okind, oout = _kind(_mirror(rd.result), True)
                against = t.scheme.points_for(okind, oout)
            lst.append(RoundRecord(r, kind, pts, opp, pts if opp else 0, against))
        recs[str(p.start_no)] = tuple(lst)
    return EventData(
        entrants=tuple(str(p.start_no) for p in sorted(t.players, key=lambda p: p.start_no)),
        records=recs,
        scheme=t.scheme,
        fmt=fmt,
        rounds=complete,
        ratings={str(p.start_no): p.rating for p in t.players},
    )


def _mirror(result: str) -> str:
    return {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+"}.get(
        result, result
    )


def format_player(p: TrfPlayer) -> str:
    """One ``001`` line in TRF16 columns."""
    rating = p.rating_text or (str(p.rating) if p.rating else "")
    line = (
        f"001 {p.start_no:4d} {p.sex[:1] or ' '}{p.title[:3]:<3} {p.name[:33]:<33} "
        f"{rating:>4} {p.federation[:3]:<3} {p.fide_id[:11]:>11} "
        f"{p.birth[:10]:<10} {p.points[:4]:>4} {(str(p.rank) if p.rank else ''):>4}"
    )
    for rd in p.rounds:
        line += (
            f"  {rd.opponent:04d} {rd.colour} {rd.result or ' '}"
            if rd.opponent == 0
            else (f"  {rd.opponent:4d} {rd.colour} {rd.result or ' '}")
        )
    return line.rstrip()


def export_trf(t: TrfTournament) -> str:
    """TRF16 text: the kept non-player lines first, then one ``001`` line per player (LF ends)."""
    out = list(t.header)
    out += [format_player(p) for p in t.players]
    return "\n".join(out) + "\n"


def trf_from_event(
    event: EventData,
    *,
    start_numbers: Sequence[str] | None = None,
    names: dict[str, str] | None = None,
    ranks: dict[str, int] | None = None,
    title: str = "",
) -> TrfTournament:
    """A TRF tournament from standings input (results written as 1 / = / 0 / + / - / U / F / H / Z).

    Entrants get start numbers 1..n in ``start_numbers`` order (default: ``event.entrants``)."""
    order = list(start_numbers or event.entrants)
    no = {e: i for i, e in enumerate(order, start=1)}
    rounds = max((r.round for recs in event.records.values() for r in recs), default=0)
    sch = event.scheme
    players = []
    for e in order:
        by_round = {r.round: r for r in event.records.get(e, ())}
        trs = []
        for rnd in range(1, rounds + 1):
            r = by_round.get(rnd)
            if r is None:
                trs.append(TrfRound(0, "-", "Z"))
            elif r.kind is Kind.PLAYED:
                o = event.records[r.opponent or ""]
                opp_pts = next(x.points for x in o if x.round == rnd)
                res = "1" if r.points > opp_pts else "0" if r.points < opp_pts else "="
                trs.append(TrfRound(no[r.opponent or ""], "-", res))
            elif r.kind in (Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS):
                res = "+" if r.kind is Kind.FORFEIT_WIN else "-"
                trs.append(TrfRound(no[r.opponent or ""], "-", res))
            else:
                code = {Kind.BYE: "U", Kind.FULL_BYE: "F", Kind.HALF_BYE: "H"}.get(r.kind, "Z")
                trs.append(TrfRound(0, "-", code))
        pts = Fraction(sum(r.points for r in event.records.get(e, ())), sch.scale)
        players.append(
            TrfPlayer(
                start_no=no[e],
                name=(names or {}).get(e, e),
                rating=event.ratings.get(e, 0),
                points=f"{float(pts):.1f}",
                rank=(ranks or {}).get(e, 0),
                rounds=tuple(trs),
            )
        )
    header = [f"012 {title}".rstrip(), f"062 {len(order)}", f"XXR {rounds}"]
    return TrfTournament(tuple(players), tuple(header), rounds, sch)


def rules_by_date(t: TrfTournament) -> Rules:
    """The FIDE rule set in force when the tournament started (``042``), as FIDE TEC's checker picks it:
    the 2026 rules from 2026-03-01, and for a file without a start date."""
    start = next((h[3:].strip() for h in t.header if h.startswith("042")), "")
    start = start.replace("/", "-").replace(".", "-")
    return Rules.FIDE_2024 if len(start) == 10 and start < "2026-03-01" else Rules.FIDE_2026


def tiebreaks_for_trf(
    path: str | Path, codes: Sequence[str], rules: str = "2024"
) -> dict[str, dict[str, float | int]]:
    """CONTRACTS.md §4 ``tiebreaks``: ``{"START_NO": {"PTS": x, "BH": y, ...}}`` in the file's own
    point scale (chess 2.5). ``DE`` gives the rank after points and direct encounter; ``IAV`` the
    point difference among those tied on points. ``rules``: "2024", "2026" or "auto" (by the start date,
    :func:`rules_by_date`)."""
    from clubdesk.standings.table import tiebreak_values

    t = read_trf(path)
    event = event_from_trf(t)
    chosen = rules_by_date(t) if rules == "auto" else Rules(rules)
    return tiebreak_values(event, list(codes), chosen)
