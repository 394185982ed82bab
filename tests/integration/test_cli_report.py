"""``clubdesk-cli report KIND EVENT ... --out FILE.pdf`` (CONTRACTS.md §4): ``{"pages": n}`` for every kind;
unknown kind: wrong usage (exit 2); unknown event, round or table: exit 1 with one line, no file written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from clubdesk.cli.core import main
from tests.integration.test_reports_service import Club, assert_public, seeded_club, text_of


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Club:
    c = seeded_club(tmp_path_factory, "cli-reports")
    c.db.close()
    return c


def cli(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, object, str]:
    try:
        code = main(["--db", str(db), "--json", *args])
    except SystemExit as exc:  # argparse: wrong usage
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and out.strip() else None), err


@pytest.mark.parametrize(
    ("kind", "extra", "expected"),
    [
        ("score-sheets", ["--round", "1"], "Tavla match sheet: table 4"),
        ("score-sheets", ["--round", "1", "--table", "1"], "Tavla match sheet: table 1"),
        ("pairings", ["--round", "2"], "Pairings, round 2"),
        ("standings", [], "Final standings"),
        ("receipts", [], "Receipt "),
        ("prizes", [], "Prize list"),
        ("season", [], "Season ranking 2025"),
        ("incident-act", ["--round", "1", "--table", "1"], "Match act"),
        ("crosstable", [], "Cross-table"),  # issue 21
    ],
)
def test_each_kind(
    capsys: pytest.CaptureFixture[str],
    club: Club,
    tmp_path: Path,
    kind: str,
    extra: list[str],
    expected: str,
) -> None:
    out = tmp_path / f"{kind}.pdf"
    code, data, err = cli(capsys, club.path, "report", kind, str(club.swiss), *extra, "--out", str(out))
    assert code == 0, err
    assert data == {"pages": len(PdfReader(out).pages)}
    text = text_of(out)
    assert expected in text and "Ayşe Yılmaz" in text
    assert_public(text)  # rule T14


def test_bracket_and_table_count(capsys: pytest.CaptureFixture[str], club: Club, tmp_path: Path) -> None:
    out = tmp_path / "b.pdf"
    code, data, err = cli(capsys, club.path, "report", "bracket", str(club.knockout), "--out", str(out))
    assert code == 0, err
    assert data == {"pages": 1}  # 4 entrants: one page
    out = tmp_path / "all.pdf"
    code, data, err = cli(
        capsys, club.path, "report", "score-sheets", str(club.swiss), "--round", "3", "--out", str(out)
    )
    assert (code, data) == (0, {"pages": 4})  # 8 players: 4 tables of round 3, one page each


def test_language_and_paper(capsys: pytest.CaptureFixture[str], club: Club, tmp_path: Path) -> None:
    out = tmp_path / "xx.pdf"
    code, data, err = cli(
        capsys,
        club.path,
        "report",
        "standings",
        str(club.swiss),
        "--lang",
        "xx",
        "--paper",
        "letter",
        "--out",
        str(out),
    )
    assert code == 0, err
    box = PdfReader(out).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    assert "Ayşe Yılmaz" in text_of(out)  # names are never translated


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["report", "nonsense", "1"], 2, "wrong usage"),
        (["report", "standings", "9999"], 1, "9999"),
        (["report", "pairings", "1", "--round", "9"], 1, "round 9"),
        (["report", "score-sheets", "1", "--round", "1", "--table", "42"], 1, "table 42"),
        (["report", "bracket", "1"], 1, "bracket"),
    ],
)
def test_refusals(
    capsys: pytest.CaptureFixture[str], club: Club, tmp_path: Path, args: list[str], code: int, words: str
) -> None:
    out = tmp_path / "never.pdf"
    got, _data, err = cli(capsys, club.path, *args, "--out", str(out))
    assert got == code
    assert words in err
    if code == 1:
        assert len(err.strip().splitlines()) == 1  # one line
    assert not out.exists()
