"""The projector view for the hall: :class:`ProjectorWindow` on the second screen and
:class:`ProjectorControl` at the desk, opened from the main window's View › Projector… (Ctrl+Shift+P)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QMainWindow, QMenu

from clubdesk.i18n import _

if TYPE_CHECKING:
    from clubdesk.ui.publishing.projector.control import ProjectorControl
    from clubdesk.ui.publishing.projector.window import ProjectorWindow

SHORTCUT = "Ctrl+Shift+P"

__all__ = ["ProjectorControl", "ProjectorWindow", "install_projector_menu", "open_projector"]


def __getattr__(name: str) -> Any:
    """The control and the window (and the services and reports they use) load when first used, not with
    the main window's menu; ``from clubdesk.ui.publishing.projector import ProjectorControl`` still works."""
    if name in ("ProjectorControl", "ScreenDialog", "place_on"):
        from clubdesk.ui.publishing.projector import control

        return getattr(control, name)
    if name == "ProjectorWindow":
        from clubdesk.ui.publishing.projector import window

        return window.ProjectorWindow
    raise AttributeError(name)


def open_projector(window: QMainWindow, *, ask_screen: bool = True) -> ProjectorControl | None:
    """Open the projector (or bring its control forward when it is open already); None when cancelled."""
    from clubdesk.ui.publishing.projector.control import ProjectorControl, ScreenDialog, place_on
    from clubdesk.ui.publishing.projector.window import ProjectorWindow

    control: ProjectorControl | None = getattr(window, "projector_control", None)
    if control is not None and control.projector.isVisible():
        control.show()
        control.raise_()
        control.activateWindow()
        return control
    screen, full = None, False
    if ask_screen:
        dialog = ScreenDialog(window)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        screen, full = dialog.chosen()
    if control is None:  # one projector and one control per window, opened again after a close
        state = window.state  # type: ignore[attr-defined]
        control = ProjectorControl(state, ProjectorWindow(state, window), window)
        window.projector_control = control  # type: ignore[attr-defined]
    else:
        control.reload_events()
    place_on(control.projector, screen, full)
    control.show()
    return control


class _Retitle(QObject):
    """The menu's words in the new language when the window switches language (Qt's LanguageChange)."""

    def __init__(self, window: QMainWindow, menu: QMenu, action: QAction) -> None:
        super().__init__(window)
        self.menu, self.action = menu, action
        self.retitle()
        window.installEventFilter(self)

    def retitle(self) -> None:
        self.menu.setTitle(_("View"))
        self.action.setText(_("Projector…"))
        self.action.setToolTip(
            _("The hall's screen: pairings, standings, bracket, countdown ({key})").format(key=SHORTCUT)
        )

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.LanguageChange:
            self.retitle()
            if isinstance(watched, QMainWindow):
                renew_control(watched)
        return False


def renew_control(window: QMainWindow) -> None:
    """The projector's control built again in the window's new language, on the same hall window (which
    keeps showing: it follows the language itself)."""
    from clubdesk.ui.publishing.projector.control import ProjectorControl

    old: ProjectorControl | None = getattr(window, "projector_control", None)
    if old is None:
        return
    shown, geometry = old.isVisible(), old.geometry()
    fresh = ProjectorControl(old.state, old.projector, window)
    window.projector_control = fresh  # type: ignore[attr-defined]
    old.hide()  # not closed: closing the control closes the hall's window
    old.deleteLater()
    fresh.setGeometry(geometry)
    fresh.setVisible(shown)


def install_projector_menu(window: QMainWindow) -> QAction:
    """View › Projector… in the main window's menu bar, with its shortcut."""
    menu = window.menuBar().addMenu("")
    menu.setObjectName("viewMenu")
    action = QAction(window)
    action.setObjectName("openProjector")
    action.setShortcut(QKeySequence(SHORTCUT))
    action.triggered.connect(lambda: open_projector(window))
    menu.addAction(action)
    _Retitle(window, menu, action)
    return action
