"""CSV files in the user's language (issue 17): the members export's header is in the language in force,
the import reads English and the local headers alike, and the audit export speaks the audit view's words."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from clubdesk import i18n
from clubdesk.services.club import audit_log
from clubdesk.services.kernel.base import Actor
from clubdesk.services.members import csv_io, edit, records
from clubdesk.storage import Database

AB = Actor("AB")
# a tiny catalog in each language, so this test does not depend on the real catalogs' words
WORDS = {
    "tr": {"number": "numara", "name": "ad", "club": "kulüp", "city": "şehir", "yes": "evet", "no": "hayır"},
    "es": {"number": "número", "name": "nombre", "club": "club", "city": "ciudad", "phone": "teléfono"},
    "id": {"number": "nomor", "name": "nama", "club": "klub", "city": "kota", "yes": "ya", "no": "tidak"},
}
WORDS["tr"] |= {"When": "Zaman", "Action": "İşlem", "member added": "üye eklendi"}


@pytest.fixture
def catalogs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for lang, words in WORDS.items():
        cat = Catalog(locale=lang, domain="clubdesk")
        for k, v in words.items():
            cat.add(k, v)
        target = tmp_path / "locale" / lang / "LC_MESSAGES"
        target.mkdir(parents=True)
        with (target / "clubdesk.mo").open("wb") as fh:
            write_mo(fh, cat)
    monkeypatch.setattr(i18n, "locale_dir", lambda: tmp_path / "locale")


def test_export_header_in_the_language_and_import_reads_it_back(catalogs: None, tmp_path: Path) -> None:
    db = Database(tmp_path / "a.sqlite3")
    edit.create_member(db, AB, records.MemberData(name="Şükrü Işık", club="Kadıköy Tavla", city="İstanbul"))
    i18n.set_language("tr")
    out = tmp_path / "uyeler.csv"
    csv_io.export_csv(db, AB, out)
    rows = list(csv.reader(io.StringIO(out.read_bytes().decode("utf-8-sig"))))
    assert rows[0][:4] == ["numara", "ad", "kulüp", "şehir"]
    assert rows[1][csv_io.COLUMNS.index("active")] == "evet"
    i18n.set_language("en")  # another secretary, another language: the Turkish file still reads
    other = Database(tmp_path / "b.sqlite3")
    enc, data, bad = csv_io.parse_csv(out.read_bytes())
    assert bad == [] and [d.name for _line, d in data] == ["Şükrü Işık"] and data[0][1].city == "İstanbul"
    other.close()
    db.close()


@pytest.mark.parametrize(
    "header",
    ["number,name,club,city", "número,nombre,club,ciudad", "nomor,nama,klub,kota", "Numara;Ad;Kulüp;Şehir"],
)
def test_import_accepts_english_and_local_headers(catalogs: None, header: str) -> None:
    sep = ";" if ";" in header else ","
    raw = (header + "\n" + sep.join(["1001", "Ñañez Peña", "Peña Dominó", "Sevilla"]) + "\n").encode("utf-8")
    _enc, data, bad = csv_io.parse_csv(raw)
    assert bad == []
    ((_line, d),) = data
    assert (d.number, d.name, d.club, d.city) == ("1001", "Ñañez Peña", "Peña Dominó", "Sevilla")


def test_an_unknown_header_is_still_refused(catalogs: None) -> None:
    _enc, _data, bad = csv_io.parse_csv(b"numara,isim_soyisim\n1,x\n")
    assert {b.line for b in bad} == {1} and any("isim_soyisim" in b.reason for b in bad)


def test_audit_export_in_the_language_in_force(catalogs: None, tmp_path: Path) -> None:
    db = Database(tmp_path / "c.sqlite3")
    edit.create_member(db, AB, records.MemberData(name="Cem"))
    i18n.set_language("tr")
    out = tmp_path / "denetim.csv"
    audit_log.export_audit_csv(db, out)
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert rows[0][0] == "Zaman" and rows[0][3] == "İşlem"
    assert rows[1][3] == "üye eklendi"
    i18n.set_language("en")  # English keeps the keys scripts read
    audit_log.export_audit_csv(db, out)
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert rows[0][:4] == ["at", "actor", "role", "action"] and rows[1][3] == "member.create"
    db.close()
