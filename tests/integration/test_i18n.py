"""The translation machinery: extraction finds marked strings; a compiled catalog is used at run time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from clubdesk import i18n

ROOT = Path(__file__).resolve().parents[2]


def test_babel_extraction_finds_window_cli_and_service_strings(tmp_path: Path) -> None:
    pybabel = Path(sys.executable).parent / "pybabel"
    pot = tmp_path / "clubdesk.pot"
    subprocess.run(
        [str(pybabel), "--quiet", "extract", "-F", "babel.cfg", "-k", "_", "-k", "N_", "-o", str(pot), "src"],
        cwd=ROOT,
        check=True,
    )
    with pot.open("rb") as fh:
        ids = {m.id for m in read_po(fh) if m.id}
    # a window string, a section title marked with N_, a CLI refusal, a database refusal
    for expected in (
        "Who is acting?",
        "Discipline",
        "clubdesk-cli: {message}",
        "{path} is not a ClubDesk database.",
    ):
        assert expected in ids


def test_a_compiled_catalog_translates_at_run_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = Catalog(locale="tr", domain="clubdesk")
    catalog.add("Who is acting?", "Kim işlem yapıyor?")
    target = tmp_path / "locale" / "tr" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "clubdesk.mo").open("wb") as fh:
        write_mo(fh, catalog)
    monkeypatch.setattr(i18n, "locale_dir", lambda: tmp_path / "locale")
    i18n.set_language("tr")
    assert i18n._("Who is acting?") == "Kim işlem yapıyor?"
    assert i18n._("Not in the catalog") == "Not in the catalog"  # falls back to English


def test_a_missing_catalog_is_said_at_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An install without its compiled catalogs never speaks English silently: the CLI says so on stderr."""
    from clubdesk.cli import main

    monkeypatch.setattr(i18n, "locale_dir", lambda: tmp_path)
    assert main(["--lang", "es", "version"]) == 0
    err = capsys.readouterr().err
    assert err.strip() == i18n.missing_catalog_warning("es")
    assert "Español" in err and str(tmp_path / "es" / "LC_MESSAGES") in err
    assert i18n.missing_catalog_warning("en") is None and i18n.missing_catalog_warning("xx") is None
    monkeypatch.undo()
    assert i18n.missing_catalog_warning("es") is None  # the catalogs compiled for the tests are there


def test_qt_dialogs_get_qtbase_translations() -> None:
    from PySide6.QtWidgets import QApplication

    from clubdesk.ui.shell.qt_i18n import install_qt_translator

    app = QApplication.instance() or QApplication([])
    assert install_qt_translator(app, "tr") is True  # PySide6 ships qtbase_tr.qm
    assert app.translate("QPlatformTheme", "Cancel") == "İptal"
    install_qt_translator(app, "en")
    assert app.translate("QPlatformTheme", "Cancel") == "Cancel"
