"""Data safety in the window (issue 23): F2 by PIN once accounts exist, a scorer sees only the night's
screens, backups made and restored from Settings, the first account created from Settings."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLineEdit, QListWidget, QMessageBox, QPushButton

from clubdesk.services.club import safety, settings, staff
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.storage import Database
from clubdesk.ui.club.safety_panel import PinDialog
from clubdesk.ui.shell.main_window import MainWindow
from clubdesk.ui.shell.state import DeskState
from tests.ui.conftest import show_active
from tests.waits import READY_MS

SEC = Actor("Sekretaris", Role.SECRETARY)


def _window(qtbot, db: Database) -> MainWindow:  # type: ignore[no-untyped-def]
    window = MainWindow(DeskState(db, SEC))
    show_active(qtbot, window)
    return window


def _visible_sections(window: MainWindow) -> list[str]:
    nav = window.findChild(QListWidget, "navigation")
    return [
        str(nav.item(i).data(Qt.ItemDataRole.UserRole))
        for i in range(nav.count())
        if not nav.item(i).isHidden()
    ]


def test_f2_asks_for_a_pin_and_a_wrong_one_switches_nobody(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    staff.add_staff(db, SEC, "Sekretaris", "secretary", "1234")
    staff.add_staff(db, SEC, "Ayu", "scorer", "5555")
    window = _window(qtbot, db)
    results: list[str] = []

    def type_pin(pin: str) -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, PinDialog):
            results.append("no pin dialog")
            if dialog is not None:
                dialog.close()
            return
        dialog.name.setCurrentIndex(dialog.name.findData("Ayu"))
        qtbot.keyClicks(dialog.pin, pin)
        qtbot.keyClick(dialog.pin, Qt.Key.Key_Return)
        results.append(dialog.error.text())
        if dialog.isVisible():
            dialog.reject()

    QTimer.singleShot(50, lambda: type_pin("0000"))
    qtbot.keyClick(window, Qt.Key.Key_F2)
    assert results == ["Wrong PIN for Ayu."]
    assert window.state.actor == SEC

    results.clear()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=READY_MS)
    QTimer.singleShot(50, lambda: type_pin("5555"))
    qtbot.keyClick(window, Qt.Key.Key_F2)
    assert results == [""]
    assert window.state.actor == Actor("Ayu", Role.SCORER)
    # a scorer's session shows only the night's screens, and their shortcuts do nothing
    # (issue 21: the Ratings are public, a scorer sees them too; the player card hides incidents from him)
    assert _visible_sections(window) == ["desk", "rounds", "standings", "ratings", "discipline"]
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert window.current_section() != "members"


def test_backup_now_and_restore_from_settings(qtbot, db: Database, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    settings.put(db, SEC, "club.name", "Before")
    window = _window(qtbot, db)
    window.show_section("settings")
    panel = window.pages["settings"].safety
    panel.findChild(QPushButton, "backupNow").click()
    assert "check: ok" in panel.message.text()
    backups = panel.findChild(QListWidget, "backupsList")
    assert backups.count() == 1
    settings.put(db, SEC, "club.name", "After")
    backups.setCurrentRow(0)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    panel.findChild(QPushButton, "restoreBackup").click()
    assert settings.get(db, "club.name") == "Before"
    assert "Restored" in panel.message.text()
    assert backups.count() == 2  # the database as it was before the restore is kept too
    kept = next(db.backups_dir.glob("*-before-restore.sqlite3"))
    assert str(kept) in panel.message.text()  # where the replaced file is kept, in full


def test_first_account_is_the_secretary_and_then_acts(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    window = _window(qtbot, db)
    window.show_section("settings")
    panel = window.pages["settings"].safety
    panel.findChild(QLineEdit, "staffName").setText("Ibu Sari")
    panel.findChild(QLineEdit, "staffPin").setText("12")
    panel.findChild(QPushButton, "staffAdd").click()
    assert panel.message.text() == "A PIN is 4 to 12 digits."
    assert staff.list_staff(db) == []
    panel.findChild(QLineEdit, "staffPin").setText("2468")
    panel.findChild(QPushButton, "staffAdd").click()
    assert [(p.name, p.role) for p in staff.list_staff(db)] == [("Ibu Sari", Role.SECRETARY)]
    assert window.state.actor == Actor("Ibu Sari", Role.SECRETARY)
    assert "Ibu Sari" in window.actor_label.text()


def test_auto_backup_skips_quiet_periods(db: Database) -> None:
    from clubdesk.ui.club.safety_panel import AutoBackup

    state = DeskState(db, SEC)
    auto = AutoBackup(state)
    auto.run("open")
    auto.run("auto", only_if_changed=True)  # nothing changed: no second copy
    assert len(safety.backups(db)) == 1
    settings.put(db, SEC, "club.name", "Changed")
    auto.run("auto", only_if_changed=True)
    assert len(safety.backups(db)) == 2


def test_the_opening_backup_runs_beside_the_desk(db: Database) -> None:
    """Issue 22: the opening backup is made on a thread of its own (at a million hand entries it takes
    seconds); the closing one waits for it, and quiet periods are still skipped."""
    from clubdesk.ui.club.safety_panel import AutoBackup

    state = DeskState(db, SEC)
    auto = AutoBackup(state)
    auto.start()
    auto.timer.stop()
    auto.wait()
    assert len(safety.backups(db)) == 1
    auto.run_later("auto", only_if_changed=True)  # nothing changed since: no second copy
    auto.wait()
    assert len(safety.backups(db)) == 1
    settings.put(db, SEC, "club.name", "Changed")
    auto.run_later("auto", only_if_changed=True)
    auto.run("close")  # waits for the one running, then makes its own
    assert len(safety.backups(db)) == 3


def test_the_window_asks_before_creating_a_new_database(qtbot, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QMessageBox

    from clubdesk import app

    asked: list[str] = []

    def no(*args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(args[2])
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", no)
    target = tmp_path / "typo.sqlite3"
    assert app.main(["--db", str(target)]) == 1
    assert len(asked) == 1 and str(target) in asked[0]
    assert not target.exists()  # nothing created


def test_a_one_person_club_is_offered_its_first_account(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    window = _window(qtbot, db)
    offer = window.findChild(QPushButton, "staffOffer")
    assert offer.isVisible()
    offer.click()
    assert window.current_section() == "settings"
    panel = window.pages["settings"].safety
    panel.findChild(QLineEdit, "staffName").setText("Ibu Sari")
    panel.findChild(QLineEdit, "staffPin").setText("2468")
    panel.findChild(QPushButton, "staffAdd").click()
    assert not offer.isVisible()  # accounts exist: F2 and the start ask for a PIN from now on
