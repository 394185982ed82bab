"""Qt's own dialogs (buttons, file dialogs) translated through the qtbase catalogs PySide6 ships."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

_installed: list[QTranslator] = []


def install_qt_translator(app: QCoreApplication, lang: str) -> bool:
    """Load ``qtbase_<lang>.qm``; returns False where Qt has no catalog (English needs none)."""
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    if lang in ("en", "xx"):
        return False
    translator = QTranslator(app)
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if translator.load(QLocale(lang), "qtbase", "_", folder):
        app.installTranslator(translator)
        _installed.append(translator)
        return True
    return False
