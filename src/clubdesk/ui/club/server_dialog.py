"""Settings "Connect to club server…" and "Use this PC's file", and opening the chosen server
at start (the password from the keyring, else asked)."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from clubdesk.i18n import _
from clubdesk.server import (
    DEFAULT_PORT,
    ServerChoice,
    keyring_password,
    load_choice,
    save_choice,
    store_password,
)
from clubdesk.storage import Database, DatabaseError

if TYPE_CHECKING:
    from clubdesk.ui.shell.state import DeskState


class ServerDialog(QDialog):
    """Host, port, database, user and password; "Connect" tries them (and brings the server's schema to
    this ClubDesk's) before this PC remembers the choice."""

    def __init__(self, parent: QWidget | None = None, state: DeskState | None = None) -> None:
        super().__init__(parent)
        self.state = state  # given: the desk may switch to the server at once
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
            opened = Database(choice.url(), password=password, backups_dir=paths.backups_dir())
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
        where = f"{choice.host}:{choice.port}/{choice.database}"
        if self.state is not None and ask_switch(self, where, note):
            if switch_desk(self.state, opened, self):
                self.accept()
                return
        else:
            opened.close()
        QMessageBox.information(
            self,
            _("Club server"),
            _("This desk will use the club server {where} from the next start. {note}").format(
                where=where, note=note
            ),
        )
        self.accept()


def ask_switch(parent: QWidget | None, where: str, note: str = "") -> bool:
    answer = QMessageBox.question(
        parent,
        _("Club server"),
        _("Use {where} now? Every screen reloads on it; nothing entered here is lost. {note}").format(
            where=where, note=note
        ),
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.Yes,
    )
    return answer == QMessageBox.StandardButton.Yes


def switch_desk(state: DeskState, db: Database, parent: QWidget | None = None) -> bool:
    """This desk goes on with ``db`` without a restart. The database it leaves gets its closing
    backup and is closed; where the new one has staff accounts, the person acting proves it by PIN there.
    False (and ``db`` closed) when the PIN is not given."""
    from clubdesk.services import club
    from clubdesk.services.kernel import ServiceError

    actor = state.actor
    if club.has_accounts(db):
        from clubdesk.ui.club.safety_panel import PinDialog

        login = PinDialog(db, previous=state.actor, parent=parent)
        if login.exec() != QDialog.DialogCode.Accepted or login.actor is None:
            db.close()
            return False
        actor = login.actor
    try:
        club.backup_quietly(state.db, reason="close")
    except (ServiceError, DatabaseError, OSError):
        pass  # as on closing the window: never in the way
    old = state.switch_database(db)
    if actor != state.actor:
        state.actor = actor
        state.actorChanged.emit(actor)
    old.close()
    return True


def use_this_pc_file(parent: QWidget | None = None, state: DeskState | None = None) -> None:
    save_choice(None)
    path = paths.default_db_path()
    if state is not None and ask_switch(parent, str(path)):
        try:
            opened = Database(path, backups_dir=paths.backups_dir())
        except DatabaseError as exc:
            QMessageBox.warning(parent, _("Club server"), str(exc))
            return
        switch_desk(state, opened, parent)
        return
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
