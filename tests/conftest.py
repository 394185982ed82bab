"""Test-wide setup: Qt runs headless, and no test touches the user's real data folder or keyring."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["CLUBDESK_HOME"] = tempfile.mkdtemp(prefix="clubdesk-test-home-")
# the audit keys and anchors of every club file a test makes: one folder for the run and for the processes it
# starts (a desk's server or CLI finds the key its club file was signed with), never the user's keyring
os.environ["CLUBDESK_KEYS"] = tempfile.mkdtemp(prefix="clubdesk-test-keys-")

import pytest  # noqa: E402

from clubdesk import i18n  # noqa: E402
from clubdesk.storage import migrate  # noqa: E402
from clubdesk.storage.sqlite import restrict  # noqa: E402
from tests.forks import Forker, Forks  # noqa: E402
from tests.waits import Processes  # noqa: E402

if TYPE_CHECKING:
    from clubdesk.storage import Database
    from clubdesk.web.server import TableServer


@pytest.fixture(scope="session", autouse=True)
def _compiled_catalogs() -> None:
    """The .mo files are built by the install (scripts/dev.sh setup); a .po edited since is compiled again."""
    from clubdesk.i18n_tools import catalogs, compile_all

    if any(
        not po.with_suffix(".mo").is_file() or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime
        for po in catalogs().values()
    ):
        compile_all()


@pytest.fixture(scope="session", autouse=True)
def _new_club_files_are_copies(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A new club file is built by running every migration (~0.1 s, a thousand times a run). Here the
    migrations build one file at the start of the run and each new club file is a copy of its bytes, as each
    server database is a copy of ``pg_template``; a file at an older revision still climbs the real
    migrations, the migrations' own tests run them, and the processes a test starts build theirs in full."""
    built = tmp_path_factory.mktemp("head") / "club.sqlite3"
    migrate.create_file(built)
    head = built.read_bytes()
    real = migrate.upgrade

    def upgrade(path: Path, revision: str = "head") -> None:
        if revision != "head" or path.stat().st_size:
            real(path, revision)
            return
        path.write_bytes(head)  # the empty file create_file made: its mode stays
        restrict(path)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(migrate, "upgrade", upgrade)
        yield


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


# Issue 25: the integration tests that take ``db`` (or ``backend``/``make_db``) run on both backends: the
# SQLite file and the club server. The server is the private cluster that ``scripts/dev.sh test`` starts
# and names in CLUBDESK_TEST_PG_URL; without it only SQLite runs. Each test gets its own database, cloned
# from a template migrated once per run (CREATE DATABASE … TEMPLATE: ~0.1 s instead of the migrations).
PG_URL = os.environ.get("CLUBDESK_TEST_PG_URL", "")
BACKENDS = ["sqlite", "postgresql"] if PG_URL else ["sqlite"]
_counter = iter(range(1, 10**9))


def _pg_admin():  # type: ignore[no-untyped-def]
    from sqlalchemy import create_engine

    return create_engine(
        PG_URL, isolation_level="AUTOCOMMIT", poolclass=__import__("sqlalchemy").pool.NullPool
    )


def _pg_url(database: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(PG_URL).set(database=database).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def pg_template() -> Iterator[str]:
    """A server database migrated to head, the template of every test's own database."""
    from clubdesk.storage import Database

    name = f"clubdesk_tpl_{os.getpid()}"
    admin = _pg_admin()
    with admin.connect() as c:
        c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name}")
        c.exec_driver_sql(f"CREATE DATABASE {name}")
    Database(_pg_url(name)).close()
    yield name
    with admin.connect() as c:
        c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    admin.dispose()


class DbMaker:
    """``make_db()`` opens a fresh database of the test's backend; ``make_db.url_or_path(...)`` names
    one (a path for SQLite, a server URL) for tests that open it again or from another process."""

    def __init__(self, backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
        self.backend = backend
        self.tmp_path = tmp_path
        self.request = request
        self.opened: list = []  # type: ignore[type-arg]
        self.created: list[str] = []

    def url_or_path(self, stem: str = "club", *, empty: bool = False) -> str:
        if self.backend == "sqlite":
            return str(self.tmp_path / f"{stem}.sqlite3")
        name = f"clubdesk_t{os.getpid()}_{next(_counter)}"
        admin = _pg_admin()
        with admin.connect() as c:
            if empty:
                c.exec_driver_sql(f"CREATE DATABASE {name}")
            else:
                c.exec_driver_sql(
                    f"CREATE DATABASE {name} TEMPLATE {self.request.getfixturevalue('pg_template')}"
                )
        admin.dispose()
        self.created.append(name)
        return _pg_url(name)

    def __call__(self, stem: str = "club", **kwargs):  # type: ignore[no-untyped-def]
        from clubdesk.storage import Database

        kwargs.setdefault("backups_dir", self.tmp_path / "backups")
        database = Database(self.url_or_path(stem), **kwargs)
        self.opened.append(database)
        return database

    def cleanup(self) -> None:
        for database in self.opened:
            database.close()
        if self.created:
            admin = _pg_admin()
            with admin.connect() as c:
                for name in self.created:
                    c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            admin.dispose()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_db(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[DbMaker]:
    maker = DbMaker(backend, tmp_path, request)
    yield maker
    maker.cleanup()


ACTIVE: list[DbMaker] = []  # set by ``both_backends``: helpers' ``open_db`` then opens the test's backend


@pytest.fixture
def both_backends(make_db: DbMaker) -> Iterator[DbMaker]:
    """For modules whose tests open databases through a helper: ``pytestmark = usefixtures(...)``."""
    ACTIVE.append(make_db)
    yield make_db
    ACTIVE.remove(make_db)


@pytest.fixture
def db(make_db: DbMaker):  # type: ignore[no-untyped-def]
    return make_db()


@pytest.fixture
def server(db: Database) -> Iterator[TableServer]:
    """The phones' server on the test's database at a free port; ``start`` returns once it listens."""
    # Starlette and uvicorn: loaded only by the tests that serve phones
    from clubdesk.web.server import TableServer

    srv = TableServer(db, "127.0.0.1", 0)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow",
        action="store_true",
        default=False,
        help="also run the tests marked slow (installer build)",
    )


# The files that take longest, longest first: they are handed to the workers before the rest, so the run does
# not end waiting on one worker that drew a long file last (pytest-xdist hands out whole files in the order
# they were collected). A file missing here only runs in its usual place.
LONG_FILES = (
    "tests/ui/test_night_lasts.py",
    "tests/integration/test_safety.py",
    "tests/integration/test_demo.py",
    "tests/integration/test_share.py",
    "tests/integration/test_table_entry_web.py",
    "tests/ui/test_whole_letters.py",
    "tests/ui/test_whole_night.py",
    "tests/integration/test_fuzz_inputs.py",
    "tests/integration/test_discipline_service.py",
    "tests/integration/test_member_search.py",
    "tests/integration/test_wheel.py",
    "tests/integration/test_server.py",
    "tests/integration/test_hall_screens.py",
    "tests/integration/test_table_typing.py",
    "tests/ui/test_help.py",
    "tests/integration/test_hand_routes.py",
)


def _long_first(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    return LONG_FILES.index(path) if path in LONG_FILES else len(LONG_FILES)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest files first (a stable sort: each file's tests keep their order); tests marked ``slow``
    (installer/build-linux.sh, minutes) run only with ``--run-slow``."""
    items.sort(key=_long_first)
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: builds the installer; run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def processes() -> Iterator[Processes]:
    """Start child processes through it: what still runs when the test ends, passed or failed, is stopped
    (Ctrl+C to its process group, then killed), so a failed test leaves no server behind."""
    started = Processes()
    try:
        yield started
    finally:
        started.stop_all()


@pytest.fixture(scope="session")
def forker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Forker]:
    """One process that has imported ClubDesk, forking a fresh process for each job (tests/forks.py)."""
    started = Forker(tmp_path_factory.mktemp("forks"))
    try:
        yield started
    finally:
        started.close()


@pytest.fixture
def forks(forker: Forker) -> Iterator[Forks]:
    """Fork the test's processes through it: whatever still runs when the test ends is killed."""
    started = Forks(forker)
    try:
        yield started
    finally:
        started.stop_all()


@pytest.fixture(scope="session")
def built_guide(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The user guide built in en, id, es, tr with warnings as errors (issue 30), each picture the screenshot
    script makes stood in for by a one-pixel PNG (the real ones come from ``scripts/dev.sh screenshots``)."""
    from tests.guide_helpers import build_guide

    return build_guide(tmp_path_factory.mktemp("guide"))
