"""Score entry forms driven by the rules engines, with the keyboard only (issue 12).

Expected values are worked out by hand from RULES.md (rule IDs cited beside each)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from clubdesk.ui.night.score_entry import (
    DominoEntryForm,
    EntryChange,
    FinalScoreForm,
    GapleEntryForm,
    TavlaEntryForm,
    entry_form_for,
)
from clubdesk.ui.night.sheet_model import COL_ENTRY, COL_TOT_A, COL_TOT_B


def focus(qtbot):  # type: ignore[no-untyped-def]
    w = QApplication.focusWidget()
    assert w is not None
    return w


def type_text(qtbot, text: str) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClicks(focus(qtbot), text)


def key(qtbot, k: Qt.Key) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClick(focus(qtbot), k)


def cell(form, row: int, col: int) -> str:  # type: ignore[no-untyped-def]
    return str(form.model.data(form.model.index(row, col)))


def choose(combo, data: object) -> None:  # type: ignore[no-untyped-def]
    """An explicit choice (the outcome, seat and side start with none)."""
    i = combo.findData(data)
    assert i > 0, data
    combo.setCurrentIndex(i)


def test_entry_form_for_picks_the_family(qtbot) -> None:  # type: ignore[no-untyped-def]
    for ruleset, cls in (
        ("gaple-tournament", GapleEntryForm),
        ("gaple-club", GapleEntryForm),
        ("domino-es", DominoEntryForm),
        ("tavla", TavlaEntryForm),
    ):
        form = entry_form_for(ruleset)
        qtbot.addWidget(form)
        assert type(form) is cls


def test_gaple_hands_with_the_keyboard_only(qtbot, active) -> None:  # type: ignore[no-untyped-def]
    saved: list[EntryChange] = []
    form = GapleEntryForm("gaple-tournament", save=saved.append, side_names=("Ali/Budi", "Cici/Dodi"))
    active(form)
    form.first_input().setFocus()
    # rule G6: the first hand is the warm-up, and the form says so before it is played
    assert "warm-up" in form.hint.text()
    # hand 1: seat 2 goes out; seats 1, 3, 4 hold 20, 10, 15 pips
    type_text(qtbot, "o")  # outcome: out
    key(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, "2")  # seat 2
    key(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, "20")  # seat 1 (seat 2 went out: its field is skipped)
    key(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, "10")  # seat 3
    key(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, "15")  # seat 4
    key(qtbot, Qt.Key.Key_Return)
    assert len(saved) == 1 and saved[0].action == "append"
    assert saved[0].entry is not None and saved[0].entry["seat"] == 1
    assert saved[0].entry["pips"] == [20, 0, 10, 15]
    # rule G7: the warm-up scores nothing: totals 0 - 0
    assert (cell(form, 0, COL_TOT_A), cell(form, 0, COL_TOT_B)) == ("0", "0")
    assert "warm-up" in cell(form, 0, COL_ENTRY)
    # hand 2: seat 1 goes out; seats 2, 3, 4 hold 18, 8, 12
    assert focus(qtbot) is form.outcome
    type_text(qtbot, "o")
    key(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, "1")
    key(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, "18")
    key(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, "8")
    key(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, "12")
    # the hand's explanation is computed live, before Enter
    assert "30" in form.preview.text()
    key(qtbot, Qt.Key.Key_Return)
    # rule GN1: the opponents' pips 18 + 12 = 30 (the partner's 8 do not count); rule GN4: 30 >= 25 opens
    assert (cell(form, 1, COL_TOT_A), cell(form, 1, COL_TOT_B)) == ("30", "0")
    assert len(saved) == 2
    assert "30" in form.summary.text()


def test_impossible_pip_count_is_refused_inline(qtbot, active) -> None:  # type: ignore[no-untyped-def]
    saved: list[EntryChange] = []
    form = GapleEntryForm("gaple-tournament", save=saved.append)
    active(form)
    choose(form.outcome, "out")
    choose(form.seat, 0)
    form.pips[1].setFocus()
    # 7 tiles hold at most 12+11+10+10+9+9+8 = 69 pips: 70 is impossible
    type_text(qtbot, "70")
    assert form.error.isVisible()
    assert "69" in form.error.text()
    key(qtbot, Qt.Key.Key_Return)
    assert saved == [] and form.entries == []
    assert form.model.rowCount() == 0
    # fixing the number clears the message and the hand goes in
    form.pips[1].setText("7")
    assert not form.error.isVisible()
    assert form.submit()
    assert len(saved) == 1


def test_went_out_with_pips_in_hand_is_refused(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = GapleEntryForm("gaple-tournament")
    qtbot.addWidget(form)
    choose(form.outcome, "block")
    choose(form.seat, 0)
    for f, v in zip(form.pips, ("60", "60", "60", "0"), strict=True):
        f.setText(v)
    # 180 > 168 pips in the whole double-six set
    assert "168" in form.error.text()
    assert not form.submit()


def test_undo_last_and_correct_an_earlier_entry(qtbot, active) -> None:  # type: ignore[no-untyped-def]
    saved: list[EntryChange] = []
    checks: list[list[dict]] = []

    def check(entries: list[dict]) -> bool:
        checks.append(entries)
        return True

    form = GapleEntryForm("gaple-club", save=saved.append, confirm_correction=check)
    active(form)
    hands = [
        {
            "type": "out",
            "seat": 0,
            "pips": [0, 20, 5, 10],
            "last_tile": None,
            "two_ends": False,
            "dead": {"0-0": None, "6-6": None},
        },
        {
            "type": "out",
            "seat": 1,
            "pips": [15, 0, 20, 5],
            "last_tile": None,
            "two_ends": False,
            "dead": {"0-0": None, "6-6": None},
        },
    ]
    for h in hands:
        form.load_entry(h)
        assert form.submit()
    # rule B8 (gaple-club opens at 25): hand 1 A gets 20 + 10 = 30; hand 2 B gets 15 + 20 = 35
    assert (cell(form, 1, COL_TOT_A), cell(form, 1, COL_TOT_B)) == ("30", "35")
    # undo the last entry with Ctrl+Z
    form.first_input().setFocus()
    qtbot.keyClick(focus(qtbot), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert form.model.rowCount() == 1
    assert saved[-1].action == "delete" and saved[-1].index == 1
    # redo brings it back
    qtbot.keyClick(
        focus(qtbot), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert form.model.rowCount() == 2
    # correct hand 1 from the sheet: F6, Up, Enter, change seat 2's pips to 30, Enter
    key(qtbot, Qt.Key.Key_F6)
    assert form.view.hasFocus()
    key(qtbot, Qt.Key.Key_Up)
    key(qtbot, Qt.Key.Key_Return)
    assert form.correcting == 0 and form.mode.isVisible()
    form.pips[1].setText("30")
    key(qtbot, Qt.Key.Key_Return)
    # corrected: A gets 30 + 10 = 40, later hand recomputed: B still 35
    assert (cell(form, 0, COL_TOT_A), cell(form, 1, COL_TOT_A), cell(form, 1, COL_TOT_B)) == (
        "40",
        "40",
        "35",
    )
    assert saved[-1].action == "replace" and saved[-1].index == 0
    assert checks and checks[-1][0]["pips"] == [0, 30, 5, 10]
    # and the correction can be undone too
    form.undo_stack.undo()
    assert cell(form, 0, COL_TOT_A) == "30"
    assert saved[-1].action == "replace" and saved[-1].entry is not None and saved[-1].entry["pips"][1] == 20


def test_a_refused_correction_check_changes_nothing(qtbot) -> None:  # type: ignore[no-untyped-def]
    saved: list[EntryChange] = []
    entries = [{"type": "domino", "seat": 0, "pips": [0, 10, 10, 10]}]
    form = DominoEntryForm("domino-es", entries, save=saved.append, confirm_correction=lambda e: False)
    qtbot.addWidget(form)
    form.start_correction(0)
    form.pips[1].setText("20")
    assert not form.submit()
    assert saved == [] and form.entries == entries


def test_a_refused_save_is_shown_and_nothing_changes(qtbot) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.services.kernel.base import ServiceError

    def refuse(change: EntryChange) -> None:
        raise ServiceError("locked", "Round 1 is locked.")

    form = TavlaEntryForm("tavla", save=refuse)
    qtbot.addWidget(form)
    choose(form.outcome, "game")
    choose(form.side, 0)
    assert not form.submit()
    assert form.error.text() == "Round 1 is locked."
    assert form.entries == []


def test_domino_es_hand(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = DominoEntryForm("domino-es", side_names=("Home", "Away"))
    qtbot.addWidget(form)
    choose(form.outcome, "domino")
    choose(form.seat, 2)  # seat 3 goes out
    for f, v in zip(form.pips, ("12", "7", "", "9"), strict=True):
        f.setText(v)
    assert form.submit()
    # rule E18: all pips still in hands, partner's too: 12 + 7 + 9 = 28 to the home pair (seats 1 and 3)
    assert (cell(form, 0, COL_TOT_A), cell(form, 0, COL_TOT_B)) == ("28", "0")


def test_tavla_games_with_the_keyboard_and_crawford_marked(qtbot, active) -> None:  # type: ignore[no-untyped-def]
    saved: list[EntryChange] = []
    form = TavlaEntryForm(
        "tavla", params={"match_length": 3}, save=saved.append, side_names=("Ayşe", "Mehmet")
    )
    active(form)
    form.first_input().setFocus()
    # game 1: Ayşe wins a gammon, cube 1
    type_text(qtbot, "g")  # game played
    key(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, "1")  # winner 1
    key(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, "g")  # gammon
    key(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, "1")  # cube 1
    key(qtbot, Qt.Key.Key_Return)
    # rule T7c: gammon x2 = 2 points, score 2-0 in a match to 3
    assert (cell(form, 0, COL_TOT_A), cell(form, 0, COL_TOT_B)) == ("2", "0")
    assert saved[0].entry == {"type": "game", "winner": 0, "kind": "gammon", "cube": 1, "dropped": False}
    # rule T7b: Ayşe is one point from winning, so the next game is the Crawford game, announced
    assert "CRAWFORD" in form.hint.text()
    # game 2: Mehmet wins with the cube on 2: refused inline (no cube in the Crawford game)
    type_text(qtbot, "g")
    key(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, "2")
    key(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, "s")
    key(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, "2")
    assert form.error.isVisible() and "Crawford" in form.error.text()
    key(qtbot, Qt.Key.Key_Return)
    assert len(saved) == 1
    # cube back to 1: Mehmet's single = 1 point, 2-1; the game is marked Crawford on the sheet
    form.cube.setFocus()
    type_text(qtbot, "1")
    key(qtbot, Qt.Key.Key_Return)
    assert len(saved) == 2
    assert (cell(form, 1, COL_TOT_A), cell(form, 1, COL_TOT_B)) == ("2", "1")
    assert "Crawford" in cell(form, 1, COL_ENTRY)
    assert "Crawford" not in cell(form, 0, COL_ENTRY)
    assert "CRAWFORD" not in form.hint.text()


def test_tavla_match_end_stops_entry(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = TavlaEntryForm("tavla", params={"match_length": 3})
    qtbot.addWidget(form)
    choose(form.outcome, "game")
    choose(form.side, 0)
    form.kind.setCurrentIndex(form.kind.findData("backgammon"))
    assert form.submit()
    # rule T7c: backgammon x3 = 3 points: the match to 3 is won
    assert "won" in form.summary.text()
    assert not form.add_button.isEnabled()
    assert not form.submit()


def test_final_score_form(qtbot, active) -> None:  # type: ignore[no-untyped-def]
    got: list[tuple] = []
    form = FinalScoreForm(lambda s, p: got.append((s, p)), ("A", "B"))
    active(form)
    form.first_input().setFocus()
    qtbot.keyClick(focus(qtbot), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    type_text(qtbot, "2")
    key(qtbot, Qt.Key.Key_Tab)
    qtbot.keyClick(focus(qtbot), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    type_text(qtbot, "1")
    key(qtbot, Qt.Key.Key_Return)
    assert got == [((2, 1), None)]


def test_the_impossible_pip_field_is_framed_red(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = GapleEntryForm("gaple-tournament")
    qtbot.addWidget(form)
    choose(form.outcome, "out")
    choose(form.seat, 0)
    form.pips[2].setText("70")  # more than the 69 a hand can hold
    assert "b00020" in form.pips[2].styleSheet()
    assert form.pips[3].styleSheet() == ""
    form.pips[2].setText("7")
    assert form.pips[2].styleSheet() == ""


def test_enter_in_the_outcome_list_never_saves(qtbot, active) -> None:  # type: ignore[no-untyped-def]
    """Issue 20: letters typed into the outcome list as the form opens, then Enter, save nothing: Enter there
    takes the outcome and moves on; an outcome that is an entry by itself needs a confirming Enter."""
    saved: list[EntryChange] = []
    form = DominoEntryForm("domino-es", save=saved.append, side_names=("Home", "Away"))
    active(form)
    form.first_input().setFocus()
    type_text(qtbot, "b")  # block: closed hand
    key(qtbot, Qt.Key.Key_Return)
    assert saved == [] and focus(qtbot) is not form.outcome
    # "a" (annulled) Enter: asked to confirm; Enter again saves it (rule E15)
    form.first_input().setFocus()
    type_text(qtbot, "a")
    assert form.kind() == "annulled"
    key(qtbot, Qt.Key.Key_Return)
    assert saved == [] and "Enter again" in form.mode.text()
    key(qtbot, Qt.Key.Key_Return)
    assert len(saved) == 1 and saved[0].entry == {"type": "annulled", "lead_lost": False}


def test_final_score_form_saves_nothing_before_a_score_is_typed(qtbot, active) -> None:  # type: ignore[no-untyped-def]
    got: list[tuple] = []
    form = FinalScoreForm(lambda s, p: got.append((s, p)), ("A", "B"))
    active(form)
    form.first_input().setFocus()
    type_text(qtbot, "SR")  # initials typed into the form as it opens: not a score
    key(qtbot, Qt.Key.Key_Return)
    assert got == [] and "Type the score" in form.error.text()


def test_gaple_club_blocked_hand_names_the_caught_double_and_hints_b3(qtbot, active) -> None:  # type: ignore[no-untyped-def]
    # rule B6 (fine_in_block): in the club preset a blocked hand names who holds a caught 6-6; it is fined
    saved: list[EntryChange] = []
    form = GapleEntryForm("gaple-club", save=saved.append)
    active(form)
    # rule B3: before every hand, 0-0 and 6-6 may not lead
    assert "not led with 0-0 / 6-6; else the partner leads (B3)" in form.next_hint()
    entry = {"type": "block", "seat": 1, "pips": [20, 10, 12, 14], "dead": {"0-0": None, "6-6": 2}}
    form.load_entry(entry)
    assert form.dead66.isVisibleTo(form)
    assert form.read_entry() == entry
    assert form.submit()
    # 46 to pair B (seat 2 wins the duel), pair A fined 50 (B6)
    assert (cell(form, 0, COL_TOT_A), cell(form, 0, COL_TOT_B)) == (
        "\u221250",
        "46",
    )  # a true minus sign, as the printed sheet
    assert "not led with 0-0 / 6-6" in form.next_hint()  # the hint stands before the next hand too
    # the tournament preset (GS8) has no such field for a blocked hand
    t = GapleEntryForm("gaple-tournament")
    active(t)
    t.load_entry({"type": "block", "seat": 1, "pips": [20, 10, 12, 14]})
    assert not t.dead66.isVisibleTo(t)
    assert "B3" not in t.next_hint()


def test_tavla_import_match_file_previews_then_saves_entries(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # issue 19: a real match record (Gibbon FIBS client, tests/data/backgammon/README.md)
    from pathlib import Path

    data = Path(__file__).resolve().parents[1] / "data" / "backgammon"
    saved: list[EntryChange] = []
    form = TavlaEntryForm(
        "tavla", params={"match_length": 7}, save=saved.append, side_names=("ShowWhite", "JoeBlack")
    )
    qtbot.addWidget(form)
    shown: list[str] = []
    form.confirm_import = lambda text: shown.append(text) is not None  # cancel: nothing saved
    assert not form.import_match_file(data / "gibbon_complete.mat")
    assert saved == [] and form.entries == []
    # the file's left-hand player (JoeBlack) is this table's side 2: the sides are swapped
    assert "ShowWhite (side 1) – JoeBlack (side 2)" in shown[0] and "game 9: 5-6, side 2 wins 2" in shown[0]
    form.confirm_import = lambda text: True
    assert form.import_match_file(data / "gibbon_complete.mat")
    assert len(saved) == 1 and len(saved[0].entries) == 9
    assert form.result["score"] == [5, 7] and form.result["winner"] == 1
    # a 1-point record does not fit a 7-point table: refused, the sheet unchanged
    assert not form.import_match_file(data / "gnubg_roll_then_resign_1p.mat")
    assert "1-point" in form.error.text() and len(saved) == 1
    bad = tmp_path / "x.mat"
    bad.write_text("hello\n")
    assert not form.import_match_file(bad)
    assert "line 1" in form.error.text()


def test_ctrl_z_in_the_cube_field_undoes_the_game_not_the_typing(qtbot, active) -> None:  # type: ignore[no-untyped-def]
    """The form says "Undo last (Ctrl+Z)": in the cube field (a number field with its own undo) the key
    takes the last game off the sheet, and Ctrl+Shift+Z puts it back."""
    saved: list[EntryChange] = []
    form = TavlaEntryForm(
        "tavla", params={"match_length": 5}, save=saved.append, side_names=("Ayşe", "Mehmet")
    )
    active(form)
    form.load_entry({"type": "game", "winner": 0, "kind": "single", "cube": 2, "dropped": False})
    assert form.submit() and form.model.rowCount() == 1
    form.load_entry({"type": "game", "winner": 1, "kind": "single", "cube": 1, "dropped": False})
    form.cube.setFocus()
    form.cube.selectAll()
    type_text(qtbot, "4")  # typing in the cube field: the field's own undo would take this back
    assert form.cube.value() == 4
    qtbot.keyClick(focus(qtbot), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert form.model.rowCount() == 0 and saved[-1].action == "delete"
    qtbot.keyClick(
        focus(qtbot), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert form.model.rowCount() == 1 and (cell(form, 0, COL_TOT_A), cell(form, 0, COL_TOT_B)) == ("2", "0")


def test_the_gaple_seat_row_says_whose_seat_it_asks_for(qtbot) -> None:  # type: ignore[no-untyped-def]
    """No bare "Seat": the row names who it asks for with the outcome chosen, and each seat is its player or
    "seat 1" with its side's letter and pair."""
    form = GapleEntryForm(
        "gaple-tournament", side_names=("Budi Santoso / Agus Wijaya", "Sri Rahayu / Dewi Lestari")
    )
    qtbot.addWidget(form)
    label = form.inputs.labelForField(form.seat)
    for kind, words in (
        ("block", "&Blocked by"),
        ("out", "&Went out"),
        ("six_doubles", "Six doubles &held by"),
    ):
        choose(form.outcome, kind)
        assert label.text() == words
    choose(form.outcome, "block")
    assert form.submit() is False and form.error.text() == "Choose who blocked the game."
    assert [form.seat.itemText(k) for k in range(1, 3)] == [
        "1 — seat 1 (A · Budi Santoso / Agus Wijaya)",
        "2 — seat 2 (B · Sri Rahayu / Dewi Lestari)",
    ]
    named = GapleEntryForm(
        "gaple-tournament",
        side_names=("Budi Santoso / Agus Wijaya", "Sri Rahayu / Dewi Lestari"),
        seat_names=["Budi Santoso", "Sri Rahayu", "Agus Wijaya", "Dewi Lestari"],
    )
    qtbot.addWidget(named)
    assert named.seat.itemText(3) == "3 — Agus Wijaya (A · Budi Santoso / Agus Wijaya)"
