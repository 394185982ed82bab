"""Data safety in the window: backups and restore, staff accounts, PIN log-in, automatic backups.

- :class:`DataSafetyPanel` sits in Settings: "Back up now", the list of backups with "Restore…", and the staff
  accounts (add a person with a role and PIN, deactivate).
- :class:`PinDialog` proves who acts (F2, and at start once the club has accounts).
- :class:`AutoBackup` backs up on opening, every 30 minutes while changes happen, and on closing.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.labels import ROLE_LABELS
from clubdesk.services import club
from clubdesk.services.kernel import DESK_ROLES, Actor, Role, ServiceError
from clubdesk.storage import Database, DatabaseError
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import themed

ERROR_STYLE = "color: palette(highlight);"


def _problem(exc: Exception) -> str:
    return exc.message if isinstance(exc, ServiceError) else str(exc)


class PinDialog(QDialog):
    """Who acts now: a staff member chosen by name and proved by PIN."""

    def __init__(self, db: Database, previous: Actor | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.db = db
        self.setWindowTitle(_("Who is acting?"))
        self.name = QComboBox()
        self.name.setObjectName("pinName")
        people = [p for p in club.list_staff(db) if p.active]
        for p in people:
            self.name.addItem(f"{p.name} — {_(ROLE_LABELS[p.role])}", p.name)
        names = [p.name for p in people]
        if previous is not None and previous.name in names:
            self.name.setCurrentIndex(names.index(previous.name))
        self.pin = QLineEdit()
        self.pin.setObjectName("pin")
        self.pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin.setMaxLength(12)
        form = QFormLayout()
        form.addRow(_("Person"), self.name)
        form.addRow(_("PIN"), self.pin)
        self.error = QLabel("")
        self.error.setObjectName("pinError")
        self.error.setWordWrap(True)
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
        self.actor: Actor | None = None
        self.pin.setFocus()

    def accept(self) -> None:
        try:
            self.actor = club.authenticate(self.db, str(self.name.currentData()), self.pin.text())
        except ServiceError as exc:
            self.error.setText(exc.message)
            self.pin.clear()
            self.pin.setFocus()
            return
        super().accept()


class DataSafetyPanel(QWidget):
    """Backups, restore and staff accounts, in Settings."""

    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.message = QLabel("")
        self.message.setObjectName("safetyMessage")
        self.message.setWordWrap(True)

        backups_box = QGroupBox(_("Backups"))
        self.backups = QListWidget()
        self.backups.setObjectName("backupsList")
        self.backups.setMaximumHeight(140)
        self.backup_button = QPushButton(_("Back up now"))
        self.backup_button.setObjectName("backupNow")
        self.backup_button.clicked.connect(self.backup_now)
        self.restore_button = QPushButton(_("Restore selected…"))
        self.restore_button.setObjectName("restoreBackup")
        self.restore_button.clicked.connect(self.restore_selected)
        row = QHBoxLayout()
        row.addWidget(self.backup_button)
        row.addWidget(self.restore_button)
        row.addStretch(1)
        b_layout = QVBoxLayout(backups_box)
        b_layout.addWidget(self.backups)
        b_layout.addLayout(row)

        staff_box = QGroupBox(_("Staff accounts"))
        self.people = QListWidget()
        self.people.setObjectName("staffList")
        self.people.setMaximumHeight(120)
        self.new_name = QLineEdit()
        self.new_name.setObjectName("staffName")
        self.new_name.setPlaceholderText(_("Name"))
        self.new_role = QComboBox()
        self.new_role.setObjectName("staffRole")
        for role in DESK_ROLES:
            self.new_role.addItem(_(ROLE_LABELS[role]), role)
        self.new_pin = QLineEdit()
        self.new_pin.setObjectName("staffPin")
        self.new_pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.new_pin.setPlaceholderText(_("PIN (4–12 digits)"))
        add = QPushButton(_("Add person"))
        add.setObjectName("staffAdd")
        add.clicked.connect(self.add_person)
        off = QPushButton(_("Deactivate"))
        off.clicked.connect(self.deactivate_selected)
        form = QHBoxLayout()
        for w in (self.new_name, self.new_role, self.new_pin, add, off):
            form.addWidget(w)
        self.staff_hint = QLabel("")
        self.staff_hint.setWordWrap(True)
        s_layout = QVBoxLayout(staff_box)
        s_layout.addWidget(self.staff_hint)
        s_layout.addWidget(self.people)
        s_layout.addLayout(form)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(backups_box)
        layout.addWidget(staff_box)
        layout.addWidget(self.message)
        self.refresh()

    def refresh(self) -> None:
        self.backups.clear()
        for made, path in club.backups(self.state.db):
            item = QListWidgetItem(f"{made:%Y-%m-%d %H:%M:%S}  {path.name}")
            item.setData(256, str(path))
            self.backups.addItem(item)
        self.people.clear()
        accounts = club.list_staff(self.state.db)
        for p in accounts:
            state = "" if p.active else _(" (deactivated)")
            item = QListWidgetItem(f"{p.name} — {_(ROLE_LABELS[p.role])}{state}")
            item.setData(256, p.name)
            self.people.addItem(item)
        if accounts:
            self.staff_hint.setText(_("F2 switches to a person by PIN. Only the secretary manages accounts."))
        else:
            self.staff_hint.setText(
                _(
                    "No accounts yet: everyone acts as the secretary. Add the secretary first; "
                    "from then on everyone acts by PIN."
                )
            )
            self.new_role.setCurrentIndex(self.new_role.findData(Role.SECRETARY))

    def backup_now(self) -> None:
        try:
            info = club.backup(self.state.db, self.state.actor)
        except (ServiceError, DatabaseError, OSError) as exc:
            self.message.setText(_problem(exc))
            return
        self.message.setText(
            _("Backup written to {file} ({size} bytes, check: {check}).").format(
                file=info.file, size=info.bytes, check=info.integrity
            )
        )
        self.refresh()

    def restore_selected(self) -> None:
        item = self.backups.currentItem()
        if item is None:
            self.message.setText(_("Choose a backup in the list first."))
            return
        path = Path(str(item.data(256)))
        answer = QMessageBox.question(
            self,
            _("Restore a backup"),
            _("Replace the whole database with {file}? The database as it is now is backed up first.").format(
                file=path.name
            ),
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            kept = club.restore(self.state.db, self.state.actor, path)
        except (ServiceError, DatabaseError, OSError) as exc:
            self.message.setText(_problem(exc))
            return
        self.message.setText(
            _("Restored {file}; the database as it was is kept in {kept}.").format(
                file=path.name,
                kept=kept.file,  # the whole path: where to find it
            )
        )
        self.refresh()
        for section in ("members", "events", "desk", "rounds", "standings", "settings"):
            self.state.dataChanged.emit(section)

    def add_person(self) -> None:
        try:
            first = not club.has_accounts(self.state.db)
            actor = Actor(self.new_name.text().strip() or "?", Role.SECRETARY) if first else self.state.actor
            info = club.add_staff(
                self.state.db,
                actor,
                self.new_name.text(),
                Role(self.new_role.currentData()),
                self.new_pin.text(),
            )
        except ServiceError as exc:
            self.message.setText(exc.message)
            return
        self.new_name.clear()
        self.new_pin.clear()
        self.message.setText(
            _("{name} can now act as {role}.").format(name=info.name, role=_(ROLE_LABELS[info.role]))
        )
        if first:  # the secretary who made the first account now acts, proved by the PIN just given
            self.state.set_actor(Actor(info.name, info.role))
        self.refresh()

    def deactivate_selected(self) -> None:
        item = self.people.currentItem()
        if item is None:
            self.message.setText(_("Choose a person in the list first."))
            return
        try:
            club.deactivate(self.state.db, self.state.actor, str(item.data(256)))
        except ServiceError as exc:
            self.message.setText(exc.message)
            return
        self.refresh()


class AutoBackup(QObject):
    """Backups on opening, every 30 minutes while changes happen, and on closing (rotated in backups/).

    The opening and the 30-minute backups run on a thread of their own (copying and checking a
    database of a million hand entries takes seconds, and the desk is not kept waiting for it); the
    closing backup waits for one still running and is then made before the window goes."""

    def __init__(self, state: DeskState, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self._marker = -1
        self._thread: threading.Thread | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(club.AUTO_INTERVAL_MINUTES * 60 * 1000)
        self.timer.timeout.connect(lambda: self.run_later("auto", only_if_changed=True))
        state.databaseChanged.connect(lambda _db: self._switched())

    def _switched(self) -> None:
        self._marker = -1
        self.run_later("open")  # the database this desk switched to gets its opening backup

    def start(self) -> None:
        self.run_later("open")
        self.timer.start()

    def wait(self) -> None:
        """Until the backup running in the background (if any) is finished."""
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def run_later(self, reason: str, *, only_if_changed: bool = False) -> None:
        """:meth:`run` on a background thread; nothing when one is still running."""
        if self._thread is not None and self._thread.is_alive():
            return
        marker = self._changes()
        if marker is None or (only_if_changed and marker == self._marker):
            return
        db = self.state.db

        def work() -> None:
            try:
                club.backup_quietly(db, reason=reason)
            except (ServiceError, DatabaseError, OSError):
                return  # never in the way of the night; the next tick tries again
            self._marker = marker  # changes made during the copy are in the next one

        self._thread = threading.Thread(target=work, name="clubdesk-backup", daemon=True)
        self._thread.start()

    def _changes(self) -> int | None:
        try:
            return club.change_marker(self.state.db)
        except (ServiceError, DatabaseError, OSError):
            return None

    def run(self, reason: str, *, only_if_changed: bool = False) -> None:
        self.wait()
        marker = club.change_marker(self.state.db)
        if only_if_changed and marker == self._marker:
            return
        try:
            club.backup_quietly(self.state.db, reason=reason)
        except (ServiceError, DatabaseError, OSError):
            return  # never in the way of the night; the next tick tries again
        self._marker = club.change_marker(self.state.db)
