"""Rule B1: a league's pairs drawn by lot once, reproducibly from the seed, avoiding last season's
partners; refused once the event has a round (issue 19)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from clubdesk.cli.core import main
from clubdesk.models.audit import AuditEntry
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.services.events import pairs_draw
from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.night.play import rounds
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, open_db

NUMBERS = [f"M{k:02d}" for k in range(1, 9)]


def _league(db: Database, name: str, pairs: list[tuple[str, str]]) -> int:
    with db.session() as s:
        if s.scalar(select(Member.id).limit(1)) is None:
            for n in NUMBERS:
                s.add(Member(number=n, name=f"Name {n}", rating=1500.0, rating_experience=0))
            s.flush()
        ev = Event(
            name=name,
            ruleset="gaple-club",
            format="round-robin",
            entry_type="pair",
            status="closed",
            currency="IDR",
        )
        s.add(ev)
        s.flush()
        for k, (a, b) in enumerate(pairs):
            en = Entrant(event_id=ev.id, name=f"{a} / {b}", code=f"C{ev.id}P{k}")
            s.add(en)
            s.flush()
            for num, role in ((a, "player"), (b, "partner")):
                m = s.scalars(select(Member).where(Member.number == num)).one()
                s.add(EntrantMember(entrant_id=en.id, member_id=m.id, role=role))
        return ev.id


LAST = [("M01", "M02"), ("M03", "M04"), ("M05", "M06"), ("M07", "M08")]


def _partners(result: pairs_draw.PairsDraw) -> set[frozenset[str]]:
    return {frozenset(p.members) for p in result.pairs}


def test_pairs_draw_is_reproducible_from_the_seed_and_avoids_last_seasons_partners(tmp_path: Path) -> None:
    got = []
    for run in (1, 2):
        db = Database(tmp_path / f"run{run}.sqlite3", backups_dir=tmp_path / "b")
        _league(db, "Last season", LAST)
        ev = _league(db, "This season", LAST)  # registered as last year's pairs, to be redrawn
        res = pairs_draw.draw_league_pairs(db, DESK, ev, seed=2024)
        got.append([p.members for p in res.pairs])
        # rule B1 + T4a: nobody is drawn with last season's partner (a draw avoiding it exists)
        assert not _partners(res) & {frozenset(p) for p in LAST}
        assert sorted(n for p in res.pairs for n in p.members) == NUMBERS
        with db.session() as s:
            names = [
                e.name for e in s.scalars(select(Entrant).where(Entrant.event_id == ev).order_by(Entrant.id))
            ]
            assert names == [p.name for p in res.pairs]
            assert s.scalars(select(AuditEntry).where(AuditEntry.action == "pairs-draw")).one().event_id == ev
        db.close()
    assert got[0] == got[1]  # same seed, same draw


def test_pairs_draw_only_once_and_never_after_a_round(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev = _league(db, "League", LAST)
    pairs_draw.draw_league_pairs(db, DESK, ev, seed=1)
    with pytest.raises(ServiceError) as err:
        pairs_draw.draw_league_pairs(db, DESK, ev, seed=2)
    assert err.value.code == "already-drawn"
    other = _league(db, "Second league", LAST)
    with db.session() as s:
        for en in s.scalars(select(Entrant).where(Entrant.event_id == other)):
            en.checked_in_at = en.registered_at
    rounds.propose_round(db, DESK, other)
    with pytest.raises(ServiceError) as err:
        pairs_draw.draw_league_pairs(db, DESK, other, seed=1)
    assert err.value.code == "has-rounds"


def test_pairs_draw_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = open_db(tmp_path)
    ev = _league(db, "League", LAST)
    db.close()
    path = tmp_path / "night.sqlite3"
    capsys.readouterr()
    assert main(["--db", str(path), "--json", "pairs-draw", str(ev), "--seed", "7"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seed"] == 7 and len(out["pairs"]) == 4 and all(len(p["members"]) == 2 for p in out["pairs"])
    assert main(["--db", str(path), "--json", "pairs-draw", str(ev), "--seed", "7"]) == 1
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
