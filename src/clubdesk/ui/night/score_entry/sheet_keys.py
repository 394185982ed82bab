"""The keyboard of an entry form: Tab through the inputs in row order, then Add, then the sheet; Enter in the
outcome list goes on to the next input (it never saves), Enter elsewhere adds the entry; Esc cancels a pending
confirmation or a correction; on the sheet, Enter corrects the selected entry and Delete removes it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QFormLayout,
    QLineEdit,
    QPushButton,
    QTableView,
    QWidget,
)

from clubdesk.ui.night.score_entry.entries import (
    Entry,
)

# Ctrl+Z and Ctrl+Shift+Z / Ctrl+Y undo and redo the sheet's last change from every input of the form: the
# form says "Undo last (Ctrl+Z)", so a text or number field's own undo of the typing does not take the key
UNDO_KEYS = tuple(QKeySequence(k) for k in ("Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+Y"))


def undo_key(event: QKeyEvent) -> bool:
    combo = QKeySequence(event.keyCombination())
    return any(combo.matches(k) == QKeySequence.SequenceMatch.ExactMatch for k in UNDO_KEYS)


class SheetKeys(QWidget):
    """The keys of an entry form (``SheetEntryForm`` in ``score_entry/base.py`` provides what they act on)."""

    inputs: QFormLayout
    add_button: QPushButton
    view: QTableView
    correcting: int | None
    armed: Entry | None

    def first_input(self) -> QWidget:
        raise NotImplementedError

    def needs_nothing_else(self) -> bool:
        raise NotImplementedError

    def submit(self) -> bool:
        raise NotImplementedError

    def disarm(self) -> None:
        raise NotImplementedError

    def cancel_correction(self) -> None:
        raise NotImplementedError

    def start_correction(self, k: int) -> None:
        raise NotImplementedError

    def delete_entry(self, k: int) -> bool:
        raise NotImplementedError

    def chain_tab_order(self) -> None:
        """Tab goes through the inputs in row order, then the Add button, then the sheet."""
        chain = self.tab_chain()
        for a, b in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(a, b)

    def undo_from_every_input(self) -> None:
        """The fields' own undo gives way to the sheet's (see :data:`UNDO_KEYS`)."""
        for w in self.findChildren(QWidget):
            if isinstance(w, (QLineEdit, QAbstractSpinBox)):
                w.installEventFilter(self)

    def tab_chain(self) -> list[QWidget]:
        chain: list[QWidget] = []
        for row in range(self.inputs.rowCount()):
            item = self.inputs.itemAt(row, QFormLayout.ItemRole.FieldRole)
            w = item.widget() if item is not None else None
            if w is None:
                continue
            inner = [c for c in w.findChildren(QWidget) if c.focusPolicy() & Qt.FocusPolicy.TabFocus]
            chain.extend(inner if w.focusPolicy() == Qt.FocusPolicy.NoFocus and inner else [w])
        return [*chain, self.add_button]

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: A002, N802 - Qt API
        """Tab and Shift+Tab stay in the form's own order (inputs in row order), wherever it is placed."""
        chain = [w for w in self.tab_chain() if w.isVisibleTo(self) and w.isEnabled()]
        current = QApplication.focusWidget()
        if current in chain:
            j = chain.index(current) + (1 if next else -1)
            if 0 <= j < len(chain):
                reason = Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason
                chain[j].setFocus(reason)
                return True
        return super().focusNextPrevChild(next)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not self.view.hasFocus():
            on_outcome = self.first_input().hasFocus() and self.correcting is None and self.armed is None
            if on_outcome and not self.needs_nothing_else():
                # Enter in the outcome list takes the outcome and goes on to the next input; it never
                # saves: letters typed as the form opens (initials typed again ...) save nothing
                self.focusNextPrevChild(True)
                return
            self.submit()
            return
        if event.key() == Qt.Key.Key_Escape and self.armed is not None:
            self.disarm()
            return
        if event.key() == Qt.Key.Key_Escape and self.correcting is not None:
            self.cancel_correction()
            return
        super().keyPressEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and isinstance(watched, (QLineEdit, QAbstractSpinBox))
            and undo_key(event)
        ):
            event.ignore()  # not the field's: the form's Undo/Redo action takes the key
            return True
        if watched is self.view and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            row = self.view.currentIndex().row()
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and row >= 0:
                self.start_correction(row)
                return True
            if event.key() == Qt.Key.Key_Delete and row >= 0:
                self.delete_entry(row)
                return True
            if event.key() == Qt.Key.Key_Escape:
                self.first_input().setFocus()
                return True
        return super().eventFilter(watched, event)
