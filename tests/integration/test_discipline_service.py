"""Discipline services on a real SQLite file: incidents, penalties visible in sheets and standings, the round
lock, appeals in time and late, the G16 refund, disqualification (T9c), the audit trail, its CSV (issue 13).

Events are written through the ORM (as the night tests do) and played through the night services. Expected
values are worked out by hand in the comments from RULES.md and CONTRACTS.md §1.
"""

from __future__ import annotations

import csv
import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from clubdesk.models.audit import AuditEntry
from clubdesk.models.discipline import Appeal, Incident, Penalty
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.result import Match
from clubdesk.services import discipline
from clubdesk.services.club import audit_log
from clubdesk.services.discipline import appeals, incidents
from clubdesk.services.kernel.base import Actor, Role, ServiceError
from clubdesk.services.night.data import reads, settings
from clubdesk.services.night.play import results, rounds
from clubdesk.services.night.ranking import event_end, standings
from clubdesk.services.publishing import match_act
from clubdesk.storage import Database

DESK = Actor("Desk", Role.SECRETARY)
REF = Actor("Ana Referee", Role.REFEREE)


def make_event(db: Database, ruleset: str, fmt: str, n: int, per: int = 1) -> tuple[int, list[int]]:
    """An event with ``n`` checked-in entrants of ``per`` members; member numbers "<event>-<k><j>"."""
    with db.session() as s:
        ev = Event(
            name="Discipline night",
            ruleset=ruleset,
            format=fmt,
            entry_type="pair" if per == 2 else "single",
            status="closed",
            currency="EUR",
        )
        s.add(ev)
        s.flush()
        ids: list[int] = []
        for k in range(n):
            members = [Member(number=f"{ev.id}-{k}{j}", name=f"Player {k}{'ab'[j]}") for j in range(per)]
            s.add_all(members)
            s.flush()
            e = Entrant(
                event_id=ev.id,
                name=f"E{k + 1}",
                code=f"C{ev.id}X{k}",
                checked_in_at=datetime(2024, 5, 1, 18, 0),
                rating=2000 - 10 * k,
            )
            s.add(e)
            s.flush()
            s.add_all(EntrantMember(entrant_id=e.id, member_id=m.id) for m in members)
            ids.append(e.id)
        return ev.id, ids


def start_round(db: Database, event_id: int) -> reads.RoundView:
    rounds.propose_round(db, DESK, event_id, seed=1)
    return rounds.publish_round(db, DESK, event_id).round


def member_of(db: Database, entrant_id: int) -> str:
    with db.session() as s:
        m = s.scalar(
            select(Member)
            .join(EntrantMember, EntrantMember.member_id == Member.id)
            .where(EntrantMember.entrant_id == entrant_id)
        )
        assert m is not None
        return m.number


def match(db: Database, event_id: int, round_no: int, table_no: int) -> Match:
    with db.session() as s:
        m = s.scalar(
            select(Match).where(
                Match.event_id == event_id, Match.round_no == round_no, Match.table_no == table_no
            )
        )
        assert m is not None
        s.expunge(m)
        return m


def count(db: Database, model: type) -> int:
    with db.session() as s:
        return int(s.scalar(select(func.count()).select_from(model)) or 0)


# issue 25: the conftest's ``db`` runs these on SQLite and on the club server


@pytest.fixture
def domino(db: Database) -> tuple[int, list[int], reads.RoundView]:
    eid, ids = make_event(db, "domino-es", "round-robin", 4, per=2)
    return eid, ids, start_round(db, eid)


# ---------------------------------------------------------------------------------------------- migration


def test_migration_matches_the_models(db: Database) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from clubdesk.models import Base

    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    mine = {"incidents", "penalties", "appeals", "discipline_kinds"}
    assert [d for d in diff if any(t in repr(d) for t in mine)] == []


# ---------------------------------------------------------------------------------------------- incidents


def test_incident_records_everything_the_act_asks(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, rv = domino
    t = rv.tables[0]
    number = member_of(db, t.sides[1])
    inc = incidents.record_incident(
        db,
        DESK,
        eid,
        round_no=1,
        table_no=1,
        kind="false-pass",
        text="said pass holding 3-4",
        player=number,
        hand=3,
        decision="annul-hand",
    )
    # rule E15/E16: licence number, circumstances and effect are in the act
    assert (inc.player_number, inc.side, inc.hand, inc.decision) == (number, 1, 3, "annul-hand")
    assert inc.kind_label == "False pass (passed holding a playable tile) (E16)"
    assert inc.recorded_by == "Desk"
    listed = incidents.discipline_list(db, eid, round_no=1, table_no=1).incidents
    assert [i.id for i in listed] == [inc.id]


def test_e19_counter_through_the_service(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, rv = domino
    t = rv.tables[0]
    home, away = member_of(db, t.sides[0]), member_of(db, t.sides[1])
    seen = [
        incidents.record_incident(
            db, DESK, eid, round_no=1, table_no=1, kind="dropped-tiles", text="", player=p
        )
        for p in (home, away, home, home)
    ]
    # rule E19: the home pair's 1st, the away pair's 1st, the home pair's 2nd and 3rd
    assert [i.occurrence for i in seen] == [1, 1, 2, 3]
    assert seen[-1].counter_text == "Dropped tiles, 3rd time by this pair in this game (more than 2 times)"
    # another game of the encounter starts a new count
    game2 = incidents.record_incident(
        db, DESK, eid, round_no=1, table_no=1, kind="dropped-tiles", text="", player=home, game_no=2
    )
    assert game2.occurrence == 1


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"round_no": 1, "table_no": 9, "kind": "talk"}, "no-such-table"),  # bad input: no table 9
        ({"round_no": 4, "table_no": 1, "kind": "talk"}, "no-such-table"),
        ({"round_no": 1, "table_no": 1, "kind": "betting"}, "unknown-incident-kind"),  # tavla's, not domino's
        ({"round_no": 1, "table_no": 1, "kind": "talk", "decision": "award-leader"}, "decision-not-allowed"),
        ({"round_no": 1, "table_no": 1, "kind": "talk", "player": "nobody"}, "no-such-member"),
    ],
)
def test_bad_incidents_are_refused_and_nothing_is_written(  # type: ignore[no-untyped-def]
    db: Database, domino, kwargs, code
) -> None:
    eid, _ids, _rv = domino
    audits = count(db, AuditEntry)
    with pytest.raises(ServiceError) as err:
        incidents.record_incident(db, DESK, eid, text="x", **kwargs)
    assert err.value.code == code
    assert count(db, Incident) == 0 and count(db, AuditEntry) == audits


def test_player_from_another_table_is_refused(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, rv = domino
    other = member_of(db, rv.tables[1].sides[0])
    with pytest.raises(ServiceError) as err:
        incidents.record_incident(db, DESK, eid, round_no=1, table_no=1, kind="talk", text="", player=other)
    assert err.value.code == "not-at-table"


def test_club_kind_can_be_used(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, _rv = domino
    kind = incidents.add_club_kind(db, DESK, "Noise from the bar")
    assert kind.key in [k.key for k in incidents.kinds_for_event(db, eid)]
    inc = incidents.record_incident(
        db, DESK, eid, round_no=1, table_no=2, kind=kind.key, text="loud TV", side=0
    )
    assert inc.kind_label == "Noise from the bar"


# --------------------------------------------------------------------------- penalties in sheets, standings


def test_fine_is_on_the_sheet_and_in_the_score(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, rv = domino
    results.add_entry(db, DESK, eid, 1, 1, {"type": "domino", "seat": 0, "pips": [0, 10, 20, 10]})  # +40 home
    pen = incidents.impose_penalty(
        db, REF, eid, round_no=1, table_no=1, side=0, kind="fine", points=15, reason="B7"
    )
    assert pen.entry == {"type": "penalty", "side": 0, "points": 15}
    sheet = results.table_entries(db, eid, 1, 1)[1]
    assert sheet[-1] == {"type": "penalty", "side": 0, "points": 15}
    # home then goes out with 80 left in the others' hands: 40 - 15 + 80 = 105 ≥ 100, the game is won 105–0
    results.add_entry(db, DESK, eid, 1, 1, {"type": "domino", "seat": 2, "pips": [30, 20, 0, 30]})
    m = match(db, eid, 1, 1)
    assert (m.points_a, m.points_b) == (105, 0)
    assert m.winner == rv.tables[0].sides[0]


def test_e20_award_leader_ends_the_match_and_counts_in_the_standings(  # type: ignore[no-untyped-def]
    db: Database, domino
) -> None:
    eid, _ids, rv = domino
    results.add_entry(db, DESK, eid, 1, 1, {"type": "domino", "seat": 0, "pips": [0, 10, 20, 10]})  # 40–0
    results.add_entry(db, DESK, eid, 1, 1, {"type": "domino", "seat": 1, "pips": [10, 0, 10, 5]})  # 40–25
    incidents.impose_penalty(
        db, REF, eid, round_no=1, table_no=1, side=1, kind="award-leader", reason="power cut"
    )
    m = match(db, eid, 1, 1)
    # rule E20: the pair ahead (home, 40) wins; the rivals get 60 to reach 100; the losers keep 25
    assert (m.points_a, m.points_b) == (100, 25)
    assert m.status == "confirmed" and m.referee == REF.name
    rows = {r.entrant: r for r in standings.event_standings(db, eid).rows}
    home, away = rv.tables[0].sides
    assert rows[home].points > rows[away].points


def test_annulled_hand_and_replay_score_nothing(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, _rv = domino
    results.add_entry(db, DESK, eid, 1, 1, {"type": "domino", "seat": 0, "pips": [0, 10, 20, 10]})  # 40–0
    incidents.impose_penalty(
        db, REF, eid, round_no=1, table_no=1, side=1, kind="annul-hand", reason="E16 false pass"
    )
    incidents.impose_penalty(
        db, REF, eid, round_no=1, table_no=1, side=0, kind="replay", reason="E20 lights out"
    )
    sheet = results.table_entries(db, eid, 1, 1)[1]
    # after hand 1 the next leader is seat 1 (E7.3), of side 1: the offender's side led → lead lost
    assert sheet[1:] == [{"type": "annulled", "lead_lost": True}, {"type": "annulled", "lead_lost": False}]
    m = match(db, eid, 1, 1)
    assert (m.points_a, m.points_b) == (40, 0)


def test_match_loss_in_dominoes(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, rv = domino
    incidents.impose_penalty(
        db, REF, eid, round_no=1, table_no=2, side=0, kind="match-loss", reason="abandonment"
    )
    m = match(db, eid, 1, 2)
    assert m.winner == rv.tables[1].sides[1] and m.status == "confirmed"
    assert (m.points_a, m.points_b) == (0, 100)  # rule E20: the rivals reach the total


def test_warning_leaves_the_sheet_alone(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, _rv = domino
    pen = incidents.impose_penalty(
        db, REF, eid, round_no=1, table_no=1, side=0, kind="warning", reason="E12 talk"
    )
    assert pen.entry is None and results.table_entries(db, eid, 1, 1) == {}


def test_validate_keeps_the_score_at_suspension(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, rv = domino
    results.add_entry(db, DESK, eid, 1, 1, {"type": "domino", "seat": 0, "pips": [0, 10, 20, 10]})  # 40–0
    incidents.impose_penalty(
        db, REF, eid, round_no=1, table_no=1, side=0, kind="validate", reason="E20 flood"
    )
    m = match(db, eid, 1, 1)
    assert (m.points_a, m.points_b) == (40, 0) and m.status == "confirmed"
    assert m.winner == rv.tables[0].sides[0]


def test_only_a_referee_imposes_penalties(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, _rv = domino
    with pytest.raises(ServiceError) as err:
        incidents.impose_penalty(db, DESK, eid, round_no=1, table_no=1, side=0, kind="warning", reason="x")
    assert err.value.code == "referee-only"


def test_tavla_game_loss_and_match_loss(db: Database) -> None:
    eid, _ids = make_event(db, "tavla", "swiss", 4)
    with db.session() as s:
        ev = s.get(Event, eid)
        assert ev is not None
        ev.rounds = 3
    rv = start_round(db, eid)
    home, away = rv.tables[0].sides
    # rule T9d: a game loss with the cube on 2: the opponent wins one single game x 2 = 2 points
    incidents.impose_penalty(
        db, REF, eid, round_no=1, table_no=1, side=0, kind="game-loss", cube=2, reason="stalling"
    )
    m = match(db, eid, 1, 1)
    assert (m.score_a, m.score_b) == (0, 2)
    # rule T9d: a match loss: the opponent to the match length 5, the offender keeps his 0
    incidents.impose_penalty(db, REF, eid, round_no=1, table_no=1, side=0, kind="match-loss", reason="phone")
    m = match(db, eid, 1, 1)
    assert (m.score_a, m.score_b) == (0, 5) and m.winner == away and m.status == "confirmed"
    rows = {r.entrant: r for r in standings.event_standings(db, eid).rows}
    assert rows[away].points > rows[home].points


def test_gaple_forfeit_and_deduction(db: Database) -> None:
    eid, _ids = make_event(db, "gaple-club", "round-robin", 4, per=2)
    rv = start_round(db, eid)
    # rule B7: the club league fines below zero: 0 - 20 = -20 on the sheet
    incidents.impose_penalty(
        db, REF, eid, round_no=1, table_no=1, side=1, kind="fine", points=20, reason="wrong play"
    )
    assert results.table_entries(db, eid, 1, 1)[1] == [{"type": "penalty", "side": 1, "points": 20}]
    # rule G15: a walkover: the absent pair loses the match
    incidents.impose_penalty(
        db, REF, eid, round_no=1, table_no=2, side=0, kind="forfeit", reason="not present"
    )
    m = match(db, eid, 1, 2)
    assert m.kind == "forfeit" and m.winner == rv.tables[1].sides[1]


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"table_no": 7, "kind": "warning"}, "no-such-table"),
        ({"table_no": 1, "kind": "fine"}, "points-required"),
        ({"table_no": 1, "kind": "game-loss", "reason": " "}, "reason-required"),
        ({"table_no": 1, "kind": "award-leader"}, "no-pair-ahead"),  # 0–0: nobody is ahead
    ],
)
def test_bad_penalties_are_refused(db: Database, domino, kwargs, code) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, _rv = domino
    args = {"reason": "r", **kwargs}
    with pytest.raises(ServiceError) as err:
        incidents.impose_penalty(db, REF, eid, round_no=1, side=0, **args)
    assert err.value.code == code
    assert count(db, Penalty) == 0


def _finish_round_1(db: Database, eid: int) -> None:
    for t in (1, 2):
        # rule E18: seat 0 goes out twice: 10+20+10 = 40, then 40+40+40 = 120: home wins 160–0
        entries = [
            {"type": "domino", "seat": 0, "pips": [0, 10, 20, 10]},
            {"type": "domino", "seat": 0, "pips": [0, 40, 40, 40]},
        ]
        results.record_result(db, DESK, eid, 1, t, entries=entries, confirm_both=True)


def test_penalty_on_a_locked_result_needs_an_override(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, _rv = domino
    _finish_round_1(db, eid)
    start_round(db, eid)  # publishing round 2 locks round 1 (T10)
    before = results.table_entries(db, eid, 1, 1)
    audits = count(db, AuditEntry)
    with pytest.raises(ServiceError) as err:
        incidents.impose_penalty(
            db, REF, eid, round_no=1, table_no=1, side=0, kind="deduction", points=30, reason="G3"
        )
    assert err.value.code == "locked"
    assert results.table_entries(db, eid, 1, 1) == before and count(db, AuditEntry) == audits
    assert count(db, Penalty) == 0
    with pytest.raises(ServiceError) as err:  # the match has ended: where does the deduction go?
        incidents.impose_penalty(
            db,
            REF,
            eid,
            round_no=1,
            table_no=1,
            side=0,
            kind="deduction",
            points=30,
            reason="G3",
            override="committee decision",
        )
    assert err.value.code == "match-ended"
    pen = incidents.impose_penalty(
        db,
        REF,
        eid,
        round_no=1,
        table_no=1,
        side=0,
        kind="deduction",
        points=30,
        reason="G3",
        override="committee decision after the round",
        after_hand=1,
    )
    assert pen.override_reason == "committee decision after the round"
    assert results.table_entries(db, eid, 1, 1)[1][1] == {"type": "penalty", "side": 0, "points": 30}
    m = match(db, eid, 1, 1)
    # 40, then -30 at the breach = 10, then +120 = 130: the sheet and the result follow
    assert (m.points_a, m.points_b) == (130, 0) and m.status == "confirmed"
    # a warning does not change the result: no override needed
    incidents.impose_penalty(db, REF, eid, round_no=1, table_no=2, side=0, kind="warning", reason="E12")


# ------------------------------------------------------------------------------------------------ appeals


def test_appeal_in_time_late_and_overridden(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, rv = domino
    _finish_round_1(db, eid)
    end = match(db, eid, 1, 1).confirmed_at
    assert end is not None
    by = rv.tables[0].sides[1]
    # rule T10: 15 minutes after the end is still in time
    ok = appeals.file_appeal(
        db,
        DESK,
        eid,
        round_no=1,
        table_no=1,
        entrant_id=by,
        text="count wrong",
        fee=500,
        now=end + timedelta(minutes=15),
    )
    assert ok.deadline == end + timedelta(minutes=15) and ok.status == "open"
    # 16 minutes after: refused, nothing written
    with pytest.raises(ServiceError) as err:
        appeals.file_appeal(
            db, DESK, eid, round_no=1, table_no=1, entrant_id=by, text="late", now=end + timedelta(minutes=16)
        )
    assert err.value.code == "appeal-late" and count(db, Appeal) == 1
    # the desk cannot let it in; the referee can, with a reason
    with pytest.raises(ServiceError):
        appeals.file_appeal(
            db,
            DESK,
            eid,
            round_no=1,
            table_no=1,
            entrant_id=by,
            text="late",
            override="x",
            now=end + timedelta(minutes=16),
        )
    late = appeals.file_appeal(
        db,
        REF,
        eid,
        round_no=1,
        table_no=1,
        entrant_id=by,
        text="late",
        override="scorer kept the sheet",
        now=end + timedelta(minutes=16),
    )
    assert late.late_override == "scorer kept the sheet"


def test_appeal_entrants_are_the_events_entrants_by_id(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, rv = domino
    names = discipline.appeal_entrants(db, eid)
    sides = {side for table in rv.tables for side in table.sides if side is not None}
    assert sides <= set(names) and all(names.values())


def test_appeal_window_is_a_setting(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, rv = domino
    _finish_round_1(db, eid)
    end = match(db, eid, 1, 1).confirmed_at
    assert end is not None
    appeals.set_appeal_window(db, REF, 30)
    ok = appeals.file_appeal(
        db,
        DESK,
        eid,
        round_no=1,
        table_no=1,
        entrant_id=rv.tables[0].sides[0],
        text="x",
        now=end + timedelta(minutes=25),
    )
    assert ok.deadline == end + timedelta(minutes=30)


def test_fee_refunded_only_when_upheld(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, rv = domino
    t1, t2 = rv.tables
    a = appeals.file_appeal(db, DESK, eid, round_no=1, table_no=1, entrant_id=t1.sides[0], text="a", fee=500)
    b = appeals.file_appeal(db, DESK, eid, round_no=1, table_no=2, entrant_id=t2.sides[1], text="b", fee=500)
    appeals.hear_appeal(db, REF, a.id, appellant_notes="they signalled", respondent_notes="we did not")
    # rule G16: US$5 = 500 cents, refunded when upheld, kept when rejected
    up = appeals.decide_appeal(db, REF, a.id, upheld=True, reasons="signals seen by the referee")
    down = appeals.decide_appeal(db, REF, b.id, upheld=False, reasons="no evidence")
    assert (up.status, up.refund, up.appellant_notes) == ("upheld", 500, "they signalled")
    assert (down.status, down.refund) == ("rejected", 0)
    with pytest.raises(ServiceError) as err:
        appeals.decide_appeal(db, REF, a.id, upheld=False, reasons="again")
    assert err.value.code == "appeal-decided"
    with pytest.raises(ServiceError) as err:
        appeals.file_appeal(db, DESK, eid, round_no=1, table_no=1, entrant_id=t2.sides[0], text="not mine")
    assert err.value.code == "not-at-table"


# -------------------------------------------------------------------------------------- disqualification


def _tavla_league(db: Database) -> tuple[int, list[int]]:
    """A tavla round robin of 4 (3 rounds), the lower entrant id always wins 5–0; prizes 10.00 and 5.00
    for places 1 and 2, season base points 100/60/40/20 at coefficient "Local" = 1."""
    eid, ids = make_event(db, "tavla", "round-robin", 4)
    settings.configure(
        db,
        DESK,
        eid,
        prize_plan=json.dumps({"places": [{"place": 1, "fixed": 1000}, {"place": 2, "fixed": 500}]}),
        season_scale=json.dumps({"base_points": [100, 60, 40, 20], "coefficients": {"Local": 1}}),
    )
    with db.session() as s:
        ev = s.get(Event, eid)
        assert ev is not None
        ev.coefficient_class = "Local"
    for r in (1, 2, 3):
        rv = start_round(db, eid)
        for t in rv.tables:
            a, b = t.sides
            assert b is not None
            results.record_result(
                db, DESK, eid, r, t.table, score=(5, 0) if a < b else (0, 5), confirm_both=True
            )
    return eid, ids


def test_disqualification_removes_prizes_and_season_points(db: Database) -> None:
    eid, ids = _tavla_league(db)
    before = {p["entrant"]: p for p in event_end.final_places(db, eid)}
    assert before[ids[0]]["prizes"][0]["amount"] == 1000  # E1 won all three
    incidents.disqualify(db, REF, eid, ids[0], "betting (rule T1)")
    after = {p["entrant"]: p for p in event_end.final_places(db, eid)}
    # rule T9c: no prize, no season points for the disqualified entrant
    assert after[ids[0]]["prizes"] == [] and after[ids[0]]["season_points"] == 0
    with db.session() as s:
        en = s.get(Entrant, ids[0])
        assert en is not None and en.status == "disqualified"
    pen = incidents.discipline_list(db, eid).penalties
    assert [(p.kind, p.entrant, p.reason) for p in pen] == [("disqualification", ids[0], "betting (rule T1)")]


def test_disqualification_removes_from_the_ranking(db: Database) -> None:
    eid, ids = _tavla_league(db)
    incidents.disqualify(db, REF, eid, ids[0], "betting (rule T1)")
    rows = standings.event_standings(db, eid).rows
    # rule T9c: E1 leaves the ranking; E2 (two wins) is now first, E3 (one win) second, E4 third
    assert [r.entrant for r in rows] == ids[1:]
    assert [(r.rank, r.place) for r in rows] == [(1, "1"), (2, "2"), (3, "3")]


def test_disqualified_winner_hands_his_place_prize_and_points_to_the_next(db: Database) -> None:
    eid, ids = _tavla_league(db)
    incidents.disqualify(db, REF, eid, ids[0], "betting (rule T1)")
    got = {p["entrant"]: p for p in event_end.final_places(db, eid)}
    # rule T9c: without E1, E2 (2 wins) is 1st, E3 (1 win) 2nd, E4 3rd; the plan pays 10.00 and 5.00
    # for places 1 and 2; season points = base x coefficient 1/100: 100 -> 1.0, 60 -> 0.6, 40 -> 0.4
    assert got[ids[1]]["place"] == [1, 1] and got[ids[1]]["season_points"] == 1.0
    assert [p["amount"] for p in got[ids[1]]["prizes"]] == [1000]
    assert got[ids[2]]["place"] == [2, 2] and [p["amount"] for p in got[ids[2]]["prizes"]] == [500]
    assert got[ids[2]]["season_points"] == 0.6
    assert got[ids[3]]["place"] == [3, 3] and got[ids[3]]["prizes"] == []
    assert got[ids[0]]["place"] is None and got[ids[0]]["disqualified"] is True


def test_disqualification_forfeits_open_tables(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, rv = domino
    home, away = rv.tables[0].sides
    incidents.disqualify(db, REF, eid, home, "violence")
    m = match(db, eid, 1, 1)
    assert m.kind == "forfeit" and m.winner == away  # rule T9b/T9c: the opponent wins by walkover
    with pytest.raises(ServiceError) as err:
        incidents.disqualify(db, REF, eid, home, "again")
    assert err.value.code == "already-disqualified"


# ------------------------------------------------------------------------------------------------- audit


def test_every_change_leaves_before_and_after(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, rv = domino
    results.add_entry(db, DESK, eid, 1, 1, {"type": "domino", "seat": 0, "pips": [0, 10, 20, 10]})
    inc = incidents.record_incident(
        db, DESK, eid, round_no=1, table_no=1, kind="talk", text="chatting", side=1
    )
    incidents.decide_incident(db, REF, inc.id, "warning")
    incidents.impose_penalty(
        db, REF, eid, round_no=1, table_no=1, side=0, kind="fine", points=10, reason="B7"
    )
    ap = appeals.file_appeal(
        db, DESK, eid, round_no=1, table_no=1, entrant_id=rv.tables[0].sides[0], text="x", fee=500
    )
    appeals.decide_appeal(db, REF, ap.id, upheld=True, reasons="fine was wrong")
    rows = {r.action: r for r in audit_log.audit_rows(db, event_id=eid, round_no=1, table_no=1)}
    decide = rows["incident.decide"]
    assert json.loads(decide.before or "{}")["decision"] == ""
    assert json.loads(decide.after or "{}")["decision"] == "warning"
    pen = rows["penalty.add"]
    # the table went from 40–0 to 30–0
    assert json.loads(pen.before or "{}")["match"]["points"] == [40, 0]
    assert json.loads(pen.after or "{}")["match"]["points"] == [30, 0]
    appeal = rows["appeal.decide"]
    assert json.loads(appeal.before or "{}")["refund"] == 0
    assert json.loads(appeal.after or "{}")["refund"] == 500
    assert appeal.actor == REF.name and appeal.reason == "fine was wrong"
    assert rows["incident.add"].table == 1 and rows["incident.add"].event == eid


def test_audit_filters_and_csv(db: Database, domino, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, _rv = domino
    incidents.record_incident(db, DESK, eid, round_no=1, table_no=1, kind="talk", text="", side=0)
    incidents.record_incident(
        db, Actor("Şükrü", Role.SCORER), eid, round_no=1, table_no=2, kind="talk", text="", side=0
    )
    assert {r.table for r in audit_log.audit_rows(db, event_id=eid, round_no=1, table_no=2)} == {2}
    # person: accents ignored ("sukru" finds "Şükrü")
    found = audit_log.audit_rows(db, person="sukru")
    assert [r.actor for r in found] == ["Şükrü"]
    out = tmp_path / "audit.csv"
    n = audit_log.export_audit_csv(db, out, event_id=eid, table_no=2)
    with out.open(encoding="utf-8-sig", newline="") as fh:
        lines = list(csv.reader(fh))
    assert n == 1 and lines[0][:4] == ["at", "actor", "role", "action"]
    assert lines[1][1] == "Şükrü" and lines[1][3] == "incident.add"


def test_a_decided_appeal_is_final_and_only_a_referee_reopens_it(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    # rules G16 (seed 000 rule 18: "mutlak tidak dapat diganggu gugat") and T10 ("hakem kararı kesindir")
    eid, _ids, rv = domino
    _finish_round_1(db, eid)
    end = match(db, eid, 1, 1).confirmed_at
    assert end is not None
    by, other = rv.tables[0].sides[1], rv.tables[0].sides[0]
    first = appeals.file_appeal(
        db,
        DESK,
        eid,
        round_no=1,
        table_no=1,
        entrant_id=by,
        text="count wrong",
        now=end + timedelta(minutes=5),
    )
    assert first.subject == "result"
    appeals.decide_appeal(db, REF, first.id, upheld=False, reasons="the count was checked with both pairs")
    # a second appeal on the same table and subject, by either side, is refused naming the decision
    for who in (by, other):
        with pytest.raises(ServiceError) as err:
            appeals.file_appeal(
                db,
                DESK,
                eid,
                round_no=1,
                table_no=1,
                entrant_id=who,
                text="again",
                now=end + timedelta(minutes=6),
            )
        assert err.value.code == "appeal-final"
        assert f"Appeal {first.id}" in err.value.message and "rejected" in err.value.message
        assert "the count was checked with both pairs" in err.value.message
    assert count(db, Appeal) == 1  # nothing written
    # another subject on the same table is a new appeal
    conduct = appeals.file_appeal(
        db,
        DESK,
        eid,
        round_no=1,
        table_no=1,
        entrant_id=by,
        text="a signal at the table",
        subject="Conduct",
        now=end + timedelta(minutes=7),
    )
    assert conduct.subject == "conduct"
    # only a referee reopens the decided appeal, with a reason; the decision as it was is in the audit
    with pytest.raises(ServiceError):
        appeals.reopen_appeal(db, DESK, first.id, "new evidence")
    with pytest.raises(ServiceError) as err:
        appeals.reopen_appeal(db, REF, first.id, "  ")
    assert err.value.code == "reason-required"
    reopened = appeals.reopen_appeal(db, REF, first.id, "the scorer's sheet was found")
    assert (reopened.status, reopened.reasons, reopened.decided_by) == ("open", "", "")
    with db.session() as s:
        row = s.scalars(
            select(AuditEntry).where(AuditEntry.action == "appeal.reopen").order_by(AuditEntry.id.desc())
        ).first()
        assert row is not None and row.reason == "the scorer's sheet was found"
        assert json.loads(row.before or "{}")["status"] == "rejected" and row.actor_name == REF.name
    # reopened, it is heard and decided anew; while open it stays the one appeal (no second one needed)
    done = appeals.decide_appeal(
        db, REF, first.id, upheld=True, reasons="sheet shows 12 more for the appellant"
    )
    assert done.status == "upheld"


def test_e16_false_pass_only_at_that_moment_e15_false_think_later(db: Database, domino) -> None:  # type: ignore[no-untyped-def]
    eid, _ids, rv = domino
    number = member_of(db, rv.tables[0].sides[1])
    # hand 1 is over: it is on the sheet (rule E18: seat 0 goes out)
    results.add_entry(db, DESK, eid, 1, 1, {"type": "domino", "seat": 0, "pips": [0, 10, 20, 10]})
    before = count(db, Incident)
    with pytest.raises(ServiceError) as err:
        incidents.record_incident(
            db, DESK, eid, round_no=1, table_no=1, kind="false-pass", text="late claim", player=number, hand=1
        )
    assert err.value.code == "claim-too-late" and "E16" in err.value.message and "E15" in err.value.message
    assert count(db, Incident) == before  # nothing written
    # rule E15: a false think may be claimed after the hand
    think = incidents.record_incident(
        db,
        DESK,
        eid,
        round_no=1,
        table_no=1,
        kind="false-think",
        text="thought with one tile",
        player=number,
        hand=1,
    )
    assert think.hand == 1
    # hand 2 is being played: the false pass is claimed at that moment
    now = incidents.record_incident(
        db,
        DESK,
        eid,
        round_no=1,
        table_no=1,
        kind="false-pass",
        text="passed holding 3-4",
        player=number,
        hand=2,
    )
    assert now.hand == 2


def test_e19_every_drop_recorded_the_act_numbers_from_the_second(
    db: Database, domino, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.services.discipline import incidents

    eid, _ids, rv = domino
    home = member_of(db, rv.tables[0].sides[0])
    first = incidents.record_incident(
        db, DESK, eid, round_no=1, table_no=1, kind="dropped-tiles", text="one", player=home
    )
    second = incidents.record_incident(
        db, DESK, eid, round_no=1, table_no=1, kind="dropped-tiles", text="two", player=home
    )
    # rule E19 (Reading): both recorded; only the 2nd carries its number
    assert (first.occurrence, first.counter_text) == (1, "")
    assert second.counter_text == "Dropped tiles, 2nd time by this pair in this game"
    data = match_act.incident_act_data(db, eid, 1, 1)
    assert [(i.text, i.count) for i in data.incidents] == [("one", None), ("two", 2)]
