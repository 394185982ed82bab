"""Small form helpers: a field with its error shown right below it."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget


class FieldWithError(QWidget):
    """Wraps an input widget and a red message under it (empty when the value is fine)."""

    def __init__(self, field: QWidget) -> None:
        super().__init__()
        self.field = field
        self.error = QLabel("")
        self.error.setStyleSheet("color: #b00020;")
        self.error.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(field)
        layout.addWidget(self.error)

    def set_error(self, message: str | None) -> None:
        self.error.setText(message or "")
        self.error.setVisible(bool(message))
