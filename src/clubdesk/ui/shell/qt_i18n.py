"""Qt's own words (the wizard's Back/Next/Cancel, a button box's OK/Save/Yes/No, a message box's details, a
text field's menu) in the window's language: the qtbase catalogs PySide6 ships (es, tr, …), and for a language
it ships none of (Indonesian) ClubDesk's own small catalog of those words, in the seeds' terms."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

_installed: list[QTranslator] = []

# (Qt's context, Qt's English source) -> the word; the source strings are Qt's own (qwizard.cpp,
# qplatformtheme.cpp, qmessagebox.cpp, qwidgettextcontrol.cpp / qlineedit.cpp)
OWN_CATALOGS: dict[str, dict[tuple[str, str], str]] = {
    "id": {
        ("QWizard", "< &Back"): "< &Kembali",
        ("QWizard", "&Next >"): "&Lanjut >",
        ("QWizard", "&Finish"): "&Selesai",
        ("QWizard", "Cancel"): "Batal",
        ("QWizard", "Commit"): "Terapkan",
        ("QWizard", "&Help"): "&Bantuan",
        ("QWizard", "Go Back"): "Kembali",
        ("QWizard", "Continue"): "Lanjutkan",
        ("QWizard", "Done"): "Selesai",
        ("QPlatformTheme", "OK"): "OK",
        ("QPlatformTheme", "Save"): "Simpan",
        ("QPlatformTheme", "Save All"): "Simpan Semua",
        ("QPlatformTheme", "Open"): "Buka",
        ("QPlatformTheme", "&Yes"): "&Ya",
        ("QPlatformTheme", "Yes to &All"): "Ya untuk &Semua",
        ("QPlatformTheme", "&No"): "&Tidak",
        ("QPlatformTheme", "N&o to All"): "T&idak untuk Semua",
        ("QPlatformTheme", "Abort"): "Hentikan",
        ("QPlatformTheme", "Retry"): "Coba Lagi",
        ("QPlatformTheme", "Ignore"): "Abaikan",
        ("QPlatformTheme", "Close"): "Tutup",
        ("QPlatformTheme", "Cancel"): "Batal",
        ("QPlatformTheme", "Discard"): "Buang",
        ("QPlatformTheme", "Help"): "Bantuan",
        ("QPlatformTheme", "Apply"): "Terapkan",
        ("QPlatformTheme", "Reset"): "Atur Ulang",
        ("QPlatformTheme", "Restore Defaults"): "Kembalikan Bawaan",
        ("QMessageBox", "Show Details..."): "Tampilkan Rincian...",
        ("QMessageBox", "Hide Details..."): "Sembunyikan Rincian...",
        ("QLineEdit", "&Undo"): "&Urungkan",
        ("QLineEdit", "&Redo"): "&Ulangi",
        ("QLineEdit", "Cu&t"): "Po&tong",
        ("QLineEdit", "&Copy"): "&Salin",
        ("QLineEdit", "&Paste"): "&Tempel",
        ("QLineEdit", "Delete"): "Hapus",
        ("QLineEdit", "Select All"): "Pilih Semua",
        ("QWidgetTextControl", "&Undo"): "&Urungkan",
        ("QWidgetTextControl", "&Redo"): "&Ulangi",
        ("QWidgetTextControl", "Cu&t"): "Po&tong",
        ("QWidgetTextControl", "&Copy"): "&Salin",
        ("QWidgetTextControl", "&Paste"): "&Tempel",
        ("QWidgetTextControl", "Delete"): "Hapus",
        ("QWidgetTextControl", "Select All"): "Pilih Semua",
    },
}


class OwnCatalog(QTranslator):
    """Qt's words from :data:`OWN_CATALOGS` (a language qtbase has no catalog for)."""

    def __init__(self, words: dict[tuple[str, str], str], parent: QCoreApplication | None = None) -> None:
        super().__init__(parent)
        self.words = words

    def translate(  # noqa: D102 - Qt's virtual
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str:
        return self.words.get((context, source), "")

    def isEmpty(self) -> bool:  # noqa: N802 - Qt's name
        return not self.words


def install_qt_translator(app: QCoreApplication, lang: str) -> bool:
    """Load ``qtbase_<lang>.qm``, else ClubDesk's own catalog of Qt's words; returns False where neither
    exists (English needs none)."""
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
    words = OWN_CATALOGS.get(lang)
    if words:
        own = OwnCatalog(words, app)
        app.installTranslator(own)
        _installed.append(own)
        return True
    return False
