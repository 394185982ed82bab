"""Game-by-game entry for tavla (seed 003): winner, single/gammon/backgammon, cube, drop; the Crawford game is
marked on the sheet and announced before it is played (rule T7b); penalties (game loss, T9d) and forfeits
(T9a, T8b).

Keyboard: the outcome (G game, L game loss, F forfeit), Tab, the side (type 1 or 2), Tab, the kind (S single,
G gammon, B backgammon), Tab, the cube as players say it ("doubled to 4"; 1 is no double), Tab, Space when
the double was refused (the field then reads "refused a double to 4"), Enter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QCheckBox, QFileDialog, QMessageBox, QPushButton, QSpinBox, QWidget

from clubdesk.games import EntryError, RulesetError
from clubdesk.i18n import _
from clubdesk.services.kernel import ServiceError
from clubdesk.services.night import read_match_file, swapped
from clubdesk.ui.night.score_entry.base import SheetEntryForm
from clubdesk.ui.night.score_entry.entries import Entry, EntryChange, add_no_choice, chosen
from clubdesk.ui.night.score_entry.keys import KeyCombo
from clubdesk.ui.shell.theme import themed


class TavlaEntryForm(SheetEntryForm):
    family = "tavla"
    CONFIRM_KINDS = frozenset({"forfeit"})

    def build_inputs(self) -> None:
        self.title.setText(_("Tavla: game by game"))
        self.outcome = KeyCombo()
        self.outcome.setObjectName("outcome")
        for code, label in (
            ("game", _("Game played")),
            ("game_loss", _("Loss of a game: penalty (T9d)")),
            ("forfeit", _("Forfeit")),
        ):
            self.outcome.addItem(label, code)
        add_no_choice(self.outcome, _("choose: type a letter"))
        self.side = KeyCombo()
        self.side.setObjectName("side")
        for s in (0, 1):
            self.side.addItem(f"{s + 1} — {self.side_names[s]}", s)
        add_no_choice(self.side, _("type the side 1 or 2"))
        self.kind = KeyCombo()
        self.kind.setObjectName("kind")
        for code, label in (
            ("single", _("single (x1)")),
            ("gammon", _("gammon / mars (x2)")),
            ("backgammon", _("backgammon / üç mars (x3)")),
        ):
            self.kind.addItem(label, code)
        # the cube as players say it, as on the phones: "doubled to N" (1: no double) or, with the drop
        # ticked, "refused a double to N"; the entry stores the cube the game is lost at (T7a: N / 2)
        self.cube = QSpinBox()
        self.cube.setObjectName("cube")
        self.cube.setRange(1, 64)
        self.cube.setValue(1)
        self.cube.setSpecialValueText(_("no double"))
        self.dropped = QCheckBox(_("the double was &refused"))
        self.dropped.setObjectName("dropped")
        self.dropped.setToolTip(
            _("The loser refused a double: the game ends at the cube's value before the double (T7a).")
        )
        self.reason = KeyCombo()
        self.reason.setObjectName("reason")
        for code, label in (
            ("absent", _("absent: match length–0 (T9a)")),
            ("time", _("out of time (T8b)")),
            ("penalty", _("match loss penalty (T9d)")),
        ):
            self.reason.addItem(label, code)
        self.inputs.addRow(_("&Outcome"), self.outcome)
        self.inputs.addRow(_("&Winner"), self.side)
        self.inputs.addRow(_("&Kind"), self.kind)
        self.inputs.addRow(_("&Doubled to"), self.cube)
        self.inputs.addRow("", self.dropped)
        self.inputs.addRow(_("&Reason"), self.reason)
        self.outcome.currentIndexChanged.connect(self._outcome_changed)
        self.cube.valueChanged.connect(self._drop_wording)
        self.dropped.toggled.connect(self._drop_wording)
        self.watch(self.outcome, self.side, self.kind, self.cube, self.dropped, self.reason)
        self._drop_wording()
        self._outcome_changed()
        # a match record written by backgammon software (.mat), previewed, then saved as entries
        self.import_button = QPushButton(_("Import match file…"))
        self.import_button.setObjectName("importMatchFile")
        self.import_button.setAutoDefault(False)
        self.import_button.clicked.connect(self._choose_match_file)
        self.inputs.addRow("", self.import_button)
        # asked with the preview text before the games are saved; tests replace it
        self.confirm_import: Callable[[str], bool] = self._ask_import

    def _drop_wording(self, *_args: object) -> None:
        """The cube in the words of the table: "doubled to N", or "refused a double to N" (a refused
        double is to 2 at least); the entry stores the cube before the double (rule T7a)."""
        dropped = self.dropped.isChecked()
        self.cube.setMinimum(2 if dropped else 1)
        label = self.inputs.labelForField(self.cube)
        if label is not None and hasattr(label, "setText"):
            label.setText(_("Refused a double &to") if dropped else _("&Doubled to"))

    def _outcome_changed(self, *_args: object) -> None:
        k = str(self.outcome.currentData())
        label = self.inputs.labelForField(self.side)
        if label is not None and hasattr(label, "setText"):
            label.setText(_("&Loser") if k == "game_loss" else _("&Winner"))
        for widget, visible in (
            (self.kind, k == "game"),
            (self.cube, k == "game"),
            (self.dropped, k == "game"),
            (self.reason, k == "forfeit"),
        ):
            self.inputs.setRowVisible(widget, visible)

    def first_input(self) -> QWidget:
        return self.outcome

    # ------------------------------------------------------------------ match files
    def _choose_match_file(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, _("Import match file"), "", _("Match files (*.mat *.txt);;All files (*)")
        )
        if path:
            self.import_match_file(Path(path))

    def _ask_import(self, text: str) -> bool:
        answer = QMessageBox.question(self, _("Import match file"), text)
        return answer == QMessageBox.StandardButton.Yes

    def import_match_file(self, path: Path) -> bool:
        """Read a match file, show its games and save them as this sheet's entries when accepted.
        False (with the reason shown) when refused or cancelled; the sheet is then as it was."""

        params = self.rules.params
        try:
            rec = read_match_file(path, crawford=params.crawford)
        except ServiceError as exc:
            self.show_error("\n".join([exc.message, *exc.details]))  # every bad line with its number
            return False
        if rec.match_length != params.match_length:
            self.show_error(
                _("{f} is a {n}-point match; this table plays {m} points.").format(
                    f=path.name, n=rec.match_length, m=params.match_length
                )
            )
            return False
        if rec.begins_mid_match:
            a, b = rec.start_scores[0]
            self.show_error(
                _("{f} begins at {a}-{b}, not 0-0: enter the earlier games by hand.").format(
                    f=path.name, a=a, b=b
                )
            )
            return False
        # the file's left-hand player is side 1 unless his name is the other side's
        swap = rec.players[0] == self.side_names[1] and rec.players[1] != self.side_names[1]
        entries: list[Entry] = swapped(rec.entries) if swap else [dict(e) for e in rec.entries]
        names = (rec.players[1], rec.players[0]) if swap else rec.players
        lines = [
            _("{a} (side 1) – {b} (side 2), {n}-point match").format(
                a=names[0], b=names[1], n=rec.match_length
            )
        ]
        for i, g in enumerate(rec.games, start=1):
            start = (g.start[1], g.start[0]) if swap else g.start
            winner = 1 - g.winner if swap else g.winner
            lines.append(
                _("game {i}: {x}-{y}, side {w} wins {p} (cube {c})").format(
                    i=i, x=start[0], y=start[1], w=winner + 1, p=g.points, c=g.cube
                )
                + ("  " + _("(Crawford)") if g.crawford else "")
            )
        if self._entries:
            lines.append(_("This replaces the {n} entries on the sheet.").format(n=len(self._entries)))
        lines.append(_("Save these {n} games as the sheet?").format(n=len(entries)))
        try:
            self._replay(entries)
        except EntryError as exc:
            self.show_error(str(exc))
            return False
        if not self.confirm_import("\n".join(lines)):
            return False
        try:
            if self.save is not None:
                self.save(EntryChange("replace", 0, None, tuple(entries)))
        except (ServiceError, ValueError, RulesetError) as exc:
            self.show_error(getattr(exc, "message", None) or str(exc))
            return False
        self.show_error(None)
        self.set_entries(entries)
        return True

    def read_entry(self) -> Entry:
        k = str(chosen(self.outcome, _("the outcome (type its first letter)")))
        side = int(chosen(self.side, _("the loser") if k == "game_loss" else _("the winner")))
        if k == "game_loss":
            return {"type": "game_loss", "loser": side}
        if k == "forfeit":
            return {"type": "forfeit", "winner": side, "reason": str(self.reason.currentData())}
        return {
            "type": "game",
            "winner": side,
            "kind": str(self.kind.currentData()),
            "cube": self.cube.value() // 2 if self.dropped.isChecked() else self.cube.value(),
            "dropped": self.dropped.isChecked(),
        }

    def load_entry(self, entry: Mapping[str, Any]) -> None:
        self.outcome.setCurrentIndex(max(0, self.outcome.findData(entry.get("type"))))
        side = entry.get("loser") if entry.get("type") == "game_loss" else entry.get("winner")
        self.side.setCurrentIndex(max(0, self.side.findData(side)))
        self.kind.setCurrentIndex(max(0, self.kind.findData(entry.get("kind", "single"))))
        cube = entry.get("cube", 1)
        cube = int(cube) if isinstance(cube, int) else 1
        self.dropped.setChecked(bool(entry.get("dropped")))
        self.cube.setValue(cube * 2 if entry.get("dropped") else cube)  # the double refused (T7a)
        self.reason.setCurrentIndex(max(0, self.reason.findData(entry.get("reason", "absent"))))

    def clear_inputs(self) -> None:
        # every game starts from no choice: nothing is saved from what the last game left
        self.outcome.setCurrentIndex(0)
        self.side.setCurrentIndex(0)
        self.kind.setCurrentIndex(0)
        self.cube.setValue(1)
        self.dropped.setChecked(False)

    def crawford_next(self) -> bool:
        return bool(self.result.get("crawford_next")) and not self.finished()

    def next_hint(self) -> str:
        if self.finished():
            return _("The match is over.")
        length = self.rules.params.match_length
        text = _("Match to {n} points.").format(n=length)
        if self.crawford_next():
            # rule T7b: the Crawford game is played without the cube
            text += " " + _("Next game is the CRAWFORD game: no cube (T7b).")
        return text

    def _refresh(self) -> None:
        super()._refresh()
        crawford = self.crawford_next()
        self.hint.setStyleSheet(
            themed(
                "color: #92400e; font-weight: 700; background: #fff4d6; padding: 3px;"
                if crawford
                else "color: #1e3a8a;"
            )
        )

    def summary_text(self) -> str:
        score = self.result.get("score", [0, 0])
        a, b = self.side_names
        if self.result.get("winner") is not None:
            return _("Match won by {side}: {x}–{y}").format(
                side=self.side_names[int(self.result["winner"])], x=score[0], y=score[1]
            )
        return f"{a} {score[0]} – {score[1]} {b}"
