"""The demo club: about 40 members, 4 clubs from 3 cities, Indonesian/Spanish/Turkish names, contacts."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from clubdesk.services import demo
from clubdesk.services.club import settings
from clubdesk.services.demo import demo_club
from clubdesk.services.events import events
from clubdesk.services.kernel.base import Actor
from clubdesk.services.members import edit, records, search
from clubdesk.storage import Database


def test_demo_club_is_a_living_register(demo_db: tuple[Database, dict[str, Any]]) -> None:
    db, data = demo_db
    assert data["members"] == 40
    from clubdesk.services.members import search

    # later issues add demo events through DEMO_HOOKS; the ids printed are exactly the events created
    assert sorted(data["events"]) == sorted(e.id for e in events.list_events(db))
    everyone = search.list_members(db, include_inactive=True)
    assert len(everyone) == 40
    clubs = edit.list_clubs(db)
    assert len(clubs) == 4
    assert {c.city for c in clubs} == {"İstanbul", "Madrid", "Jakarta"}  # 4 clubs from 3 cities
    names = " ".join(m.name for m in everyone)
    for letter in "ğşıİñá":
        assert letter in names, letter
    assert {"Şükrü Işık", "José Muñoz", "Budi Santoso"} <= {m.name for m in everyone}
    assert all(m.phone and records.phone_ok(m.phone) for m in everyone)
    with_email = [m for m in everyone if m.email]
    assert len(with_email) >= 30 and all(records.email_ok(m.email) for m in with_email)
    assert len({m.number for m in everyone}) == 40


def test_demo_is_filled_once_and_is_deterministic(tmp_path: Path, demo_file: Path) -> None:
    first = Database(tmp_path / "a.sqlite3")
    shutil.copy(demo_file, tmp_path / "b.sqlite3")  # the run's demo file: filled by another fill_demo
    second = Database(tmp_path / "b.sqlite3")
    try:
        assert demo.ensure_demo(first) is not None
        assert demo.ensure_demo(first) is None  # already filled: left alone
        assert search.count_members(first) == 40
        assert search.list_members(first, include_inactive=True) == search.list_members(
            second, include_inactive=True
        )
    finally:
        first.close()
        second.close()


def test_more_members_get_unique_names(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(demo_club, "DEMO_HOOKS", [])  # the hooks add events, never a member or a name
    demo.fill_demo(db, demo.DemoOptions(members=90, seed=3))
    names = [m.name for m in search.list_members(db, include_inactive=True)]
    assert len(names) == 90 and len(set(names)) == 90


def test_later_issues_extend_the_demo_through_hooks(db: Database, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    seen: list[tuple[str | None, int]] = []

    def hook(db_: Database, actor: Actor, options: demo.DemoOptions, numbers: list[str]) -> list[int]:
        seen.append((options.game, len(numbers)))
        return [7]

    monkeypatch.setattr(demo_club, "DEMO_HOOKS", [hook])
    result = demo.fill_demo(db, demo.DemoOptions(members=10, game="tavla"))
    assert result.as_json() == {"members": 10, "events": [7]}
    assert seen == [
        ("tavla", 10 - sum(1 for m in search.list_members(db, include_inactive=True) if not m.active))
    ]


def test_demo_club_has_its_own_name(demo_db: tuple[Database, dict[str, Any]]) -> None:
    db, _data = demo_db
    # the window title, report headers and receipts show the demo club's name, not the "My club" placeholder
    assert settings.club_settings(db).club_name == demo.DEMO_CLUB_NAME
