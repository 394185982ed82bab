"""Versions on every change of a table from the command line: `result`, `confirm`, `referee` and `penalty`
read the table's version when they start (or take `--version N`) and refuse, naming who changed the table
and when, when anyone changed it in between; nothing is saved then. Eight processes setting different
final scores on one table at once: exactly one wins and its score is the one stored (no lost update)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from clubdesk.cli.core import main as cli
from clubdesk.services import night
from clubdesk.services.night.play import rounds
from tests.forks import Forks
from tests.integration.test_night_helpers import DESK, make_event, open_db
from tests.integration.test_safety import _count
from tests.waits import READY_S, ready_files, release_when_ready

SCORES = [(3, i % 3) for i in range(4)] + [(i % 3, 3) for i in range(4)]  # 8 different final scores
WHO = re.compile(r"changed by (Desk \d) at \d\d:\d\d:\d\d")


def _club(tmp_path: Path) -> tuple[Path, int]:
    """A club file with one published round of a tavla match to 3 on table 1."""
    db = open_db(tmp_path)
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=2, rounds=1, match_lengths=[3])
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    path = Path(db.path)
    db.close()
    return path, ev


def _stored(path: Path) -> tuple[int, int]:
    a = _count(path, "SELECT score_a FROM matches WHERE table_no = 1")
    b = _count(path, "SELECT score_b FROM matches WHERE table_no = 1")
    return a, b


def _race(
    tmp_path: Path, forks: Forks, path: Path, argvs: list[list[str]], *, after_read: bool
) -> list[tuple[int, str]]:
    """One CLI process per argv (each acting as "Desk i"), released at one instant. ``after_read``: each
    process is held after it has read the table's version (the race the version must win: every one read
    the same version before any writes), else before it starts its command."""
    go = tmp_path / "go-versions"
    go.unlink(missing_ok=True)
    for old in ready_files(go):
        old.unlink()
    code = """
        import os, sys, time
        from pathlib import Path
        go = Path(sys.argv[1])
        def wait():
            go.with_name(f"{go.name}.{os.getpid()}.ready").touch()
            while not go.exists():
                time.sleep(0.001)
        if sys.argv[2] == "after-read":
            from clubdesk.services import night
            read = night.get_table
            def held(*args, **kwargs):
                table = read(*args, **kwargs)
                wait()
                return table
            night.get_table = held
        else:
            wait()
        from clubdesk.cli.core import main
        sys.exit(main(sys.argv[3:]))
        """
    procs = [
        forks.run(
            code,
            str(go),
            "after-read" if after_read else "before",
            "--db",
            str(path),
            *argv,
            env={"CLUBDESK_ACTOR": f"Desk {i}", "CLUBDESK_LANG": "en"},
        )
        for i, argv in enumerate(argvs)
    ]
    release_when_ready(procs, go)
    outs = [p.communicate(READY_S) for p in procs]
    return [(p.wait(), err) for p, (_out, err) in zip(procs, outs, strict=True)]


def _score_argv(ev: int, score: tuple[int, int], *extra: str) -> list[str]:
    return ["result", str(ev), "--round", "1", "--table", "1", "--score", f"{score[0]}-{score[1]}", *extra]


def _one_winner(runs: list[tuple[int, str]], path: Path) -> None:
    codes = [code for code, _err in runs]
    assert sorted(codes) == [0] + [1] * 7, runs
    winner = codes.index(0)
    for code, err in runs:
        if code == 1:
            assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
            named = WHO.search(err)
            assert named is not None, err  # who changed the table, and when
            assert named.group(1) == f"Desk {winner}", err
            assert "nothing was saved" in err
    assert _stored(path) == SCORES[winner]  # the stored score is the winner's, not the last writer's
    assert _count(path, "SELECT count(*) FROM audit_log WHERE action = 'score'") == 1


def test_eight_racing_final_scores_with_the_version_read_at_the_start_one_wins(
    tmp_path: Path, forks: Forks
) -> None:
    path, ev = _club(tmp_path)
    runs = _race(tmp_path, forks, path, [_score_argv(ev, s) for s in SCORES], after_read=True)
    _one_winner(runs, path)


def test_eight_racing_final_scores_given_the_version_one_wins(tmp_path: Path, forks: Forks) -> None:
    path, ev = _club(tmp_path)
    db = open_db(tmp_path)
    try:
        seen = night.get_table(db, ev, 1, 1).version
    finally:
        db.close()
    runs = _race(
        tmp_path, forks, path, [_score_argv(ev, s, "--version", str(seen)) for s in SCORES], after_read=False
    )
    _one_winner(runs, path)


def test_a_stale_version_is_refused_by_result_confirm_and_referee(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, ev = _club(tmp_path)
    base = ["--db", str(path), "--lang", "en"]
    assert cli([*base, "--json", "round", str(ev)]) == 0
    seen = json.loads(capsys.readouterr().out)["tables"][0]["version"]
    monkeypatch.setenv("CLUBDESK_ACTOR", "Ayşe")
    assert cli([*base, *_score_argv(ev, (3, 1))]) == 0  # read at the start, nobody in between: saved
    capsys.readouterr()
    monkeypatch.setenv("CLUBDESK_ACTOR", "Berk")
    monkeypatch.setenv("CLUBDESK_ROLE", "referee")
    stale = ["--version", str(seen)]
    for argv in (
        _score_argv(ev, (1, 3), *stale),
        ["confirm", str(ev), "--round", "1", "--table", "1", "--side", "0", "--initials", "B", *stale],
        ["referee", str(ev), "--round", "1", "--table", "1", "--dispute", *stale],
        ["penalty", str(ev), "--round", "1", "--table", "1", "--side", "0", "--kind", "warning"]
        + ["--reason", "B7", *stale],
    ):
        assert cli([*base, *argv]) == 1
        err = capsys.readouterr().err
        assert re.search(r"changed by Ayşe at \d\d:\d\d:\d\d", err), err
        assert f"version {seen} -> {seen + 1}" in err
    assert _stored(path) == (3, 1)
    assert _count(path, "SELECT count(*) FROM audit_log WHERE action LIKE 'referee%'") == 0
    assert _count(path, "SELECT count(*) FROM penalties") == 0


def test_a_change_between_the_read_and_the_write_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --version, the version is the one read as the command starts: a phone's or another desk's
    change after that read is never overwritten."""
    path, ev = _club(tmp_path)
    read = night.get_table

    def another_desk_meanwhile(*args: object, **kwargs: object) -> object:
        table = read(*args, **kwargs)  # type: ignore[arg-type]
        other = open_db(tmp_path)
        try:
            night.set_score(other, DESK, ev, 1, 1, (3, 2))
        finally:
            other.close()
        return table

    monkeypatch.setattr(night, "get_table", another_desk_meanwhile)
    assert cli(["--db", str(path), "--lang", "en", *_score_argv(ev, (0, 3))]) == 1
    err = capsys.readouterr().err
    assert re.search(r"changed by Desk at \d\d:\d\d:\d\d", err), err
    assert _stored(path) == (3, 2)
