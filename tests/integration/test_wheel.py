"""The wheel speaks every language and carries its guide: built from a clean clone with ``pip wheel`` (pip's
isolated build, as a user's ``pip install`` or ``pipx install`` does it; setup.py compiles the catalogs and
builds the guide), installed into a fresh venv, ``clubdesk-cli --lang tr --help`` is Turkish and
``clubdesk-cli guide`` names a guide inside the install.

The fresh venv borrows this interpreter's site-packages for ClubDesk's dependencies (a ``.pth`` line, so
nothing is downloaded for them and the checkout's own editable install is not seen); the wheel itself goes in
with ``--no-deps``. About a minute: the build installs Babel, Sphinx and MyST into pip's build environment.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from clubdesk import i18n
from clubdesk.i18n_tools import ROOT


def _run(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A fresh venv with the wheel built from a clean clone of this checkout's HEAD, and its environment."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no clean clone to build the wheel from")
    tmp = tmp_path_factory.mktemp("wheel")
    env = {
        k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "CLUBDESK_GUIDE_DIR", "CLUBDESK_LANG"}
    }
    env["CLUBDESK_HOME"] = str(tmp / "home")
    env["COLUMNS"] = "250"  # argparse wraps help lines to the terminal's width
    _run("git", "clone", "--quiet", ROOT, tmp / "clone")
    _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--quiet",
        "-w",
        tmp / "dist",
        "./clone",
        cwd=tmp,
        env=env,
    )
    (wheel,) = (tmp / "dist").glob("clubdesk-*.whl")
    venv = tmp / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    _run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--quiet", wheel, env=env)
    return venv, env


def test_the_installed_wheel_speaks_turkish(installed: tuple[Path, dict[str, str]]) -> None:
    venv, env = installed
    done = subprocess.run(
        [str(venv / "bin" / "clubdesk-cli"), "--lang", "tr", "--help"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", done.stderr  # no "catalog not installed" warning
    turkish = i18n.translation_in("tr", "print where the user guide is (the page to open)")
    assert turkish != "print where the user guide is (the page to open)"
    assert turkish in done.stdout
    installed_at = _run(venv / "bin" / "python", "-c", "import clubdesk; print(clubdesk.__file__)", env=env)
    assert Path(installed_at.strip()).is_relative_to(venv), "the venv's ClubDesk, not the checkout's"


def test_the_installed_wheel_has_its_guide(installed: tuple[Path, dict[str, str]]) -> None:
    venv, env = installed
    data = json.loads(_run(venv / "bin" / "clubdesk-cli", "--json", "guide", "--lang", "tr", env=env))
    index = Path(data["index"])
    assert data["lang"] == "tr" and index.is_file() and index.is_relative_to(venv)
    assert 'lang="tr"' in index.read_text(encoding="utf-8")
    assert set(data["languages"]) == set(i18n.LANGUAGES)
    # the build takes no screenshots: the guide says its pictures are blank (F1 says so too)
    assert data["pictures"] is False
