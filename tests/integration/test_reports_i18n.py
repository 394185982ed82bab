"""Every word printed on a PDF is translated (issue 17): each report kind rendered with the pseudo-locale
``xx`` wraps every translated string in ⟦…⟧; a word left outside the brackets must be data (a name, a
club, a city, an event, a code, a date Babel wrote), never a title, column, note, rule text or signature
line. And every msgid the reports asked for is in the template, so translators were asked for it."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from babel.dates import get_day_names, get_month_names

from clubdesk import i18n
from clubdesk.cli.core import main
from clubdesk.i18n_tools import template_ids
from clubdesk.reports import data as d
from clubdesk.reports.incident_act import incident_act
from clubdesk.reports.private import contact_list, member_history
from clubdesk.reports.score_sheets import score_sheets
from tests.integration.test_reports_service import CLUBS, DESK, NAMES, Club, seeded_club, text_of
from tests.unit import test_reports as U

KINDS = [
    ("score-sheets", ["--round", "1"]),
    ("pairings", ["--round", "2"]),
    ("standings", []),
    ("receipts", []),
    ("prizes", []),
    ("season", []),
    ("incident-act", ["--round", "1", "--table", "1"]),
    ("bracket", []),
]
# dates and money are data that Babel formats (xx formats as English): month and day names may show
BABEL_WORDS = {str(w) for w in get_month_names("wide", locale="en").values()} | {
    str(w) for w in get_day_names("wide", locale="en").values()
}


def unmarked_words(text: str, data: set[str]) -> list[str]:
    """Words outside every ⟦…⟧ (nested ones too) that are not data words or codes (BH, W1-2, TRY400)."""
    rest = text
    while re.search(r"⟦[^⟦⟧]*⟧", rest):
        rest = re.sub(r"⟦[^⟦⟧]*⟧", " ", rest)
    allowed = BABEL_WORDS | {w for item in data for w in re.findall(r"[^\W\d_][\w'’-]*", item)}
    words = re.findall(r"[^\W\d_][\w'’-]*", rest)
    return sorted({w for w in words if w not in allowed and not w.isupper() and not re.search(r"\d", w)})


# a full match act; its incident kinds, decisions and reasons are data here (the service translates them)
ACT_WORDS = {
    "false pass (E16)",
    "said pass holding 3-4",
    "hand annulled, lead lost",
    "Referee Öz",
    "fine",
    "wrong play (B7)",
    "lead should not be lost",
    "upheld",
    "the offender's side had not led",
}
ACT = d.IncidentActData(
    "7",
    3,
    "Club Ağaç – Club Şile",
    teams=(
        d.ActTeam("Ağaç", (d.ActPlayer(U.NAMES[0], "M-001"), d.ActPlayer(U.NAMES[2], "M-003")), U.NAMES[0]),
        d.ActTeam("Şile", (d.ActPlayer(U.NAMES[1], "M-002"), d.ActPlayer(U.NAMES[3], "M-004")), U.NAMES[1]),
    ),
    incidents=(
        d.ActIncident(
            "20:41",
            "false pass (E16)",
            "said pass holding 3-4",
            table=2,
            hand=5,
            player=U.NAMES[3],
            player_number="M-004",
            decision="hand annulled, lead lost",
            recorded_by="Referee Öz",
        ),
    ),
    penalties=(d.ActPenalty("Şile", "fine", "wrong play (B7)", points=-20, table=2),),
    appeals=(
        d.ActAppeal(
            "Şile",
            "21:10",
            "lead should not be lost",
            fee=500,
            currency="USD",
            decision="upheld",
            reasons="the offender's side had not led",
            refund=500,
        ),
    ),
    referee="Referee Öz",
)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Club:
    c = seeded_club(tmp_path_factory, "xx-reports")
    c.db.close()
    return c


def club_data() -> set[str]:
    # the people, clubs and cities of the test club, its events (tests/integration/test_reports_service.py)
    return {
        *NAMES,
        *(c for c, _ in CLUBS),
        *(city for _, city in CLUBS),
        "Bahar Kupası",
        "Kış Eleme",
        "ClubDesk",
        DESK.name,  # the staff member who approved at the desk: the act's "Approved by" names him
    }


@pytest.mark.parametrize(("kind", "extra"), KINDS)
def test_each_report_kind_prints_no_unmarked_word(
    kind: str, extra: list[str], club: Club, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    i18n.pseudo_seen(clear=True)
    event = club.knockout if kind == "bracket" else club.swiss
    out = tmp_path / f"{kind}.pdf"
    assert (
        main(["--db", str(club.path), "report", kind, str(event), *extra, "--lang", "xx", "--out", str(out)])
        == 0
    )
    capsys.readouterr()
    text = text_of(out)
    assert "⟦" in text
    assert unmarked_words(text, club_data() | {"CLUBDESK:TABLE"}) == []
    assert sorted(i18n.pseudo_seen() - template_ids()) == []  # translated at run time, never extracted


def test_gaple_domino_private_and_act_pages_print_no_unmarked_word(tmp_path: Path) -> None:
    """What the tavla club above does not print: gaple and Spanish sheets (filled and blank), the member's
    history, the organiser's contact list, a full match act (incidents, penalties, appeals, signatures)."""
    i18n.pseudo_seen(clear=True)
    h = U.header("xx")
    files = {
        "sheets": lambda f: score_sheets(f, h, [U.GAPLE, U.DOMINO, U.TAVLA]),
        "blank": lambda f: score_sheets(
            f,
            h,
            [
                d.GapleSheetData("7", 1, 1, U.NAMES, ("A", "B")),
                d.DominoSheetData("7", 1, 2, U.NAMES),
                d.TavlaSheetData("7", 1, 3, (U.NAMES[0], U.NAMES[1])),
            ],
        ),
        "history": lambda f: member_history(
            f,
            h,
            d.MemberHistory(
                U.NAMES[0], "M-001", (d.HistoryRow(dt.date(2025, 1, 5), "Kış", "1", "5-2", "120", "1612"),)
            ),
        ),
        "contacts": lambda f: contact_list(
            f, h, d.ContactList("7", (d.ContactRow(U.NAMES[1], "M-002", "Ağaç"),))
        ),
        "act": lambda f: incident_act(f, h, ACT),
    }
    data = {*U.NAMES, "Ağaç", "Şile", "İzmir", "Kış", "Kulübü Ağaçlı İzmir", "Bahar Turnuvası", "ClubDesk"}
    data |= {
        "CLUBDESK:TABLE",
        "Ayşe / İsmail",
        "Iğdır / Peña",
        "Club Ağaç – Club Şile",
        "IŞ",
        "M-001",
        "M-002",
    }
    data |= ACT_WORDS
    for name, job in files.items():
        f = tmp_path / f"{name}.pdf"
        job(f)
        assert unmarked_words(text_of(f), data) == [], name
    assert sorted(i18n.pseudo_seen() - template_ids()) == []
