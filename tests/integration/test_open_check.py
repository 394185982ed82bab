"""Issue 22: opening a file that ClubDesk closed cleanly and nothing changed since does not read every
page again (``quick_check`` reads the whole file: about a second at a million hand entries); a file
changed in any way since, or left open by a crash, is checked as before (issue 23)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from clubdesk.storage import Database
from clubdesk.storage.checks import check_file


def _checks(monkeypatch: pytest.MonkeyPatch) -> list[tuple[bool, bool]]:
    seen: list[tuple[bool, bool]] = []
    real = check_file

    def spy(path: Path, *, full: bool = False, pages: bool = True) -> Any:
        seen.append((full, pages))
        return real(path, full=full, pages=pages)

    monkeypatch.setattr("clubdesk.storage.database.check_file", spy)
    return seen


def test_a_cleanly_closed_untouched_file_opens_without_reading_every_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "club.sqlite3"
    Database(path).close()
    seen = _checks(monkeypatch)
    Database(path).close()
    assert seen == [(False, False)]  # closed cleanly, unchanged: no page-reading check

    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000))  # touched by something else
    Database(path).close()
    assert seen[-1] == (False, True)

    Database(path)  # never closed: as after a crash
    Database(path).close()
    assert seen[-1] == (True, True)  # the full check, as before (issue 23)
