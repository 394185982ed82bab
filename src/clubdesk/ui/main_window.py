"""The main window: a sidebar of sections, the section's screen, and a status bar.

Keyboard: Ctrl+1 … Ctrl+8 open the sections in sidebar order; F2 switches the acting person (F2 then Enter
picks the previous person at once).
"""

from __future__ import annotations

import base64

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from clubdesk import i18n
from clubdesk.i18n import LANGUAGE_NAMES, _
from clubdesk.services import settings as settings_service
from clubdesk.services.base import ROLE_LABELS, Actor, Role
from clubdesk.ui.sections import SECTIONS, Section, load_factory
from clubdesk.ui.state import DeskState

GEOMETRY_KEY = "ui.geometry"

STYLE = """
QListWidget#navigation { background: #1f2a37; color: #e5e7eb; border: none; font-size: 12pt; }
QListWidget#navigation::item { padding: 10px 14px; }
QListWidget#navigation::item:selected { background: #2563eb; color: white; }
QStatusBar { background: #f3f4f6; }
QLabel#actorLabel { font-weight: 600; padding-right: 8px; }
"""


class EmptySection(QWidget):
    """What a section shows before its screen exists: what will be there."""

    def __init__(self, section: Section) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        title = QLabel(_(section.title))
        title.setObjectName("emptyTitle")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title.setStyleSheet("font-size: 20pt; font-weight: 600;")
        text = QLabel(_(section.empty_text))
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        text.setWordWrap(True)
        soon = QLabel(_("Nothing here yet."))
        soon.setAlignment(Qt.AlignmentFlag.AlignCenter)
        soon.setStyleSheet("color: #666;")
        for w in (title, text, soon):
            layout.addWidget(w)
        layout.addStretch(2)


# Sections a scorer's session does not show (issue 23): the secretary's and the organiser's screens.
SECRETARY_SECTIONS = frozenset({"members", "events", "reports", "settings"})


class ActorDialog(QDialog):
    """Who is acting at the desk now. The previous person is pre-selected, so F2, Enter switches back."""

    def __init__(self, state: DeskState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Who is acting?"))
        self.name = QComboBox()
        self.name.setEditable(True)
        self.role = QComboBox()
        for role in Role:
            self.role.addItem(_(ROLE_LABELS[role]), role)
        recent = state.recent_actors()
        others = [a for a in recent if a != state.actor]
        self._choices = others + [state.actor]
        for a in self._choices:
            self.name.addItem(a.name, a)
        self.name.currentIndexChanged.connect(self._sync_role)
        self._sync_role(0)
        form = QFormLayout()
        form.addRow(_("Name or initials"), self.name)
        form.addRow(_("Role"), self.role)
        self.error = QLabel("")
        self.error.setStyleSheet("color: #b00020;")
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
        actor = self.name.itemData(index)
        if isinstance(actor, Actor):
            self.role.setCurrentIndex(self.role.findData(actor.role))

    def accept(self) -> None:
        if not self.name.currentText().strip():
            self.error.setText(_("Type a name or initials."))
            return
        super().accept()

    def chosen(self) -> Actor:
        return Actor(self.name.currentText().strip(), Role(self.role.currentData()))


class MainWindow(QMainWindow):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.setObjectName("mainWindow")
        self.nav = QListWidget()
        self.nav.setObjectName("navigation")
        self.nav.setFixedWidth(190)
        self.setStyleSheet(STYLE)
        self.stack = QStackedWidget()
        self.pages: dict[str, QWidget] = {}
        self._build_sections()
        for i in range(len(SECTIONS)):
            shortcut = QShortcut(QKeySequence(f"Ctrl+{i + 1}"), self)
            shortcut.activated.connect(lambda i=i: self._open_row(i))
        self.nav.currentRowChanged.connect(self.stack.setCurrentIndex)
        central = QWidget()
        layout = QHBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.nav)
        layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)

        self.db_label = QLabel()
        self.actor_label = QLabel()
        self.actor_label.setObjectName("actorLabel")
        self.statusBar().addWidget(self.db_label, 1)
        self.statusBar().addPermanentWidget(self.actor_label)
        QShortcut(QKeySequence("F2"), self).activated.connect(self.switch_actor)
        state.actorChanged.connect(lambda _a: self._refresh_status())
        state.actorChanged.connect(lambda _a: self._apply_role())
        state.dataChanged.connect(self._data_changed)
        self._refresh_status()
        self.nav.setCurrentRow(0)
        self._apply_role()
        self._restore_geometry()

    def _open_row(self, row: int) -> None:
        if not self.nav.item(row).isHidden():
            self.nav.setCurrentRow(row)

    def _build_sections(self) -> None:
        """The sidebar's items and every section's screen, in the language in force."""
        for i, section in enumerate(SECTIONS):
            item = QListWidgetItem(_(section.title))
            item.setData(Qt.ItemDataRole.UserRole, section.key)
            item.setToolTip(_("Ctrl+{n}").format(n=i + 1))
            self.nav.addItem(item)
            factory = load_factory(section)
            page = factory(self.state) if factory is not None else EmptySection(section)
            page.setObjectName(f"section_{section.key}")
            self.pages[section.key] = page
            # each section scrolls inside the window, so a small screen still shows all of it
            holder = QScrollArea()
            holder.setWidgetResizable(True)
            holder.setFrameShape(QFrame.Shape.NoFrame)
            holder.setWidget(page)
            self.stack.addWidget(holder)

    def _data_changed(self, what: str) -> None:
        if what != "settings":
            return
        lang = settings_service.club_settings(self.state.db).language
        if lang != i18n.current_language():
            # after the Settings screen's own slot has returned: that screen is rebuilt too
            QTimer.singleShot(0, lambda: self.set_language(lang))

    def set_language(self, lang: str) -> None:
        """Switch the whole window to ``lang`` without a restart: Qt's own dialogs get their catalog and every
        section is built again in the new language, on the section that was open."""
        from PySide6.QtWidgets import QApplication

        from clubdesk.ui.qt_i18n import install_qt_translator

        i18n.set_language(lang)
        app = QApplication.instance()
        if app is not None:
            install_qt_translator(app, lang)
        key = self.current_section()
        self.nav.blockSignals(True)
        self.nav.clear()
        old = [self.stack.widget(i) for i in range(self.stack.count())]
        for holder in old:
            self.stack.removeWidget(holder)
            holder.setParent(None)  # out of the window at once; Qt deletes it when control returns
            holder.deleteLater()
        self.pages.clear()
        self._build_sections()
        self.nav.blockSignals(False)
        self.show_section(key or SECTIONS[0].key)
        self.stack.setCurrentIndex(max(0, self.nav.currentRow()))
        self._refresh_status()
        self._apply_role()  # a scorer's session still shows only the night's screens (issue 23)
        self.statusBar().showMessage(_("Language: {name}").format(name=LANGUAGE_NAMES.get(lang, lang)), 8000)

    def current_page(self) -> QWidget | None:
        """The section's own widget (inside the scroll area that holds it)."""
        holder = self.stack.currentWidget()
        return holder.widget() if isinstance(holder, QScrollArea) else holder

    def current_section(self) -> str:
        item = self.nav.currentItem()
        return str(item.data(Qt.ItemDataRole.UserRole)) if item else ""

    def show_section(self, key: str) -> None:
        for row in range(self.nav.count()):
            if self.nav.item(row).data(Qt.ItemDataRole.UserRole) == key:
                self.nav.setCurrentRow(row)
                return

    def _refresh_status(self) -> None:
        club = settings_service.club_settings(self.state.db).club_name
        self.setWindowTitle(_("ClubDesk — {club}").format(club=club))
        self.db_label.setText(_("Database: {path}").format(path=self.state.db.location))
        self.actor_label.setText(_("Acting: {actor}  (F2 to switch)").format(actor=self.state.actor.label()))

    def switch_actor(self) -> None:
        from clubdesk.services import staff
        from clubdesk.ui.safety_panel import PinDialog

        if staff.has_accounts(
            self.state.db
        ):  # issue 23: from the first account on, a person proves it by PIN
            pin_dialog = PinDialog(self.state.db, self.state.actor, self)
            if pin_dialog.exec() == QDialog.DialogCode.Accepted and pin_dialog.actor is not None:
                self.state.set_actor(pin_dialog.actor)
            return
        dialog = ActorDialog(self.state, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.state.set_actor(dialog.chosen())

    def _apply_role(self) -> None:
        """A scorer's session shows only the night's screens (issue 23)."""
        scorer = self.state.actor.role is Role.SCORER
        for row in range(self.nav.count()):
            item = self.nav.item(row)
            item.setHidden(scorer and item.data(Qt.ItemDataRole.UserRole) in SECRETARY_SECTIONS)
        current = self.nav.currentItem()
        if current is not None and current.isHidden():
            self.show_section("rounds")

    def _restore_geometry(self) -> None:
        raw = settings_service.get(self.state.db, GEOMETRY_KEY)
        if isinstance(raw, str):
            self.restoreGeometry(QByteArray(base64.b64decode(raw)))
        else:
            self.resize(1200, 780)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        data = base64.b64encode(bytes(self.saveGeometry().data())).decode("ascii")
        settings_service.put(self.state.db, self.state.actor, GEOMETRY_KEY, data, audited=False)
        super().closeEvent(event)
