"""Test-wide setup: Qt runs headless, and no test touches the user's real data folder or keyring."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["CLUBDESK_HOME"] = tempfile.mkdtemp(prefix="clubdesk-test-home-")
# the audit keys and anchors of every club file a test makes: one folder for the run and for the processes it
# starts (a desk's server or CLI finds the key its club file was signed with), never the user's keyring
os.environ["CLUBDESK_KEYS"] = tempfile.mkdtemp(prefix="clubdesk-test-keys-")
# the OCR that reads images back (tesseract) runs one thread: its OpenMP threads on a machine the xdist
# workers already keep busy spin and wait (3x the CPU of one thread for the same text, measured)
os.environ.setdefault("OMP_THREAD_LIMIT", "1")

import pytest  # noqa: E402

from clubdesk import i18n, keys  # noqa: E402
from clubdesk.services import demo  # noqa: E402
from clubdesk.storage import Database, migrate  # noqa: E402
from clubdesk.storage.sqlite import restrict  # noqa: E402
from tests.forks import Forker, Forks  # noqa: E402
from tests.waits import Processes  # noqa: E402

if TYPE_CHECKING:
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
def _ctrl_c_left_as_found() -> Iterator[None]:
    """Each test leaves this process's Ctrl+C as it found it: a process started later inherits an ignored
    SIGINT, and a server started so would not stop on Ctrl+C."""
    before = signal.getsignal(signal.SIGINT)
    yield
    assert signal.getsignal(signal.SIGINT) is before, f"Ctrl+C left as {signal.getsignal(signal.SIGINT)!r}"


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


def _pg_admin_sql(*statements: str) -> None:
    """Run ``statements`` on the test cluster as its administrator, each committed (CREATE and DROP DATABASE
    run outside a transaction)."""
    admin = _pg_admin()
    try:
        with admin.connect() as c:
            for statement in statements:
                c.exec_driver_sql(statement)
    finally:
        admin.dispose()


def _pg_url(database: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(PG_URL).set(database=database).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def pg_template() -> Iterator[str]:
    """A server database migrated to head, the template of every test's own database."""
    name = f"clubdesk_tpl_{os.getpid()}"
    _pg_admin_sql(f"DROP DATABASE IF EXISTS {name}", f"CREATE DATABASE {name}")
    Database(_pg_url(name)).close()
    yield name
    _pg_admin_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


class DbMaker:
    """``make_db()`` opens a fresh database of the test's backend; ``make_db.url_or_path(...)`` names
    one (a path for SQLite, a server URL) for tests that open it again or from another process."""

    def __init__(self, backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
        self.backend = backend
        self.tmp_path = tmp_path
        self.request = request
        self.opened: list = []  # type: ignore[type-arg]
        self.created: list[str] = []

    def url_or_path(self, stem: str = "club", *, empty: bool = False, template: str = "") -> str:
        if self.backend == "sqlite":
            return str(self.tmp_path / f"{stem}.sqlite3")
        name = f"clubdesk_t{os.getpid()}_{next(_counter)}"
        if empty:
            _pg_admin_sql(f"CREATE DATABASE {name}")
        else:
            template = template or self.request.getfixturevalue("pg_template")
            _pg_admin_sql(f"CREATE DATABASE {name} TEMPLATE {template}")
        self.created.append(name)
        return _pg_url(name)

    def __call__(self, stem: str = "club", **kwargs):  # type: ignore[no-untyped-def]
        kwargs.setdefault("backups_dir", self.tmp_path / "backups")
        database = Database(self.url_or_path(stem), **kwargs)
        self.opened.append(database)
        return database

    def cleanup(self) -> None:
        for database in self.opened:
            database.close()
        if self.created:
            _pg_admin_sql(*(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)" for name in self.created))


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
    "tests/integration/test_table_entry_web.py",
    "tests/ui/test_whole_letters.py",
    "tests/ui/test_whole_night.py",
    "tests/integration/test_wheel.py",
    "tests/integration/test_server.py",
    "tests/integration/test_table_typing.py",
    "tests/integration/test_federation_hub.py",
    "tests/integration/test_hall_screens.py",
    "tests/integration/test_discipline_service.py",
    "tests/integration/test_hand_routes.py",
    "tests/integration/test_safety.py",
    "tests/integration/test_phones_desk.py",
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


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of the whole run: under pytest-xdist the parent of each worker's base temp."""
    root = tmp_path_factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root


def once_per_run(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], Path]) -> Path:
    """What ``build`` makes in an empty folder, made once for the whole run: under pytest-xdist every worker
    asks, the first builds it in the folder the workers share (the parent of each one's base temp) while the
    others wait on the lock, and all read the same result (the pattern pytest-xdist documents). ``build`` must
    make the same thing whichever worker runs it; what a test changes it copies first."""
    root = run_folder(tmp_path_factory)
    folder = root / f"once-{name}"
    done = root / f"once-{name}.done"
    with open(root / f"once-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if ``build`` fails
        if done.is_file():
            return Path(done.read_text(encoding="utf-8"))
        shutil.rmtree(folder, ignore_errors=True)  # a worker's build that failed: built again, whole
        folder.mkdir()
        made = build(folder)
        done.write_text(str(made), encoding="utf-8")  # written last: a failed build is never taken as done
        return made


@contextlib.contextmanager
def keeping_new_keys(folder: Path) -> Iterator[None]:
    """The keys made inside the block (a new club file's audit key) are kept in ``folder/keys``: a club
    built once per run is opened by every xdist worker, and each worker has its own keys folder."""
    before = set(keys.keys_dir().iterdir())
    yield
    (folder / "keys").mkdir()
    for key in set(keys.keys_dir().iterdir()) - before:
        shutil.copy2(key, folder / "keys" / key.name)


def taking_kept_keys(folder: Path) -> None:
    """The keys :func:`keeping_new_keys` kept in ``folder``, put in this worker's keys folder."""
    for key in (folder / "keys").iterdir():
        if not (keys.keys_dir() / key.name).exists():
            shutil.copy2(key, keys.keys_dir() / key.name)


def _fill_demo(folder: Path, database: Database) -> None:
    """Fill the demo club (``clubdesk --demo``) in ``database`` and close it; keep in ``folder`` what
    ``fill_demo`` returned and the keys its audit log was signed with."""
    with keeping_new_keys(folder):
        result = demo.fill_demo(database)
        database.close()
    (folder / "result.json").write_text(json.dumps(result.as_json()), encoding="utf-8")


def _demo_made(folder: Path) -> dict[str, Any]:
    """What ``fill_demo`` returned for the demo club filled in ``folder``."""
    data: dict[str, Any] = json.loads((folder / "result.json").read_text(encoding="utf-8"))
    return data


def _fill_demo_file(folder: Path) -> Path:
    _fill_demo(folder, Database(folder / "demo.sqlite3"))
    return folder / "demo.sqlite3"


@pytest.fixture(scope="session")
def demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo club's file (``clubdesk --demo``), filled once per run (2-6 s) for the tests that read it:
    a test that writes works on a copy (``shutil.copy``). Its audit keys go in this worker's keys folder."""
    path = once_per_run(tmp_path_factory, "demo", _fill_demo_file)
    taking_kept_keys(path.parent)
    return path


@pytest.fixture(scope="session")
def demo_result(demo_file: Path) -> dict[str, Any]:
    """What ``fill_demo`` returned when it filled :func:`demo_file` (``DemoResult.as_json()``)."""
    return _demo_made(demo_file.parent)


@pytest.fixture
def demo_db(make_db: DbMaker, request: pytest.FixtureRequest) -> tuple[Database, dict[str, Any]]:
    """A filled demo club of the test's own, on the test's backend, and what ``fill_demo`` returned: on
    SQLite a copy of :func:`demo_file` (the test may write), on the club server a copy of
    :func:`pg_demo_template`."""
    if make_db.backend == "sqlite":
        shutil.copy(request.getfixturevalue("demo_file"), make_db.url_or_path("demo"))
        return make_db("demo"), request.getfixturevalue("demo_result")
    template, result = request.getfixturevalue("pg_demo_template")
    database = Database(make_db.url_or_path(template=template), backups_dir=make_db.tmp_path / "backups")
    make_db.opened.append(database)
    return database, result


def _pg_demo_name(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The server database of the run's demo club: named for the run's folder (unique while it runs)."""
    return "clubdesk_demo_" + re.sub(r"\W", "_", run_folder(tmp_path_factory).name)


@pytest.fixture(scope="session")
def pg_demo_template(
    pg_template: str, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, dict[str, Any]]:
    """A server database with the demo club filled once per run, the template of each test's ``demo_db``
    on the club server, and what ``fill_demo`` returned; dropped when the run ends
    (:func:`pytest_sessionfinish`)."""
    name = _pg_demo_name(tmp_path_factory)

    def fill(folder: Path) -> Path:
        _pg_admin_sql(f"DROP DATABASE IF EXISTS {name}", f"CREATE DATABASE {name} TEMPLATE {pg_template}")
        _fill_demo(folder, Database(_pg_url(name)))  # closed: a template takes no connection
        return folder

    folder = once_per_run(tmp_path_factory, "pg-demo", fill)
    taking_kept_keys(folder)
    return name, _demo_made(folder)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The run's demo club on the club server is dropped by the process that ran the session (under
    pytest-xdist the controller, once every worker is done)."""
    if not PG_URL or hasattr(session.config, "workerinput"):
        return
    name = _pg_demo_name(session.config._tmp_path_factory)  # type: ignore[attr-defined]
    _pg_admin_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


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
    script makes stood in for by a one-pixel PNG (the real ones come from ``scripts/dev.sh screenshots``).
    Built once per run (~9 s); the tests only read it."""
    from tests.guide_helpers import build_guide

    return once_per_run(tmp_path_factory, "guide", build_guide)
