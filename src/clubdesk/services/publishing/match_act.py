"""The match act (rules E15, E20): a
table's incidents, decisions and the game and hand they happened in.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.games import EntryError, replay
from clubdesk.i18n import _
from clubdesk.models.member import Member
from clubdesk.models.result import Match
from clubdesk.reports import data as report_data
from clubdesk.reports.incident_act import incident_act
from clubdesk.services import discipline, night
from clubdesk.services.night import match_entries
from clubdesk.services.publishing.header import (
    in_language,
    public,
    report_event,
    report_header,
    report_round,
    signed_header,
    write_atomically,
)
from clubdesk.services.publishing.score_sheets import all_entries, overrides_of, substitutions
from clubdesk.storage import Database
from clubdesk.text import score_text
from clubdesk.timefmt import local_text

# ------------------------------------------------------------------------------------------ match act
E20_DECISIONS = frozenset({"replay", "validate", "resume", "award-leader"})  # rule E20
E20_KINDS = frozenset({"suspension", "abandonment"})  # incident kinds of art. 20
INTERVENTION_KINDS = frozenset({"false-think"})  # rule E15: captains and referee resolve it


@dataclass(frozen=True)
class _ActTable:
    """What the act needs of one table: its sides, captains, referee and each game as the engine
    scored it (``games[k]`` is game k + 1 of the encounter, with its hands)."""

    table: int
    sides: tuple[str, str]
    captains: tuple[str, str]
    referee: str
    games: tuple[dict[str, Any], ...]


def _engine_games(
    ruleset: str, params: dict[str, Any], games: dict[int, list[Any]], encounter: int
) -> list[Any]:
    """Every game of a table as the rules engine scores it (one sheet per encounter game, E7b)."""

    out: list[dict[str, Any]] = []
    try:
        if encounter:
            for g in range(1, max([encounter, *games]) + 1):
                res = replay(ruleset, games.get(g, []), {**params, "games_to_win": 1})
                out.append(res["games"][0] if res.get("games") else {"hands": [], "totals": [0, 0]})
        else:
            out.extend(replay(ruleset, all_entries(games), params).get("games", []))
    except (EntryError, ValueError):
        return out
    return out


def incident_act_data(
    db: Database, event_id: int, round_no: int | None = None, table_no: int | None = None
) -> report_data.IncidentActData:
    """The match act (Acta del Encuentro) of a round, or of one table/encounter: the sides and their
    players with the captains, the referee, every incident (game, hand, pair and player it concerns),
    substitution, decision of art. 20 with the result the engine gives after it, penalty and appeal
    with its reasons (E8-E20, T10)."""

    with db.session() as s:
        ev = report_event(s, event_id)
        rno, rnd = report_round(s, ev, round_no, table_no)
        who = public(s, ev)
        # rule E15: the act prints each player's federation licence (the club number when he has none)
        licences = {m.number: m.licence for m in s.scalars(select(Member).where(Member.licence != ""))}
        names = {num: nm for num, nm in s.execute(select(Member.number, Member.name))}
        family, _params = night.params_of(ev)
        encounter_games = night.night(s, ev).encounter_games if family == "domino" else 0
        overrides = overrides_of(ev)
        teams: list[report_data.ActTeam] = []
        encounter = _("Round {n}").format(n=rno)
        referee = ""
        tables: dict[int, tuple[str, str, str, str, str, int | None]] = {}
        subs: list[report_data.SubstitutionLine] = []
        abandons: list[report_data.ActIncident] = []
        result = ""
        approvals: list[report_data.ActApproval] = []
        for m in night.matches_of(s, ev.id, rnd.id):
            if table_no is not None and m.table_no != table_no:
                continue
            if m.side_b is None:
                continue  # a bye is no encounter: the team that rests is not on the act
            referee = referee or m.referee
            captains = (names.get(m.captain_a, ""), names.get(m.captain_b, ""))
            abandons += _abandonments(s, m, who, bool(_params.get("abandon_ends_match")))
            for side, captain in ((m.side_a, captains[0]), (m.side_b, captains[1])):
                if side is None:
                    continue
                w = who[side]
                teams.append(
                    report_data.ActTeam(
                        name=w.name,
                        players=tuple(
                            report_data.ActPlayer(nm, num, licences.get(num, "")) for num, nm in w.members
                        ),
                        captain=captain,
                    )
                )
            for k, (by, how) in enumerate(
                zip((m.scorer, m.counter), night.approval_ways(s, m), strict=True)
            ):  # G13, E6, T8c: each side's approval and how it was given
                if by:
                    side = who[m.side_a if k == 0 else m.side_b].name
                    approvals.append(
                        report_data.ActApproval(m.table_no, side, by, night.approval_way_label(how))
                    )
            tables[m.table_no] = (
                who[m.side_a].name,
                who[m.side_b].name,
                captains[0],
                captains[1],
                m.referee,
                m.match_length,
            )
            subs.extend(substitutions(s, m, who))
            if table_no is not None:
                encounter = f"{who[m.side_a].name} – {who[m.side_b].name}"
                result = result_line(m, who[m.side_a].name, who[m.side_b].name)
        ruleset = ev.ruleset
        entrant_names = {k: w.name for k, w in who.items()}
    acts: dict[int, _ActTable] = {}
    for t, (a, b, ca, cb, ref, length) in tables.items():
        params = dict(overrides)
        if family == "tavla" and length:
            params["match_length"] = length
        games = night.table_entries(db, event_id, rno, t)
        engine = _engine_games(ruleset, params, games, encounter_games) if family != "tavla" else []
        acts[t] = _ActTable(t, (a, b), (ca, cb), ref, tuple(engine))
    listing = discipline.discipline_list(db, event_id, round_no=rno, table_no=table_no)
    data = _act_from(listing, str(event_id), rno, table_no, encounter, teams, referee, licences)
    act = _complete_act(data, listing, acts, entrant_names, subs, family)
    return dataclasses.replace(
        act, incidents=(*act.incidents, *abandons), result=result, approvals=tuple(approvals)
    )


def incident_acts_data(
    db: Database, event_id: int, round_no: int | None = None, table_no: int | None = None
) -> tuple[report_data.IncidentActData, ...]:
    """One act per encounter (seed 002: the Acta del Encuentro is the act of one encounter): the table
    asked for, else every played table of the round in table order (a bye is no encounter); a round
    without one gets one act of the round."""
    if table_no is not None:
        return (incident_act_data(db, event_id, round_no, table_no),)
    with db.session() as s:
        ev = report_event(s, event_id)
        rno, rnd = report_round(s, ev, round_no, None)
        tables = sorted(m.table_no for m in night.matches_of(s, ev.id, rnd.id) if m.side_b is not None)
    if not tables:
        return (incident_act_data(db, event_id, rno, None),)
    return tuple(incident_act_data(db, event_id, rno, t) for t in tables)


def result_line(m: Match, side_a: str, side_b: str) -> str:
    """The encounter's result as the act states it: the score, and who won it (or that it is not over)."""
    if m.kind != "played" and m.winner is not None:
        winner = side_a if m.winner == m.side_a else side_b
        return _("{winner} wins by forfeit").format(winner=winner)
    score = _("{a} {x} – {y} {b}").format(a=side_a, x=m.score_a, y=m.score_b, b=side_b)
    final = m.status in night.FINAL_STATUSES
    if not (final or m.finished):
        return score + ", " + _("not finished")
    if m.winner is None:
        line = score + ", " + _("a draw")
    else:
        line = score + ", " + _("won by {pair}").format(pair=side_a if m.winner == m.side_a else side_b)
    return line if final else line + " " + _("(not approved yet)")


def _game_text(act: _ActTable, game: int | None, validated: bool = False) -> str:
    """The engine's state of a game after a decision: "game 2: Pair 1 100 – Pair 2 45, won by Pair 1"
    (``validated``: rule E20, the score at the suspension stands as the game's result)."""
    if game is None or not 1 <= game <= len(act.games):
        return ""
    g = act.games[game - 1]
    totals = g.get("totals") or [0, 0]
    text = _("game {g}: {a} {x} – {b} {y}").format(
        g=game, a=act.sides[0], x=totals[0], b=act.sides[1], y=totals[1]
    )
    if validated and g.get("winner") is None:
        return text + ", " + _("the score at the suspension stands")
    if g.get("winner") is not None:
        text += ", " + _("won by {pair}").format(pair=act.sides[int(g["winner"])])
        if g.get("end") == "abandoned":
            text += " " + _("(abandonment, E20)")
    else:
        text += ", " + _("not finished")
    return text


def _hand_text(act: _ActTable, game: int | None, hand: int | None) -> str:
    """What the engine made of a hand (rule E15: the effect of the breach on it)."""
    if game is None or hand is None or not 1 <= game <= len(act.games):
        return ""
    hands = act.games[game - 1].get("hands") or []
    if not 1 <= hand <= len(hands):
        return ""
    h = hands[hand - 1]
    pts = h.get("points") or [0, 0]
    text = _("hand {n}: {score}").format(n=hand, score=score_text(int(pts[0]), int(pts[1])))
    if h.get("explanation"):
        text += f" ({h['explanation']})"
    return text


def _complete_act(
    data: report_data.IncidentActData,
    listing: Any,
    acts: dict[int, _ActTable],
    entrant_names: dict[int, str],
    subs: Sequence[report_data.SubstitutionLine],
    family: str = "",
) -> report_data.IncidentActData:
    """Seed 002 art. 15, 19.4, 20: each incident's game, pair, effect and the captains' and referee's
    intervention; every decision of art. 20 with its reason and the result it produced."""

    penalties_of = {}
    for p in listing.penalties:
        if p.incident is not None:
            penalties_of.setdefault(p.incident, []).append(p)
    incidents = []
    for view, inc in zip(listing.incidents, data.incidents, strict=True):
        act = acts.get(view.table) if view.table is not None else None
        pair = entrant_names.get(view.entrant, "") if view.entrant is not None else ""
        effect = intervention = ""
        if act is not None:
            # rule E15: what the decision did (the penalties it produced) and the hand as the engine has it
            linked = [p.kind_label or p.kind for p in penalties_of.get(view.id, [])]
            effect = "; ".join(x for x in (*linked, _hand_text(act, view.game, view.hand)) if x)
            if view.kind in INTERVENTION_KINDS:
                caps = ", ".join(c for c in act.captains if c) or _("no captain named")
                ref = act.referee or data.referee or _("no referee named")
                intervention = _("captains: {caps}; referee: {ref}").format(caps=caps, ref=ref)
        incidents.append(
            dataclasses.replace(inc, game=view.game, pair=pair, effect=effect, intervention=intervention)
        )
    decisions = []
    for p in listing.penalties:
        if p.kind not in E20_DECISIONS:
            continue
        act = acts.get(p.table) if p.table is not None else None
        decisions.append(
            report_data.ActDecision(
                decision=p.kind_label or p.kind,
                reason=p.reason,
                result=_game_text(act, p.game, p.kind == "validate") if act is not None else "",
                table=p.table,
                game=p.game,
                side=p.entrant_name,
                decided_by=p.decided_by,
                time=_hhmm(p.decided_at),
            )
        )
    for view in listing.incidents:
        if (
            view.kind not in E20_KINDS
            or not view.decision
            or any(q.kind in E20_DECISIONS for q in penalties_of.get(view.id, []))
        ):
            continue
        act = acts.get(view.table) if view.table is not None else None
        decisions.append(
            report_data.ActDecision(
                decision=view.decision_label or view.decision,
                reason=view.text,
                result=_game_text(act, view.game) if act is not None else "",
                table=view.table,
                game=view.game,
                side=entrant_names.get(view.entrant, "") if view.entrant is not None else "",
                decided_by=view.recorded_by,
                time=_hhmm(view.occurred_at),
            )
        )
    referee = data.referee or next((p.decided_by for p in listing.penalties if p.decided_by), "")
    return dataclasses.replace(
        data,
        incidents=tuple(incidents),
        decisions=tuple(decisions),
        substitutions=tuple(subs),
        referee=referee,
        family=family,
    )


def _abandonments(s: Session, m: Match, who: Any, ends_match: bool) -> list[report_data.ActIncident]:
    """Rule E20 on the act: each abandonment, and whether it lost the game only or the match too."""

    out: list[report_data.ActIncident] = []
    for game_no, entries in sorted(match_entries(s, m).items()):
        for e in entries:
            if e.get("type") != "abandon":
                continue
            side = m.side_a if int(e.get("side", 0)) == 0 else m.side_b
            name = who[side].name if side is not None and side in who else ""
            effect = (
                _("the pair loses the match") if ends_match else _("the pair loses the game; play goes on")
            )
            out.append(
                report_data.ActIncident(
                    time="",
                    kind=_("abandonment (E20)"),
                    text=_("{name} abandons game {g}: {effect}").format(name=name, g=game_no, effect=effect),
                    table=m.table_no,
                )
            )
    return out


def _act_from(
    listing: Any,
    event_ref: str,
    rno: int,
    table_no: int | None,
    encounter: str,
    teams: Sequence[report_data.ActTeam],
    referee: str,
    licences: dict[str, str] | None = None,
) -> report_data.IncidentActData:
    """Plain act data from :class:`clubdesk.services.discipline.DisciplineList` (incidents, penalties,
    appeals with their decisions and reasons)."""
    incidents = tuple(
        report_data.ActIncident(
            time=_hhmm(i.occurred_at),
            kind=i.kind_label or i.kind,
            text=i.text,
            table=i.table,
            hand=i.hand,
            player=i.player,
            player_number=i.player_number,
            player_licence=(licences or {}).get(i.player_number, ""),  # rule E15
            decision=i.decision_label or i.decision,
            recorded_by=i.recorded_by,
            # rule E19 (Reading): every drop is recorded; the act numbers them from the 2nd in a game
            count=i.occurrence if i.occurrence >= 2 else None,
        )
        for i in listing.incidents
    )
    penalties = tuple(
        report_data.ActPenalty(
            side=p.entrant_name,
            kind=p.kind_label or p.kind,
            reason=p.reason,
            points=p.points,
            table=p.table,
            decided_by=p.decided_by,
        )
        for p in listing.penalties
    )
    appeals = tuple(
        report_data.ActAppeal(
            by=a.entrant_name,
            filed_at=_hhmm(a.filed_at),
            text=a.text,
            fee=a.fee,
            currency=a.currency,
            decision="" if a.status == "open" else a.status,  # rule T10: decision and reasons recorded
            reasons=a.reasons,
            refund=a.refund,
            heard=" / ".join(x for x in (a.appellant_notes, a.respondent_notes) if x),
        )
        for a in listing.appeals
    )
    return report_data.IncidentActData(
        event_id=event_ref,
        round=rno,
        encounter=encounter,
        teams=tuple(teams),
        incidents=incidents,
        penalties=penalties,
        appeals=appeals,
        referee=referee,
        table=table_no,
    )


def _hhmm(value: Any) -> str:
    """A stored (naive UTC) incident or appeal time as printed: the club's wall clock."""
    if isinstance(value, dt.datetime):
        return local_text(value, "%H:%M")
    return "" if value is None else str(value)


def incident_act_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    round_no: int | None = None,
    table_no: int | None = None,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:

    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    with in_language(header.language):
        acts = incident_acts_data(db, event_id, round_no, table_no)
    header = report_header(
        db, event_id, round_no=acts[0].round, language=language, paper=paper, printed_on=printed_on
    )
    header = signed_header(db, header)
    return write_atomically(out, lambda p: incident_act(p, header, acts))
