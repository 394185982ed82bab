"""An event file's own consistency, on the engines the club desk ranks with.

Every played table with entries replays (``formats.outcome_from_entries``, with the ruleset the file names)
to the score, points and winner it carries; the final tables rank (``formats.event_data`` and
``standings.table.standings`` with the event's tie-breaks, a play-off deciding a tie for first, BC2) to the
places the file carries (T12a; brackets and lives as the desk places them; the disqualified get no place,
T9c); and each placing's season points are its place's base points times the event's coefficient (T12d).
A file that was edited by hand, or lost a row, fails here even when it was signed afterwards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from clubdesk.competition import formats
from clubdesk.competition.errors import CompetitionError
from clubdesk.competition.playoffs import playoff_places, playoff_progress
from clubdesk.games.errors import EntryError
from clubdesk.i18n import _
from clubdesk.standings.places import elimination_places
from clubdesk.standings.season import SeasonError, SeasonScale, place_points
from clubdesk.standings.table import Standings, standings
from clubdesk.standings.tiebreaks import Unplayed

FINAL_STATUSES = ("confirmed", "bye")
ELIMINATION = ("single-elimination", "double-elimination")


class ReplayError(ValueError):
    """The file's results do not give what the file says; ``message`` names the first difference."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def event_params(event: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The ruleset family and parameters the file names (preset, overrides, target)."""
    overrides = dict(event.get("ruleset_overrides") or {})
    if event.get("target"):
        overrides.setdefault("target", event["target"])
    return formats.ruleset_params(str(event["ruleset"]), overrides)


def season_scale(raw: Mapping[str, Any] | None) -> SeasonScale | None:
    """The season scale (T12d) the file carries, as the desk reads it; None when the event has none."""
    if not raw:
        return None
    best_of = raw.get("best_of")
    return SeasonScale(
        tuple(int(x) for x in raw["base_points"]),
        {str(k): int(v) for k, v in raw["coefficients"].items()},
        best_of=None if best_of in (None, 0, "") else int(best_of),
        seed=int(raw.get("seed", 0)),
    )


def _side(value: Any) -> str | None:
    return None if value is None else str(value)


def played_rows(payload: Mapping[str, Any]) -> list[formats.Played]:
    """The file's final tables as the standings read them, with a latecomer's missed rounds as
    zero-point byes (T3a)."""
    published = {int(r["number"]) for r in payload.get("rounds", []) if r.get("status") != "proposed"}
    tables = sorted(payload["tables"], key=lambda t: (int(t["round"]), int(t["table"])))
    out: list[formats.Played] = []
    seen: dict[int, set[str]] = {}
    for t in tables:
        rn = int(t["round"])
        seen.setdefault(rn, set()).update(x for x in (_side(t["a"]), _side(t["b"])) if x)
        if t.get("status") not in FINAL_STATUSES or rn not in published:
            continue
        points = t.get("points") or [None, None]
        out.append(
            formats.Played(
                rn,
                str(t["a"]),
                _side(t["b"]),
                str(t.get("kind", "played")),
                int(t["score"][0]),
                int(t["score"][1]),
                points[0],
                points[1],
                _side(t.get("winner")),
                str(t.get("ref", "")),
            )
        )
    if payload["event"]["format"] in ("swiss", "lives", "open-round-robin"):
        for e in payload["entrants"]:
            joins = e.get("joins_from_round")
            if joins:
                for rn in sorted(published):
                    if rn < int(joins) and str(e["id"]) not in seen.get(rn, set()):
                        out.append(formats.Played(rn, str(e["id"]), None, "zero-bye"))
    return out


def check_tables(payload: Mapping[str, Any]) -> None:
    """Every played table with entries gives, replayed, the score and winner it carries."""
    event = payload["event"]
    encounter = int(payload.get("night", {}).get("encounter_games", 0) or 0)
    _family, params = event_params(event)
    for t in payload["tables"]:
        entries = t.get("entries") or []
        if t.get("kind", "played") != "played" or not entries:
            continue
        games: dict[int, list[dict[str, Any]]] = {}
        for e in sorted(entries, key=lambda x: (int(x["game"]), int(x["seq"]))):
            games.setdefault(int(e["game"]), []).append(dict(e["data"]))
        local = {**params, "match_length": t["match_length"]} if t.get("match_length") else params
        where = _("round {r}, table {t}").format(r=t["round"], t=t["table"])
        try:
            oc = formats.outcome_from_entries(str(event["ruleset"]), local, games, encounter_games=encounter)
        except (CompetitionError, EntryError, KeyError, TypeError, ValueError) as exc:
            raise ReplayError(
                "entries-refused",
                _("{where}: its entries do not replay ({why}).").format(where=where, why=exc),
            ) from exc
        winner = None if oc.winner is None else (t["a"] if oc.winner == 0 else t["b"])
        if list(oc.score) != [int(x) for x in t["score"]] or _side(winner) != _side(t.get("winner")):
            raise ReplayError(
                "score-differs",
                _("{where}: its entries give {a}–{b}, the file says {fa}–{fb}.").format(
                    where=where, a=oc.score[0], b=oc.score[1], fa=t["score"][0], fb=t["score"][1]
                ),
            )


def check_complete(payload: Mapping[str, Any]) -> None:
    """Every table the event's schedule holds is in the file with its final result (a round robin's Berger
    table, T4f; a bracket is checked by its own places): a row taken out is missed here even where the
    places would not move."""
    state = payload.get("night", {}).get("state") or {}
    schedule = state.get("schedule")
    if not isinstance(schedule, list):
        return
    final = {
        (int(t["round"]), frozenset({str(t["a"]), str(t["b"])}))
        for t in payload["tables"]
        if t.get("status") in FINAL_STATUSES and t.get("b") is not None
    }
    regular = sorted(
        int(r["number"]) for r in payload.get("rounds", []) if r.get("kind", "regular") == "regular"
    )
    for number, pairs in zip(regular, schedule, strict=False):
        for pair in pairs:
            if len(pair) == 2 and pair[0] is not None and pair[1] is not None:
                if (number, frozenset({str(pair[0]), str(pair[1])})) not in final:
                    raise ReplayError(
                        "table-missing",
                        _("Round {r}: the table of {a} and {b} is missing from the file.").format(
                            r=number, a=pair[0], b=pair[1]
                        ),
                    )


def event_standings(payload: Mapping[str, Any], played: Sequence[formats.Played]) -> Standings:
    """The event's standings from its final tables, as the desk computes them (tie-breaks, T9c, BC2)."""
    event = payload["event"]
    night = payload.get("night", {})
    family, params = event_params(event)
    scheme = formats.points_scheme(family, int(night.get("encounter_games", 0) or 0))
    drawn = {p.a for p in played} | {p.b for p in played if p.b}
    drawn |= {str(t["a"]) for t in payload["tables"]} | {str(t["b"]) for t in payload["tables"] if t["b"]}
    ids = [
        str(e["id"])
        for e in sorted(payload["entrants"], key=lambda x: int(x["id"]))
        if str(e["id"]) in drawn or (e.get("status") == "registered" and e.get("checked_in"))
    ]
    dq = [str(e["id"]) for e in payload["entrants"] if e.get("status") == "disqualified"]
    codes = [c.strip().upper() for c in str(night.get("tiebreaks") or "").split(",") if c.strip()]
    fmt = str(event["format"])
    if not codes:
        codes = list(formats.default_tiebreaks(str(event["ruleset"]), fmt))
    prefix = formats.PLAYOFF_PREFIX
    playoffs = [p for p in played if p.ref.startswith(prefix)]
    regular = [p for p in played if not p.ref.startswith(prefix)]
    data = formats.event_data(ids, regular, scheme, fmt, disqualified=[d for d in dq if d in ids])
    complete = fmt not in ELIMINATION and fmt != "lives"
    st = standings(
        data,
        codes,
        unplayed=Unplayed(str(params.get("bh_unplayed", "fide"))),
        playoff_places=playoff_places(complete),
    )
    tied = [r for r in st.rows if r.rank == 1 and r.playoff]
    po = playoff_progress([r.entrant for r in tied], playoffs)
    if po.champion is not None:  # rule BC2: the play-off decides the places among the tied
        ranks = po.ranks()
        shared = [ranks[r.entrant] for r in tied]
        new = [
            replace(r, rank=ranks[r.entrant], tied=shared.count(ranks[r.entrant]) > 1, playoff=False)
            for r in tied
        ]
        new.sort(key=lambda r: r.rank)
        st = Standings(
            tuple(new + [r for r in st.rows if r not in tied]), st.explanations, st.codes, st.scale
        )
    return st


def _without(places: dict[str, tuple[int, int]], gone: set[str]) -> dict[str, tuple[int, int]]:
    """Rule T9c: the disqualified leave the places and everybody below moves up; shared places stay shared."""
    kept = {e: p for e, p in places.items() if e not in gone}
    new: dict[tuple[int, int], tuple[int, int]] = {}
    pos = 1
    for g in sorted(set(kept.values())):
        size = sum(1 for p in kept.values() if p == g)
        new[g] = (pos, pos + size - 1)
        pos += size
    return {e: new[p] for e, p in kept.items()}


def place_ranges(payload: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """The places the file's results give (T12a): bracket, lives, or the standings' ranks (ties share)."""
    played = played_rows(payload)
    st = event_standings(payload, played)
    fmt = str(payload["event"]["format"])
    night = payload.get("night", {})
    dq = {str(e["id"]) for e in payload["entrants"] if e.get("status") == "disqualified"}
    if fmt in ELIMINATION:
        state = night.get("state") or {}
        if "bracket" not in state:
            return {}
        return _without(formats.bracket_with_results(state["bracket"], played).places(), dq)
    if fmt == "lives":
        lives = int(night.get("lives", 2))
        ids = [r.entrant for r in st.rows]
        left = formats.lives_left(ids, played, lives)
        out_round: dict[str, int | None] = {}
        for e in ids:
            lost = 0
            out_round[e] = None
            for p in sorted(played, key=lambda x: x.round):
                if p.loser() == e:
                    lost += 1
                    if lost >= lives:
                        out_round[e] = p.round
                        break
        return {
            p.entrant: (p.first, p.last)
            for p in elimination_places(out_round, lives_left=left, disqualified=dq)
        }
    return {r.entrant: (r.rank, r.rank + sum(1 for x in st.rows if x.rank == r.rank) - 1) for r in st.rows}


def check(payload: Mapping[str, Any]) -> None:
    """The whole file agrees with itself, else :class:`ReplayError` naming the first difference."""
    try:
        check_tables(payload)
        check_complete(payload)
        got = place_ranges(payload)
    except ReplayError:
        raise
    except (CompetitionError, EntryError, SeasonError, KeyError, TypeError, ValueError) as exc:
        raise ReplayError(
            "cannot-replay", _("The event file's results cannot be replayed: {why}").format(why=exc)
        ) from exc
    names = {str(e["id"]): str(e.get("name", e["id"])) for e in payload["entrants"]}
    stated = {str(p["entrant"]): (int(p["from"]), int(p["to"])) for p in payload["placings"]}
    for entrant in sorted(set(got) | set(stated), key=lambda e: (got.get(e, stated.get(e, (0, 0))), e)):
        if got.get(entrant) != stated.get(entrant):
            raise ReplayError(
                "places-differ",
                _("{name}: the results give place {got}, the file says {says}.").format(
                    name=names.get(entrant, entrant),
                    got=_place_text(got.get(entrant)),
                    says=_place_text(stated.get(entrant)),
                ),
            )
    scale = season_scale(payload.get("night", {}).get("season_scale"))
    tier = str(payload["event"].get("coefficient_class") or "")
    dq = {str(e["id"]) for e in payload["entrants"] if e.get("status") == "disqualified"}
    for p in payload["placings"]:
        want = 0
        if scale is not None and tier in scale.coefficients and str(p["entrant"]) not in dq:
            want = place_points(scale, tier, int(p["from"]), int(p["to"]))  # rule T12d
        if int(p.get("season_points", 0)) != want:
            raise ReplayError(
                "season-points-differ",
                _("{name}: place {place} is worth {want} season points here, the file says {says}.").format(
                    name=names.get(str(p["entrant"]), p["entrant"]),
                    place=_place_text((int(p["from"]), int(p["to"]))),
                    want=want / 100,
                    says=int(p.get("season_points", 0)) / 100,
                ),
            )


def _place_text(place: tuple[int, int] | None) -> str:
    if place is None:
        return _("none")
    return str(place[0]) if place[0] == place[1] else f"{place[0]}–{place[1]}"
