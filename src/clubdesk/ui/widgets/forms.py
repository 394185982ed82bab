"""Small form helpers: a field with its error shown right below it; Enter that acts in its own field."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLabel, QMessageBox, QVBoxLayout, QWidget

from clubdesk.ui.shell.theme import themed


class FieldWithError(QWidget):
    """Wraps an input widget and a red message under it (empty when the value is fine)."""

    def __init__(self, field: QWidget) -> None:
        super().__init__()
        self.field = field
        self.error = QLabel("")
        self.error.setStyleSheet(themed("color: #b00020;"))
        self.error.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(field)
        layout.addWidget(self.error)

    def set_error(self, message: str | None) -> None:
        self.error.setText(message or "")
        self.error.setVisible(bool(message))


class EnterActs(QObject):
    """Enter in ``field`` runs the field's own action and goes no further: a dialog's default button or a
    wizard's Next is never pressed by the same keystroke. While ``when()`` is false (an empty field, say)
    Enter goes on as usual."""

    def __init__(
        self, field: QWidget, action: Callable[[], object], when: Callable[[], bool] | None = None
    ) -> None:
        super().__init__(field)
        self.action = action
        self.when = when
        field.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (self.when is None or self.when()):
                self.action()
                return True
        return super().eventFilter(watched, event)


def ask_save_discard(parent: QWidget, question: str) -> QMessageBox.StandardButton:
    """Save, Discard or Cancel for a form's unsaved edits (Save preselected)."""
    from clubdesk.i18n import _

    return QMessageBox.question(
        parent,
        _("Unsaved changes"),
        question,
        QMessageBox.StandardButton.Save
        | QMessageBox.StandardButton.Discard
        | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Save,
    )


def may_leave(dirty: bool, ask: Callable[[], QMessageBox.StandardButton], save: Callable[[], bool]) -> bool:
    """True when a form may be replaced: nothing unsaved, saved now, or discarded by choice."""
    if not dirty:
        return True
    answer = ask()
    if answer == QMessageBox.StandardButton.Save:
        return save()
    return answer == QMessageBox.StandardButton.Discard
