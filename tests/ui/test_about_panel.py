"""Settings → About (issue 24): the version of pyproject.toml, the open database, its schema revision, the
data folder and the licence notices of the bundled fonts and libraries."""

from __future__ import annotations

import sqlite3
import tomllib
from pathlib import Path

from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit

from clubdesk.services.kernel.base import Actor, Role
from clubdesk.storage import Database
from clubdesk.ui.club.about_panel import AboutPanel
from clubdesk.ui.club.settings_view import SettingsSection
from clubdesk.ui.shell.state import DeskState

ROOT = Path(__file__).resolve().parents[2]
SEC = Actor("Sekretaris", Role.SECRETARY)


def _text(widget: AboutPanel, name: str) -> str:
    field = widget.findChild(QLineEdit, name)
    assert field is not None, name
    return field.text()


def test_settings_shows_about_with_version_database_schema_and_licences(qtbot, db: Database) -> None:  # type: ignore[no-untyped-def]
    section = SettingsSection(DeskState(db, SEC))
    qtbot.addWidget(section)
    panel = section.findChild(AboutPanel, "aboutPanel")
    assert panel is not None
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert _text(panel, "aboutVersion") == pyproject["project"]["version"]
    assert _text(panel, "aboutDatabase") == str(db.path)
    con = sqlite3.connect(db.path)
    try:
        (revision,) = con.execute("SELECT version_num FROM alembic_version").fetchone()
    finally:
        con.close()
    assert _text(panel, "aboutSchema") == revision
    notices = panel.findChild(QPlainTextEdit, "aboutLicences").toPlainText()
    for expected in ("DejaVu Sans — Bitstream-Vera", "PySide6", "LGPL-3.0-only", "SQLAlchemy", "ReportLab"):
        assert expected in notices
    assert panel.findChild(QLabel, "aboutLicenceTexts").text().endswith("LICENSE-DejaVu.txt")
