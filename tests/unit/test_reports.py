"""Printed outputs (issue 14): every report kind generated from plain data and read back with pypdf.

Names with ğ ş ı İ ñ must extract exactly, fonts must be DejaVu (embedded), QR codes must decode (zxing-cpp on
a 150 dpi render by pdftoppm), and no public report may carry a phone number or an e-mail address (rule T14).
Expected numbers are worked out by hand from RULES.md in the comments.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import subprocess
from pathlib import Path

from pypdf import PdfReader

from clubdesk import i18n
from clubdesk.pairing import Entrant
from clubdesk.pairing.elimination import double_elimination, single_elimination
from clubdesk.reports import data as d
from clubdesk.reports.bracket import bracket, from_bracket, smallest_name_size
from clubdesk.reports.incident_act import incident_act
from clubdesk.reports.pairings import pairings
from clubdesk.reports.private import contact_list, member_history
from clubdesk.reports.prizes import prizes
from clubdesk.reports.receipts import receipts
from clubdesk.reports.score_sheets import score_sheets
from clubdesk.reports.season import season
from clubdesk.reports.standings import standings

PRINTED = dt.datetime(2025, 5, 4, 20, 15)
NAMES = ("Ayşe Yılmaz", "Iğdır Şahin", "İsmail Güneş", "Peña Núñez")
PHONE = "+90 555 010 9999"  # marker contact data: must never reach a public report (T14)
EMAIL = "marker.ğ@example.test"


def header(lang: str = "en", size: d.PageSize = "A4") -> d.ReportHeader:
    return d.ReportHeader(
        "Kulübü Ağaçlı İzmir",
        "Bahar Turnuvası",
        round=3,
        date=dt.date(2025, 5, 4),
        language=lang,
        page_size=size,
        printed_on=PRINTED,
    )


def text_of(path: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(path).pages)


def font_names(path: Path) -> set[str]:
    names: set[str] = set()
    for page in PdfReader(path).pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            names.add(str(font["/BaseFont"]))
            for desc in font.get("/DescendantFonts", []):
                fd = desc.get_object().get("/FontDescriptor")
                if fd is not None:
                    assert any(k in fd.get_object() for k in ("/FontFile2", "/FontFile")), "font not embedded"
    return names


def qr_payloads(path: Path, page: int, tmp_path: Path) -> list[str]:
    import zxingcpp
    from PIL import Image

    prefix = tmp_path / f"render{page}"
    subprocess.run(
        ["pdftoppm", "-r", "150", "-png", "-f", str(page), "-l", str(page), str(path), str(prefix)],
        check=True,
    )
    png = next(tmp_path.glob(f"render{page}*.png"))
    return [r.text for r in zxingcpp.read_barcodes(Image.open(png))]


def out(seat: int, pips: list[int], *, two_ends: bool = False) -> dict[str, object]:
    return {
        "type": "out",
        "seat": seat,
        "pips": pips,
        "last_tile": None,
        "two_ends": two_ends,
        "dead": {"0-0": None, "6-6": None},
    }


GAPLE = d.GapleSheetData(
    "7",
    3,
    1,
    NAMES,
    ("Ayşe / İsmail", "Iğdır / Peña"),
    entries=(out(0, [0, 10, 20, 30]), out(1, [20, 0, 20, 30]), out(2, [40, 30, 0, 50], two_ends=True)),
)
DOMINO = d.DominoSheetData(
    "7",
    3,
    2,
    NAMES,
    scorer="Ayşe Yılmaz",
    counter="Iğdır Şahin",
    entries=({"type": "domino", "seat": 0, "pips": [0, 10, 20, 31]},),
    initials=("IŞ",),
)
TAVLA = d.TavlaSheetData(
    "7",
    3,
    5,
    (NAMES[0], NAMES[3]),
    ("Ağaç", "Şile"),
    entries=(
        {"type": "game", "winner": 0, "kind": "gammon", "cube": 2, "dropped": False},
        {"type": "game", "winner": 1, "kind": "single", "cube": 1, "dropped": False},
    ),
)


# ---------------------------------------------------------------------------------------------- sheets
def test_filled_gaple_sheet_shows_the_engine_totals(tmp_path: Path) -> None:
    f = tmp_path / "g.pdf"
    assert score_sheets(f, header(), [GAPLE]) == 1
    text = text_of(f)
    for name in NAMES:
        assert name in text
    # hand 1: warm-up (G6, G7): seats 1+3 hold 10 + 30 = 40, scores nothing
    assert "warm-up (G7)" in text
    # hand 2: seat 2 out; opponents hold 20 + 20 = 40 >= 25 opens pair B (GN1, GN4) -> 0-40
    # hand 3: seat 3 out on two ends: 30 + 50 = 80 pure, x2 = 160 (GS1); pair A overtakes 40 -> B burned (GN6)
    assert "160 0 160 0" in text.replace("\n", " ")
    assert "B burned (GN6)" in text
    # the sheet says which tile opens game 1 (G6)
    assert "opening tile 0-0" in text
    # rule G5: the seat columns S1-S4 are in playing order, and the sheet says play goes counter-clockwise
    flat = " ".join(text.split())
    assert "Seats in playing order, counter-clockwise (G5)." in flat
    assert "S1 S2 S3 S4" in flat


def test_filled_domino_and_tavla_sheets(tmp_path: Path) -> None:
    f = tmp_path / "dt.pdf"
    assert score_sheets(f, header(), [DOMINO, TAVLA]) == 2
    pages = [p.extract_text() for p in PdfReader(f).pages]
    # rule E18: player 1 goes out; his pair scores every pip left: 0 + 10 + 20 + 31 = 61
    assert "61" in pages[0] and "domino by 1" in pages[0]
    # rule E6: scorer and counter named on the sheet, the counter's initials on the hand row
    assert "Scorer (anotador)" in pages[0] and "Counter (recuento)" in pages[0] and "IŞ" in pages[0]
    # rule T7c: gammon x cube 2 = 4 -> 4-0 in a match to 5;
    # one point away, so game 2 is the Crawford game (T7b)
    assert "Crawford" in pages[1]
    assert "Match to" in pages[1] and "5 points" in pages[1]
    assert " 4 1 " in pages[1].replace("\n", " ") + " "  # running score after game 2: 4-1


def test_blank_sheets_one_page_each_with_table_qr(tmp_path: Path) -> None:
    sheets = [
        d.GapleSheetData("ev9", 2, 1, NAMES),
        d.DominoSheetData("ev9", 2, 2, NAMES),
        d.TavlaSheetData("ev9", 2, 3, (NAMES[0], NAMES[1])),
    ]
    f = tmp_path / "blank.pdf"
    assert score_sheets(f, header(), sheets) == 3
    assert "Page 2 of 3" in PdfReader(f).pages[1].extract_text()
    for page, sheet in enumerate(sheets, start=1):
        assert qr_payloads(f, page, tmp_path) == [f"CLUBDESK:TABLE:ev9:2:{sheet.table}"]


# ------------------------------------------------------------------------------------------- pairings
def side(i: int) -> d.PairingSide:
    return d.PairingSide(NAMES[i], club=("Ağaç", "Şile", "Ağaç", "Iğdır")[i], city="İzmir", points=str(i))


def test_pairings_by_table_and_by_name(tmp_path: Path) -> None:
    data = d.PairingsData(
        "7",
        3,
        (
            d.PairingTable(1, (side(0), side(1))),
            d.PairingTable(2, (side(2), side(3))),
            d.PairingTable(3, (d.PairingSide("Zeynep Öztürk"), None)),
        ),
        call_time="19:30",
    )
    f = tmp_path / "p.pdf"
    assert pairings(f, header(), data) == 2
    by_table, by_name = (p.extract_text() for p in PdfReader(f).pages)
    assert "BYE" in by_table and "19:30" in by_table
    # by name: alphabetical (casefold): Ayşe, Iğdır, İsmail, Peña, Zeynep; each with table and opponent
    order = [by_name.index(n) for n in ("Ayşe Yılmaz", "Iğdır Şahin", "Peña Núñez", "Zeynep Öztürk")]
    assert order == sorted(order)


# ------------------------------------------------------------------------------------------ standings
def standings_data() -> d.StandingsData:
    return d.StandingsData(
        "7",
        ("PTS", "BH", "SB", "WIN"),
        (
            d.StandingsRow(1, NAMES[0], "Ağaç", "İzmir", "4", {"BH": "9.5", "SB": "7.25", "WIN": "4"}),
            d.StandingsRow(2, NAMES[1], "Şile", "İstanbul", "3", {"BH": "10", "SB": "6", "WIN": "3"}),
            d.StandingsRow(3, NAMES[2], "Ağaç", "İzmir", "3", {"BH": "8.5", "SB": "5", "WIN": "3"}),
            d.StandingsRow(
                4, NAMES[3], "", "Ñuñoa", "1", {"BH": "8.5", "SB": "2", "WIN": "1"}, note="disqualified"
            ),
        ),
        explanations=("Iğdır Şahin ahead of İsmail Güneş on BH: 10 > 8.5",),
        after_round=5,
    )


def test_standings_show_tiebreak_columns_legend_and_explanations(tmp_path: Path) -> None:
    f = tmp_path / "s.pdf"
    assert standings(f, header(), standings_data()) == 1
    text = text_of(f)
    assert "Standings after round 5" in text
    assert "9.5" in text and "7.25" in text and "Ñuñoa" in text
    assert "Buchholz" in text and "Sonneborn-Berger" in text  # legend
    assert "Iğdır Şahin ahead of İsmail Güneş on BH: 10 > 8.5" in text


def test_pseudo_locale_marks_every_label_and_restores_the_app_language(tmp_path: Path) -> None:
    i18n.set_language("en")
    f = tmp_path / "xx.pdf"
    standings(f, header("xx"), standings_data())
    text = text_of(f)
    assert "⟦Standings after round {n}⟧".replace("{n}", "5") in text or "⟦Standings after round 5⟧" in text
    assert "⟦Rank⟧" in text and "⟦Legend⟧" in text
    assert "⟦Page {page} of {total}⟧" not in text and "⟦Page 1 of 1⟧" in text
    assert i18n.current_language() == "en"
    assert i18n._("Rank") == "Rank"


def test_letter_page_size(tmp_path: Path) -> None:
    f = tmp_path / "letter.pdf"
    standings(f, header(size="Letter"), standings_data())
    box = PdfReader(f).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)


# ------------------------------------------------------------------------------------------- brackets
def test_64_entrant_brackets_are_legible(tmp_path: Path) -> None:
    # single elimination on one page; double elimination over two (winners' bracket and finals, then
    # the losers' bracket), names of at least 6 pt in both
    names = {f"e{i}": f"Oyuncu Ğş {i + 1}" for i in range(64)}
    ents = [Entrant(f"e{i}", rating=2000 - i) for i in range(64)]
    b = single_elimination(ents)
    b = b.record("W1-1", "e0")
    f = tmp_path / "b.pdf"
    assert bracket(f, header(), from_bracket(b, names)) == 1
    text = text_of(f)
    assert all(n in text for n in names.values())
    assert "winner of W1-2" in text  # an unknown side says where it comes from
    assert smallest_name_size(from_bracket(b, names), header()) >= 6
    f2 = tmp_path / "b2.pdf"
    double = from_bracket(double_elimination(ents), names)
    assert bracket(f2, header(), double) == 2
    pages = [p.extract_text() for p in PdfReader(f2).pages]
    assert "Losers' bracket" in pages[1] and all(n in pages[0] for n in names.values())
    assert "loser of W1-1" in pages[1] and "Champion" in pages[0] and "Champion" not in pages[1]
    assert smallest_name_size(double, header()) >= 6


def test_bracket_prints_the_champion(tmp_path: Path) -> None:
    names = {"a": "Ayşe", "b": "Peña", "c": "İsmail", "e": "Iğdır"}
    b = single_elimination([Entrant(k, rating=10 - i) for i, k in enumerate(names)])
    # seeds a(1) b(2) c(3) e(4): W1-1 = 1 v 4, W1-2 = 2 v 3
    b = b.record("W1-1", "a").record("W1-2", "c").record("W2-1", "c")
    data = from_bracket(b, names)
    assert data.champion == "İsmail"
    f = tmp_path / "c.pdf"
    bracket(f, header(), data)
    assert "Champion" in text_of(f)


# ------------------------------------------------------------------------------------------- match act
def test_match_act_lists_incidents_penalties_appeals_and_signatures(tmp_path: Path) -> None:
    data = d.IncidentActData(
        "7",
        3,
        "Club Ağaç – Club Şile",
        teams=(
            d.ActTeam("Ağaç", (d.ActPlayer(NAMES[0], "M-001"), d.ActPlayer(NAMES[2], "M-003")), NAMES[0]),
            d.ActTeam("Şile", (d.ActPlayer(NAMES[1], "M-002"), d.ActPlayer(NAMES[3], "M-004")), NAMES[1]),
        ),
        incidents=(
            d.ActIncident(
                "20:41",
                "false pass (E16)",
                "said pass holding 3-4",
                table=2,
                hand=5,
                player=NAMES[3],
                player_number="M-004",
                decision="hand annulled, lead lost",
                recorded_by="Referee Öz",
            ),
            d.ActIncident(
                "20:55", "dropped tiles (E19)", "tiles fell", table=2, hand=7, player=NAMES[1], count=3
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
    f = tmp_path / "act.pdf"
    assert incident_act(f, header(), data) >= 1
    text = text_of(f).replace("\n", " ")
    assert "M-004" in text and "hand annulled, lead lost" in text
    assert "time 3 by this pair in this game" in text  # rule E19 counter
    assert "-20" in text and "upheld" in text and "the offender's side had not led" in text
    assert "refunded US$5.00 (G16)" in text  # 500 cents refunded on an upheld appeal
    assert "Captain, Ağaç" in text and "Referee: Referee Öz" in text


# ------------------------------------------------------------------------------------------- receipts
def test_receipt_totals_in_locale_and_checkin_qr(tmp_path: Path) -> None:
    r = d.ReceiptData(
        "7",
        "R-0001",
        NAMES[2],
        "AB12CD",
        "EUR",
        (d.ReceiptLine("Entry fee", 2000), d.ReceiptLine("Last Chance", 500)),
        paid=2500,
        number="M-003",
        method="cash",
        paid_on=dt.date(2025, 5, 1),
    )
    f = tmp_path / "r.pdf"
    assert receipts(f, header("es"), [r]) == 1
    text = text_of(f)
    assert NAMES[2] in text
    assert "25,00 €" in text  # 2000 + 500 cents = 25.00 EUR, Spanish format
    assert qr_payloads(f, 1, tmp_path) == ["CLUBDESK:CHECKIN:7:AB12CD"]


# ------------------------------------------------------------------------------------- prizes, season
def test_prize_list_totals_and_payments(tmp_path: Path) -> None:
    data = d.PrizeListData(
        "7",
        "TRY",
        (
            d.PrizeRow(
                "1", NAMES[0], "money + trophy", 500000, paid=True, paid_on=dt.date(2025, 5, 4), method="cash"
            ),
            d.PrizeRow("2", NAMES[1], "money", 300000),
            d.PrizeRow("3-4", NAMES[2], "money", 100000),
            d.PrizeRow("3-4", NAMES[3], "money", 100000),
        ),
        pool=1000000,
    )
    f = tmp_path / "prizes.pdf"
    prizes(f, header("en"), data)
    text = text_of(f)
    # total 5000 + 3000 + 1000 + 1000 = 10,000.00 TRY; paid only the first: 5,000.00
    assert "TRY10,000.00" in text.replace("\xa0", "") and "TRY5,000.00" in text.replace("\xa0", "")
    assert "3-4" in text


def test_season_ranking_with_super_final_note(tmp_path: Path) -> None:
    rows = tuple(
        d.SeasonRowData(i + 1, n, 100 - 10 * i, events=(str(50 - i), "(5)")) for i, n in enumerate(NAMES)
    )
    data = d.SeasonData("2025", ("Bahar", "Kış"), rows, super_final=2, best_of=1)
    f = tmp_path / "season.pdf"
    season(f, header(), data)
    text = text_of(f)
    assert "The first 2 are invited to the Super Final" in text and "Peña Núñez" in text and "(5)" in text


# ------------------------------------------------------------------------------------------ fonts, privacy
def all_public(tmp_path: Path) -> list[Path]:
    files = []
    jobs = [
        ("sheets", lambda f: score_sheets(f, header(), [GAPLE, DOMINO, TAVLA])),
        (
            "pairings",
            lambda f: pairings(f, header(), d.PairingsData("7", 1, (d.PairingTable(1, (side(0), side(1))),))),
        ),
        ("standings", lambda f: standings(f, header(), standings_data())),
        (
            "bracket",
            lambda f: bracket(
                f,
                header(),
                from_bracket(single_elimination([Entrant(n, rating=5 - i) for i, n in enumerate(NAMES)]), {}),
            ),
        ),
        ("act", lambda f: incident_act(f, header(), d.IncidentActData("7", 1, "x"))),
        (
            "receipts",
            lambda f: receipts(f, header(), [d.ReceiptData("7", "1", NAMES[0], "C", "IDR", (), 5000)]),
        ),
        (
            "prizes",
            lambda f: prizes(f, header(), d.PrizeListData("7", "IDR", (d.PrizeRow("1", NAMES[0], "x", 5),))),
        ),
        ("season", lambda f: season(f, header(), d.SeasonData("s", (), (d.SeasonRowData(1, NAMES[0], 3),)))),
    ]
    for name, job in jobs:
        f = tmp_path / f"{name}.pdf"
        job(f)
        files.append(f)
    return files


def test_every_kind_embeds_dejavu_only(tmp_path: Path) -> None:
    for f in all_public(tmp_path):
        names = font_names(f)
        assert names and all("DejaVu" in n for n in names), (f.name, names)


def test_public_reports_carry_no_contact_data_private_ones_do(tmp_path: Path) -> None:
    # rule T14: the public data classes have no place for a phone or an e-mail ...
    public = [
        d.PairingSide,
        d.StandingsRow,
        d.BracketMatchData,
        d.ActPlayer,
        d.ActTeam,
        d.ReceiptData,
        d.PrizeRow,
        d.SeasonRowData,
        d.GapleSheetData,
        d.DominoSheetData,
        d.TavlaSheetData,
    ]
    for cls in public:
        assert not {f.name for f in dataclasses.fields(cls)} & {"phone", "email", "e_mail"}, cls
    # ... so no public report shows the marker contact data of any member
    for f in all_public(tmp_path):
        text = text_of(f)
        assert PHONE not in text and EMAIL not in text and "@" not in text, f.name
    # the member's own history and the organiser's list do, marked private
    h = tmp_path / "history.pdf"
    member_history(
        h,
        header(),
        d.MemberHistory(
            NAMES[0],
            "M-001",
            (d.HistoryRow(dt.date(2025, 1, 5), "Kış", "1", "5-2", "120", "1612"),),
            phone=PHONE,
            email=EMAIL,
        ),
    )
    c = tmp_path / "contacts.pdf"
    contact_list(c, header(), d.ContactList("7", (d.ContactRow(NAMES[1], phone=PHONE, email=EMAIL),)))
    for f in (h, c):
        text = text_of(f)
        assert PHONE in text and EMAIL in text and "PRIVATE" in text


def test_a_filled_sheet_prints_a_negative_score_with_its_minus_sign(tmp_path: Path) -> None:
    """Rule G3 (gaple-club): a penalty can leave a pair below zero; the filled sheet says "320 – −50" (a true
    minus sign, spaced), never "320–-50"."""
    sheet = d.GapleSheetData(
        "7",
        3,
        1,
        NAMES,
        ("Ayşe / İsmail", "Iğdır / Peña"),
        ruleset="gaple-club",
        entries=({"type": "penalty", "side": 1, "points": 50}, *[out(0, [0, 40, 40, 40])] * 5),
    )
    f = tmp_path / "sheet.pdf"
    assert score_sheets(f, header(), [sheet]) == 1
    text = " ".join((PdfReader(f).pages[0].extract_text() or "").split())
    assert "Game 1 won by Ayşe / İsmail: 320 – \u221250" in text
    assert "–-" not in text and " -50" not in text
    assert "\u221250" in text.replace("Game 1 won by Ayşe / İsmail: 320 – \u221250", "")  # the totals column
