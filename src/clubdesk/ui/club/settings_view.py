"""Settings: the club's name and logo, the language of the app and of printed outputs."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import LANGUAGE_NAMES, _
from clubdesk.services import club
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.forms import FieldWithError


class SettingsSection(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        current = club.club_settings(state.db)
        self.club_name = QLineEdit(current.club_name)
        self.club_name.setObjectName("clubName")
        self.logo = QLineEdit(current.logo_path or "")
        browse = QPushButton(_("Choose…"))
        browse.clicked.connect(self._choose_logo)
        logo_row = QWidget()
        row = QHBoxLayout(logo_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.logo, 1)
        row.addWidget(browse)
        self.language = QComboBox()
        for code, name in LANGUAGE_NAMES.items():
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(current.language)))
        self.name_field = FieldWithError(self.club_name)
        self.logo_field = FieldWithError(logo_row)
        form = QFormLayout()
        form.addRow(_("Club name"), self.name_field)
        form.addRow(_("Logo"), self.logo_field)
        form.addRow(_("Language"), self.language)
        self.save_button = QPushButton(_("Save"))
        self.save_button.clicked.connect(self.save)
        self.message = QLabel("")
        title = QLabel(_("Settings"))
        title.setStyleSheet("font-size: 16pt; font-weight: 600;")
        form_box = QWidget()
        form_box.setMaximumWidth(640)
        form_box.setLayout(form)
        self.save_button.setMaximumWidth(160)
        self.save_button.setDefault(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 18, 24, 18)
        layout.addWidget(title)
        layout.addWidget(form_box)
        layout.addWidget(self.save_button)
        layout.addWidget(self.message)
        layout.addWidget(
            QLabel(_("The window changes language at once. Printed reports use the event's language."))
        )
        layout.addWidget(self._server_row())  # this PC's file or the club server
        from clubdesk.ui.club.safety_panel import DataSafetyPanel

        self.safety = DataSafetyPanel(state)  # backups, restore, staff accounts
        self.safety.setMaximumWidth(900)
        layout.addWidget(self.safety)
        from clubdesk.ui.club.federation_panel import FederationPanel

        self.federation = FederationPanel(state)  # the club's key, its hub, what was sent (T12d)
        self.federation.setMaximumWidth(900)
        layout.addWidget(self.federation)
        from clubdesk.ui.club.about_panel import AboutPanel

        self.about = AboutPanel(state)  # version, database, schema, licences
        self.about.setMaximumWidth(900)
        layout.addWidget(self.about)
        layout.addStretch(1)

    def _server_row(self) -> QWidget:
        from clubdesk.ui.club.server_dialog import ServerDialog, use_this_pc_file

        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        where = QLabel(_("Database: {path}").format(path=self.state.db.location))
        connect = QPushButton(_("Connect to club server…"))
        connect.setObjectName("connectServer")
        connect.clicked.connect(lambda: ServerDialog(self, self.state).exec())
        local = QPushButton(_("Use this PC's file"))
        local.setEnabled(self.state.db.is_server)
        local.clicked.connect(lambda: use_this_pc_file(self, self.state))
        row.addWidget(where, 1)
        row.addWidget(connect)
        row.addWidget(local)
        box.setMaximumWidth(900)
        return box

    def _choose_logo(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, _("Club logo"), "", _("Images (*.png *.jpg *.jpeg)")
        )
        if path:
            self.logo.setText(path)

    def save(self) -> bool:
        self.name_field.set_error(None)
        self.logo_field.set_error(None)
        try:
            club.save_club_settings(
                self.state.db,
                self.state.actor,
                self.club_name.text(),
                self.logo.text().strip() or None,
                str(self.language.currentData()),
            )
        except ServiceError as exc:
            target = self.logo_field if exc.code == "logo-missing" else self.name_field
            target.set_error(exc.message)
            self.message.setText("")
            return False
        self.message.setText(_("Saved."))
        self.state.dataChanged.emit("settings")
        self.state.actorChanged.emit(self.state.actor)  # refresh the title and status bar
        return True
