"""The Linux installer (issue 24), built for real: ``pytest --run-slow tests/integration/test_installer.py``.

Skipped by the default run (the build takes minutes). installer/build-linux.sh builds the one-folder bundle
and the .deb, validates the desktop entry and the AppStream metainfo, and smoke-tests the bundle in a clean
environment (installer/smoke.py: version, Turkish help, a demo database, a PDF read back, a signed event file,
the audit chain, ``serve --workers 2`` answering and stopping with no process left, the window offscreen
and on Xvfb, closed by its timer).
"""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def test_build_linux_makes_a_deb_that_installs_clubdesk_and_passes_the_smoke_test() -> None:
    if shutil.which("dpkg-deb") is None:
        pytest.skip("not a Debian system")
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    proc = subprocess.run(
        ["bash", str(ROOT / "installer" / "build-linux.sh")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "smoke: all checks passed" in proc.stdout
    for said in (
        "ok: clubdesk-cli --lang tr --help speaks Turkish",
        "ok: the event file carries an Ed25519 signature",
        "ok: audit --verify: the log is intact",
        "ok: a table's page (its score form) is served",
        "ok: clubdesk-cli serve --workers 2 stops cleanly",
        "ok: no server process is left behind",
    ):
        assert said in proc.stdout, said
    debs = sorted((ROOT / "build" / "installer").glob(f"clubdesk_{version}_*.deb"))
    assert len(debs) == 1
    listing = subprocess.run(["dpkg-deb", "-c", str(debs[0])], capture_output=True, text=True, check=True)
    listing = listing.stdout
    for path in (
        "./opt/clubdesk/clubdesk",
        "./opt/clubdesk/clubdesk-cli",
        "./usr/bin/clubdesk -> /opt/clubdesk/clubdesk",
        "./usr/bin/clubdesk-cli -> /opt/clubdesk/clubdesk-cli",
        "./usr/share/applications/org.clubdesk.ClubDesk.desktop",
        "./usr/share/icons/hicolor/scalable/apps/org.clubdesk.ClubDesk.svg",
        "./usr/share/metainfo/org.clubdesk.ClubDesk.metainfo.xml",
        "./opt/clubdesk/_internal/clubdesk/resources/locale/tr/LC_MESSAGES/clubdesk.mo",
        "./opt/clubdesk/_internal/clubdesk/models/migrations/env.py",
        "./opt/clubdesk/_internal/clubdesk/storage/hub/migrations/env.py",
        "./opt/clubdesk/_internal/clubdesk/storage/hub/migrations/versions/h0001_hub.py",
    ):
        assert path in listing, path
    control = subprocess.run(["dpkg-deb", "-f", str(debs[0])], capture_output=True, text=True, check=True)
    assert f"Version: {version}" in control.stdout
    bundle = ROOT / "build" / "installer" / "dist" / "clubdesk"
    size = sum(f.stat().st_size for f in bundle.rglob("*") if f.is_file() and not f.is_symlink())
    print(f"bundle: {size / 1e6:.1f} MB unpacked")
    assert size <= 150 * 1024 * 1024, f"bundle {size / 1e6:.1f} MB > 150 MB"
