"""Open league with a deadline (rule BC3; T4f).

All pairings of a full round robin (Berger, rule T4f) are known at the start; they are played in any
order, whenever both sides are free. At the deadline every match still unplayed is lost by both
sides, unless the secretary names the side at fault: then it is a loss by WO for that side only.
Points for a win, a loss and a forfeit are set per league (T4f) by the standings, not here.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from clubdesk.i18n import _
from clubdesk.pairing.roundrobin import round_robin_rounds


class Outcome(StrEnum):
    PLAYED = "played"
    WO = "wo"  # not played by the deadline; the side at fault loses by WO (BC3)
    BOTH_LOST = "both-lost"  # not played by the deadline, nobody named: lost by both (BC3)


@dataclass(frozen=True)
class LeagueMatch:
    id: str  # "M1", "M2" ... in Berger order
    home: str
    away: str
    cycle: int  # 1, or 2 in a double round robin (sides reversed)


@dataclass(frozen=True)
class LeagueResult:
    match_id: str
    winner: str | None  # None when both lost
    outcome: Outcome


@dataclass(frozen=True)
class OpenLeague:
    entrants: tuple[str, ...]
    matches: tuple[LeagueMatch, ...]
    results: tuple[LeagueResult, ...] = ()
    closed: bool = False

    @classmethod
    def create(cls, ids: Sequence[str], *, double: bool = False, seed: int | None = None) -> OpenLeague:
        """All pairings of a (double) round robin among ``ids`` (rules BC3, T4f); ``seed`` draws numbers."""
        rounds = round_robin_rounds(ids, double=double, seed=seed)
        matches: list[LeagueMatch] = []
        half = len(rounds) // 2 if double else len(rounds)
        for r, rnd in enumerate(rounds):
            for a, b in rnd:
                if b is not None:
                    matches.append(LeagueMatch(f"M{len(matches) + 1}", a, b, 2 if r >= half else 1))
        return cls(tuple(ids), tuple(matches))

    def _done(self) -> dict[str, LeagueResult]:
        return {r.match_id: r for r in self.results}

    def match(self, match_id: str) -> LeagueMatch:
        for m in self.matches:
            if m.id == match_id:
                return m
        raise KeyError(match_id)

    def pending(self, entrant: str | None = None) -> list[LeagueMatch]:
        """The pairings still to play (all of them, or those of one entrant)."""
        done = self._done()
        return [
            m for m in self.matches if m.id not in done and (entrant is None or entrant in (m.home, m.away))
        ]

    def playable(self, busy: Collection[str] = ()) -> list[LeagueMatch]:
        """Pending matches whose two sides are both free now (BC3: played whenever both are available)."""
        if self.closed:
            return []
        return [m for m in self.pending() if m.home not in busy and m.away not in busy]

    def suggest(self, busy: Collection[str] = ()) -> list[tuple[str, str]]:
        """A set of playable matches that can run at the same time (nobody twice), those with the most
        pending matches first so the league does not stall before the deadline."""
        left = {e: len(self.pending(e)) for e in self.entrants}
        taken: set[str] = set(busy)
        out: list[tuple[str, str]] = []
        for m in sorted(self.playable(busy), key=lambda m: (-(left[m.home] + left[m.away]), m.id)):
            if m.home in taken or m.away in taken:
                continue
            taken |= {m.home, m.away}
            out.append((m.home, m.away))
        return out

    def record(self, match_id: str, winner: str) -> OpenLeague:
        """Record a played match."""
        m = self.match(match_id)
        if self.closed:
            raise ValueError(_("The league is closed: the deadline has passed."))
        if match_id in self._done():
            raise ValueError(_("Match {match} already has a result.").format(match=match_id))
        if winner not in (m.home, m.away):
            raise ValueError(_("{id} does not play in match {match}.").format(id=winner, match=match_id))
        return replace(self, results=self.results + (LeagueResult(match_id, winner, Outcome.PLAYED),))

    def close(self, at_fault: Mapping[str, str] | None = None) -> OpenLeague:
        """The deadline (BC3): each unplayed match is lost by both sides, unless ``at_fault`` names the
        side at fault for that match id; that side loses by WO and the other wins."""
        at_fault = dict(at_fault or {})
        new: list[LeagueResult] = []
        for m in self.pending():
            guilty = at_fault.pop(m.id, None)
            if guilty is None:
                new.append(LeagueResult(m.id, None, Outcome.BOTH_LOST))
            elif guilty in (m.home, m.away):
                new.append(LeagueResult(m.id, m.away if guilty == m.home else m.home, Outcome.WO))
            else:
                raise ValueError(_("{id} does not play in match {match}.").format(id=guilty, match=m.id))
        if at_fault:
            raise ValueError(
                _("These matches are not pending: {ids}.").format(ids=", ".join(sorted(at_fault)))
            )
        return replace(self, results=self.results + tuple(new), closed=True)

    def explain(self, match_id: str) -> str:
        m = self.match(match_id)
        res = self._done().get(match_id)
        if res is None:
            return _("{a} vs {b}: still to play, whenever both are free.").format(a=m.home, b=m.away)
        if res.outcome is Outcome.PLAYED:
            return _("{a} vs {b}: won by {w}.").format(a=m.home, b=m.away, w=res.winner)
        if res.outcome is Outcome.WO:
            loser = m.home if res.winner == m.away else m.away
            return _("{a} vs {b}: not played by the deadline; {l} at fault, loss by WO.").format(
                a=m.home, b=m.away, l=loser
            )
        return _("{a} vs {b}: not played by the deadline; lost by both.").format(a=m.home, b=m.away)

    def to_data(self) -> dict[str, Any]:
        return {
            "entrants": list(self.entrants),
            "closed": self.closed,
            "matches": [[m.id, m.home, m.away, m.cycle] for m in self.matches],
            "results": [[r.match_id, r.winner, r.outcome.value] for r in self.results],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> OpenLeague:
        return cls(
            entrants=tuple(data["entrants"]),
            matches=tuple(LeagueMatch(str(a), str(b), str(c), int(d)) for a, b, c, d in data["matches"]),
            results=tuple(LeagueResult(str(a), b, Outcome(c)) for a, b, c in data["results"]),
            closed=bool(data["closed"]),
        )
