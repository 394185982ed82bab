"""An elimination bracket as plain data, and how it progresses (rules T4c, T4d, T12a; REFERENCES.md).

A :class:`Bracket` holds the entrant in each seed position (``None`` = a bye), the matches (ids such as
``"W1-3"``, ``"L2-1"``, ``"3P"``, ``"GF"``, ``"GF2"``, each fed by two :class:`Source` values such as
"seed 5", "winner of W1-1" or "loser of W1-2"), and the results recorded so far. Feeding a result returns a
new bracket; :meth:`Bracket.ready` lists the matches to play next, a side facing a bye goes through without
playing, and :meth:`Bracket.places` gives the shared places (T12a). A match lasts as the ruleset says
(gaple: first pair to win 2 games; tavla: the match length); the bracket only needs its winner.
``clubdesk.pairing.elimination`` builds brackets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum, StrEnum
from typing import Any, Literal

from clubdesk.i18n import _


def seed_tier(seed: int) -> int:
    """Seed tier: 1 | 2 | 3–4 | 5–8 | 9–16 ... (tier numbers 0, 1, 2, 3, 4 ...)."""
    return (seed - 1).bit_length()


class SourceKind(StrEnum):
    SEED = "seed"
    WINNER = "winner"
    LOSER = "loser"


@dataclass(frozen=True)
class Source:
    """Where one side of a match comes from: a seed position, or the winner/loser of a match."""

    kind: SourceKind
    ref: str  # the seed number ("5") or a match id ("W1-2")

    def describe(self) -> str:
        if self.kind is SourceKind.SEED:
            return _("seed {n}").format(n=self.ref)
        if self.kind is SourceKind.WINNER:
            return _("winner of {match}").format(match=self.ref)
        return _("loser of {match}").format(match=self.ref)


@dataclass(frozen=True)
class BracketMatch:
    id: str
    bracket: str  # "W" winners (the only one in single elimination), "L" losers, "3P", "GF", "GF2"
    round: int
    number: int
    sources: tuple[Source, Source]
    stage: int  # order of elimination, for shared places (T12a)


class _Bye(Enum):
    BYE = "bye"


BYE = _Bye.BYE
_Slot = str | _Bye


@dataclass(frozen=True)
class Bracket:
    kind: Literal["single", "double"]
    seeds: tuple[str | None, ...]  # entrant in seed position 1..size; None = bye
    matches: tuple[BracketMatch, ...]
    results: tuple[tuple[str, str], ...] = ()  # (match id, winner id), in the order recorded
    third_place: bool = False
    reset: bool = False
    swaps: tuple[tuple[int, int, str], ...] = ()  # club protection: seed positions swapped, and the club
    seeding: str = "rating"
    _index: dict[str, BracketMatch] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._index.update({m.id: m for m in self.matches})

    # ---------------------------------------------------------------- resolution
    def match(self, match_id: str) -> BracketMatch:
        try:
            return self._index[match_id]
        except KeyError:
            raise KeyError(match_id) from None

    def _result_map(self) -> dict[str, str]:
        return dict(self.results)

    def _side(self, src: Source, res: dict[str, str]) -> _Slot | None:
        if src.kind is SourceKind.SEED:
            who = self.seeds[int(src.ref) - 1]
            return BYE if who is None else who
        out = self._outcome(src.ref, res)
        if out is None:
            return None
        return out[0] if src.kind is SourceKind.WINNER else out[1]

    def _outcome(self, match_id: str, res: dict[str, str]) -> tuple[_Slot, _Slot] | None:
        m = self.match(match_id)
        a = self._side(m.sources[0], res)
        b = self._side(m.sources[1], res)
        if a is None or b is None:
            return None
        if m.bracket == "GF2" and self._gf2_void(res):
            return None
        if a is BYE:
            return (b, BYE)
        if b is BYE:
            return (a, BYE)
        w = res.get(match_id)
        if w is None:
            return None
        return (a, b) if w == a else (b, a)

    def _gf2_void(self, res: dict[str, str]) -> bool:
        gf = res.get("GF")
        return gf is not None and gf == self._wb_champion(res)

    def _wb_champion(self, res: dict[str, str]) -> _Slot | None:
        k = self.rounds()
        out = self._outcome(f"W{k}-1", res)
        return None if out is None else out[0]

    def rounds(self) -> int:
        """Rounds of the winners' bracket."""
        return (len(self.seeds) - 1).bit_length()

    def sides(self, match_id: str) -> tuple[str | None, str | None]:
        """The two entrants of a match; ``None`` for a bye or a side not known yet."""
        res = self._result_map()
        m = self.match(match_id)
        a, b = (self._side(s, res) for s in m.sources)
        return (a if isinstance(a, str) else None, b if isinstance(b, str) else None)

    def status(self, match_id: str) -> Literal["waiting", "ready", "done", "walkover", "void"]:
        """``walkover``: one side is a bye, the other goes through without playing."""
        res = self._result_map()
        m = self.match(match_id)
        if m.bracket == "GF2" and self._gf2_void(res):
            return "void"
        a, b = (self._side(s, res) for s in m.sources)
        if a is None or b is None:
            return "waiting"
        if a is BYE or b is BYE:
            return "walkover"
        return "done" if match_id in res else "ready"

    def ready(self) -> list[BracketMatch]:
        """The matches that can be played now (both entrants known, no result yet)."""
        return [m for m in self.matches if self.status(m.id) == "ready"]

    def ready_pairs(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for m in self.ready():
            a, b = self.sides(m.id)
            assert a is not None and b is not None
            out.append((a, b))
        return out

    def winner(self, match_id: str) -> str | None:
        out = self._outcome(match_id, self._result_map())
        return out[0] if out is not None and isinstance(out[0], str) else None

    def loser(self, match_id: str) -> str | None:
        out = self._outcome(match_id, self._result_map())
        return out[1] if out is not None and isinstance(out[1], str) else None

    def record(self, match_id: str, winner: str) -> Bracket:
        """A new bracket with ``winner`` recorded for a ready match."""
        if self.status(match_id) != "ready":
            raise ValueError(_("Match {match} cannot take a result now.").format(match=match_id))
        if winner not in self.sides(match_id):
            raise ValueError(_("{id} does not play in match {match}.").format(id=winner, match=match_id))
        return replace(self, results=self.results + ((match_id, winner),))

    def champion(self) -> str | None:
        if self.kind == "single":
            return self.winner(f"W{self.rounds()}-1")
        if self.reset and self.status("GF2") != "void":
            return self.winner("GF2")
        return self.winner("GF")

    @property
    def finished(self) -> bool:
        return self.champion() is not None and (
            not self.third_place or self.status("3P") in ("done", "walkover")
        )

    def played(self) -> list[BracketMatch]:
        """Matches actually played (both sides real entrants and a result recorded)."""
        return [m for m in self.matches if self.status(m.id) == "done"]

    # ---------------------------------------------------------------- places (T12a)
    def _eliminated(self, m: BracketMatch, res: dict[str, str]) -> list[tuple[float, str]]:
        out = self._outcome(m.id, res)
        if out is None:
            return []
        if m.bracket == "3P" and self.status(m.id) == "walkover" and isinstance(out[0], str):
            return [(m.stage + 0.5, out[0])]  # third by walkover: the other semi-final had a bye
        if self.status(m.id) != "done":
            return []
        w, lo = out
        assert isinstance(w, str) and isinstance(lo, str)
        if m.bracket == "3P":
            return [(m.stage, lo), (m.stage + 0.5, w)]
        if m.bracket == "W":
            if self.kind == "double":
                return []
            if self.third_place and m.round == self.rounds() - 1 and self.rounds() >= 2:
                return []
            return [(m.stage, lo)]
        if m.bracket == "GF" and self.reset and lo == self._wb_champion(res):
            return []  # the reset match decides
        return [(m.stage, lo)]

    def places(self) -> dict[str, tuple[int, int]]:
        """Place range of every entrant out so far (and the champion): those out at the same stage share
        it, e.g. 5–8 for the quarter-final losers (rule T12a). Final only when the bracket is finished."""
        res = self._result_map()
        n = sum(1 for s in self.seeds if s is not None)
        events = sorted(e for m in self.matches for e in self._eliminated(m, res))
        places: dict[str, tuple[int, int]] = {}
        done = 0
        i = 0
        while i < len(events):
            stage = events[i][0]
            group = [who for st, who in events if st == stage]
            done += len(group)
            for who in group:
                places[who] = (n - done + 1, n - done + len(group))
            i += len(group)
        champ = self.champion()
        if champ is not None and self.finished:
            places[champ] = (1, 1)
        return places

    # ---------------------------------------------------------------- explanations
    def explain(self, match_id: str) -> list[str]:
        """One line per side of the match: seed and tier, bye, club swap, or where the side comes from."""
        m = self.match(match_id)
        lines: list[str] = []
        for src in m.sources:
            if src.kind is not SourceKind.SEED:
                lines.append(src.describe())
                continue
            pos = int(src.ref)
            who = self.seeds[pos - 1]
            if who is None:
                lines.append(
                    _(
                        "Seed {n}: bye. The field is not a power of two, so the top seeds go through (T4c)."
                    ).format(n=pos)
                )
                continue
            tier = seed_tier(pos)
            lo, hi = (1, 1) if tier == 0 else (2 ** (tier - 1) + 1, 2**tier)
            how = _("by rating") if self.seeding == "rating" else _("by lot")
            text = _("Seed {n} ({id}), seeded {how}; tier of seeds {lo}–{hi}.").format(
                n=pos, id=who, how=how, lo=lo, hi=hi
            )
            for a, b, club in self.swaps:
                if pos in (a, b):
                    note = _(
                        "Club protection (T4b): swapped with seed {other} within the tier to avoid {club}."
                    )
                    text += " " + note.format(other=b if pos == a else a, club=club)
            lines.append(text)
        return lines

    # ---------------------------------------------------------------- plain data
    def to_data(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seeds": list(self.seeds),
            "third_place": self.third_place,
            "reset": self.reset,
            "seeding": self.seeding,
            "swaps": [list(s) for s in self.swaps],
            "results": [list(r) for r in self.results],
            "matches": [
                {
                    "id": m.id,
                    "bracket": m.bracket,
                    "round": m.round,
                    "number": m.number,
                    "stage": m.stage,
                    "sources": [[s.kind.value, s.ref] for s in m.sources],
                }
                for m in self.matches
            ],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Bracket:
        matches = tuple(
            BracketMatch(
                id=m["id"],
                bracket=m["bracket"],
                round=int(m["round"]),
                number=int(m["number"]),
                stage=int(m["stage"]),
                sources=(
                    Source(SourceKind(m["sources"][0][0]), str(m["sources"][0][1])),
                    Source(SourceKind(m["sources"][1][0]), str(m["sources"][1][1])),
                ),
            )
            for m in data["matches"]
        )
        return cls(
            kind=data["kind"],
            seeds=tuple(data["seeds"]),
            matches=matches,
            results=tuple((str(a), str(b)) for a, b in data["results"]),
            third_place=bool(data["third_place"]),
            reset=bool(data["reset"]),
            swaps=tuple((int(a), int(b), str(c)) for a, b, c in data["swaps"]),
            seeding=str(data["seeding"]),
        )
