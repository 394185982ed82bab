"""Bad input (issue 23): fuzzed CSV files, sheets of entries, TRF files and command lines give a refusal,
never a traceback, and a refused write leaves the database as it was. Hypothesis examples are bounded so
the suite stays fast."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from clubdesk.cli.core import main as cli
from clubdesk.games.errors import EntryError
from clubdesk.models import AuditEntry, Member, ResultEntry
from clubdesk.services.discipline import incidents
from clubdesk.services.kernel.base import Actor, Role, ServiceError
from clubdesk.services.members import csv_io
from clubdesk.services.money import fees
from clubdesk.services.night.play import results
from clubdesk.standings.trf import TrfError, parse_trf
from clubdesk.storage import Database

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
REF = Actor("MH", Role.REFEREE)


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory, demo_file: Path) -> Iterator[Database]:
    """A copy of the run's demo club for the tests that only refuse (each command line takes its own)."""
    path = tmp_path_factory.mktemp("fuzz") / "demo.sqlite3"
    shutil.copyfile(demo_file, path)
    db = Database(path)
    yield db
    db.close()


def _counts(db: Database) -> tuple[int, int, int]:
    with db.session() as s:
        return (
            int(s.scalar(select(func.count()).select_from(Member)) or 0),
            int(s.scalar(select(func.count()).select_from(ResultEntry)) or 0),
            int(s.scalar(select(func.count()).select_from(AuditEntry)) or 0),
        )


cells = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        ["1001", "99999999999999999999999", "-5", "١٢٣", "\u200b", "\x1b[31m", "=1+1", "", "1e400"]
    ),
)
headers = st.lists(
    st.sampled_from(
        ["name", "number", "club", "city", "birth_year", "rating", "rating_experience", "phone", "x"]
    ),
    min_size=1,
    max_size=5,
)


@FAST
@given(header=headers, rows=st.lists(st.lists(cells, max_size=6), max_size=4))
def test_member_csv_import_refuses_or_imports_all(
    demo_db: Database, header: list[str], rows: list[list[str]]
) -> None:
    import csv

    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(header)
    writer.writerows(rows)
    raw = buf.getvalue().encode("utf-8")
    before = _counts(demo_db)
    try:
        csv_io.import_members(demo_db, Actor("AB"), raw, dry_run=True)
    except ServiceError:
        assert _counts(demo_db) == before
        return
    try:  # what the dry run accepted, the import must take without a traceback
        csv_io.import_members(demo_db, Actor("AB"), raw)
    except ServiceError:
        assert _counts(demo_db)[0] == before[0]


json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**20), max_value=10**20),
        st.text(max_size=6),
        st.sampled_from(["game", "hand", "single", "gammon", "out", "block", "redeal"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(["type", "winner", "kind", "cube", "dropped", "points", "1", "-1", "a", "side"]),
            inner,
            max_size=5,
        ),
    ),
    max_leaves=12,
)


@FAST
@given(entries=json_values, event=st.sampled_from([3, 4, 6, 9]))
def test_fuzzed_sheets_are_refused_cleanly(demo_db: Database, entries: object, event: int) -> None:
    before = _counts(demo_db)
    try:
        results.record_result(demo_db, REF, event, 1, 1, entries=entries, override="fuzz test")
    except (ServiceError, EntryError):
        assert _counts(demo_db) == before  # refused: nothing written


@FAST
@given(
    lines=st.lists(
        st.one_of(
            st.text(max_size=100),
            st.sampled_from(
                [
                    "012 Open",
                    "001    1 m    Player One" + " " * 24 + "2100 TUR" + " " * 33 + "1.0    1     2 w 1",
                    "001    2 m    Player Two" + " " * 24 + "2000 TUR" + " " * 33 + "0.0    2     1 b 0",
                    "001    3      X" + " " * 80 + "Z",
                    "XXR 9",
                ]
            ),
        ),
        max_size=6,
    )
)
def test_fuzzed_trf_files_are_refused_cleanly(lines: list[str]) -> None:
    try:
        parse_trf("\n".join(lines))
    except TrfError:
        pass


words = st.sampled_from(
    [
        "member",
        "list",
        "add",
        "--name",
        "entrants",
        "standings",
        "result",
        "--round",
        "--table",
        "--score",
        "1",
        "3",
        "99999999999999999999999",
        "-1",
        "5-2",
        "99999999999999999999999-1",
        "x",
        "\u200b",
        "pay",
        "--amount",
        "1e9",
        "--method",
        "cash",
        "tables",
        "--json",
        "penalty",
        "--points",
        "9000000000000000000",
        "--kind",
        "fine",
        "--side",
        "0",
        "--reason",
        "r",
    ]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argv=st.lists(words, min_size=1, max_size=8))
def test_fuzzed_command_lines_exit_0_1_or_2(demo_db: Database, argv: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli(["--db", str(demo_db.path), *argv])
        except SystemExit as exc:  # argparse's wrong usage
            code = int(exc.code or 0)
    assert code in (0, 1, 2), err.getvalue()
    assert "Traceback" not in err.getvalue()


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["entrants", "99999999999999999999999"], "too large"),
        (
            [
                "result",
                "3",
                "--round",
                "1",
                "--table",
                "1",
                "--score",
                "99999999999999999999999-1",
                "--override",
                "x",
            ],
            "at most",
        ),
        (["member", "add", "--name", "\u200b\u200b"], "invisible"),
        (["member", "add", "--name", "- . -"], "letter"),
        (["member", "add", "--name", "Ali\x1b[31m"], "control"),
        (["member", "add", "--name", "Ali Veli", "--number", "١٢٣"], "0-9"),
        (
            ["pay", "1", "1", "--amount", "1", "--method", "cash", "--paid-at", "0001-01-01 10:00"],
            "five years",
        ),
    ],
)
def test_listed_fuzz_findings_are_one_line_and_exit_1(
    tmp_path: Path,
    demo_file: Path,
    argv: list[str],
    needle: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CLUBDESK_ROLE", "referee")  # a one-person club's referee, who may override T10
    shutil.copyfile(demo_file, tmp_path / "demo.sqlite3")
    db = Database(tmp_path / "demo.sqlite3")
    before = _counts(db)
    db.close()
    code = cli(["--db", str(tmp_path / "demo.sqlite3"), *argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert len(err) == 1 and needle in err[0], err
    db = Database(tmp_path / "demo.sqlite3")
    try:
        assert _counts(db) == before
    finally:
        db.close()


def test_a_long_payment_reference_is_refused_not_cut(demo_db: Database) -> None:
    from clubdesk.services.kernel.base import Actor, ServiceError

    with pytest.raises(ServiceError) as info:
        fees.pay(demo_db, Actor("AB"), 1, 1, 100, "transfer", reference="x" * 120_000)
    assert info.value.code == "reference-too-long"


def test_a_penalty_above_the_target_is_refused(demo_db: Database) -> None:
    from clubdesk.services.kernel.base import ServiceError

    with pytest.raises(ServiceError) as info:
        incidents.impose_penalty(
            demo_db, REF, 4, round_no=1, table_no=1, side=0, kind="fine", reason="B7", points=9 * 10**18
        )
    assert info.value.code in ("points-too-high", "locked")
    assert json.dumps(info.value.message)


mat_lines = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            " 5 point match",
            " Game 1",
            " jonnyb1169x : 0                      jonnyb1169 : 0",
            " 1) 31: 8/5 6/5                       42: 8/4 6/4",
            " 2)  Doubles => 2                     Takes",
            " 2)  Takes                            Doubles => 4",
            " 3)  Drops                            Wins 2 points",
            "                                      Wins 1 point",
            " 4)  Wins 3 points",
            " Game 2",
        ]
    ),
)


@FAST
@given(lines=st.lists(mat_lines, max_size=10))
def test_fuzzed_match_files_are_refused_with_a_line_and_a_reason(lines: list[str]) -> None:
    from clubdesk.games.tavla_mat import MatError, parse_mat

    try:
        parse_mat("\n".join(lines))
    except MatError as exc:
        assert exc.line >= 1 and str(exc).startswith(f"line {exc.line}: ")


def test_a_take_before_any_double_is_refused_with_its_line() -> None:
    from clubdesk.games.tavla_mat import MatError, parse_mat

    text = " 5 point match\n Game 1\n A : 0                      B : 0\n 1)  Takes\n"
    with pytest.raises(MatError) as info:
        parse_mat(text)
    assert info.value.line == 4
