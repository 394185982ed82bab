"""The command-line frame: version, exit codes, one-line translated refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from clubdesk import __version__
from clubdesk.cli import main


def test_version_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["version", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"version": __version__}
    assert main(["--json", "version"]) == 0
    assert json.loads(capsys.readouterr().out) == {"version": __version__}


def test_installed_console_script_runs() -> None:
    exe = Path(sys.executable).parent / "clubdesk-cli"
    out = subprocess.run([str(exe), "version", "--json"], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["version"] == __version__


def test_wrong_usage_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["no-such-command"])
    assert info.value.code == 2
    assert "wrong usage" in capsys.readouterr().err


def test_unusable_database_is_one_line_and_exit_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite3"
    bad.write_text("not a database" * 100)
    exe = Path(sys.executable).parent / "clubdesk-cli"
    out = subprocess.run([str(exe), "--db", str(bad), "info"], capture_output=True, text=True)
    assert out.returncode == 1
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "not a ClubDesk database" in lines[0]
    assert out.stdout == ""


def test_info_names_the_open_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.sqlite3"
    assert main(["--db", str(path), "info", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["database"] == str(path.resolve())
    from clubdesk.storage.revisions import head_revision

    assert data["schema"] == head_revision()


def test_refusals_are_translated_in_the_pseudo_locale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from clubdesk import i18n

    bad = tmp_path / "bad.sqlite3"
    bad.write_text("x" * 4000)
    assert main(["--lang", "xx", "--db", str(bad), "info"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("⟦") and "⟦" in err[1:]  # the frame and the reason are both marked
    i18n.set_language("en")
