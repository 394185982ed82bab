"""A date (or a date and time), or none: a checkbox beside the date field."""

from __future__ import annotations

from datetime import date, datetime

from PySide6.QtCore import QDate, QDateTime
from PySide6.QtWidgets import (
    QCheckBox,
    QDateEdit,
    QDateTimeEdit,
    QHBoxLayout,
    QWidget,
)


class OptionalDate(QWidget):
    """A date, or none (checkbox off)."""

    def __init__(self, with_time: bool = False) -> None:
        super().__init__()
        self.on = QCheckBox()
        self.edit: QDateEdit | QDateTimeEdit
        if with_time:
            self.edit = QDateTimeEdit(QDateTime.currentDateTime())
            self.edit.setDisplayFormat("yyyy-MM-dd HH:mm")
        else:
            self.edit = QDateEdit(QDate.currentDate())
            self.edit.setDisplayFormat("yyyy-MM-dd")
        self.edit.setCalendarPopup(True)
        self.edit.setEnabled(False)
        self.on.toggled.connect(self.edit.setEnabled)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.on)
        row.addWidget(self.edit, 1)

    def value(self) -> object:
        if not self.on.isChecked():
            return None
        if isinstance(self.edit, QDateTimeEdit) and not isinstance(self.edit, QDateEdit):
            moment: datetime = self.edit.dateTime().toPython()  # type: ignore[assignment]
            return moment.replace(second=0, microsecond=0)
        return self.edit.date().toPython()

    def set_value(self, value: date | datetime | None) -> None:
        self.on.setChecked(value is not None)
        if value is None:
            return
        if isinstance(value, datetime):
            self.edit.setDateTime(QDateTime(value))
        else:
            self.edit.setDate(QDate(value))
