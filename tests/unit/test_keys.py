"""Keys kept outside the club file (issue 38 item 4, issue 39 item 1): made once, kept, owner-only."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from clubdesk import keys
from clubdesk.services.kernel import club_uid
from clubdesk.storage import Database


def test_a_key_is_made_once_kept_and_readable_by_its_owner_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLUBDESK_KEYS", str(tmp_path / "keys"))
    first = keys.ensure_key("audit-abc", lambda: os.urandom(32))
    again = keys.ensure_key("audit-abc", lambda: b"never used")
    assert first == again and len(first) == 32
    kept = tmp_path / "keys" / "audit-abc.key"
    assert keys.key_location("audit-abc") == str(kept)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert keys.read_key("sign-abc") is None


def test_keys_live_outside_the_data_folder_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLUBDESK_KEYS", raising=False)
    monkeypatch.delenv("CLUBDESK_HOME", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert keys.keys_dir() == tmp_path / "config" / "ClubDesk" / "keys"


def test_a_bad_key_name_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLUBDESK_KEYS", str(tmp_path))
    with pytest.raises(keys.KeyStoreError):
        keys.read_key("../etc/passwd")


def test_the_club_file_keeps_one_id(tmp_path: Path) -> None:
    db = Database(tmp_path / "club.sqlite3")
    with db.session() as s:
        assert club_uid(s, create=False) is None
        uid = club_uid(s)
    with db.session() as s:
        assert club_uid(s) == uid and len(uid or "") == 32
