"""The tie-break order of an event (rule T12b): the codes the standings know, each with a short explanation;
Enter or Insert adds the highlighted code, Delete removes one, Ctrl+Up / Ctrl+Down move it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import N_, _
from clubdesk.standings.tiebreaks import TIEBREAK_CODES, TIEBREAK_NAMES

# A short explanation of each tie-break code (rule T12b and FIDE C.07), shown beside the code.
TIEBREAK_HELP: dict[str, str] = {
    "PTS": N_("match points; always first"),
    "DE": N_("the results among the tied entrants only"),
    "IAV": N_("the point difference in the games among the tied (ikili averaj)"),
    "GAV": N_("the point difference over all games (averaj)"),
    "BH": N_("the sum of the opponents' points"),
    "BH-C1": N_("Buchholz without the weakest opponent"),
    "BH-C2": N_("Buchholz without the two weakest opponents"),
    "BH-M1": N_("Buchholz without the strongest and the weakest opponent"),
    "SB": N_("the points of the opponents beaten, half of those drawn with"),
    "SB-C1": N_("Sonneborn-Berger without the weakest opponent"),
    "SB-C2": N_("Sonneborn-Berger without the two weakest opponents"),
    "PS": N_("the running score added up round by round"),
    "PS-C1": N_("the progressive score without the first round"),
    "WIN": N_("the number of wins"),
    "ARO": N_("the average rating of the opponents"),
}


def code_text(code: str) -> str:
    """ "BH — Buchholz: the sum of the opponents' points"."""
    return f"{code} — {_(TIEBREAK_NAMES.get(code, code))}: {_(TIEBREAK_HELP.get(code, ''))}"


class _Keys(QObject):
    """Keyboard of the tie-break lists: Enter/Insert adds, Delete removes, Ctrl+Up/Down moves."""

    def __init__(self, picker: TiebreakPicker, widget: QWidget, chosen: bool) -> None:
        super().__init__(widget)
        self.picker = picker
        self.chosen = chosen
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() != QEvent.Type.KeyPress:
            return False
        assert isinstance(event, QKeyEvent)
        key, ctrl = event.key(), bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if not self.chosen and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Insert):
            self.picker.add()
            return True
        if self.chosen and key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.picker.remove()
            return True
        if self.chosen and ctrl and key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self.picker.move(-1 if key == Qt.Key.Key_Up else 1)
            return True
        return False


class TiebreakPicker(QWidget):
    """The tie-break order: the ruleset's, or the codes chosen (points always first)."""

    def __init__(self) -> None:
        super().__init__()
        self.preset: tuple[str, ...] = ()
        self.use_preset = QCheckBox()
        self.use_preset.setObjectName("tiebreakPreset")
        self.use_preset.toggled.connect(self._follow)
        self.chosen = QListWidget()
        self.chosen.setObjectName("tiebreakOrder")
        self.available = QListWidget()
        self.available.setObjectName("tiebreakCodes")
        for lst in (self.chosen, self.available):
            lst.setFixedHeight(112)
            lst.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            lst.setTextElideMode(Qt.TextElideMode.ElideRight)
            lst.setUniformItemSizes(True)
            lst.currentItemChanged.connect(self._explain)
        self.add_button = QPushButton(_("&Add ›"))
        self.add_button.clicked.connect(self.add)
        self.remove_button = QPushButton(_("‹ Remo&ve"))
        self.remove_button.clicked.connect(self.remove)
        self.up_button = QPushButton(_("Up"))
        self.up_button.setToolTip(_("Ctrl+Up"))
        self.up_button.clicked.connect(lambda: self.move(-1))
        self.down_button = QPushButton(_("Down"))
        self.down_button.setToolTip(_("Ctrl+Down"))
        self.down_button.clicked.connect(lambda: self.move(1))
        _Keys(self, self.available, chosen=False)
        _Keys(self, self.chosen, chosen=True)
        self.explanation = QLabel("")
        self.explanation.setObjectName("tiebreakExplanation")
        self.explanation.setWordWrap(True)
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(QLabel(_("Order")), 0, 0)
        grid.addWidget(QLabel(_("Codes")), 0, 2)
        grid.addWidget(self.chosen, 1, 0)
        buttons = QVBoxLayout()
        for b in (self.add_button, self.remove_button, self.up_button, self.down_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        grid.addLayout(buttons, 1, 1)
        grid.addWidget(self.available, 1, 2)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(2, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.use_preset)
        layout.addLayout(grid)
        layout.addWidget(self.explanation)

    def set_codes(self, stored: str, preset: tuple[str, ...]) -> None:
        self.preset = preset
        self.use_preset.setText(
            _("The ruleset's order: {codes}").format(codes=", ".join(preset) if preset else "PTS")
        )
        codes = [c.strip().upper() for c in stored.split(",") if c.strip()]
        self.use_preset.setChecked(not codes)
        self._fill(codes or list(preset) or ["PTS"])
        self.explanation.setText(code_text(self.codes()[-1]))  # the last code's meaning, to start

    def _fill(self, codes: list[str]) -> None:
        if "PTS" not in codes:
            codes = ["PTS", *codes]
        codes = ["PTS", *[c for c in codes if c != "PTS"]]
        self.chosen.clear()
        for c in codes:
            item = QListWidgetItem(f"{c} — {_(TIEBREAK_NAMES.get(c, c))}")
            item.setData(Qt.ItemDataRole.UserRole, c)
            item.setToolTip(code_text(c))
            self.chosen.addItem(item)
        self.available.clear()
        for c in TIEBREAK_CODES:
            if c in codes:
                continue
            item = QListWidgetItem(f"{c} — {_(TIEBREAK_NAMES.get(c, c))}")
            item.setData(Qt.ItemDataRole.UserRole, c)
            item.setToolTip(code_text(c))
            self.available.addItem(item)
        self._follow()

    def codes(self) -> list[str]:
        return [str(self.chosen.item(i).data(Qt.ItemDataRole.UserRole)) for i in range(self.chosen.count())]

    def value(self) -> str:
        """What ``configure`` stores: "" for the ruleset's order, else "PTS,IAV,…"."""
        return "" if self.use_preset.isChecked() else ",".join(self.codes())

    def add(self) -> None:
        item = self.available.currentItem()
        if item is None or self.use_preset.isChecked() or not self.isEnabled():
            return
        code = str(item.data(Qt.ItemDataRole.UserRole))
        row = self.available.currentRow()
        self._fill([*self.codes(), code])
        self.available.setCurrentRow(min(row, self.available.count() - 1))
        self.chosen.setCurrentRow(self.chosen.count() - 1)
        self.changed()

    def remove(self) -> None:
        row = self.chosen.currentRow()
        if row <= 0 or self.use_preset.isChecked() or not self.isEnabled():
            return  # points stay first
        codes = self.codes()
        del codes[row]
        self._fill(codes)
        self.chosen.setCurrentRow(min(row, self.chosen.count() - 1))
        self.changed()

    def move(self, step: int) -> None:
        row = self.chosen.currentRow()
        to = row + step
        if row <= 0 or to <= 0 or to >= self.chosen.count() or self.use_preset.isChecked():
            return  # points stay first
        if not self.isEnabled():
            return
        codes = self.codes()
        codes[row], codes[to] = codes[to], codes[row]
        self._fill(codes)
        self.chosen.setCurrentRow(to)
        self.changed()

    def changed(self) -> None:
        """Overridden by the screen (dirty state)."""

    def _follow(self, *_args: object) -> None:
        own = not self.use_preset.isChecked()
        if not own:
            self._fill_preset_view()
        for w in (self.chosen, self.available, self.add_button, self.remove_button):
            w.setEnabled(own)
        self.up_button.setEnabled(own)
        self.down_button.setEnabled(own)
        self.changed()

    def _fill_preset_view(self) -> None:
        preset = list(self.preset) or ["PTS"]
        if self.codes() != preset and self.chosen.count():
            self.use_preset.blockSignals(True)
            self._fill(preset)
            self.use_preset.blockSignals(False)

    def _explain(self, current: QListWidgetItem | None, *_args: object) -> None:
        if current is not None:
            self.explanation.setText(code_text(str(current.data(Qt.ItemDataRole.UserRole))))
