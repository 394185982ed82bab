"""Settings "Connect to club server…" and "Use this PC's file" (issue 25), and opening the chosen server
at start (the password from the keyring, else asked)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from clubdesk import paths
from clubdesk.db import Database, DatabaseError
from clubdesk.i18n import _
from clubdesk.server import (
    DEFAULT_PORT,
    ServerChoice,
    keyring_password,
    load_choice,
    save_choice,
    store_password,
)


class ServerDialog(QDialog):
    """Host, port, database, user and password; "Connect" tries them (and brings the server's schema to
    this ClubDesk's) before this PC remembers the choice."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Connect to club server"))
        current = load_choice()
        self.host = QLineEdit(current.host if current else "")
        self.host.setObjectName("serverHost")
        self.port = QSpinBox()
        self.port.setRange(1, 65535)
        self.port.setValue(current.port if current else DEFAULT_PORT)
        self.database = QLineEdit(current.database if current else "clubdesk")
        self.user = QLineEdit(current.user if current else "clubdesk")
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        form = QFormLayout()
        form.addRow(_("Server (host name or address)"), self.host)
        form.addRow(_("Port"), self.port)
        form.addRow(_("Database"), self.database)
        form.addRow(_("User"), self.user)
        form.addRow(_("Password"), self.password)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        connect = buttons.addButton(_("Connect"), QDialogButtonBox.ButtonRole.AcceptRole)
        connect.setDefault(True)
        buttons.accepted.connect(self.try_connect)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(buttons)

    def choice(self) -> ServerChoice:
        return ServerChoice(
            self.host.text().strip(),
            self.database.text().strip(),
            self.user.text().strip(),
            self.port.value(),
        )

    def try_connect(self) -> None:
        choice = self.choice()
        if not (choice.host and choice.database and choice.user):
            self.message.setText(_("Write the server, the database and the user."))
            return
        password = self.password.text() or None
        try:
            Database(choice.url(), password=password, backups_dir=paths.backups_dir()).close()
        except DatabaseError as exc:
            self.message.setText(str(exc))
            return
        save_choice(choice)
        kept = bool(password) and store_password(choice.key, password or "")
        note = (
            _("The password is kept in this PC's keyring.")
            if kept
            else _("The password will be asked when ClubDesk starts.")
        )
        QMessageBox.information(
            self,
            _("Club server"),
            _("This desk will use the club server {where} from the next start. {note}").format(
                where=f"{choice.host}:{choice.port}/{choice.database}", note=note
            ),
        )
        self.accept()


def use_this_pc_file(parent: QWidget | None = None) -> None:
    save_choice(None)
    QMessageBox.information(
        parent, _("Club server"), _("This desk will use this PC's own file from the next start.")
    )


def open_chosen_server() -> Database | None:
    """The server this PC chose, opened (the password from the keyring or asked); None: use the file.
    An unreachable server is said, with the choice to retry, to use this PC's file this once, or to quit."""
    choice = load_choice()
    if choice is None:
        return None
    password = keyring_password(choice.key)
    if password is None:
        text, ok = QInputDialog.getText(
            None,
            _("Club server"),
            _("Password of {user} on {where}:").format(user=choice.user, where=choice.host),
            QLineEdit.EchoMode.Password,
        )
        if not ok:
            raise DatabaseError("cancelled", _("No password given; ClubDesk was not opened."))
        password = text
    while True:
        try:
            return Database(choice.url(), password=password or None, backups_dir=paths.backups_dir())
        except DatabaseError as exc:
            box = QMessageBox(QMessageBox.Icon.Warning, _("Club server"), str(exc))
            retry = box.addButton(_("Retry"), QMessageBox.ButtonRole.AcceptRole)
            local = box.addButton(_("Use this PC's file"), QMessageBox.ButtonRole.DestructiveRole)
            box.addButton(QMessageBox.StandardButton.Cancel)
            box.exec()
            if box.clickedButton() is retry:
                continue
            if box.clickedButton() is local:
                return None
            raise
