"""The main window: a sidebar of sections, the section's screen, and a status bar.

Keyboard: Ctrl+1 … Ctrl+9 and Ctrl+0 open the ten sections in sidebar order (no section uses them) and put
the focus in the section's first field; F2 switches the acting person (F2 then Enter picks the previous person
at once); Ctrl+PgDown / Ctrl+PgUp move between a section's tabs; Tab leaves a table
(``ui/shell/shortcuts.py``); F1 (and Help › User guide) opens the user guide at the page of the section in
use, in the window's language.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QRect, Qt, QTimer, QUrl
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDesktopServices,
    QGuiApplication,
    QKeySequence,
    QShortcut,
)
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clubdesk import i18n
from clubdesk.i18n import LANGUAGE_NAMES, _
from clubdesk.ui.shell.letters import use_whole_letters
from clubdesk.ui.shell.none_refs import keep_none
from clubdesk.ui.shell.sections import SECTIONS, Section, load_factory
from clubdesk.ui.shell.shortcuts import first_field, leave_tables_by_tab, tab_pages
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.widgets.fit import fit_combos

# the window's shell paints before SQLAlchemy is imported; what needs the database (the
# services, the desk state) is imported where it is used, once the database is open
if TYPE_CHECKING:
    from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.actor_dialog import ActorDialog

GEOMETRY_KEY = "ui.geometry"
DEFAULT_SIZE = (1200, 780)
FRAME_ALLOWANCE = (16, 40)  # what the window manager's frame and title bar take, about

STYLE = """
QListWidget#navigation { background: #1f2a37; color: #e5e7eb; border: none; font-size: 12pt; }
QListWidget#navigation::item { padding: 10px 14px; }
QListWidget#navigation::item:selected { background: #2563eb; color: white; }
QStatusBar { background: palette(alternate-base); color: palette(window-text); }
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
        soon.setStyleSheet(themed("color: #666;"))
        for w in (title, text, soon):
            layout.addWidget(w)
        layout.addStretch(2)


# Sections a scorer's session does not show: the secretary's and the organiser's screens.
SECRETARY_SECTIONS = frozenset({"members", "events", "season", "reports", "settings"})


class _Pages(Mapping[str, QWidget]):
    """``window.pages[key]``: a section's screen, built when first asked for."""

    def __init__(self, window: MainWindow) -> None:
        self._window = window

    def __getitem__(self, key: str) -> QWidget:
        if key not in self._window._holders:
            raise KeyError(key)
        return self._window._page(key)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._window._holders))

    def __len__(self) -> int:
        return len(self._window._holders)


def section_digit(index: int) -> int:
    """The digit of the sidebar's Ctrl+digit for the section at ``index``: 1 … 9, then 0 for the tenth."""
    return (index + 1) % 10


class MainWindow(QMainWindow):
    """``MainWindow(state)``: the whole window. ``MainWindow()``: its shell (the sidebar and the status bar)
    to paint while the database opens, then :meth:`attach` gives it the desk state."""

    state: DeskState

    def __init__(self, state: DeskState | None = None) -> None:
        super().__init__()
        keep_none()  # the night's hands do not run None's references out (PySide6 6.12, Python 3.11)
        self.setObjectName("mainWindow")
        self.nav = QListWidget()
        self.nav.setObjectName("navigation")
        self.nav.setFixedWidth(190)
        app = QApplication.instance()
        if isinstance(app, QApplication):  # the window's tabs keep İ and Ö whole however it was started
            use_whole_letters(app)
        self.setStyleSheet(themed(STYLE))
        self.stack = QStackedWidget()
        self._holders: dict[str, QScrollArea] = {}
        self._built: dict[str, QWidget] = {}
        self.pages = _Pages(self)
        self._build_sections()
        for i in range(min(len(SECTIONS), 10)):
            shortcut = QShortcut(QKeySequence(f"Ctrl+{section_digit(i)}"), self)
            shortcut.activated.connect(lambda i=i: self._open_row(i))
        self.nav.currentRowChanged.connect(self._open_section)
        central = QWidget()
        layout = QHBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.nav)
        layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)

        self.db_label = QLabel()
        self.db_label.setMinimumWidth(120)  # a long path is cut (whole in its tooltip), not who acts nor F2
        self.actor_label = QLabel()
        self.actor_label.setObjectName("actorLabel")
        self.statusBar().addWidget(self.db_label, 1)
        self.statusBar().addPermanentWidget(self.actor_label)
        # a one-person club is offered its first staff account (the secretary's)
        self.staff_offer = QPushButton(_("Create the first staff account…"))
        self.staff_offer.setObjectName("staffOffer")
        self.staff_offer.setFlat(True)
        self.staff_offer.clicked.connect(self.offer_staff_accounts)
        self.statusBar().addPermanentWidget(self.staff_offer)
        self.staff_offer.setVisible(False)
        QShortcut(QKeySequence("F2"), self).activated.connect(self.switch_actor)
        self._build_help_menu()
        self.nav.blockSignals(True)
        self.nav.setCurrentRow(0)
        self.nav.blockSignals(False)
        self._shell_language = i18n.current_language()
        app = QApplication.instance()
        if isinstance(app, QApplication):  # F1 in the window's dialogs too (modal ones)
            app.focusChanged.connect(self._f1_in_dialog)
        if state is None:
            self.fit_to_screen()
        else:
            self.attach(state)

    def attached(self) -> bool:
        return hasattr(self, "state")

    def attach(self, state: DeskState) -> None:
        """The database is open: the status, the role's sections, the saved geometry, the first screen."""
        self.state = state
        if i18n.current_language() != self._shell_language:  # the club's language, read from its database
            for i, section in enumerate(SECTIONS):
                self.nav.item(i).setText(_(section.title))
                if i < 10:
                    self.nav.item(i).setToolTip(_("Ctrl+{n}").format(n=section_digit(i)))
            self.staff_offer.setText(_("Create the first staff account…"))
        state.actorChanged.connect(lambda _a: self._refresh_status())
        state.actorChanged.connect(lambda _a: self._apply_role())
        state.dataChanged.connect(self._data_changed)
        state.databaseChanged.connect(self._database_changed)
        from clubdesk.ui.shell.event_status import EventInUse  # the one event the window works on

        self.event_in_use = EventInUse(state)
        self.event_in_use.openDesk.connect(lambda: self.show_section("desk"))
        self.statusBar().insertPermanentWidget(1, self.event_in_use)  # after the database
        self._refresh_status()
        # the shell paints first; the first section's screen is built right after
        self._apply_role()
        from clubdesk.ui.publishing.projector import install_projector_menu  # View › Projector…

        install_projector_menu(self)
        self._build_help_menu()  # Help stays the last menu
        # long re-ratings off the GUI
        from clubdesk.ui.ranking.ratings_catch_up import RatingsCatchUp

        self.ratings_catch_up = RatingsCatchUp(state, self.statusBar())
        self._restore_geometry()
        QTimer.singleShot(0, lambda: self._open_section(max(0, self.nav.currentRow())))

    def _build_help_menu(self) -> None:
        """Help › User guide (F1): the guide's page for the section in use."""
        old = getattr(self, "guide_action", None)
        if old is not None:  # a language switch builds the menu again: one F1 only
            self.removeAction(old)
            old.deleteLater()
        old_menu = getattr(self, "help_menu", None)
        if old_menu is not None:  # only Help: the other menus (View › Projector…) stay, Help goes last
            self.menuBar().removeAction(old_menu.menuAction())
            old_menu.deleteLater()
        menu = self.help_menu = self.menuBar().addMenu(_("Help"))
        self.guide_action = QAction(_("User guide"), self)
        self.guide_action.setObjectName("guideAction")
        self.guide_action.setShortcut(QKeySequence("F1"))
        self.guide_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.guide_action.triggered.connect(lambda _checked=False: self.open_guide())
        menu.addAction(self.guide_action)
        self.addAction(self.guide_action)  # F1 works while the menu is closed

    def _f1_in_dialog(self, _old: QWidget | None, new: QWidget | None) -> None:
        """A dialog of this window gets the focus: F1 there opens the guide at the section's page too (the
        window's own shortcut does not reach a modal dialog)."""
        top = new.window() if new is not None else None
        if not isinstance(top, QDialog) or top.property("clubdesk_f1"):
            return
        parent = top.parentWidget()
        while parent is not None and parent is not self:
            parent = parent.parentWidget()
        if parent is None:
            return  # a dialog of another window
        top.setProperty("clubdesk_f1", True)
        QShortcut(QKeySequence("F1"), top, lambda: self.open_guide())

    def open_guide(self) -> str | None:
        """Open the built guide at the current section's page in the window's language; the URL opened,
        or None (and a message in the status bar) when the guide has not been built; a guide installed
        without its screenshots is opened, and the status bar says its pictures are blank."""
        from clubdesk.guide import guide_dir, page_url, pictures_missing, without_pictures

        url = page_url(self.current_section(), i18n.current_language())
        if url is None:
            self.statusBar().showMessage(
                _("The user guide is not installed: build it with scripts/dev.sh guide."), 10000
            )
            return None
        QDesktopServices.openUrl(QUrl(url))
        folder = guide_dir(i18n.current_language())
        if folder is not None and pictures_missing(folder):
            self.statusBar().showMessage(without_pictures(), 10000)
        return url

    def _open_section(self, row: int) -> None:
        if not self.attached():
            return  # the shell: the database is still opening
        self._show_row(row)
        self.focus_section()

    def focus_section(self) -> None:
        """The focus goes into the section just opened (its own ``focus_first`` or its first field), so its
        keys work at once and the sidebar keeps only Ctrl+1 … Ctrl+0."""
        page = self.current_page()
        if page is None:
            return
        own = getattr(page, "focus_first", None)
        if callable(own):
            own()
            return
        field = first_field(page)
        (field or page).setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _open_row(self, row: int) -> None:
        if not self.nav.item(row).isHidden():
            self.nav.setCurrentRow(row)

    def _build_sections(self) -> None:
        """The sidebar's items and an empty holder per section, in the language in force; a section's
        screen is built when it is first shown (the window paints before eight screens exist)."""
        for i, section in enumerate(SECTIONS):
            item = QListWidgetItem(_(section.title))
            item.setData(Qt.ItemDataRole.UserRole, section.key)
            if i < 10:
                item.setToolTip(_("Ctrl+{n}").format(n=section_digit(i)))
            self.nav.addItem(item)
            # each section scrolls inside the window, so a small screen still shows all of it
            holder = QScrollArea()
            holder.setWidgetResizable(True)
            holder.setFrameShape(QFrame.Shape.NoFrame)
            self._holders[section.key] = holder
            self.stack.addWidget(holder)

    def _page(self, key: str) -> QWidget:
        """The section's screen, built on first use."""
        page = self._built.get(key)
        if page is None:
            section = next(s for s in SECTIONS if s.key == key)
            factory = load_factory(section)
            page = factory(self.state) if factory is not None else EmptySection(section)
            page.setObjectName(f"section_{section.key}")
            fit_combos(page)  # a long event or member name never widens the screen (1366×768)
            leave_tables_by_tab(page)
            tab_widgets = page.findChildren(QTabWidget)
            if tab_widgets:  # a section's tabs: Ctrl+PgDown / Ctrl+PgUp from anywhere in the section
                tab_pages(tab_widgets[0], page)
            self._built[key] = page
            self._holders[key].setWidget(page)
        return page

    def _show_row(self, row: int) -> None:
        if not self.attached():
            return
        if 0 <= row < len(SECTIONS):
            self._page(SECTIONS[row].key)
        self.stack.setCurrentIndex(row)

    def _data_changed(self, what: str) -> None:
        from clubdesk.services import club as club_service

        if what != "settings":
            return
        lang = club_service.club_settings(self.state.db).language
        if lang != i18n.current_language():
            # after the Settings screen's own slot has returned: that screen is rebuilt too
            QTimer.singleShot(0, lambda: self.set_language(lang))

    def set_language(self, lang: str) -> None:
        """Switch the whole window to ``lang`` without a restart: Qt's own dialogs get their catalog and every
        section is built again in the new language, on the section that was open."""
        from PySide6.QtWidgets import QApplication

        from clubdesk.ui.shell.qt_i18n import install_qt_translator

        i18n.set_language(lang)
        app = QApplication.instance()
        if app is not None:
            install_qt_translator(app, lang)
        self._rebuild()
        missing = i18n.missing_catalog_warning(lang)
        if missing:
            self.statusBar().showMessage(missing)
            return
        self.statusBar().showMessage(_("Language: {name}").format(name=LANGUAGE_NAMES.get(lang, lang)), 8000)

    def _database_changed(self, _db: object) -> None:
        """Another database (the club server or this PC's file) without a restart: every screen is
        built again on it (in its club's language), on the section that was open; after the slot that
        switched has returned, since that slot's screen is rebuilt too."""
        QTimer.singleShot(0, self._on_new_database)

    def _on_new_database(self) -> None:
        from clubdesk.services import club as club_service

        lang = club_service.club_settings(self.state.db).language
        if lang != i18n.current_language():
            self.set_language(lang)
        else:
            self._rebuild()
        self.statusBar().showMessage(_("Now using {where}.").format(where=self.state.db.location), 8000)

    def _rebuild(self) -> None:
        key = self.current_section()
        self.nav.blockSignals(True)
        self.nav.clear()
        old = [self.stack.widget(i) for i in range(self.stack.count())]
        for holder in old:
            self.stack.removeWidget(holder)
            holder.setParent(None)  # out of the window at once; Qt deletes it when control returns
            holder.deleteLater()
        self._holders.clear()
        self._built.clear()
        self._build_sections()
        self._build_help_menu()
        self.nav.blockSignals(False)
        self.show_section(key or SECTIONS[0].key)
        self._show_row(max(0, self.nav.currentRow()))
        self.focus_section()
        self._refresh_status()
        self._apply_role()  # a scorer's session still shows only the night's screens

    def current_page(self) -> QWidget | None:
        """The section's own widget (inside the scroll area that holds it)."""
        key = self.current_section()
        if key in self._holders:
            self._show_row(self.nav.currentRow())  # built now if the window has not got to it yet
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
        from clubdesk.services import club as club_service

        club = club_service.club_settings(self.state.db).club_name
        self.setWindowTitle(_("ClubDesk — {club}").format(club=club))
        self.db_label.setText(_("Database: {path}").format(path=self.state.db.location))
        self.db_label.setToolTip(self.db_label.text())
        self.actor_label.setText(_("Acting: {actor}  (F2 to switch)").format(actor=self.state.actor.label()))
        self.staff_offer.setText(_("Create the first staff account…"))  # in the language in force
        self.event_in_use.refresh()
        self.staff_offer.setVisible(not club_service.has_accounts(self.state.db))

    def offer_staff_accounts(self) -> None:
        """Settings, with the cursor in the new person's name (the first account is the secretary's)."""
        self.show_section("settings")
        field = self.pages["settings"].findChild(QLineEdit, "staffName")
        if field is not None:
            field.setFocus()

    def switch_actor(self) -> None:
        if not self.attached():
            return
        from clubdesk.services import club as club_service
        from clubdesk.ui.club.safety_panel import PinDialog

        if club_service.has_accounts(self.state.db):  # from the first account on, a person proves it by PIN
            pin_dialog = PinDialog(self.state.db, self.state.actor, self)
            if pin_dialog.exec() == QDialog.DialogCode.Accepted and pin_dialog.actor is not None:
                self.state.set_actor(pin_dialog.actor)
            return
        dialog = ActorDialog(self.state, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.state.set_actor(dialog.chosen())

    def _apply_role(self) -> None:
        """A scorer's session shows only the night's screens."""
        from clubdesk.services.kernel import Role

        scorer = self.state.actor.role is Role.SCORER
        for row in range(self.nav.count()):
            item = self.nav.item(row)
            item.setHidden(scorer and item.data(Qt.ItemDataRole.UserRole) in SECRETARY_SECTIONS)
        current = self.nav.currentItem()
        if current is not None and current.isHidden():
            self.show_section("rounds")

    def _restore_geometry(self) -> None:
        from clubdesk.services import club as club_service

        raw = club_service.get(self.state.db, GEOMETRY_KEY)
        if isinstance(raw, str) and self.restoreGeometry(QByteArray(base64.b64decode(raw))):
            if self.available().contains(self.geometry()):
                return
        self.fit_to_screen()

    def available(self) -> QRect:
        screen = self.screen() or QGuiApplication.primaryScreen()
        return screen.availableGeometry() if screen is not None else QRect(0, 0, 1200, 780)

    def fit_to_screen(self) -> None:
        """The window opens inside the screen's available area (a 1366×768 laptop, 150 % scaling): the
        default 1200×780, made smaller to fit, with room for the title bar, centred."""
        avail = self.available()
        frame = FRAME_ALLOWANCE
        width = min(DEFAULT_SIZE[0], avail.width() - frame[0])
        height = min(DEFAULT_SIZE[1], avail.height() - frame[1])
        self.resize(width, height)
        self.move(
            avail.x() + (avail.width() - width) // 2,
            avail.y() + max(0, (avail.height() - height - frame[1]) // 2),
        )

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        if self.attached():
            from clubdesk.services import club as club_service
            from clubdesk.ui.phones.phones_view import stop_table_entry

            stop_table_entry(self.state)  # the table server stops with the window
            if not self.state.db.read_only:  # a club file on a read-only medium keeps its geometry
                data = base64.b64encode(bytes(self.saveGeometry().data())).decode("ascii")
                club_service.put(self.state.db, self.state.actor, GEOMETRY_KEY, data, audited=False)
        super().closeEvent(event)
