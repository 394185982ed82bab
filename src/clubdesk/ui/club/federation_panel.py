"""Settings → Federation: this club's public key (for the federation secretary), where its results go (the
hub's address and the club's token) and what was sent and what the hub answered (rules T12d, T14).
"Send to federation" on the Events screen uses :func:`send_event`."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clubdesk import paths
from clubdesk.i18n import _
from clubdesk.services import federation
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.forms import FieldWithError


def sent_text(line: federation.SentLine) -> str:
    if line.pushed is None:
        state = _("written to {file}").format(file=line.file)
    elif line.accepted:
        state = _("accepted by the hub ({when})").format(when=line.pushed)
    else:
        state = _("refused by the hub ({when}): {why}").format(when=line.pushed, why=line.answer)
    return f"{line.name}: {state}"


class FederationPanel(QGroupBox):
    def __init__(self, state: DeskState) -> None:
        super().__init__(_("Federation"))
        self.setObjectName("federationPanel")
        self.state = state
        self.key = QLineEdit()
        self.key.setObjectName("federationKey")
        self.key.setReadOnly(True)
        copy = QPushButton(_("Copy"))
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.key.text()))
        key_row = QWidget()
        row = QHBoxLayout(key_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.key, 1)
        row.addWidget(copy)
        self.url = QLineEdit()
        self.url.setObjectName("federationHub")
        self.url.setPlaceholderText(_("the hub's address: https://…"))
        self.token = QLineEdit()
        self.token.setObjectName("federationToken")
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.url_field = FieldWithError(self.url)
        save = QPushButton(_("Save the hub"))
        save.setObjectName("saveHub")
        save.clicked.connect(self.save_hub)
        self.sent = QLabel("")
        self.sent.setObjectName("federationSent")
        self.sent.setWordWrap(True)
        self.sent.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form = QFormLayout()
        form.addRow(_("This club's public key"), key_row)
        form.addRow(_("Hub"), self.url_field)
        form.addRow(_("Push token"), self.token)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(save, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.sent)
        self.refresh()
        state.dataChanged.connect(lambda area: self.refresh() if area in ("events", "federation") else None)

    def refresh(self) -> None:
        self.key.setText(federation.public_key(self.state.db).public_key)
        hub = federation.hub_address(self.state.db)
        if hub is not None and not self.url.hasFocus():
            self.url.setText(hub.url)
        lines = federation.sent_events(self.state.db)
        self.sent.setText(
            "\n".join(sent_text(x) for x in lines[-8:])
            if lines
            else _("Nothing was sent to the federation yet.")
        )

    def save_hub(self) -> bool:
        self.url_field.set_error(None)
        try:
            federation.set_hub(self.state.db, self.state.actor, self.url.text(), self.token.text())
        except ServiceError as exc:
            self.url_field.set_error(exc.message)
            return False
        self.token.clear()
        self.refresh()
        return True


def send_event(parent: QWidget, state: DeskState, event_id: int) -> str | None:
    """Events → Send to federation: push to the hub when the club has one, else save the signed file to
    carry; the message shown (None: the secretary cancelled)."""
    try:
        if federation.hub_address(state.db) is not None:
            got = federation.push_event(state.db, state.actor, event_id, paths.data_dir() / "federation")
            text = (
                _("The hub accepted event {event} ({status}).").format(event=event_id, status=got.status)
                if got.accepted
                else _("The hub refused the event: {why}").format(why=got.message)
            )
        else:
            name, _filter = QFileDialog.getSaveFileName(
                parent, _("Send to federation"), f"event-{event_id}.json", _("Event files (*.json)")
            )
            if not name:
                return None
            done = federation.export_event(state.db, state.actor, event_id, Path(name))
            text = _("Signed event file written to {file} ({tables} tables, {placings} places).").format(
                file=done.file, tables=done.tables, placings=done.placings
            )
    except ServiceError as exc:
        text = exc.message
    state.dataChanged.emit("federation")
    QMessageBox.information(parent, _("Send to federation"), text)
    return text
