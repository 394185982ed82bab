"""The Rounds section through the night services: a table opened by its QR payload, the scorer's initials
once, a tavla game with the keyboard, both sides' approval, a correction with its preview, a forfeit after
the table call, and the standings following (issue 12)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog

from clubdesk.services.kernel.base import Actor, Role
from clubdesk.services.night.data import reads, settings
from clubdesk.services.night.play import results, rounds, table_sides
from clubdesk.ui.night import dialogs
from clubdesk.ui.night.rounds_section import RoundsSection
from clubdesk.ui.night.table_query import parse_table_query
from clubdesk.ui.ranking.standings_model import COL_NAME, COL_POINTS
from clubdesk.ui.ranking.standings_view import StandingsSection
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_night_helpers import DESK, make_event, open_db
from tests.waits import READY_MS

REF = Actor("Ref", Role.REFEREE)


def focus():  # type: ignore[no-untyped-def]
    w = QApplication.focusWidget()
    assert w is not None
    return w


def typed(qtbot, text: str) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClicks(focus(), text)


def press(qtbot, key: Qt.Key, mod: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClick(focus(), key, mod)


def night(tmp_path: Path, call_minutes_ago: int = 0):  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=2, match_lengths=[3])
    rounds.propose_round(db, DESK, ev)
    # the call time is a local wall-clock time, as the secretary types it (services/rounds.py)
    rounds.publish_round(db, DESK, ev, call_at=reads.local_now() - timedelta(minutes=call_minutes_ago))
    return db, ev


def test_parse_table_query() -> None:
    assert parse_table_query("7") == (None, None, 7)
    assert parse_table_query("CLUBDESK:TABLE:3:2:11") == (3, 2, 11)
    assert parse_table_query("CLUBDESK:CHECKIN:3:ABC") is None
    assert parse_table_query("x") is None


def test_table_by_qr_keyboard_game_approvals_and_standings(qtbot, active, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db, ev = night(tmp_path)
    state = DeskState(db, REF)
    section = RoundsSection(state)
    standings = StandingsSection(state)
    qtbot.addWidget(standings)
    active(section)
    section.select_event(ev)
    rv = reads.get_round(db, ev, 1)
    a_name, b_name = rv.tables[0].names
    # every table is waiting before play starts
    assert {section.model.data(section.model.index(r, 4)) for r in range(section.model.rowCount())} == {
        "waiting"
    }
    press(qtbot, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    assert focus() is section.table_field
    typed(qtbot, f"CLUBDESK:TABLE:{ev}:1:1")
    press(qtbot, Qt.Key.Key_Return)
    panel = section.panel
    assert panel is not None and panel.table.table == 1
    # the scorer's initials are asked once, first
    assert focus() is panel.initials
    typed(qtbot, "AB")
    press(qtbot, Qt.Key.Key_Return)
    form = panel.form
    assert form is not None and focus() is form.outcome
    # Game: side 1 wins a backgammon, cube 1: rule T7c 3 x 1 = 3 points, the match to 3 is over
    typed(qtbot, "g")
    press(qtbot, Qt.Key.Key_Tab)
    typed(qtbot, "1")
    press(qtbot, Qt.Key.Key_Tab)
    typed(qtbot, "b")
    press(qtbot, Qt.Key.Key_Tab)
    typed(qtbot, "1")
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.table.status == "pending", timeout=READY_MS)
    assert panel.table.score == (3, 0)
    # the list shows the table awaiting confirmation (refreshed once the save's signal is handled)
    qtbot.waitUntil(
        lambda: section.model.data(section.model.index(0, 4)) == "awaiting confirmation", timeout=READY_MS
    )
    # standings do not count it yet: the result is final only when both sides approve (T8c, G13)
    standings.select_event(ev)
    points = {
        standings.model.data(standings.model.index(r, COL_NAME)): standings.model.data(
            standings.model.index(r, COL_POINTS)
        )
        for r in range(standings.model.rowCount())
    }
    assert points[a_name] == "0"
    press(qtbot, Qt.Key.Key_A, Qt.KeyboardModifier.AltModifier)
    typed(qtbot, "AB")
    press(qtbot, Qt.Key.Key_Return)
    press(qtbot, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)
    typed(qtbot, "CD")
    press(qtbot, Qt.Key.Key_Return)
    assert panel.table.status == "confirmed"
    assert section.model.data(section.model.index(0, 4)).startswith("confirmed")
    # the standings section followed the confirmation (dataChanged): the winner has 1 point (T4e: win 1)
    top = standings.model.data(standings.model.index(0, COL_NAME))
    assert top == a_name
    assert standings.model.data(standings.model.index(0, COL_POINTS)) == "1"
    # filter: only confirmed tables
    section.filter_box.setCurrentIndex(section.filter_box.findData("confirmed"))
    assert section.proxy.rowCount() == 1


def test_correction_of_a_confirmed_result_shows_its_preview(
    qtbot, active, tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    db, ev = night(tmp_path)
    from clubdesk.services.night.data import reads

    results.add_entry(
        db, DESK, ev, 1, 1, {"type": "game", "winner": 0, "kind": "backgammon", "cube": 1, "dropped": False}
    )
    results.confirm(db, DESK, ev, 1, 1, 0, "AB")
    results.confirm(db, DESK, ev, 1, 1, 1, "CD")
    state = DeskState(db, REF)
    section = RoundsSection(state)
    active(section)
    section.select_event(ev)
    shown: list[str] = []

    def fake_exec(dialog: QDialog) -> int:
        shown.append(dialog.text.text())
        dialog.reason.setText("scorer swapped the names")
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(dialogs.CorrectionDialog, "exec", fake_exec)
    panel = section.open_table(1)
    assert panel is not None
    panel.initials.setText("RF")
    panel._initials_given()
    form = panel.form
    # correct game 1 from the sheet: the winner was side 2
    form.focus_sheet()
    press(qtbot, Qt.Key.Key_Return)
    assert form.correcting == 0
    form.side.setCurrentIndex(form.side.findData(1))
    press(qtbot, Qt.Key.Key_Return)
    # the preview was shown before saving: the winner changes
    assert shown and "winner of this table changes" in shown[0]
    qtbot.waitUntil(lambda: reads.get_round(db, ev, 1).tables[0].score == (0, 3), timeout=READY_MS)


def test_forfeit_after_the_table_call(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db, ev = night(tmp_path, call_minutes_ago=15)
    state = DeskState(db, REF)
    section = RoundsSection(state)
    qtbot.addWidget(section)
    section.select_event(ev)
    # rule T3b: 10 minutes after the call, time is up
    assert "time is up" in section.call_label.text()
    panel = section.open_table(2)
    assert panel is not None
    assert panel.decisions.forfeit(1)
    # rule T9a: forfeit = match length-0 = 3-0
    t = reads.get_round(db, ev, 1).tables[1]
    assert t.score == (3, 0)


def test_forfeit_refused_before_the_time(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db, ev = night(tmp_path, call_minutes_ago=0)
    state = DeskState(db, REF)
    section = RoundsSection(state)
    qtbot.addWidget(section)
    section.select_event(ev)
    assert "forfeit of absent sides in" in section.call_label.text()
    panel = section.open_table(1)
    assert panel is not None
    assert not panel.decisions.forfeit(0)
    assert "T3b" in panel.message.text()


def test_score_only_event_opens_the_final_score_form(qtbot, active, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db, ev = night(tmp_path)
    settings.configure(db, DESK, ev, result_mode="score", call_minutes=25)  # what night-config writes
    section = RoundsSection(DeskState(db, REF))
    active(section)
    section.select_event(ev)
    panel = section.open_table(1)
    assert panel is not None
    panel._build_form()
    # the event records results only: the scorer gets the final-score form, not the game-by-game sheet
    assert type(panel.form).__name__ == "FinalScoreForm"
    # the table call countdown uses the event's 25 minutes (T3b), not the default 10
    due = section.call_due_at()
    rv = reads.get_round(db, ev, 1)
    assert rv.call_at is not None and due == rv.call_at + timedelta(minutes=25)


def test_screens_open_on_the_running_event_with_the_latest_round(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db, ev = night(tmp_path)
    # an event created later, with no round (like the demo's "Last Chance")
    later, _ids = make_event(db, ruleset="tavla", fmt="single-elimination", players=4, name="Last Chance")
    state = DeskState(db, REF)
    section = RoundsSection(state)
    standings = StandingsSection(state)
    qtbot.addWidget(section)
    qtbot.addWidget(standings)
    assert section.event_box.currentData() == ev and section.round is not None
    assert standings.event_box.currentData() == ev
    section.resize(1200, 700)
    section.show()
    qtbot.waitExposed(section)
    left, right = section.splitter.sizes()
    # the tables list gets the larger share, so two names, score, state and approvals fit
    assert left > right


def test_domino_team_encounter_game_two_in_score_entry(qtbot, active, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.services.night.data import reads, settings
    from clubdesk.services.night.play import rounds
    from clubdesk.ui.night.score_entry.entries import EntryChange

    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="domino-es", fmt="round-robin", players=2, per_entrant=4, entry="team")
    settings.configure(db, DESK, ev, encounter_games=2)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    seats1 = table_sides.encounter_seats(db, ev, 1, 1, 1)
    # game 1: side 0 goes out twice with 30 + 20 + 25 = 75 left in hands (E18): 75, 150 >= 100
    d0 = {"type": "domino", "seat": 0, "pips": [0, 30, 20, 25]}
    d1 = {"type": "domino", "seat": 1, "pips": [30, 0, 20, 25]}
    results.add_entry(db, DESK, ev, 1, 1, d0, game_no=1)
    results.add_entry(db, DESK, ev, 1, 1, d0, game_no=1)
    section = RoundsSection(DeskState(db, REF))
    active(section)
    section.select_event(ev)
    panel = section.open_table(1)
    assert panel is not None
    panel._build_form()
    assert panel.game_box is not None and panel.game_box.count() == 2
    panel.game_box.setCurrentIndex(1)  # the scorer picks game 2
    assert panel.game_no == 2 and panel.seats_label is not None
    # rule E7b: side 2 lost game 1, its players (seats 2 and 4) swap for game 2
    swapped = [seats1[0], seats1[3], seats1[2], seats1[1]]
    from clubdesk.models.member import Member

    with db.session() as s:
        name_of = {m.number: m.name for m in s.query(Member)}
    # the seats are named by their players, not by member number (issue 20)
    assert ", ".join(name_of[n] for n in swapped) in panel.seats_label.text()
    for n in (1, 2):
        entries = tuple([d1] * n)
        panel._save_change(EntryChange("append", n - 1, d1, entries))
    games = results.table_entries(db, ev, 1, 1)
    assert len(games[1]) == 2 and games[2] == [d1, d1]
    # game 2 to side 2 (75, 150): the encounter ends level 1-1
    assert reads.get_round(db, ev, 1).tables[0].score == (1, 1)


def gaple_night(tmp_path: Path):  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, _ids = make_event(
        db, ruleset="gaple-tournament", fmt="swiss", players=4, rounds=2, name="Gaple night"
    )
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev, call_at=reads.local_now())
    return db, ev


def test_initials_typed_again_into_a_reopened_table_save_nothing(qtbot, active, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 20: a table reopened with remembered initials opens its form; "SR" + Enter typed there (the
    scorer expecting the initials prompt) saves nothing; a redeal is saved only after a confirming Enter."""

    db, ev = gaple_night(tmp_path)
    section = RoundsSection(DeskState(db, REF))
    active(section)
    section.select_event(ev)
    panel = section.open_table(1)
    assert panel is not None and focus() is panel.initials
    typed(qtbot, "SR")
    press(qtbot, Qt.Key.Key_Return)
    section.open_table(2)
    # the next table offers the same initials, selected: Enter keeps them
    assert section.panel is not None and section.panel.initials.text() == "SR"
    section.open_table(1)
    form = section.panel.form
    assert form is not None and focus() is form.outcome
    typed(qtbot, "SR")  # S picks "six doubles", R "redeal"
    press(qtbot, Qt.Key.Key_Return)
    assert results.table_entries(db, ev, 1, 1).get(1, []) == []
    assert form.mode.isVisible() and "Enter again" in form.mode.text()
    # Esc cancels: still nothing; the outcome chosen and one Enter: asked again, nothing saved
    press(qtbot, Qt.Key.Key_Escape)
    press(qtbot, Qt.Key.Key_Return)
    assert results.table_entries(db, ev, 1, 1).get(1, []) == []
    press(qtbot, Qt.Key.Key_Return)  # the confirming Enter
    qtbot.waitUntil(
        lambda: results.table_entries(db, ev, 1, 1).get(1, []) == [{"type": "redeal"}], timeout=READY_MS
    )
    # an outcome without its seat saves nothing either ("o" Enter)
    typed(qtbot, "o")
    press(qtbot, Qt.Key.Key_Return)
    press(qtbot, Qt.Key.Key_Return)
    assert results.table_entries(db, ev, 1, 1)[1] == [{"type": "redeal"}]
    assert form.error.text() == "Choose who went out."  # the seat asked for by what it is


def test_undo_survives_switching_tables(qtbot, active, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]

    db, ev = gaple_night(tmp_path)
    section = RoundsSection(DeskState(db, REF))
    active(section)
    section.select_event(ev)
    panel = section.open_table(1)
    panel.initials.setText("SR")
    panel._initials_given()
    form = panel.form
    form.outcome.setCurrentIndex(form.outcome.findData("out"))
    form.seat.setCurrentIndex(form.seat.findData(0))
    form.pips[1].setText("10")
    assert form.submit()
    qtbot.waitUntil(lambda: len(results.table_entries(db, ev, 1, 1).get(1, [])) == 1, timeout=READY_MS)
    section.open_table(2)
    section.open_table(1)
    assert section.panel is panel and panel.form is form and form.undo_stack.canUndo()
    form.undo_stack.undo()
    assert results.table_entries(db, ev, 1, 1).get(1, []) == []


def test_switching_event_clears_the_table_panel(qtbot, active, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db, ev = night(tmp_path)
    other, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=2, name="Other night")
    rounds.propose_round(db, DESK, other)
    rounds.publish_round(db, DESK, other)
    state = DeskState(db, REF)
    section = RoundsSection(state)
    active(section)
    section.select_event(ev)
    panel = section.open_table(1)
    assert panel is not None and panel.isVisible()
    # the panel names its event and round
    assert "Test night" in panel.event_label.text() and "round 1" in panel.event_label.text()
    section.select_event(other)
    assert section.panel is None and not panel.isVisible()
    assert section.placeholder.isVisible()
    # a change elsewhere (dataChanged) reloads the list but never brings the other event's table back
    state.dataChanged.emit("desk")
    assert section.panel is None
    section.open_table(1)
    assert "Other night" in section.panel.event_label.text()


def test_gaple_seats_show_their_players_and_the_seat_change_is_announced(
    qtbot, active, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Issue 20, item 6: the seat box names the player in the seat (pair A at seats 1 and 3, pair B at 2
    and 4, CONTRACTS.md §1); after a game is won the G19 seat change names who swaps."""
    db = open_db(tmp_path)
    ev, ids = make_event(
        db,
        ruleset="gaple-tournament",
        fmt="round-robin",
        players=2,
        per_entrant=2,
        entry="pair",
        name="Pairs",
    )
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    section = RoundsSection(DeskState(db, REF))
    active(section)
    section.select_event(ev)
    panel = section.open_table(1)
    panel.initials.setText("SR")
    panel._initials_given()
    form = panel.form
    sides = reads.get_round(db, ev, 1).tables[0].sides
    # make_event names the players of its k-th entrant (1-based) "Player <k>a" and "Player <k>b"
    ka, kb = ids.index(sides[0]) + 1, ids.index(sides[1]) + 1
    a_players = [f"Player {ka}a", f"Player {ka}b"]
    b_players = [f"Player {kb}a", f"Player {kb}b"]
    seats = [form.seat.itemText(form.seat.findData(k)) for k in range(4)]
    assert a_players[0] in seats[0] and b_players[0] in seats[1]
    assert a_players[1] in seats[2] and b_players[1] in seats[3]
    # pair A wins game 1: seat 1 goes out hand after hand with 30 pips left to the opponents (GN1)
    out = {"type": "out", "seat": 0, "pips": [0, 15, 0, 15], "last_tile": None, "two_ends": False}
    out["dead"] = {"0-0": None, "6-6": None}
    for _k in range(30):
        form.load_entry(out)
        assert form.submit(), form.error.text()
        if form.result.get("games") and form.result["games"][0].get("winner") is not None:
            break
    assert form.result["games"][0]["winner"] == 0
    # rule G19: the opponents (pair B, who lost) change seats, and the notice names them
    assert "G19" in form.hint.text()
    assert b_players[0] in form.hint.text() and b_players[1] in form.hint.text()


def test_tavla_drop_says_the_double_refused_and_its_points_before_saving(qtbot) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.ui.night.score_entry import TavlaEntryForm

    saved: list[object] = []
    form = TavlaEntryForm("tavla", params={"match_length": 7}, save=saved.append, side_names=("Ayşe", "Can"))
    qtbot.addWidget(form)
    form.outcome.setCurrentIndex(form.outcome.findData("game"))
    form.side.setCurrentIndex(form.side.findData(1))
    assert form.cube.text() == "no double" and "Doubled to" in form.inputs.labelForField(form.cube).text()
    form.cube.setValue(4)
    form.dropped.setChecked(True)
    # the field reads as the table says it: "refused a double to 4" (as on the phones)
    assert "Refused a double" in form.inputs.labelForField(form.cube).text().replace("&", "")
    assert form.cube.value() == 4
    # the points are explained before anything is saved: lost at the cube before the double = 2 (T7a)
    assert saved == []
    assert "2" in form.preview.text() and "dropped" in form.preview.text()
    assert form.submit()
    assert saved and form.result["score"] == [0, 2]
    assert saved[0].entry["cube"] == 2 and saved[0].entry["dropped"] is True  # type: ignore[attr-defined]


def test_tavla_desk_a_refused_first_double_scores_1(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Rule T7a: the natural entry of a refused first double, "refused a double to 2", scores 1."""
    from clubdesk.ui.night.score_entry import TavlaEntryForm

    saved: list[object] = []
    form = TavlaEntryForm("tavla", params={"match_length": 7}, save=saved.append, side_names=("Ayşe", "Can"))
    qtbot.addWidget(form)
    form.outcome.setCurrentIndex(form.outcome.findData("game"))
    form.side.setCurrentIndex(form.side.findData(0))
    form.dropped.setChecked(True)
    assert form.cube.value() == 2  # a refused double is to 2 at least
    assert form.submit()
    assert form.result["score"] == [1, 0]


def test_an_open_table_follows_a_change_made_elsewhere(qtbot, active, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 20, item 1: the open table is never stale: a change stored elsewhere (the discipline area, a
    second desk) shows on its sheet and state when dataChanged says so."""

    db, ev = night(tmp_path)
    state = DeskState(db, REF)
    section = RoundsSection(state)
    active(section)
    section.select_event(ev)
    panel = section.open_table(1)
    panel.initials.setText("SR")
    panel._initials_given()
    form = panel.form
    assert form.entries == []
    game = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}
    results.add_entry(db, DESK, ev, 1, 1, game)
    state.dataChanged.emit("discipline")
    assert section.panel is panel and panel.form.entries == [game]
    assert panel.table.status == "in_play" and "1–0" in panel.status.text()
    # issue 25: a hand entered at another desk on the club server arrives as "rounds" (live refresh)
    other = {**game, "winner": 1}
    results.add_entry(db, DESK, ev, 1, 1, other)
    state.dataChanged.emit("rounds")
    assert section.panel is panel and panel.form.entries == [game, other]
    assert "1–1" in panel.status.text()


def test_a_substitute_asked_for_by_name_takes_the_seat(qtbot, active, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 20, item 5 (rule E7b): the substitution names both players; the substitute takes the seat of
    the player he replaces, and the seats shown say so."""
    from clubdesk.models.member import Member
    from clubdesk.services.night.data import settings
    from clubdesk.services.night.play import rounds

    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="domino-es", fmt="round-robin", players=2, per_entrant=4, entry="team")
    settings.configure(db, DESK, ev, encounter_games=2)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    seats = table_sides.encounter_seats(db, ev, 1, 1, 1)
    with db.session() as s:
        name_of = {m.number: m.name for m in s.query(Member)}
    leaving = seats[0]
    # the leaving player's team mate who does not play this game: "Player <k>a" is replaced by "<k>c"
    spare = next(n for n, nm in name_of.items() if nm == name_of[leaving][:-1] + "c")
    section = RoundsSection(DeskState(db, REF))
    active(section)
    section.select_event(ev)
    panel = section.open_table(1)
    panel.initials.setText("SR")
    panel._initials_given()

    def fill(dialog) -> int:  # type: ignore[no-untyped-def]
        # by name: the leaving player is offered among the seated ones only
        dialog.out.setText(name_of[leaving])
        dialog.out._offer(name_of[leaving])
        (label,) = dialog.out.choices()
        dialog.out.choose(label)
        dialog.into._offer(name_of[spare])
        dialog.into.choose(next(c for c in dialog.into.choices() if spare in c))
        dialog.side.setCurrentIndex(0)
        dialog.accept()
        return int(dialog.result())

    monkeypatch.setattr(dialogs.SubstituteDialog, "exec", fill)
    assert panel.open_substitute()
    assert table_sides.encounter_seats(db, ev, 1, 1, 1)[0] == spare
    assert name_of[spare] in panel.seats_label.text()
    assert name_of[leaving] not in panel.seats_label.text()


def test_domino_table_asks_for_the_scorer_and_counter_of_each_pair(qtbot, active, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.services.night.play import rounds

    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="domino-es", fmt="round-robin", players=2, per_entrant=2, entry="pair")
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    results.set_score(db, DESK, ev, 1, 1, (1, 0), (100, 40))
    state = DeskState(db, REF)
    section = RoundsSection(state)
    active(section)
    section.select_event(ev)
    panel = section.open_table(1)
    assert (
        panel is not None
        and panel.decisions.scorer_box is not None
        and panel.decisions.counter_box is not None
    )
    home, away = table_sides.side_players(db, ev, 1, 1)
    # rule E6: each list holds the players of its own side only
    assert [panel.decisions.scorer_box.itemData(i) for i in range(1, panel.decisions.scorer_box.count())] == [
        n for n, _m in home
    ]
    assert [
        panel.decisions.counter_box.itemData(i) for i in range(1, panel.decisions.counter_box.count())
    ] == [n for n, _m in away]
    # no player chosen: refused, nothing approved
    assert panel.decisions.approve(0) is False and results.table_entries(db, ev, 1, 1) == {}
    assert reads.get_round(db, ev, 1).tables[0].scorer == ""
    panel.decisions.scorer_box.setCurrentIndex(2)
    panel.decisions.counter_box.setCurrentIndex(1)
    assert panel.decisions.approve(0) and panel.decisions.approve(1)
    t = reads.get_round(db, ev, 1).tables[0]
    # the approvals are the players' names, not the operator's
    assert t.status == "confirmed" and (t.scorer, t.counter) == (home[1][1], away[0][1])
    with db.session() as s:
        from clubdesk.models.result import Match

        m = s.query(Match).filter_by(event_id=ev, round_no=1, table_no=1).one()
        assert (m.scorer_member, m.counter_member) == (home[1][0], away[0][0])


def test_referee_unpublishes_a_round_nobody_started(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # rule T10 (issue 19): the referee takes round 2 back; a scorer/secretary cannot
    from clubdesk.services.night.data import reads
    from clubdesk.services.night.play import rounds

    db, ev = night(tmp_path)
    for t in (1, 2):
        results.set_score(db, DESK, ev, 1, t, (3, 0), None, confirm=True)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    desk_section = RoundsSection(DeskState(db, DESK))
    qtbot.addWidget(desk_section)
    desk_section.select_event(ev)
    assert not desk_section.unpublish("wrong pairing")
    assert "referee" in desk_section.info.text()
    section = RoundsSection(DeskState(db, REF))
    qtbot.addWidget(section)
    section.select_event(ev)
    assert section.unpublish("wrong pairing")
    assert reads.get_round(db, ev, 2).status == "proposed"
    assert not any(t.locked for t in reads.get_round(db, ev, 1).tables)
    assert "proposed again" in section.info.text()


def test_notice_of_lateness_from_the_table_panel(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # rule G15 (issue 19): the desk records the notice; the forfeit is then the referee's decision
    db, ev = night(tmp_path, call_minutes_ago=15)
    section = RoundsSection(DeskState(db, DESK))
    qtbot.addWidget(section)
    section.select_event(ev)
    panel = section.open_table(1)
    assert panel is not None
    assert panel.decisions.late_notice(1, "the captain, by phone")
    assert not panel.decisions.forfeit(1)
    assert "the referee decides" in panel.message.text()
    ref = RoundsSection(DeskState(db, REF))
    qtbot.addWidget(ref)
    ref.select_event(ev)
    rpanel = ref.open_table(1)
    assert rpanel is not None
    assert rpanel.decisions.decide_late(True, "not here at 19:45")
    assert reads.get_round(db, ev, 1).tables[0].score == (3, 0)
