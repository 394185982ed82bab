"""Manual pairing edits (set_tables), requested byes, the night settings read and the bracket read
(issues 11 and 12, gaps found after the first pass)."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from clubdesk.models.audit import AuditEntry
from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.night.data import reads, settings
from clubdesk.services.night.play import proposal, results, rounds
from clubdesk.services.night.ranking import standings
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, REF, make_event

# issue 25: the conftest's ``db`` runs these on SQLite and on the club server


def pairs_of(rv: reads.RoundView) -> list[tuple[int, int | None]]:
    return [(t.sides[0], t.sides[1]) for t in rv.tables]


def play_round(db: Database, ev: int, rv: reads.RoundView) -> None:
    """Publish and confirm: side A wins every table 3-0 (tavla, match length 3)."""
    rounds.publish_round(db, DESK, ev)
    for t in rv.tables:
        if t.sides[1] is not None:
            results.set_score(db, DESK, ev, rv.round, t.table, (3, 0), confirm=True)


# ------------------------------------------------------------------------------------------ set_tables
def test_edited_pairing_is_stored_in_table_order_and_audited(db: Database) -> None:
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=6, rounds=3, match_lengths=[3])
    rounds.propose_round(db, DESK, ev)
    # round 1: nobody has met anybody, so any three pairs are valid (T4e)
    mine = [(ids[0], ids[3]), (ids[5], ids[1]), (ids[2], ids[4])]
    out = proposal.set_tables(db, DESK, ev, mine).round
    assert pairs_of(out) == mine and [t.table for t in out.tables] == [1, 2, 3]
    rv = rounds.publish_round(db, DESK, ev).round
    assert pairs_of(rv) == mine
    with db.session() as s:
        row = s.scalar(select(AuditEntry).where(AuditEntry.action == "set-tables"))
        assert row is not None and row.actor_name == DESK.name
        assert json.loads(row.after or "{}")["tables"][1]["sides"] == [ids[5], ids[1]]


def test_a_rematch_is_refused_unless_a_referee_forces_it_with_a_reason(db: Database) -> None:
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[3])
    r1 = rounds.propose_round(db, DESK, ev)
    play_round(db, ev, r1)
    r2 = rounds.propose_round(db, DESK, ev)
    again = pairs_of(r1)  # round 1's pairs once more: rule T4e, no two players meet twice
    for actor, reason in ((DESK, ""), (DESK, "they insist"), (REF, "")):
        with pytest.raises(ServiceError) as err:
            proposal.set_tables(db, actor, ev, again, force_reason=reason)
        assert err.value.code == "pairing-breaks-rules"
        assert "already played" in err.value.message and "E1" in err.value.message  # names, not ids
    assert pairs_of(reads.get_round(db, ev, 2)) == pairs_of(r2)  # nothing written
    forced = proposal.set_tables(db, REF, ev, again, force_reason="last round, only these two are left").round
    assert pairs_of(forced) == again


def test_edits_that_drop_or_add_an_entrant_or_give_two_byes_are_refused(db: Database) -> None:
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[3])
    rv = rounds.propose_round(db, DESK, ev)
    with pytest.raises(ServiceError) as err:
        proposal.set_tables(db, DESK, ev, [(ids[0], ids[1])])  # two entrants left out
    assert err.value.code == "different-entrants"
    with pytest.raises(ServiceError) as err:
        proposal.set_tables(db, DESK, ev, [(ids[0], ids[1]), (ids[2], None), (ids[3], None)])
    assert err.value.code == "pairing-breaks-rules" and "byes" in err.value.message
    assert pairs_of(reads.get_round(db, ev, 1)) == pairs_of(rv)


def test_a_fixed_table_is_kept_and_remembered_for_the_next_round(db: Database) -> None:
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=6, rounds=3, match_lengths=[3])
    rv = rounds.propose_round(db, DESK, ev)
    needs = ids[5]  # the lowest seed, at the bottom table by the pairing, needs table 1 (a wheelchair)
    assert needs in rv.tables[-1].sides
    out = proposal.set_tables(db, DESK, ev, pairs_of(rv), fixed_tables={needs: 1}).round
    assert needs in out.tables[0].sides
    # the other two pairs keep their order on tables 2 and 3
    assert pairs_of(out)[1:] == pairs_of(rv)[:2]
    play_round(db, ev, out)
    r2 = rounds.propose_round(db, DESK, ev)
    assert needs in r2.tables[0].sides
    with pytest.raises(ServiceError) as err:
        proposal.set_tables(db, DESK, ev, pairs_of(r2), fixed_tables={needs: 4})  # 3 tables only
    assert err.value.code == "fixed-table"


def test_in_a_bracket_only_the_table_order_changes(db: Database) -> None:
    ev, ids = make_event(db, ruleset="tavla", fmt="single-elimination", players=8)
    rv = rounds.propose_round(db, DESK, ev)
    p = pairs_of(rv)
    (a1, b1), (a2, b2) = p[0], p[1]
    with pytest.raises(ServiceError) as err:
        proposal.set_tables(db, DESK, ev, [(a1, a2), (b1, b2), *p[2:]])
    assert err.value.code == "fixed-pairs"
    out = proposal.set_tables(db, DESK, ev, [p[3], p[2], p[1], p[0]]).round
    # the bracket match of each pair moves with it
    refs = {frozenset(t.sides): t.ref for t in rv.tables}
    assert [t.ref for t in out.tables] == [refs[frozenset(x)] for x in (p[3], p[2], p[1], p[0])]


# ------------------------------------------------------------------------------------------ requested byes
def test_requested_bye_leaves_the_entrant_out_with_zero_points(db: Database) -> None:
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=5, rounds=3, match_lengths=[3])
    assert settings.request_bye(db, DESK, ev, ids[0]) == {ids[0]: 1}
    rv = rounds.propose_round(db, DESK, ev)
    paired = [t for t in rv.tables if t.kind in ("played", "bye")]
    assert ids[0] not in {x for t in paired for x in t.sides}
    # 4 left: two games and no pairing bye; E1's requested bye is the last table
    assert len(paired) == 2 and all(t.sides[1] is not None for t in paired)
    assert (rv.tables[-1].sides, rv.tables[-1].kind) == ((ids[0], None), "zero-bye")
    play_round(db, ev, rv)
    pts = {r.entrant: r.points for r in standings.event_standings(db, ev).rows}
    assert pts[ids[0]] == 0  # zero points by default


def test_requested_bye_worth_what_the_event_sets(db: Database) -> None:
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=5, rounds=3, match_lengths=[3])
    settings.configure(db, DESK, ev, requested_bye="full-bye")
    settings.request_bye(db, DESK, ev, ids[2])
    rv = rounds.propose_round(db, DESK, ev)
    play_round(db, ev, rv)
    pts = {r.entrant: r.points for r in standings.event_standings(db, ev).rows}
    assert pts[ids[2]] == 1  # a full-point bye: worth a win (1)
    # cancelled before round 2: E3 is paired again
    settings.request_bye(db, DESK, ev, ids[2])
    assert settings.request_bye(db, DESK, ev, ids[2], cancel=True) == {}
    r2 = rounds.propose_round(db, DESK, ev)
    assert ids[2] in {x for t in r2.tables for x in t.sides}


def test_requested_bye_refused_where_the_schedule_is_fixed(db: Database) -> None:
    ev, ids = make_event(db, ruleset="tavla", fmt="round-robin", players=4)
    with pytest.raises(ServiceError) as err:
        settings.request_bye(db, DESK, ev, ids[0])
    assert err.value.code == "no-requested-bye"
    assert settings.requested_byes(db, ev) == {}


# ------------------------------------------------------------------------------------------ reads
def test_night_settings_read_what_night_config_wrote(db: Database) -> None:
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3)
    fresh = settings.night_settings(db, ev)
    assert (fresh["result_mode"], fresh["call_minutes"], fresh["requested_bye"]) == (
        "entries",
        10,
        "zero-bye",
    )
    settings.configure(db, DESK, ev, result_mode="score", call_minutes=15)
    got = settings.night_settings(db, ev)
    assert (got["result_mode"], got["call_minutes"]) == ("score", 15)


def test_bracket_data_with_names(db: Database) -> None:
    ev, ids = make_event(db, ruleset="tavla", fmt="single-elimination", players=4)
    assert standings.bracket_data(db, ev) is None  # not drawn yet
    rounds.propose_round(db, DESK, ev)
    out = standings.bracket_data(db, ev)
    assert out is not None
    data, names = out
    assert names[str(ids[0])] == "E1"
    # 4 entrants: 2 semi-finals and a final (T4c)
    assert len(data["matches"]) == 3
