"""Settings → Federation shows this club's public key and what was sent; Events → "Send to federation" is
offered for a finished event only and writes the signed file (no hub set) that the hub can take (T12d)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from clubdesk.federation import eventfile
from clubdesk.services import federation
from clubdesk.storage import Database
from clubdesk.ui.club.settings_view import SettingsSection
from clubdesk.ui.events.events_view import EventsSection
from clubdesk.ui.shell.state import DeskState
from tests.federation_helpers import DESK, tavla_night


def test_send_to_federation_writes_the_signed_file_and_settings_show_it(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CLUBDESK_KEYS", str(tmp_path / "keys"))
    db = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "b")
    people = [("N1", "Ali Kaya", "TR-001"), ("N2", "Berk Can", "TR-002"), ("N3", "Cem Ak", "TR-003")]
    ev = tavla_night(db, people, name="Izmir night", day=dt.date(2026, 3, 1))
    state = DeskState(db, DESK)
    events = EventsSection(state)
    qtbot.addWidget(events)
    assert not events.send_button.isEnabled()
    row = next(i for i, e in enumerate(events.model.rows) if e.id == ev)
    events.table.selectRow(row)
    assert events.send_button.isEnabled()
    out = tmp_path / "izmir.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda _p, _t, text: said.append(text))
    qtbot.mouseClick(events.send_button, Qt.MouseButton.LeftButton)
    assert said and str(out) in said[0]
    signed = eventfile.read(out.read_bytes())  # the signature holds
    assert signed.public_key == federation.public_key(db).public_key
    settings = SettingsSection(state)
    qtbot.addWidget(settings)
    assert settings.federation.key.text() == signed.public_key
    assert "Izmir night" in settings.federation.sent.text() and str(out) in settings.federation.sent.text()
    settings.federation.url.setText("http://hub.example.org")
    settings.federation.token.setText("t")
    assert not settings.federation.save_hub()  # plain http beyond this computer is refused
    assert "HTTPS" in settings.federation.url_field.error.text()
    db.close()
