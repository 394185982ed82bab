"""Names in the alphabetical order of the reader's language (issue 17): the Turkish alphabet (a b c ç d e
f g ğ h ı i j k l m n o ö p r s ş t u ü v y z), the Spanish one (… n ñ o …), the DUCET for English and
Indonesian."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader

from clubdesk import i18n
from clubdesk.collation import collator, sort_key, sort_string, sorted_names
from clubdesk.reports import data as d
from clubdesk.reports.pairings import pairings
from clubdesk.services.kernel.base import Actor
from clubdesk.services.members import edit, records, search
from clubdesk.storage import Database


def order(lang: str, *names: str) -> list[str]:
    return sorted(names, key=collator(lang))


def test_turkish_c_cedilla_is_a_letter_after_c() -> None:
    assert order("tr", "Çelik", "Dora", "Cem", "Cezmi") == ["Cem", "Cezmi", "Çelik", "Dora"]
    # English keeps Ç with C: c-e-l before c-e-m
    assert order("en", "Çelik", "Cem") == ["Çelik", "Cem"]


def test_turkish_dotless_i_comes_before_dotted_i() -> None:
    assert order("tr", "İnce", "Işık") == ["Işık", "İnce"]
    # I is the capital of ı and İ the capital of i: ılık and Irmak are one letter, ipek and İsmail the next
    assert order("tr", "ipek", "İsmail", "Irmak", "ılık", "Hakan", "Jale") == [
        "Hakan",
        "ılık",
        "Irmak",
        "ipek",
        "İsmail",
        "Jale",
    ]


def test_turkish_g_o_s_u_with_marks_are_letters_of_their_own() -> None:
    assert order("tr", "Ödül", "Ozan", "Özkan", "Pınar") == ["Ozan", "Ödül", "Özkan", "Pınar"]
    assert order("tr", "Şükrü", "Sema", "Tarık") == ["Sema", "Şükrü", "Tarık"]
    assert order("tr", "Ümit", "Uğur", "Ugo") == ["Ugo", "Uğur", "Ümit"]


def test_spanish_enye_between_n_and_o() -> None:
    assert order("es", "Ocaña", "Ñañez", "Nuzzo") == ["Nuzzo", "Ñañez", "Ocaña"]
    # ñ is a letter (first level), ú only an accent (second level)
    assert order("es", "Núñez", "Nunez", "Nuñez", "Nuzo") == ["Nunez", "Nuñez", "Núñez", "Nuzo"]
    assert order("en", "Ocaña", "Ñañez", "Nuzzo") == ["Ñañez", "Nuzzo", "Ocaña"]  # DUCET: Ñ with N


def test_indonesian_uses_the_default_order_and_the_current_language_is_the_default() -> None:
    assert order("id", "budi", "Agus", "andi") == ["Agus", "andi", "budi"]
    i18n.set_language("tr")
    assert sorted(["Çelik", "Cem"], key=sort_key) == ["Cem", "Çelik"]
    assert [n for n in sorted_names(["İnce", "Işık"], str)] == ["Işık", "İnce"]


def test_members_list_follows_the_language_in_force(tmp_path: Path) -> None:
    db = Database(tmp_path / "c.sqlite3")
    for name in ("Çelik Ayhan", "Cem Yılmaz", "İnce Deniz", "Işık Şükrü", "Ñañez Peña", "Nuzzo Carla"):
        edit.create_member(db, Actor("AB"), records.MemberData(name=name))
    i18n.set_language("tr")
    assert [m.name for m in search.list_members(db)][:4] == [
        "Cem Yılmaz",
        "Çelik Ayhan",
        "Işık Şükrü",
        "İnce Deniz",
    ]
    i18n.set_language("es")
    names = [m.name for m in search.list_members(db)]
    assert names.index("Nuzzo Carla") < names.index("Ñañez Peña")
    db.close()


def test_pairings_by_name_are_in_the_reports_language(tmp_path: Path) -> None:
    header = d.ReportHeader(
        "Kulüp", "Kupa", None, 1, dt.date(2025, 5, 4), "tr", "A4", dt.datetime(2025, 5, 4)
    )
    sides = [d.PairingSide(n, "", "") for n in ("İnce", "Çelik", "Işık", "Cem")]
    data = d.PairingsData(
        "7",
        1,
        (d.PairingTable(1, (sides[0], sides[1])), d.PairingTable(2, (sides[2], sides[3]))),
        by_name=True,
    )
    out = tmp_path / "p.pdf"
    pairings(out, header, data)
    pages = PdfReader(out).pages
    assert len(pages) == 2  # by table, then the notice board's list by name
    by_name = pages[-1].extract_text()
    lines = [line.strip() for line in by_name.splitlines()]
    # each row reads: name, table, opponent
    rows = [lines[i - 1] for i, line in enumerate(lines) if line.isdigit() and lines[i - 1] in NAMES]
    assert rows == ["Cem", "Çelik", "Işık", "İnce"]


NAMES = ("Cem", "Çelik", "Işık", "İnce")


@given(st.lists(st.text(alphabet="aAbcCçÇğGıIiİoOöÖnNñÑsSşŞuüÜ éÉ-", max_size=6), min_size=2, max_size=8))
def test_the_sort_string_orders_as_the_sort_key(names: list[str]) -> None:
    """Qt's sort roles compare strings: sort_string must give the very order of sort_key in each language."""
    for lang in ("tr", "es", "en"):
        by_key = sorted(names, key=lambda t: (sort_key(t, lang), t))
        by_string = sorted(names, key=lambda t: (sort_string(t, lang), t))
        assert by_key == by_string
