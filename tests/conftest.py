"""Test-wide setup: Qt runs headless, and no test touches the user's real data folder."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["CLUBDESK_HOME"] = tempfile.mkdtemp(prefix="clubdesk-test-home-")

import pytest  # noqa: E402

from clubdesk import i18n  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def _compiled_catalogs() -> None:
    """The .mo files are built by the install (scripts/dev.sh setup); a .po edited since is compiled again."""
    from clubdesk.i18n_tools import catalogs, compile_all

    if any(
        not po.with_suffix(".mo").is_file() or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime
        for po in catalogs().values()
    ):
        compile_all()


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """Every test starts in English and leaves English behind."""
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh CLUBDESK_HOME for tests that use the default locations."""
    monkeypatch.setenv("CLUBDESK_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def db(tmp_path: Path):  # type: ignore[no-untyped-def]
    from clubdesk.db import Database

    database = Database(tmp_path / "club.sqlite3")
    yield database
    database.close()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow",
        action="store_true",
        default=False,
        help="also run the tests marked slow (installer build)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` (installer/build-linux.sh, minutes) run only with ``--run-slow``."""
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: builds the installer; run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
