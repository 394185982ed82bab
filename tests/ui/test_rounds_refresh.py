"""The Rounds screen refreshes from what a change returns: a hand entered at a table reads that table once,
updates only its row of the round's list, and tells the other screens with the typed changes (rule 5 of the
house: one use case, one typed result; the screens refresh from it instead of re-reading the round)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from clubdesk.services import night
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.services.kernel.changes import Changes
from clubdesk.services.night.data import reads as data_reads
from clubdesk.services.night.play import results, rounds
from clubdesk.ui.night.rounds_section import RoundsSection
from clubdesk.ui.night.tables_model import COL_SCORE, COL_STATE
from clubdesk.ui.ranking.standings_model import lines_from_service
from clubdesk.ui.ranking.standings_view import StandingsSection
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_night_helpers import DESK, make_event, open_db
from tests.waits import READY_MS

REF = Actor("Ref", Role.REFEREE)


def tavla_night(tmp_path: Path):  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=8, rounds=2, match_lengths=[5])
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev, call_at=data_reads.local_now())
    return db, ev


def counted(monkeypatch: pytest.MonkeyPatch, reads: Counter[str]) -> Callable[..., Any]:
    """The round and table reads counted wherever the screens call them from; the unwrapped round read."""
    get_round, get_table = data_reads.get_round, data_reads.get_table

    def whole_round(*args: Any, **kwargs: Any) -> Any:
        reads["round"] += 1
        return get_round(*args, **kwargs)

    def one_table(*args: Any, **kwargs: Any) -> Any:
        reads["table"] += 1
        return get_table(*args, **kwargs)

    # the screens reach the night through its face: that is where they look the reads up
    monkeypatch.setattr(night, "get_round", whole_round)
    monkeypatch.setattr(night, "get_table", one_table)
    return get_round


def row_of(section: RoundsSection, table: int) -> int:
    return next(i for i, t in enumerate(section.model.rows) if t.table == table)


def test_a_hand_reads_its_table_once_and_updates_its_row_only(
    qtbot, active, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    db, ev = tavla_night(tmp_path)
    state = DeskState(db, REF)
    section = RoundsSection(state)
    active(section)
    section.select_event(ev)
    panel = section.open_table(1)
    assert panel is not None
    panel.initials.setText("SR")
    panel._initials_given()
    form = panel.form
    assert form is not None
    others = {t.table: t for t in section.model.rows if t.table != 1}
    told: list[tuple[Changes, object]] = []
    names: list[str] = []
    state.changed.connect(lambda changes, origin: told.append((changes, origin)))
    state.dataChanged.connect(names.append)
    reads: Counter[str] = Counter()
    read_round = counted(monkeypatch, reads)

    # a single game to side 1, cube 1, in a match to 5: the score is 1–0 and the match goes on
    form.outcome.setCurrentIndex(form.outcome.findData("game"))
    form.side.setCurrentIndex(form.side.findData(0))
    form.kind.setCurrentIndex(form.kind.findData("single"))
    assert form.submit()
    qtbot.waitUntil(lambda: len(told) == 1, timeout=READY_MS)
    qtbot.wait(100)  # whatever the screen would still do after the hand has run by now

    # the table was read once (its version moves on at once), the round not at all
    assert reads == Counter({"table": 1})
    changes, origin = told[0]
    assert origin is panel and changes.event_id == ev and changes.round_no == 1
    assert changes.tables == frozenset({1})
    assert names == []  # the typed changes only: no section name is broadcast
    # the row shows the new score and state; the other rows are the very rows shown before
    stored = next(t for t in read_round(db, ev, 1).tables if t.table == 1)
    assert stored.status == "in_play" and stored.score == (1, 0)
    row = row_of(section, 1)
    model = section.model
    assert model.data(model.index(row, COL_SCORE)) == f"{stored.score[0]} – {stored.score[1]}"
    assert model.data(model.index(row, COL_STATE)) == "in play"
    assert panel.table == stored and section.round is not None
    assert {t.table: t for t in section.model.rows if t.table != 1} == others
    assert all(section.model.rows[row_of(section, n)] is t for n, t in others.items())
    assert "1 table in play" in section.counts.text()


def test_a_change_made_elsewhere_reads_the_round_once(
    qtbot, active, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """Another desk's hand (the live refresh says "rounds"): the round is read once, and the open table
    follows from that reading (it used to read the round a second time for itself)."""

    db, ev = tavla_night(tmp_path)
    state = DeskState(db, REF)
    section = RoundsSection(state)
    active(section)
    section.select_event(ev)
    panel = section.open_table(1)
    assert panel is not None
    game = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}
    results.add_entry(db, DESK, ev, 1, 1, game)
    reads: Counter[str] = Counter()
    counted(monkeypatch, reads)
    state.dataChanged.emit("rounds")
    assert reads == Counter({"round": 1})
    assert panel.table.status == "in_play" and panel.table.version > 0


def test_a_score_set_at_the_desk_tells_the_standings_with_its_changes(
    qtbot, active, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """A final score set at the desk: the typed changes name that table and the standings, and the
    Standings screen showing that event reads its standings again from them (no section name is sent)."""
    db, ev = tavla_night(tmp_path)
    state = DeskState(db, REF)
    section = RoundsSection(state)
    active(section)
    section.select_event(ev)
    standings = StandingsSection(state)
    standings.select_event(ev)
    panel = section.open_table(1)
    assert panel is not None
    told: list[tuple[Changes, object]] = []
    names: list[str] = []
    state.changed.connect(lambda changes, origin: told.append((changes, origin)))
    state.dataChanged.connect(names.append)
    refreshed: list[int] = []
    refresh = standings.refresh

    def counted_refresh() -> None:
        refreshed.append(standings.event_box.currentData())
        refresh()

    monkeypatch.setattr(standings, "refresh", counted_refresh)
    panel._save_score((5, 3), None)  # the match to 5 is over: its result counts (pending approval)
    qtbot.waitUntil(lambda: len(told) == 1, timeout=READY_MS)

    changes, origin = told[0]
    assert origin is panel and (changes.event_id, changes.round_no) == (ev, 1)
    assert changes.tables == frozenset({1}) and changes.standings
    assert names == []
    assert refreshed == [ev]  # read again once, from the typed changes
    assert standings.model.lines == lines_from_service(night.event_standings(db, ev))
    # both sides approve at the desk: the result counts, and the standings show the winner's point
    for side, field in enumerate((panel.decisions.approve_a, panel.decisions.approve_b)):
        field.setText("AB" if side == 0 else "CD")
        assert panel.decisions.approve(side)
    assert [c.tables for c, _origin in told[1:]] == [frozenset({1})] * 2 and told[2][0].standings
    assert names == [] and refreshed[-1] == ev
    now = night.event_standings(db, ev)
    assert standings.model.lines == lines_from_service(now)
    winner = next(t for t in data_reads.get_round(db, ev, 1).tables if t.table == 1).sides[0]
    assert next(r for r in now.rows if r.entrant == winner).points > 0
