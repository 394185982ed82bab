"""Settings → About: version, database and schema, where the data lives, licence notices."""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QLineEdit, QPlainTextEdit, QVBoxLayout

from clubdesk import paths
from clubdesk.i18n import _
from clubdesk.services.club import about
from clubdesk.ui.shell.state import DeskState


def _value(text: str, name: str) -> QLineEdit:
    """A value (a version, a path): data, not words to translate; read-only, so it can be copied."""
    field = QLineEdit(text)
    field.setObjectName(name)
    field.setReadOnly(True)
    field.setCursorPosition(0)
    return field


class AboutPanel(QGroupBox):
    """What the secretary reads out when asking for help: which ClubDesk, which file, which schema."""

    def __init__(self, state: DeskState) -> None:
        super().__init__(_("About ClubDesk"))
        self.setObjectName("aboutPanel")
        info = about(state.db)
        form = QFormLayout()
        form.addRow(_("Version"), _value(info.version, "aboutVersion"))
        form.addRow(_("Database"), _value(str(info.database), "aboutDatabase"))
        form.addRow(_("Schema revision"), _value(info.schema or "-", "aboutSchema"))
        folder = str(info.data_folder)
        if info.portable:
            folder = _("{folder} (portable: portable.txt beside the program)").format(folder=folder)
        form.addRow(_("Data folder"), _value(folder, "aboutDataFolder"))
        lines = [f"{name} — {licence} — {url}" for name, licence, url in info.fonts]
        lines += [
            f"{lib.name} {ver} — {lib.licence} — {lib.url}".replace("  ", " ") for lib, ver in info.libraries
        ]
        # data (names, SPDX identifiers, addresses), never translated: a read-only text the secretary can copy
        notices = QPlainTextEdit("\n".join(lines))
        notices.setObjectName("aboutLicences")
        notices.setReadOnly(True)
        notices.setMinimumHeight(notices.fontMetrics().lineSpacing() * 8)
        where = paths.program_dir()
        texts = where / "licences" if where is not None else info.font_licence
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel(_("Fonts and libraries")))
        layout.addWidget(notices)
        where_label = QLabel(_("Licence texts: {path}").format(path=texts))
        where_label.setObjectName("aboutLicenceTexts")
        where_label.setWordWrap(True)
        layout.addWidget(where_label)
