"""What every entry form shares: the running sheet, live preview through the rules engine, inline errors,
undo of the last entry (QUndoStack) and correction of any earlier one.

The form holds a list of entries (the source of truth) and calls ``save(change)`` for every change as it is
made, so a service can store each hand as it is entered (a crash loses nothing). When ``save`` raises, the
change is not made and the message is shown inline.

Keyboard: the inputs in Tab order, Enter adds the entry (or replaces the one being corrected), Ctrl+Z undoes
the last change, Ctrl+Shift+Z redoes it, F6 moves to the sheet, where Enter corrects the selected entry and
Delete removes it; Esc cancels a correction.

No accidental entries: the outcome, the seat and the side start with no choice, so nothing is saved until
the scorer has chosen them; Enter in the outcome list only takes the outcome and moves on (it never saves);
an outcome that needs nothing else (a redeal, an annulled hand, a forfeit ...) asks for a second Enter
before it is saved (Esc, or any change, cancels).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QResizeEvent, QUndoStack
from PySide6.QtWidgets import (
    QBoxLayout,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clubdesk.games import EntryError, RulesetError, load_ruleset, replay
from clubdesk.games.words import describe_entry
from clubdesk.i18n import _
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.night.score_entry.entries import (
    CorrectionCheck,
    Entry,
    EntryChange,
    InputProblem,
    SaveCallback,
    entry_message,
)
from clubdesk.ui.night.score_entry.sheet_keys import SheetKeys
from clubdesk.ui.night.score_entry.undo import EntryCommand
from clubdesk.ui.night.sheet_model import SheetModel, SheetRow, sheet_rows, sheet_view
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.widgets.fit import fit_combo, fit_combos


class SheetEntryForm(SheetKeys):
    """Base class of the per-family forms. Subclasses build the inputs and read/load one entry."""

    entriesChanged = Signal()

    family = ""
    # entries that need nothing but their outcome: saved only after a second, confirming Enter
    CONFIRM_KINDS: frozenset[str] = frozenset()

    def __init__(
        self,
        ruleset: str,
        entries: Sequence[Mapping[str, Any]] = (),
        params: Mapping[str, object] | None = None,
        save: SaveCallback | None = None,
        side_names: Sequence[str] = (),
        seat_names: Sequence[str] | None = None,
        confirm_correction: CorrectionCheck | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ruleset = ruleset
        self.rules = load_ruleset(ruleset, dict(params) if params else None)
        self.params = dict(params) if params else None
        self.save = save
        self.confirm_correction = confirm_correction
        self.side_names = tuple(side_names) or (_("Side A"), _("Side B"))
        self.seat_names = list(seat_names) if seat_names else None
        self._entries: list[Entry] = [dict(e) for e in entries]
        self._replayed: tuple[str, dict[str, Any]] | None = None  # the last sheet replayed, by its entries
        self.result: dict[str, Any] = self._replay(self._entries)
        self.correcting: int | None = None
        # when the result is already confirmed, every change (not only corrections) goes through the check
        self.check_every_change = False
        self.undo_stack = QUndoStack(self)
        self.armed: Entry | None = None  # the entry waiting for its confirming Enter

        self.title = QLabel()
        self.title.setObjectName("formTitle")
        self.title.setStyleSheet("font-size: 13pt; font-weight: 600;")
        self.hint = QLabel()
        self.hint.setObjectName("nextHint")
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet(themed("color: #1e3a8a;"))
        self.inputs = QFormLayout()
        self.inputs.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        self.preview = QLabel()
        self.preview.setObjectName("preview")
        self.preview.setWordWrap(True)
        self.preview.setStyleSheet(themed("color: #14532d;"))
        self.error = QLabel()
        self.error.setObjectName("entryError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet(themed("color: #b00020; font-weight: 600;"))
        self.error.setVisible(False)
        self.mode = QLabel()
        self.mode.setObjectName("mode")
        self.mode.setStyleSheet(themed("background: #fef3c7; padding: 3px;"))
        self.mode.setVisible(False)
        self.add_button = QPushButton(_("Add (Enter)"))
        self.add_button.setObjectName("addEntry")
        self.add_button.clicked.connect(self.submit)
        self.add_button.setAutoDefault(False)
        self.undo_button = QPushButton(_("Undo last (Ctrl+Z)"))
        self.undo_button.setObjectName("undoEntry")
        self.undo_button.clicked.connect(self.undo_stack.undo)
        self.undo_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.undo_stack.canUndoChanged.connect(self.undo_button.setEnabled)
        self.undo_button.setEnabled(False)

        self.model = SheetModel(self.side_names, self.family)
        self.view = sheet_view(self.model)
        self.view.installEventFilter(self)

        self.summary = QLabel()
        self.summary.setObjectName("summary")
        self.summary.setWordWrap(True)
        self.summary.setStyleSheet("font-size: 14pt; font-weight: 700;")

        left = QVBoxLayout()
        left.addWidget(self.title)
        left.addWidget(self.hint)
        left.addWidget(self.mode)
        left.addLayout(self.inputs)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.undo_button)
        buttons.addStretch(1)
        left.addLayout(buttons)
        left.addWidget(self.error)
        left.addWidget(self.preview)
        left.addStretch(1)
        left_w = QWidget()
        left_w.setLayout(left)
        left_w.setMaximumWidth(430)
        right = QVBoxLayout()
        right.addWidget(self.summary)
        right.addWidget(self.view, 1)
        self.row_explanation = QLabel()
        self.row_explanation.setObjectName("rowExplanation")
        self.row_explanation.setWordWrap(True)
        right.addWidget(self.row_explanation)
        self.view.selectionModel().currentRowChanged.connect(lambda cur, _p: self._explain_row(cur.row()))
        # side by side when there is room, the sheet under the inputs when not (a 1366-pixel laptop)
        layout = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        layout.addWidget(left_w)
        layout.addLayout(right, 1)
        self.box = layout

        for text, keys, slot in (
            (_("Undo"), ("Ctrl+Z",), self.undo_stack.undo),
            (_("Redo"), ("Ctrl+Shift+Z", "Ctrl+Y"), self.undo_stack.redo),
        ):
            action = QAction(text, self)
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(slot)
            self.addAction(action)
        to_sheet = QAction(_("Go to the sheet"), self)
        to_sheet.setShortcut(QKeySequence("F6"))
        to_sheet.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        to_sheet.triggered.connect(self.focus_sheet)
        self.addAction(to_sheet)

        self.build_inputs()
        first = self.first_input()
        if isinstance(first, QComboBox):
            fit_combo(first, 24)  # the outcome list says what to type
        fit_combos(self)
        self.chain_tab_order()
        self.undo_from_every_input()
        self._refresh()

    STACK_BELOW = 760  # narrower than this (pixels), the sheet goes under the inputs

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        wide = event.size().width() >= self.STACK_BELOW
        direction = QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom
        if self.box.direction() != direction:
            self.box.setDirection(direction)
        super().resizeEvent(event)

    # ------------------------------------------------------------------ for subclasses
    def build_inputs(self) -> None:
        raise NotImplementedError

    def read_entry(self) -> Entry:
        """The entry the inputs describe; raises InputProblem for input that cannot be read."""
        raise NotImplementedError

    def load_entry(self, entry: Mapping[str, Any]) -> None:
        """Put an entry back into the inputs (to correct it)."""
        raise NotImplementedError

    def clear_inputs(self) -> None:
        raise NotImplementedError

    def first_input(self) -> QWidget:
        raise NotImplementedError

    def next_hint(self) -> str:
        """What the sheet needs next (leader, Crawford ...), from the engine's result."""
        return ""

    def summary_text(self) -> str:
        return ""

    def watch(self, *widgets: QWidget) -> None:
        """Recompute the live preview whenever one of these inputs changes."""
        for w in widgets:
            for name in ("textChanged", "currentIndexChanged", "toggled", "valueChanged"):
                sig = getattr(w, name, None)
                if sig is not None and hasattr(sig, "connect"):
                    sig.connect(self._input_changed)
                    break

    def _input_changed(self, *_args: object) -> None:
        self.disarm()
        self._preview()

    def confirm_text(self, entry: Entry) -> str:
        """What the confirming Enter will save, in words (the sheet's own wording)."""
        return describe_entry(entry, self.side_names, self.seat_names)

    def needs_nothing_else(self) -> bool:
        """The chosen outcome is an entry by itself (a redeal ...): Enter asks for the confirming one."""
        try:
            entry = self.read_entry()
        except InputProblem:
            return False
        return entry.get("type") in self.CONFIRM_KINDS

    def arm(self, entry: Entry) -> None:
        self.armed = dict(entry)
        self.mode.setText(
            _("Save “{what}”? Press Enter again to save it, Esc to cancel.").format(
                what=self.confirm_text(entry)
            )
        )
        self.mode.setVisible(True)

    def disarm(self) -> None:
        if self.armed is None:
            return
        self.armed = None
        if self.correcting is not None:
            self.mode.setText(
                _("Correcting entry {n}: Enter replaces it, Esc cancels.").format(n=self.correcting + 1)
            )
        else:
            self.mode.setVisible(False)

    # ------------------------------------------------------------------ state
    @property
    def entries(self) -> list[Entry]:
        return [dict(e) for e in self._entries]

    def _replay(self, entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The engine's result (a pure function of ruleset, parameters and entries); the last one is kept:
        a hand's fields each preview the same sheet, and its Enter checks and shows it again."""
        key = repr(list(entries))  # a snapshot: 0 is not False, a tuple not a list
        if self._replayed is not None and self._replayed[0] == key:
            return self._replayed[1]
        result = replay(self.ruleset, list(entries), self.params)
        self._replayed = (key, result)
        return result

    def rows(self) -> list[SheetRow]:
        return sheet_rows(self.family, self._entries, self.result, self.side_names, self.seat_names)

    def finished(self) -> bool:
        return bool(self.result.get("finished"))

    def set_entries(self, entries: list[Entry]) -> None:
        self._entries = [dict(e) for e in entries]
        self.result = self._replay(self._entries)
        self._refresh()
        self.entriesChanged.emit()

    def apply_entries(self, entries: list[Entry], change: EntryChange) -> None:
        """Undo/redo: save the change, then show it (a refused save leaves the sheet as it was)."""
        try:
            self._replay(entries)
            if self.save is not None:
                self.save(EntryChange(change.action, change.index, change.entry, tuple(entries)))
        except (EntryError, RulesetError, ServiceError, ValueError) as exc:
            self.show_error(entry_message(exc))
            return
        self.set_entries(entries)

    def _refresh(self) -> None:
        self.model.set_rows(self.rows())
        self.view.selectionModel().reset()  # as on a sheet built anew: Enter or Delete acts on a row chosen
        if self.model.rowCount():
            self.view.scrollToBottom()
            self._explain_row(self.model.rowCount() - 1)
        self.hint.setText(self.next_hint())
        self.summary.setText(self.summary_text())
        done = self.finished() and self.correcting is None
        self.add_button.setEnabled(not done)
        self._preview()

    def _explain_row(self, row: int) -> None:
        rows = self.model.rows
        if 0 <= row < len(rows):
            r = rows[row]
            self.row_explanation.setText(_("Entry {n}: {text}").format(n=r.index + 1, text=r.explanation))

    def mark_error(self, exc: EntryError | None) -> None:
        """Point at the input behind an engine error (subclasses)."""

    # ------------------------------------------------------------------ live preview and errors
    def show_error(self, message: str | None) -> None:
        self.error.setText(message or "")
        self.error.setVisible(bool(message))

    def _candidate(self) -> tuple[list[Entry], EntryChange]:
        entry = self.read_entry()
        entries = list(self._entries)
        if self.correcting is None:
            entries.append(entry)
            return entries, EntryChange("append", len(entries) - 1, entry, tuple(entries))
        entries[self.correcting] = entry
        return entries, EntryChange("replace", self.correcting, entry, tuple(entries))

    def _preview(self, *_args: object) -> None:
        if self.finished() and self.correcting is None:
            self.preview.setText(_("The match is over. Select an entry in the sheet (F6) to correct it."))
            self.show_error(None)
            return
        try:
            entries, change = self._candidate()
            result = self._replay(entries)
        except InputProblem as exc:
            if exc.pending:  # a choice still to be made: said in the preview, not as an error
                self.preview.setText(exc.message)
                self.show_error(None)
                self.mark_error(None)
                return
            self.preview.setText("")
            self.show_error(exc.message)
            return
        except EntryError as exc:
            self.preview.setText("")
            self.show_error(entry_message(exc))
            self.mark_error(exc)
            return
        self.show_error(None)
        self.mark_error(None)
        rows = sheet_rows(self.family, entries, result, self.side_names, self.seat_names)
        row = rows[change.index] if change.index < len(rows) else None
        if row is None:
            self.preview.setText("")
            return
        self.preview.setText(
            _("This entry: {explanation} → {a} {ta}, {b} {tb}").format(
                explanation=row.explanation,
                a=self.side_names[0],
                ta=row.totals[0],
                b=self.side_names[1],
                tb=row.totals[1],
            )
        )

    # ------------------------------------------------------------------ actions
    def submit(self) -> bool:
        """Add the entry (or replace the one being corrected). False, with the reason shown, when refused."""
        if self.finished() and self.correcting is None:
            self.show_error(_("The match is over: nothing more can be added."))
            return False
        try:
            entries, change = self._candidate()
            self._replay(entries)
        except InputProblem as exc:
            self.show_error(exc.message)
            if exc.widget is not None:
                exc.widget.setFocus()
            return False
        except EntryError as exc:
            self.show_error(entry_message(exc))
            return False
        entry = dict(change.entry or {})
        if entry.get("type") in self.CONFIRM_KINDS and self.armed != entry:
            self.arm(entry)  # nothing is saved from a single keystroke
            return False
        self.disarm()
        if (change.action == "replace" or self.check_every_change) and self.confirm_correction is not None:
            if not self.confirm_correction(entries):
                return False
        before = list(self._entries)
        try:
            if self.save is not None:
                self.save(change)
        except (ServiceError, ValueError, RulesetError) as exc:
            self.show_error(entry_message(exc))
            return False
        if change.action == "append":
            inverse = EntryChange("delete", change.index, None, tuple(before))
            text = _("add entry {n}").format(n=change.index + 1)
        else:
            old = before[change.index]
            inverse = EntryChange("replace", change.index, old, tuple(before))
            text = _("correct entry {n}").format(n=change.index + 1)
        self.undo_stack.push(EntryCommand(self, before, entries, change, inverse, text))
        self.cancel_correction()
        self.clear_inputs()
        self.first_input().setFocus()
        return True

    def delete_entry(self, k: int) -> bool:
        if not 0 <= k < len(self._entries):
            return False
        before = list(self._entries)
        entries = before[:k] + before[k + 1 :]
        try:
            self._replay(entries)
        except EntryError as exc:
            self.show_error(entry_message(exc))
            return False
        if (
            k < len(before) - 1
            and self.confirm_correction is not None
            and not self.confirm_correction(entries)
        ):
            return False
        change = EntryChange("delete", k, None, tuple(entries))
        try:
            if self.save is not None:
                self.save(change)
        except (ServiceError, ValueError, RulesetError) as exc:
            self.show_error(entry_message(exc))
            return False
        inverse = EntryChange("insert", k, before[k], tuple(before))
        self.undo_stack.push(
            EntryCommand(self, before, entries, change, inverse, _("delete entry {n}").format(n=k + 1))
        )
        return True

    def start_correction(self, k: int) -> None:
        if not 0 <= k < len(self._entries):
            return
        self.disarm()
        self.correcting = k
        self.load_entry(self._entries[k])
        self.mode.setText(_("Correcting entry {n}: Enter replaces it, Esc cancels.").format(n=k + 1))
        self.mode.setVisible(True)
        self.add_button.setText(_("Replace (Enter)"))
        self.add_button.setEnabled(True)
        self.first_input().setFocus()
        self._preview()

    def cancel_correction(self) -> None:
        self.disarm()
        if self.correcting is None:
            return
        self.correcting = None
        self.mode.setVisible(False)
        self.add_button.setText(_("Add (Enter)"))
        self.clear_inputs()
        self._refresh()

    def focus_sheet(self) -> None:
        self.view.setFocus()
        if self.model.rowCount() and not self.view.currentIndex().isValid():
            self.view.selectRow(self.model.rowCount() - 1)
