"""Table entry on phones, the Desk's tab: switch the table server on or off, on the
address of the network the secretary picks (the machine's IPv4 addresses, loopback last), and show the hall
address with a big QR code for the players' phones. Off by default; a port in use, no network and a port
that does not answer each get a clear message. The server runs in the background of the window and stops
when switched off and when the window closes (:func:`stop_table_entry`).

While it runs, its address is kept in the settings (``services.phones``): score sheets printed meanwhile
carry their table's address in the QR, which the Rounds screen's scan field also accepts.
"""

from __future__ import annotations

import logging
import urllib.request
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.services import phones
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import themed
from clubdesk.web.server import DEFAULT_PORT

log = logging.getLogger("clubdesk.phones")
QR_PIXELS = 300


def qr_pixmap(text: str, pixels: int = QR_PIXELS) -> QPixmap:
    """``text`` as a QR code (segno, error correction M, quiet zone of 4 modules) about ``pixels`` wide."""
    import io

    import segno

    qr = segno.make_qr(text, error="m", boost_error=False)
    modules = qr.symbol_size(scale=1, border=4)[0]
    buf = io.BytesIO()
    qr.save(buf, kind="png", scale=max(2, pixels // modules), border=4)
    pixmap = QPixmap()
    pixmap.loadFromData(buf.getvalue(), "PNG")
    return pixmap


class TableEntry(QObject):
    """The window's one table server (kept on the DeskState, so a language switch that rebuilds the
    screens neither loses nor doubles it)."""

    changed = Signal()

    def __init__(self, state: DeskState) -> None:
        super().__init__(state)
        self.state = state
        self.server: Any = None
        self.base: str | None = None
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.stop)
        # a window that ended without switching off left its address behind: sheets must not carry it
        if phones.base_url(state.db):
            phones.set_base_url(state.db, state.actor, None)

    @property
    def running(self) -> bool:
        return self.server is not None

    def start(self, host: str, port: int) -> str:
        """Start serving on ``host:port``; the hall address. A refusal (port in use, address not of this
        machine) is a translated ServiceError and nothing runs."""
        from clubdesk.web.server import TableServer

        if self.server is not None:
            self.stop()
        server = TableServer(self.state.db, host, port)
        server.start()  # returns once listening, or raises ServiceError
        self.server = server
        self.base = phones.check_base(f"http://{host}:{server.port}")  # port 0: the one chosen
        phones.set_base_url(self.state.db, self.state.actor, self.base)
        self.changed.emit()
        self.state.dataChanged.emit("rounds")  # the Rounds screen shows the tables' phones
        return phones.hall_url(self.base)

    def stop(self) -> None:
        server, self.server = self.server, None
        if server is not None:
            try:
                server.stop()
            except Exception as exc:  # noqa: BLE001 - stopping never keeps the window from closing
                log.warning("table server did not stop cleanly: %s", exc)
        if self.base is not None:
            self.base = None
            try:
                phones.set_base_url(self.state.db, self.state.actor, None)
            except Exception as exc:  # noqa: BLE001 - the database may be closing
                log.info("table entry address not cleared: %s", exc)
            self.changed.emit()
            self.state.dataChanged.emit("rounds")


def table_entry(state: DeskState) -> TableEntry:
    found = getattr(state, "_table_entry", None)
    if not isinstance(found, TableEntry):
        found = TableEntry(state)
        state._table_entry = found  # type: ignore[attr-defined]
    return found


def stop_table_entry(state: DeskState) -> None:
    """The window closes: the table server stops (when one was started)."""
    found = getattr(state, "_table_entry", None)
    if isinstance(found, TableEntry):
        found.stop()


def answers(url: str, timeout: float = 2.0) -> bool:
    """Whether ``url`` answers from this PC (a port the firewall blocks for itself, a wrong address)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - our own http address
            return int(response.status) < 500
    except Exception:  # noqa: BLE001
        return False


class PhonesView(QWidget):
    """The Desk's "Phones" tab."""

    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.entry = table_entry(state)
        self.toggle = QCheckBox(_("Table entry on phones"))
        self.toggle.setObjectName("tableEntryToggle")
        self.toggle.setStyleSheet("font-size: 13pt; font-weight: 600;")
        self.toggle.setToolTip(
            _("Players enter their results on their own phones; the desk sees them at once. Off by default.")
        )
        self.address = QComboBox()
        self.address.setObjectName("tableEntryAddress")
        self.port = QSpinBox()
        self.port.setObjectName("tableEntryPort")
        self.port.setRange(1024, 65535)
        self.port.setValue(DEFAULT_PORT)
        self.message = QLabel()
        self.message.setObjectName("tableEntryMessage")
        self.message.setWordWrap(True)
        self.url = QLabel()
        self.url.setObjectName("hallUrl")
        self.url.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.url.setStyleSheet("font-size: 16pt; font-weight: 700;")
        self.qr = QLabel()
        self.qr.setObjectName("hallQr")
        self.qr.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.help = QLabel(
            _(
                "Connect this PC to the hall's Wi-Fi (or start its hotspot) and pick that network's address. "
                "Players scan the QR on their table's score sheet to enter the result; this address shows "
                "the pairings, the standings and the table call."
            )
        )
        self.help.setWordWrap(True)
        self.help.setStyleSheet(themed("color: #444;"))
        form = QFormLayout()
        form.addRow(_("Network address"), self.address)
        form.addRow(_("Port"), self.port)
        left = QVBoxLayout()
        left.addWidget(self.toggle)
        left.addLayout(form)
        left.addWidget(self.message)
        left.addWidget(self.help)
        left.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(self.url, 0, Qt.AlignmentFlag.AlignHCenter)
        right.addWidget(self.qr, 1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.addLayout(left, 1)
        layout.addLayout(right, 1)
        self.fill_addresses()
        self.toggle.toggled.connect(self._toggled)
        self.entry.changed.connect(self.show_state)
        self.show_state()

    def fill_addresses(self) -> None:
        addresses = phones.local_addresses()
        self.address.clear()
        for a in addresses:
            label = a + ("  " + _("(this PC only)") if a == "127.0.0.1" else "")
            self.address.addItem(label, a)

    def _toggled(self, on: bool) -> None:
        if on and not self.entry.running:
            self.switch_on()
        elif not on and self.entry.running:
            self.switch_off()

    def switch_on(self) -> bool:
        host = str(self.address.currentData() or "127.0.0.1")
        port = int(self.port.value())
        try:
            hall = self.entry.start(host, port)
        except ServiceError as exc:
            self._say(exc.message, error=True)
            self._set_checked(False)
            return False
        notes = []
        if host == "127.0.0.1":
            notes.append(
                _(
                    "No network chosen: only this PC can open the address. Connect to the hall's Wi-Fi, "
                    "then pick its address."
                )
                if self.address.count() > 1
                else _(
                    "No network found: only this PC can open the address. Connect this PC to the hall's "
                    "Wi-Fi or start its hotspot, then switch on again."
                )
            )
        if not answers(hall):
            blocked = _("The server started but does not answer on {url}: a firewall may block port {port}.")
            notes.append(blocked.format(url=hall, port=port))
        done = _("Table entry is on: phones on the hall's network can open the address.")
        self._say(" ".join(notes) or done, error=bool(notes))
        self.show_state()
        return True

    def switch_off(self) -> None:
        self.entry.stop()
        self._say(_("Table entry is off."))
        self.show_state()

    def _say(self, text: str, error: bool = False) -> None:
        self.message.setText(text)
        self.message.setStyleSheet(themed("color: #b00020;" if error else "color: #14532d;"))

    def _set_checked(self, on: bool) -> None:
        self.toggle.blockSignals(True)
        self.toggle.setChecked(on)
        self.toggle.blockSignals(False)

    def show_state(self) -> None:
        running = self.entry.running and self.entry.base is not None
        self._set_checked(running)
        self.address.setEnabled(not running)
        self.port.setEnabled(not running)
        if running and self.entry.base is not None:
            hall = phones.hall_url(self.entry.base)
            self.url.setText(hall)
            self.qr.setPixmap(qr_pixmap(hall))
            self.qr.setToolTip(hall)
        else:
            self.url.setText("")
            self.qr.clear()
