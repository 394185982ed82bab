"""Portable mode (issue 24): ``portable.txt`` beside the bundled program keeps the data folder beside it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from clubdesk import paths


@pytest.fixture
def usb_stick(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copied bundle on a USB stick: the program ``clubdesk`` in its folder, running frozen."""
    stick = tmp_path / "USB" / "ClubDesk"
    stick.mkdir(parents=True)
    (stick / "clubdesk").write_bytes(b"")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(stick / "clubdesk"))
    monkeypatch.delenv("CLUBDESK_HOME", raising=False)
    monkeypatch.setattr(paths, "user_data_dir", lambda *a, **k: str(tmp_path / "user-data"))
    return stick


def test_portable_txt_keeps_the_database_beside_the_program(usb_stick: Path) -> None:
    (usb_stick / "portable.txt").write_text("", encoding="utf-8")
    assert paths.data_dir() == usb_stick / "ClubDesk-data"
    assert paths.default_db_path() == usb_stick / "ClubDesk-data" / "clubdesk.sqlite3"
    assert paths.backups_dir().is_dir() and paths.backups_dir().parent == usb_stick / "ClubDesk-data"


def test_portable_txt_may_name_the_folder(usb_stick: Path) -> None:
    (usb_stick / "portable.txt").write_text("# tournament hall\n\n  Datos del club \n", encoding="utf-8")
    assert paths.data_dir() == usb_stick / "Datos del club"


def test_without_portable_txt_the_user_data_folder_is_used(usb_stick: Path, tmp_path: Path) -> None:
    assert paths.portable_home() is None
    assert paths.data_dir() == tmp_path / "user-data"
    assert not (usb_stick / "ClubDesk-data").exists()


def test_clubdesk_home_wins_over_portable_txt(
    usb_stick: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (usb_stick / "portable.txt").write_text("", encoding="utf-8")
    monkeypatch.setenv("CLUBDESK_HOME", str(tmp_path / "elsewhere"))
    assert paths.data_dir() == tmp_path / "elsewhere"


def test_running_from_python_has_no_portable_mode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A portable.txt beside the Python interpreter of a checkout is not ClubDesk's."""
    monkeypatch.delattr(sys, "frozen", raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python3"))
    (tmp_path / "portable.txt").write_text("", encoding="utf-8")
    assert paths.program_dir() is None
    assert paths.portable_home() is None
