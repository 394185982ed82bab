"""The match act's dialogs share one shape: a form, an error line and Save/Cancel; a spin box whose
minimum means "not given".
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from clubdesk.services.kernel import ServiceError
from clubdesk.ui.widgets.rows import set_message


def spin_box(value: int | None, minimum: int = 0, maximum: int = 999, none_text: str = "") -> QSpinBox:
    box = QSpinBox()
    box.setRange(minimum, maximum)
    if none_text:
        box.setSpecialValueText(none_text)
    box.setValue(value if value is not None else minimum)
    return box


def optional_value(box: QSpinBox) -> int | None:
    """A spin box whose minimum means "not given"."""
    return None if box.value() == box.minimum() and box.specialValueText() else box.value()


class FormDialog(QDialog):
    """A dialog with a form, an error line and OK/Cancel; ``submit`` does the service call."""

    def __init__(self, title: str, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.form = QFormLayout()
        self.error = QLabel()
        self.error.setObjectName("formError")
        self.error.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.result_view: Any = None

    def submit(self) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def save(self) -> None:
        try:
            self.result_view = self.submit()
        except ServiceError as exc:
            set_message(self.error, exc.message, ok=False)  # refused: nothing written, the form stays
            return
        self.accept()
