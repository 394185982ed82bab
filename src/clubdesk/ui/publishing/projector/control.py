"""The desk's side of the projector: which screen, which event, what to show, how long
each page stays, and the announcement typed for the hall.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QCloseEvent, QGuiApplication, QScreen
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.services import club, publishing
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.publishing.projector.pages import KIND_LABELS, KINDS
from clubdesk.ui.publishing.projector.window import DEFAULT_SECONDS, ProjectorWindow
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.widgets.event_choice import EventChoice

SECONDS_KEY = "projector.seconds"


def screen_label(screen: QScreen) -> str:
    size = screen.geometry()
    return _("{name} ({width} × {height})").format(
        name=screen.name() or _("Screen"), width=size.width(), height=size.height()
    )


class ScreenDialog(QDialog):
    """The screen the projector opens on: the screens with their names and sizes; full screen when the
    machine has a second screen (on one screen it opens as a window, to try it out)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Projector: choose the screen"))
        self.setMinimumWidth(440)
        self.screens = list(QGuiApplication.screens())
        self.list = QListWidget()
        self.list.setObjectName("projectorScreens")
        primary = QGuiApplication.primaryScreen()
        for screen in self.screens:
            text = screen_label(screen)
            if screen is primary:
                text += "  " + _("(this desk's screen)")
            item = QListWidgetItem(text)
            self.list.addItem(item)
        others = [k for k, s in enumerate(self.screens) if s is not primary]
        self.list.setCurrentRow(others[0] if others else 0)
        self.full = QCheckBox(_("Full screen"))
        self.full.setObjectName("projectorFullScreen")
        self.full.setChecked(bool(others))
        hint = QLabel(
            _("Only one screen is connected: the projector opens in a window to try it out.")
            if not others
            else _("Pick the hall's screen (the projector or the TV).")
        )
        hint.setWordWrap(True)
        hint.setStyleSheet(themed("color: #1e3a8a;"))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(_("Screen")))
        layout.addWidget(self.list)
        layout.addWidget(hint)
        layout.addWidget(self.full)
        layout.addWidget(buttons)

    def chosen(self) -> tuple[QScreen | None, bool]:
        row = self.list.currentRow()
        screen = self.screens[row] if 0 <= row < len(self.screens) else None
        return screen, self.full.isChecked()


def place_on(window: QWidget, screen: QScreen | None, full: bool) -> None:
    """Show ``window`` on ``screen``: full screen, or as a window inside its free area."""
    if screen is not None:
        window.setScreen(screen)
        area = screen.availableGeometry()
        if full:
            window.setGeometry(screen.geometry())
        else:
            width, height = min(1280, area.width() - 40), min(720, area.height() - 60)
            window.setGeometry(area.x() + 20, area.y() + 30, width, height)
    if full:
        window.showFullScreen()
    else:
        window.showNormal()
    window.raise_()


class ProjectorControl(QWidget):
    """The desk-side control of the projector window (a small window of its own beside the main one)."""

    def __init__(self, state: DeskState, projector: ProjectorWindow, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.state = state
        self.projector = projector
        self.setObjectName("projectorControl")
        self.setWindowTitle(_("Projector control"))
        self.event_box = EventChoice(state, "projectorEvent")  # the window's event in use
        self.show_box = QComboBox()
        self.show_box.setObjectName("projectorShow")
        self.show_box.addItem(_("Everything in turn"), None)
        for kind in KINDS:
            self.show_box.addItem(_(KIND_LABELS[kind]), kind)
        self.seconds = QSpinBox()
        self.seconds.setObjectName("projectorSeconds")
        self.seconds.setRange(3, 300)
        self.seconds.setSuffix(" " + _("seconds"))
        stored = club.get(state.db, SECONDS_KEY, DEFAULT_SECONDS)
        self.seconds.setValue(stored if isinstance(stored, int) else DEFAULT_SECONDS)
        self.prev_button = QPushButton(_("◀ Previous page"))
        self.next_button = QPushButton(_("Next page ▶"))
        self.screen_button = QPushButton(_("Choose the screen…"))
        self.close_button = QPushButton(_("Close the projector"))
        self.text = QPlainTextEdit()
        self.text.setObjectName("projectorAnnouncement")
        self.text.setPlaceholderText(_("e.g. Round 3 starts at 20:15. Tea is served in the hall."))
        self.text.setFixedHeight(self.fontMetrics().height() * 4)
        self.text.setPlainText(publishing.announcement(state.db))
        self.announce = QPushButton(_("Show in the hall"))
        self.announce.setObjectName("projectorAnnounce")
        self.clear = QPushButton(_("Clear"))
        self.message = QLabel()
        self.message.setObjectName("projectorMessage")
        self.message.setWordWrap(True)
        self.empty = QLabel(
            _("No event yet: create one in Events; the projector then shows its rounds and standings.")
        )
        self.empty.setObjectName("projectorEmpty")
        self.empty.setWordWrap(True)
        self.empty.setStyleSheet(themed("color: #92400e;"))
        self.now_showing = QLabel()
        self.now_showing.setObjectName("projectorNow")
        self.now_showing.setWordWrap(True)

        form = QFormLayout()
        form.addRow(_("Event"), self.event_box)
        form.addRow(_("Show"), self.show_box)
        form.addRow(_("Each page stays"), self.seconds)
        pages = QHBoxLayout()
        pages.addWidget(self.prev_button)
        pages.addWidget(self.next_button)
        ann_buttons = QHBoxLayout()
        ann_buttons.addWidget(self.announce)
        ann_buttons.addWidget(self.clear)
        ann_buttons.addStretch(1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.screen_button)
        bottom.addStretch(1)
        bottom.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.empty)
        layout.addLayout(form)
        layout.addLayout(pages)
        layout.addWidget(self.now_showing)
        layout.addWidget(QLabel(_("Announcement for the hall")))
        layout.addWidget(self.text)
        layout.addLayout(ann_buttons)
        layout.addWidget(self.message)
        layout.addStretch(1)
        layout.addLayout(bottom)

        self.event_box.currentIndexChanged.connect(
            lambda _i: projector.set_event(self.event_box.currentData())
        )
        self.show_box.currentIndexChanged.connect(lambda _i: projector.set_only(self.show_box.currentData()))
        self.seconds.valueChanged.connect(self._seconds)
        self.prev_button.clicked.connect(projector.previous_page)
        self.next_button.clicked.connect(projector.next_page)
        self.announce.clicked.connect(self.send_announcement)
        self.clear.clicked.connect(self.clear_announcement)
        self.screen_button.clicked.connect(self.choose_screen)
        self.close_button.clicked.connect(self.close)
        projector.pageChanged.connect(self._now_showing)
        state.dataChanged.connect(self._data_changed)
        state.eventChanged.connect(self._event_in_use)
        projector.set_seconds(self.seconds.value())
        self.reload_events()
        self.resize(460, 420)

    def reload_events(self) -> None:
        """The club's events in the shared order, on the window's event in use."""
        self.event_box.reload()
        self.empty.setVisible(not self.event_box.events)
        self.projector.set_event(self.event_box.currentData())

    def _event_in_use(self, event_id: object) -> None:
        """The hall shows the window's event in use, even while this control is closed."""
        if event_id != self.projector.event_id:
            self.projector.set_event(event_id)  # type: ignore[arg-type]

    def _data_changed(self, what: str) -> None:
        if what == "events" and self.isVisible():
            self.reload_events()

    def _seconds(self, value: int) -> None:
        self.projector.set_seconds(value)
        club.put(self.state.db, self.state.actor, SECONDS_KEY, value, audited=False)

    def _now_showing(self) -> None:
        page = self.projector.current_page()
        if page is None:
            self.now_showing.setText("")
            return
        text = _("On the screen: {title}").format(title=page.title)
        if page.count > 1:
            text += " · " + _("page {n} of {m}").format(n=page.number, m=page.count)
        self.now_showing.setText(text)

    def send_announcement(self) -> None:
        try:
            shown = publishing.set_announcement(self.state.db, self.state.actor, self.text.toPlainText())
        except ServiceError as exc:
            self.message.setStyleSheet(themed("color: #b00020;"))
            self.message.setText(exc.message)
            return
        self.message.setStyleSheet(themed("color: #14532d;"))
        self.message.setText(_("Shown in the hall.") if shown else _("The announcement is cleared."))
        self.projector.reload()
        self.state.dataChanged.emit("projector")

    def clear_announcement(self) -> None:
        self.text.clear()
        self.send_announcement()

    def choose_screen(self) -> None:
        dialog = ScreenDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            place_on(self.projector, *dialog.chosen())

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        self.projector.close()
        super().closeEvent(event)
