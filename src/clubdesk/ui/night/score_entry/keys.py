"""Combo boxes for fast keyboard entry: a digit or letter picks the item whose text starts with it, at once
(Qt's own type-ahead joins keys typed within 400 ms, which a fast scorer does)."""

from __future__ import annotations

from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QComboBox

from clubdesk.text import fold


class KeyCombo(QComboBox):
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        text = event.text()
        if len(text) == 1 and text.isalnum() and not self.isEditable():
            key = fold(text)
            start = self.currentIndex() + 1
            n = self.count()
            for step in range(n):
                i = (start + step) % n
                if fold(self.itemText(i)[:1]) == key:
                    self.setCurrentIndex(i)
                    return
            return
        super().keyPressEvent(event)
