"""Stored naive-UTC times shown on the club's wall clock (``clubdesk.timefmt``).

Expected values: Asia/Jakarta is UTC+7 all year (no daylight saving); Europe/Madrid is UTC+1 in winter and
UTC+2 in summer (CEST, from the last Sunday of March to the last Sunday of October).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone

import pytest

from clubdesk.timefmt import local_from_utc, local_text


@pytest.fixture
def zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """Set ``TZ`` with ``zone.setenv("TZ", ...)`` then ``time.tzset()``; the real zone is back afterwards."""
    yield monkeypatch
    monkeypatch.undo()
    time.tzset()


def test_jakarta_evening_incident_reads_as_local_time(zone: pytest.MonkeyPatch) -> None:
    zone.setenv("TZ", "Asia/Jakarta")
    time.tzset()
    # 12:30 UTC + 7 h = 19:30 in Jakarta
    assert local_from_utc(datetime(2025, 5, 4, 12, 30)) == datetime(2025, 5, 4, 19, 30)
    assert local_text(datetime(2025, 5, 4, 12, 30), "%H:%M") == "19:30"
    # 20:15 UTC + 7 h = 03:15 the next day
    assert local_text(datetime(2025, 5, 4, 20, 15)) == "2025-05-05 03:15"
    assert local_text(None) == ""


def test_result_is_naive_like_the_stored_value(zone: pytest.MonkeyPatch) -> None:
    zone.setenv("TZ", "Asia/Jakarta")
    time.tzset()
    assert local_from_utc(datetime(2025, 1, 1, 0, 0)).tzinfo is None
    # an aware time is converted from its own zone: 10:00 at UTC+3 = 07:00 UTC = 14:00 in Jakarta
    aware = datetime(2025, 1, 1, 10, 0, tzinfo=timezone(timedelta(hours=3)))
    assert local_from_utc(aware) == datetime(2025, 1, 1, 14, 0)
    assert local_from_utc(datetime(2025, 1, 1, 7, 0, tzinfo=UTC)) == datetime(2025, 1, 1, 14, 0)


def test_madrid_follows_daylight_saving(zone: pytest.MonkeyPatch) -> None:
    zone.setenv("TZ", "Europe/Madrid")
    time.tzset()
    # winter (CET, UTC+1): 18:00 UTC is 19:00; summer (CEST, UTC+2): 18:00 UTC is 20:00
    assert local_text(datetime(2025, 1, 15, 18, 0), "%H:%M") == "19:00"
    assert local_text(datetime(2025, 7, 15, 18, 0), "%H:%M") == "20:00"
