"""``clubdesk``: the desktop window. ``clubdesk --demo`` opens the demo club."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from clubdesk import i18n
from clubdesk.i18n import _

log = logging.getLogger("clubdesk.app")


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The window's options; ``--help`` and wrong usage speak the ``--lang`` given (or CLUBDESK_LANG)."""
    import os

    from clubdesk.cli import argparse_i18n
    from clubdesk.cli.core import db_target, pre_lang

    i18n.set_language(pre_lang(list(argv)) or os.environ.get("CLUBDESK_LANG") or "en")
    argparse_i18n.install()
    parser = argparse.ArgumentParser(prog="clubdesk", description=_("ClubDesk desktop application."))
    parser.add_argument("--db", type=db_target, help=_("database file or club server URL to open"))
    parser.add_argument("--demo", action="store_true", help=_("open the demo club (a separate database)"))
    parser.add_argument("--lang", default=None, help=_("language: en, id, es, tr"))
    # hidden, for smoke tests of a built installer (installer/smoke.py): close the window after N seconds
    parser.add_argument("--quit-after", type=float, default=None, metavar="SECONDS", help=argparse.SUPPRESS)
    return parser.parse_args(list(argv))


def _show_database_refusals(window: object) -> None:
    """A database refusal that a screen did not catch itself (the club server unreachable or busy) is
    shown to the person, never lost in a log: the entry was not saved and they type it again."""
    from PySide6.QtWidgets import QMessageBox

    from clubdesk.storage import DatabaseError

    previous = sys.excepthook

    def hook(kind, value, tb):  # type: ignore[no-untyped-def]
        if isinstance(value, DatabaseError):
            log.warning("refused: %s", value)
            QMessageBox.warning(window, _("ClubDesk"), str(value))  # type: ignore[arg-type]
            return
        previous(kind, value, tb)

    sys.excepthook = hook


OPENING_BACKUP_AFTER_MS = 1500


@contextmanager
def plain_imports() -> Iterator[None]:
    """Python's own import machinery while the window starts, until the first section shows its data.

    PySide replaces ``builtins.__import__`` with a hook that reads the source text of every module imported
    after it, looking for ``from __feature__ import`` (PySide's opt-in snake_case / true_property names):
    about 0.2 ms a module, 65-80 ms for the ~450 modules of the window, SQLAlchemy, the models and the
    services. No ClubDesk module opts in (``tests/ui/test_shell_first.py``), and a module the hook
    has not seen gets PySide's default names, which is what the scan would find for it. Without PySide's
    hook (not imported yet, another PySide) nothing changes."""
    import builtins

    hooked = builtins.__import__
    original = getattr(builtins, "__orig_import__", None)
    if original is None or hooked is original:
        yield
        return
    builtins.__import__ = original
    try:
        yield
    finally:
        builtins.__import__ = hooked


def open_database(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from clubdesk import paths
    from clubdesk.storage import Database

    if args.db is not None:
        if isinstance(args.db, str):  # a club server
            from clubdesk.server import password_for_url

            return Database(args.db, backups_dir=paths.backups_dir(), password=password_for_url(args.db))
        return Database(args.db)
    if not args.demo:
        from clubdesk.ui.club.server_dialog import open_chosen_server

        chosen = open_chosen_server()  # Settings "Connect to club server…" chose one for this PC
        if chosen is not None:
            return chosen
    path = paths.demo_db_path() if args.demo else paths.default_db_path()
    db = Database(path, backups_dir=paths.backups_dir())
    if args.demo:
        import importlib.util

        if importlib.util.find_spec("clubdesk.services.demo") is not None:
            from clubdesk.services import demo

            demo.ensure_demo(db)
    return db


def confirm_new_file(path: Path) -> bool:
    """Ask before creating a new, empty club database at ``path`` (a mistyped ``--db`` is the usual cause)."""
    from PySide6.QtWidgets import QMessageBox

    answer = QMessageBox.question(
        None,
        _("ClubDesk"),
        _("{path} does not exist. Create a new, empty club database there?").format(path=path),
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes


def main(argv: Sequence[str] | None = None) -> int:
    import PySide6.QtCore  # noqa: F401 - PySide's import hook first, so that plain_imports sets it aside

    with plain_imports():
        return _run(sys.argv[1:] if argv is None else argv)


def _run(argv: Sequence[str]) -> int:
    from clubdesk import paths

    args = parse_args(argv)
    paths.setup_logging()
    from PySide6.QtWidgets import QApplication, QMessageBox

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("ClubDesk")
    from clubdesk.ui.shell.letters import use_whole_letters
    from clubdesk.ui.shell.theme import load_fonts

    use_whole_letters(app)  # no clipped İ, Ö, Ñ in tabs
    load_fonts()  # the bundled DejaVu fonts: every glyph the screens use exists (✔, –, ş, ñ …)
    i18n.set_language(args.lang or "en")
    dangling = isinstance(args.db, Path) and args.db.is_symlink()  # refused by name when opened, below
    if isinstance(args.db, Path) and not args.db.exists() and not dangling and not confirm_new_file(args.db):
        return 1  # a mistyped --db does not silently start a new club
    from clubdesk.ui.shell.main_window import MainWindow

    # the window's shell is painted first; SQLAlchemy and the database load after it
    window = MainWindow()
    window.show()
    app.processEvents()
    from clubdesk.services import club
    from clubdesk.storage import DatabaseError
    from clubdesk.ui.shell.qt_i18n import install_qt_translator

    try:
        db = open_database(args)
    except DatabaseError as exc:
        QMessageBox.critical(None, _("ClubDesk"), str(exc))
        return 1
    lang = args.lang or club.club_settings(db).language
    i18n.set_language(lang)
    install_qt_translator(app, lang)
    missing = i18n.missing_catalog_warning(lang)
    if missing:  # never silently English: said on stderr and in the status bar
        log.warning("%s", missing)
        print(missing, file=sys.stderr)
        window.statusBar().showMessage(missing)
    if db.read_only:  # a club file on a read-only medium: said for as long as it is open
        from PySide6.QtWidgets import QLabel

        text = _("{path} is read-only: it is open for reading only; nothing can be saved.").format(
            path=db.path
        )
        label = QLabel(text)
        label.setToolTip(text)  # whole even when a narrow window cuts the status bar short
        window.statusBar().addPermanentWidget(label)
    from clubdesk.services import club
    from clubdesk.ui.club.safety_panel import AutoBackup, PinDialog
    from clubdesk.ui.shell.state import DeskState

    state = DeskState(db)
    if club.has_accounts(db):  # from the first account on, the desk opens for a person proved by PIN
        login = PinDialog(db)
        if login.exec() != PinDialog.DialogCode.Accepted or login.actor is None:
            db.close()
            return 0
        state.actor = login.actor
    backups = AutoBackup(state, app)  # on opening, every 30 minutes with changes, on closing
    # the opening backup once the first section shows its data, not before
    from PySide6.QtCore import QTimer

    QTimer.singleShot(OPENING_BACKUP_AFTER_MS, backups.start)
    app.aboutToQuit.connect(lambda: backups.run("close"))
    window.attach(state)
    from clubdesk.ui.shell.live_refresh import LiveRefresh

    live = LiveRefresh(state, app)  # other desks' changes on a club server, live
    live.status.connect(lambda text: window.statusBar().showMessage(text))
    live.start()
    app.aboutToQuit.connect(live.stop)
    _show_database_refusals(window)
    log.info("opened %s", db.location)
    if args.quit_after is not None and args.quit_after >= 0:
        QTimer.singleShot(int(args.quit_after * 1000), window.close)
        QTimer.singleShot(int(args.quit_after * 1000) + 200, app.quit)
    code = int(app.exec())
    # a clean shutdown: the next start needs no full integrity check; the database in use,
    # which Settings may have switched
    state.db.close()
    return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
