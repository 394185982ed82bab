"""The clubs list and the club dialog."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clubdesk.collation import sort_string
from clubdesk.i18n import _
from clubdesk.services import members as ms
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.members.columns import Column, RowsModel, sortable_table
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.forms import FieldWithError


class ClubDialog(QDialog):
    def __init__(
        self, state: DeskState, club: ms.ClubInfo | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.state = state
        self.club = club
        self.setWindowTitle(_("Edit club") if club else _("New club"))
        self.name = QLineEdit(club.name if club else "")
        self.city = QLineEdit(club.city if club else "")
        self.name_field = FieldWithError(self.name)
        form = QFormLayout()
        form.addRow(_("&Name"), self.name_field)
        form.addRow(_("Cit&y"), self.city)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Save).setText(_("Save"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(_("Cancel"))
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def save(self) -> bool:
        try:
            ms.save_club(
                self.state.db,
                self.state.actor,
                self.name.text(),
                self.city.text(),
                club_id=self.club.id if self.club else None,
            )
        except ServiceError as exc:
            self.name_field.set_error(exc.message)
            return False
        self.accept()
        return True


class ClubsPanel(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.model = RowsModel(
            [
                Column(_("Club"), lambda c: c.name, lambda c: sort_string(c.name)),
                Column(_("City"), lambda c: c.city, lambda c: sort_string(c.city)),
                Column(_("Active members"), lambda c: str(c.members), lambda c: c.members),
            ]
        )
        self.view, self.proxy = sortable_table(self.model)
        self.view.setObjectName("clubsTable")
        self.view.doubleClicked.connect(lambda _i: self.edit())
        add = QPushButton(_("New club"))
        add.clicked.connect(self.add)
        edit = QPushButton(_("Edit club"))
        edit.clicked.connect(self.edit)
        row = QHBoxLayout()
        row.addWidget(add)
        row.addWidget(edit)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.view)
        self.stale = True
        self.reload()

    def reload(self) -> None:
        """The clubs, read when the tab is shown (the register's tab opens first, without sorting
        the clubs in the language's alphabet, which loads the collation table)."""
        self.stale = True
        if self.isVisible():
            self._load()

    def _load(self) -> None:
        self.stale = False
        self.model.set_rows(ms.list_clubs(self.state.db))
        self.view.resizeColumnsToContents()

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        if self.stale:
            self._load()
        super().showEvent(event)

    def selected(self) -> ms.ClubInfo | None:
        rows = self.view.selectionModel().selectedRows()
        if not rows:
            return None
        club: ms.ClubInfo = self.model.rows[self.proxy.mapToSource(rows[0]).row()]
        return club

    def add(self) -> None:
        if ClubDialog(self.state, None, self).exec():
            self.state.dataChanged.emit("members")

    def edit(self) -> None:
        club = self.selected()
        if club is not None and ClubDialog(self.state, club, self).exec():
            self.state.dataChanged.emit("members")
