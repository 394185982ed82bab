"""Who is acting at the desk now (F2): a name or initials and a role."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.ui.shell.theme import themed

if TYPE_CHECKING:
    from clubdesk.services.kernel import Actor
    from clubdesk.ui.shell.state import DeskState


class ActorDialog(QDialog):
    """Who is acting at the desk now. The previous person is pre-selected, so F2, Enter switches back."""

    def __init__(self, state: DeskState, parent: QWidget | None = None) -> None:
        from clubdesk.labels import ROLE_LABELS
        from clubdesk.services.kernel import DEFAULT_ACTOR, DESK_ROLES

        super().__init__(parent)
        self.setWindowTitle(_("Who is acting?"))
        self.name = QComboBox()
        self.name.setEditable(True)
        self.role = QComboBox()
        for role in DESK_ROLES:
            self.role.addItem(_(ROLE_LABELS[role]), role)
        recent = state.recent_actors()
        others = [a for a in recent if a != state.actor]
        self._choices = others + [state.actor]
        for a in self._choices:  # the unnamed default person in the window's language (stored as "Desk")
            self.name.addItem(_(a.name) if a.name == DEFAULT_ACTOR.name else a.name, a)
        self.name.currentIndexChanged.connect(self._sync_role)
        self._sync_role(0)
        form = QFormLayout()
        form.addRow(_("Name or initials"), self.name)
        form.addRow(_("Role"), self.role)
        self.error = QLabel("")
        self.error.setStyleSheet(themed("color: #b00020;"))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.name.setFocus()

    def _sync_role(self, index: int) -> None:
        from clubdesk.services.kernel import Actor

        actor = self.name.itemData(index)
        if isinstance(actor, Actor):
            self.role.setCurrentIndex(self.role.findData(actor.role))

    def accept(self) -> None:
        if not self.name.currentText().strip():
            self.error.setText(_("Type a name or initials."))
            return
        super().accept()

    def chosen(self) -> Actor:
        from clubdesk.services.kernel import Actor, Role

        text = self.name.currentText().strip()
        listed = self.name.itemData(self.name.currentIndex())
        if isinstance(listed, Actor) and text == self.name.itemText(self.name.currentIndex()):
            text = listed.name  # a listed person keeps the name stored (the default one's key)
        return Actor(text, Role(self.role.currentData()))
