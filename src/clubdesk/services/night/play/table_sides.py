"""Who sits and who signs at a table: the captains of both sides (seed 002 art. 15, 20), the scorer and
counter who approve (E6), the substitutes (E7b, E20) and the seats of an encounter's games (E7, E7b).
"""

from __future__ import annotations

import json

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.competition import formats, seating
from clubdesk.competition.errors import CompetitionError
from clubdesk.i18n import _
from clubdesk.models.event import Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match, Substitution
from clubdesk.services.kernel import Actor, Changes, ServiceError, refusal
from clubdesk.services.night.data import reads
from clubdesk.services.night.play.answers import CaptainsResult, SeatsResult
from clubdesk.services.night.play.approvals import side_member
from clubdesk.services.night.play.followups import after_change
from clubdesk.services.night.play.table_change import HandResult, TableId, hand_result, open_for_change
from clubdesk.services.night.play.table_result import confirm_both, match_entries, match_snapshot
from clubdesk.storage import Database


def name_captains(
    db: Database, actor: Actor, event_id: int, round_no: int, table_no: int, home: str, away: str
) -> CaptainsResult:
    """Seed 002 art. 15, 20: the captains of both sides at this table (member numbers of each side's
    players; "" leaves a side without one), printed by name in the match act."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        _rnd, m = reads.find_table(s, ev, round_no, table_no)
        if m.side_b is None:
            raise ServiceError(
                "bye-table", _("Table {t} is a bye: it has no result to enter.").format(t=table_no)
            )
        numbers = []
        for side, number in ((0, home), (1, away)):
            numbers.append(side_member(s, m, side, number, _("captain")).number if number.strip() else "")
        before = {"captains": [m.captain_a, m.captain_b]}
        m.captain_a, m.captain_b = numbers
        reads.audit_match(s, actor, "captains", ev, m, before=before, after={"captains": numbers})
        return CaptainsResult(numbers[0], numbers[1], Changes(ev.id, round_no, frozenset({table_no})))


def side_players(
    db: Database, event_id: int, round_no: int, table_no: int
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The players (member number, name) of each side of a table, substitutes included: who can be
    named scorer (home side) and counter (rival side), rule E6."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        _rnd, m = reads.find_table(s, ev, round_no, table_no)
        out = []
        for entrant in (m.side_a, m.side_b):
            members = reads.entrant_members(s, entrant) if entrant is not None else []
            out.append(tuple((x.number, x.name) for x in members))
        return out[0], out[1]


def names_scorers(db: Database, event_id: int) -> bool:
    """Rule E6: a Spanish federation table names its scorer and counter (players of each pair)."""
    with db.session() as s:
        family, _params = reads.params_of(reads.get_event(s, event_id))
    return family == "domino"


def name_scorers(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    scorer: str,
    counter: str,
    *,
    referee_scores: bool = False,
    approve: bool = False,
    override: str | None = None,
    expected_version: int | None = None,
) -> HandResult:
    """Rule E6: the home pair names its scorer (anotador), the rival pair its counter (recuento), each a
    player of that side (member numbers). ``referee_scores``: the referee scores and counts himself, and
    ``scorer``/``counter`` are the players of each pair who approve in their place. ``approve``: both
    approve the finished result now (their names are the approvals, the result is confirmed).
    ``expected_version``: the table's version the caller saw (a table changed since is refused)."""
    if referee_scores:
        reads.require_referee(actor, _("score and count a table"))
    with db.session() as s:
        o = open_for_change(
            s, actor, TableId(event_id, round_no, table_no), override=override, seen_version=expected_version
        )
        assert not isinstance(o, str)  # no guard, no stored post
        ev, m = o.ev, o.m
        a = side_member(s, m, 0, scorer, _("scorer"))
        b = side_member(s, m, 1, counter, _("counter"))
        if approve:
            if not m.finished:
                raise ServiceError(
                    "sheet-incomplete",
                    _("Table {t}: the match is not finished, it cannot be confirmed.").format(t=table_no),
                )
            if m.status == "disputed":
                raise ServiceError(
                    "disputed", _("Table {t} is disputed: the referee decides.").format(t=table_no)
                )
        before = {
            **o.before,
            "scorer_member": m.scorer_member,
            "counter_member": m.counter_member,
            "scored_by_referee": m.scored_by_referee,
        }
        m.scorer_member, m.counter_member = a.number, b.number
        m.scored_by_referee = actor.name if referee_scores else ""
        if approve:
            confirm_both(m, a.name, b.name)
        reads.audit_match(
            s,
            actor,
            "scorers",
            ev,
            m,
            before=before,
            after={
                **match_snapshot(m),
                "scorer_member": m.scorer_member,
                "counter_member": m.counter_member,
                "scored_by_referee": m.scored_by_referee,
            },
        )
        after_change(s, ev, m)
        return hand_result(s, o, None, entries=False, approvals=True)


def substitute(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    game_no: int,
    side: int,
    member_out: str,
    member_in: str,
    reason: str = "",
) -> SeatsResult:
    """Rules E7b, E20: a substitute takes the seat of the player he replaces (not after an abandonment)."""
    with db.session() as s:
        o = open_for_change(s, actor, TableId(event_id, round_no, table_no), override=None, seen_version=None)
        assert not isinstance(o, str)  # no guard, no stored post
        ev, m = o.ev, o.m
        out_m = s.scalar(select(Member).where(Member.number == member_out))
        in_m = s.scalar(select(Member).where(Member.number == member_in))
        if out_m is None or in_m is None:
            raise ServiceError("no-such-member", _("Unknown member number."))
        games = match_entries(s, m)
        if any(e.get("type") == "abandon" for e in games.get(game_no, [])):
            raise ServiceError("abandoned", _("No substitution after an abandonment (rule E20)."))
        seats = json.loads(m.seats) if m.seats else {"seats": []}
        key = f"game{game_no}"
        current = seats_for(s, ev, m, game_no)
        try:
            seats[key] = seating.substitute(current, member_out, member_in)
        except CompetitionError as exc:
            raise refusal(exc) from exc
        m.seats = json.dumps(seats)
        s.add(
            Substitution(
                match_id=m.id,
                game_no=game_no,
                side=side,
                member_out=out_m.id,
                member_in=in_m.id,
                reason=reason,
                # rules E7.2, E20: the substitute plays from the next hand to be entered in this game
                from_hand=len(games.get(game_no, [])) + 1,
            )
        )
        reads.audit_match(
            s,
            actor,
            "substitute",
            ev,
            m,
            before={"seats": current},
            after={"seats": seats[key]},
            reason=reason,
        )
        return SeatsResult(seats, Changes(ev.id, round_no, frozenset({table_no})))


def encounter_seats(db: Database, event_id: int, round_no: int, table_no: int, game_no: int) -> list[str]:
    """The seats of a game of a team encounter: the draw (E7) for game 1; for game 2 the pair that lost
    game 1 swaps seats (E7b); substitutes keep the seat of the player they replace."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        _rnd, m = reads.find_table(s, ev, round_no, table_no)
        return seats_for(s, ev, m, game_no)


def seats_for(s: Session, ev: Event, m: Match, game_no: int) -> list[str]:
    seats = json.loads(m.seats) if m.seats else {}
    if f"game{game_no}" in seats:
        return list(seats[f"game{game_no}"])
    base = list(seats.get("game1") or seats.get("seats") or [])
    if game_no == 1 or not base:
        return base
    n = reads.night(s, ev)
    _family, params = reads.params_of(ev)
    games = match_entries(s, m)
    try:
        oc = formats.outcome_from_entries(
            ev.ruleset, params, {1: games.get(1, [])}, encounter_games=n.encounter_games
        )
    except CompetitionError as exc:
        raise refusal(exc) from exc
    sheet = oc.sheets[0] if oc.sheets else {}
    if not sheet.get("finished"):
        raise ServiceError("game-open", _("Game 1 is not finished yet."))
    return seating.swap_seats(base, 1 - int(sheet["winner"]))  # rule E7b
