"""The final score only, for events that record results only: games won (dominoes) or points (tavla), with
optional game points for point-difference tie-breaks. Enter saves, once a score has been typed: a stray
Enter on the form as it opens saves nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFormLayout, QLabel, QPushButton, QSpinBox, QVBoxLayout, QWidget

from clubdesk.i18n import _
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.shell.theme import themed

ScoreCallback = Callable[[tuple[int, int], tuple[int, int] | None], None]


class FinalScoreForm(QWidget):
    saved = Signal(object)

    def __init__(
        self,
        save: ScoreCallback | None = None,
        side_names: Sequence[str] = (),
        score: tuple[int, int] = (0, 0),
        points: tuple[int, int] | None = None,
        with_points: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.save = save
        self.side_names = tuple(side_names) or (_("Side A"), _("Side B"))
        title = QLabel(_("Final score"))
        title.setStyleSheet("font-size: 13pt; font-weight: 600;")
        self.score = [QSpinBox(), QSpinBox()]
        self.points = [QSpinBox(), QSpinBox()]
        form = QFormLayout()
        for i in (0, 1):
            self.score[i].setObjectName(f"score{i}")
            self.score[i].setRange(0, 999)
            self.score[i].setValue(score[i])
            form.addRow(_("{side}: score").format(side=self.side_names[i]), self.score[i])
        self.with_points = with_points
        for i in (0, 1):
            self.points[i].setObjectName(f"points{i}")
            self.points[i].setRange(0, 99999)
            if points is not None:
                self.points[i].setValue(points[i])
            if with_points:
                form.addRow(_("{side}: game points").format(side=self.side_names[i]), self.points[i])
            else:
                self.points[i].setVisible(False)
        self.error = QLabel()
        self.error.setObjectName("entryError")
        self.error.setStyleSheet(themed("color: #b00020; font-weight: 600;"))
        self.error.setWordWrap(True)
        self.button = QPushButton(_("Save (Enter)"))
        self.button.clicked.connect(self.submit)
        self.initial = self.values()  # nothing is saved before a score is typed
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addLayout(form)
        layout.addWidget(self.button)
        layout.addWidget(self.error)
        layout.addStretch(1)

    def first_input(self) -> QWidget:
        return self.score[0]

    def values(self) -> tuple[int, ...]:
        return tuple(box.value() for box in (*self.score, *self.points))

    def submit(self) -> bool:
        if self.values() == self.initial:  # what the form opened with: nothing typed, nothing to save
            self.error.setText(_("Type the score of each side first."))
            return False
        score = (self.score[0].value(), self.score[1].value())
        points = (self.points[0].value(), self.points[1].value())
        pts = points if self.with_points and any(points) else None
        try:
            if self.save is not None:
                self.save(score, pts)
        except (ServiceError, ValueError) as exc:
            self.error.setText(str(getattr(exc, "message", "") or exc))
            return False
        self.error.setText("")
        self.initial = self.values()
        self.saved.emit(score)
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.submit()
            return
        super().keyPressEvent(event)
