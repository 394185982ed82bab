"""A report prints in its event's language or the one asked for, never the window's (issue 17)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clubdesk import i18n
from clubdesk.cli.core import main
from clubdesk.services.club import settings
from clubdesk.services.events import language
from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.publishing import documents, header
from tests.integration.test_reports_service import DESK, Club, seeded_club, text_of


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Club:
    return seeded_club(tmp_path_factory, "lang-reports")


def test_the_event_language_beats_the_club_and_the_window(club: Club, tmp_path: Path) -> None:
    settings.save_club_settings(club.db, DESK, "Kulüp", None, "tr")
    language.set_event_language(club.db, DESK, club.swiss, "es")
    i18n.set_language("id")  # the window speaks Indonesian
    assert header.report_header(club.db, club.swiss).language == "es"
    assert header.report_header(club.db, club.knockout).language == "tr"  # no language of its own: the club's
    assert header.report_header(club.db, club.swiss, language="id").language == "id"  # asked for
    out = tmp_path / "s.pdf"
    documents.standings_report(club.db, club.swiss, out)
    assert "4 de mayo de 2025" in text_of(out)  # Babel's Spanish date: the event's language was in force
    assert i18n.current_language() == "id"  # and the window's language came back
    language.set_event_language(club.db, DESK, club.swiss, None)
    assert header.report_header(club.db, club.swiss).language == "tr"


def test_a_bad_language_or_event_is_refused(club: Club) -> None:
    with pytest.raises(ServiceError) as bad:
        language.set_event_language(club.db, DESK, club.swiss, "fr")
    assert bad.value.code == "unknown-language"
    with pytest.raises(ServiceError):
        language.set_event_language(club.db, DESK, 999, "es")
    assert language.event_language(club.db, club.swiss) is None


def test_cli_sets_and_shows_the_event_language(
    club: Club, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(club.path)
    assert main(["--db", db, "--json", "event", "language", str(club.knockout), "es"]) == 0
    assert '"reports_in": "es"' in capsys.readouterr().out
    assert main(["--db", db, "event", "language", str(club.knockout)]) == 0
    assert "Español" in capsys.readouterr().out
    assert main(["--db", db, "event", "language", str(club.knockout), "club"]) == 0
    capsys.readouterr()
    assert language.event_language(club.db, club.knockout) is None
