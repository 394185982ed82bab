"""The guard for the translations (issue 17, item 6): every string of the program is translated in
Bahasa Indonesia, Español and Türkçe, with the msgid's placeholders, the language's plural forms and the
glossary's words.

The template is extracted afresh here (the same command as ``scripts/dev.sh i18n``), so a string added to
the code without its translations fails this test. Until the catalogs exist at all the catalog tests are
skipped; as soon as one ``resources/locale/<lang>/LC_MESSAGES/clubdesk.po`` exists, every language must be
there and complete.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from clubdesk import i18n
from clubdesk.i18n_tools import ROOT, catalogs, extract
from clubdesk.text import fold as _fold

LANGS = ("id", "es", "tr")
# the plural forms of Babel's locale data (CLDR): Indonesian one form; Turkish singular / plural; Spanish
# singular / "many" (un millón de …) / other
PLURALS = {lang: get_plural(lang) for lang in LANGS}
NPLURALS = {lang: PLURALS[lang].num_plurals for lang in LANGS}
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%(?:\([a-z_]+\))?[sdifr]")
GLOSSARY = ROOT / "resources" / "locale" / "GLOSSARY.md"


def _read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh, locale=lang)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    return _read(extract(tmp_path_factory.mktemp("pot") / "clubdesk.pot"))


@pytest.fixture(scope="module")
def translated() -> dict[str, Catalog]:
    found = catalogs()
    if not found:
        pytest.skip("no catalogs in resources/locale yet (the translations arrive with issue 17)")
    missing = [lang for lang in LANGS if lang not in found]
    assert missing == [], f"catalogs missing for {missing}: every language needs its clubdesk.po"
    return {lang: _read(found[lang], lang) for lang in LANGS}


def _ids(cat: Catalog) -> set[object]:
    return {m.id for m in cat if m.id}


def _placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def _forms(m: Message) -> list[str]:
    return list(m.string) if isinstance(m.string, (tuple, list)) else [m.string]


def test_the_committed_template_is_the_fresh_extraction(template: Catalog) -> None:
    """resources/locale/clubdesk.pot is what translators work from: it must hold every marked string."""
    committed = _read(ROOT / "resources" / "locale" / "clubdesk.pot")
    fresh, old = _ids(template), _ids(committed)
    assert sorted(map(str, fresh - old)) == [], "run `bash scripts/dev.sh i18n` and commit the template"
    assert sorted(map(str, old - fresh)) == [], "run `bash scripts/dev.sh i18n` and commit the template"


def test_the_template_holds_the_strings_that_live_in_data(template: Catalog) -> None:
    ids = _ids(template)
    # incident kinds (resources/incidents.toml), ruleset presets (resources/rulesets/*.toml), formats,
    # tie-breaks, rule texts printed on the sheets, audit actions
    for expected in (
        "Touched tile (must be played if it fits)",
        "Tavla — turnuva",
        "Matches to 5 points; doubling cube with the Crawford rule; gammon x2, backgammon x3.",
        "Swiss system",
        "Buchholz Cut-1",
        "Seats in playing order, counter-clockwise (G5).",
        "round published",
    ):
        assert expected in ids, expected


@pytest.mark.parametrize("lang", LANGS)
def test_every_msgid_is_translated_and_not_fuzzy(
    lang: str, template: Catalog, translated: dict[str, Catalog]
) -> None:
    cat = translated[lang]
    untranslated, fuzzy = [], []
    for m in template:
        if not m.id:
            continue
        t = cat.get(m.id)
        if t is None or not all(f.strip() for f in _forms(t)):
            untranslated.append(m.id)
        elif t.fuzzy:
            fuzzy.append(m.id)
    assert untranslated == [], f"{lang}: {len(untranslated)} msgids without a translation"
    assert fuzzy == [], f"{lang}: {len(fuzzy)} fuzzy translations (gettext does not use them)"


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_are_the_msgids(lang: str, template: Catalog, translated: dict[str, Catalog]) -> None:
    """A translation that drops or renames {name} would crash .format() or print the wrong figure."""
    cat = translated[lang]
    wrong = []
    for m in template:
        t = cat.get(m.id) if m.id else None
        if t is None:
            continue
        if isinstance(m.id, str):
            if _placeholders(_forms(t)[0]) != _placeholders(m.id):
                wrong.append((m.id, _forms(t)[0]))
            continue
        # plural: the last form (the only one in Indonesian) has the plural msgid's placeholders; the
        # others use no placeholder that neither msgid has ("one table" may say "1 masa" without {n})
        allowed = set(_placeholders(m.id[0]) + _placeholders(m.id[1]))
        forms = _forms(t)
        if set(_placeholders(forms[-1])) != set(_placeholders(m.id[1])):
            wrong.append((m.id, forms[-1]))
        wrong += [(m.id, f) for f in forms[:-1] if not set(_placeholders(f)) <= allowed]
    assert wrong == []


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_header_is_the_languages(lang: str, translated: dict[str, Catalog]) -> None:
    cat = translated[lang]
    header = dict(cat.mime_headers).get("Plural-Forms", "")
    assert f"nplurals={NPLURALS[lang]};" in header.replace(" ", ""), header
    assert header.replace(" ", "") == PLURALS[lang].plural_forms.replace(" ", ""), header
    for m in cat:
        if m.id and not isinstance(m.id, str) and m.string:
            assert len(_forms(m)) == NPLURALS[lang], m.id


@pytest.mark.parametrize("lang", LANGS)
def test_the_compiled_catalog_is_used_at_run_time(lang: str, translated: dict[str, Catalog]) -> None:
    """The .mo built by the install is there and says what the .po says."""
    mo = i18n.locale_dir() / lang / "LC_MESSAGES" / "clubdesk.mo"
    assert mo.is_file(), "run `bash scripts/dev.sh setup` (it compiles the catalogs)"
    i18n.set_language(lang)
    for msgid in ("Members", "Rounds", "Settings"):
        assert i18n._(msgid) == translated[lang][msgid].string
        assert i18n._(msgid) != msgid or lang == "id"  # Indonesian may keep a loanword


def test_every_catalog_compiles_without_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], translated: dict[str, Catalog]
) -> None:
    """A plural entry with more forms than its header says is cut short by Babel, which warns about it."""
    import shutil

    from clubdesk.i18n_tools import compile_all

    for lang, po in catalogs().items():
        copy = tmp_path / lang / "LC_MESSAGES" / po.name
        copy.parent.mkdir(parents=True)
        shutil.copy(po, copy)
    capsys.readouterr()
    assert len(compile_all(tmp_path)) == len(catalogs())
    out = capsys.readouterr()
    assert "WARNING" not in out.out + out.err


# ------------------------------------------------------------------------------------------------- glossary
def _alternatives(cell: str) -> list[str]:
    """The words of a glossary cell: "*pareja* (seed 002)" → ["pareja", "seed 002"]; "tur / el" → ["tur",
    "el"]; "oturma yeri (short label: Yer)" → ["oturma yeri", "Yer"] (a note may name a short form)."""
    notes = [n.split(":")[-1] for n in re.findall(r"\(([^)]*)\)", cell)]
    main = re.sub(r"\([^)]*\)", "", cell)
    out = []
    for part in [main, *notes]:
        part = part.replace("*", "").replace("_", " ").replace("`", "")
        out += [a.strip() for a in re.split(r"[/;,]| or | o | atau | veya ", part) if a.strip()]
    return out


def _stem(word: str) -> str:
    """Enough of a word to survive the languages' endings (hakem → hakemin, pareja → parejas, tur → turu)."""
    w = _fold(word)
    return w if len(w) <= 4 else w[: max(4, len(w) - 2)]


def glossary_rows() -> list[dict[str, str]]:
    """The markdown table of GLOSSARY.md with columns English | id | es | tr | source."""
    rows: list[dict[str, str]] = []
    columns: list[str] = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if not line.strip().startswith("|"):
            columns = [] if not line.strip() else columns
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not columns:
            columns = [c.strip("* ").lower() for c in cells]
            continue
        if all(set(c) <= set("-: ") for c in cells):
            continue
        if {"english", "id", "es", "tr"} <= set(columns) and len(cells) == len(columns):
            rows.append(dict(zip(columns, cells, strict=True)))
    return rows


def _uses(translation: str, cell: str) -> bool:
    """The translation uses one of the cell's words: the longest word of a phrase stands for it ("Acta del
    Encuentro" → acta…, "pengembalian uang" → pengembali…), with the language's endings allowed."""
    text = _fold(translation)
    for alt in _alternatives(cell):
        words = re.findall(r"\w+", alt)
        if words and _stem(max(words, key=len)) in text:
            return True
    return False


def test_the_catalogs_use_the_glossarys_words(template: Catalog, translated: dict[str, Catalog]) -> None:
    """For each glossary term found in at least three msgids, most translations of those msgids use the
    glossary's word for it (a word may take the language's endings; msgids in other senses are the rest)."""
    if not GLOSSARY.is_file():
        pytest.fail("resources/locale/GLOSSARY.md is missing: the catalogs come with their glossary")
    rows = glossary_rows()
    assert len(rows) >= 20, "GLOSSARY.md needs a table English | id | es | tr | source with the domain terms"
    checked, failures = 0, []
    for row in rows:
        english = _alternatives(row["english"])[:1]
        if not english:
            continue
        pattern = re.compile(rf"\b{re.escape(english[0])}s?\b", re.IGNORECASE)
        msgids = [m.id for m in template if isinstance(m.id, str) and m.id and pattern.search(m.id)]
        if len(msgids) < 3:
            continue
        checked += 1
        for lang in LANGS:
            found = [translated[lang].get(i) for i in msgids]
            strings = [m.string for m in found if m is not None and isinstance(m.string, str) and m.string]
            if len(strings) < 3:
                continue
            used = sum(1 for s in strings if _uses(s, row[lang]))
            if used * 2 < len(strings):
                failures.append(f"{lang}: {english[0]!r} → {row[lang]!r} in only {used} of {len(strings)}")
    assert checked >= 10, "too few glossary terms occur in the msgids to check the catalogs against them"
    assert failures == []


def test_glossary_parser_reads_a_markdown_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    g = tmp_path / "GLOSSARY.md"
    g.write_text(
        "# Glossary\n\n| English | id | es | tr | source |\n|---|---|---|---|---|\n"
        "| referee | wasit | *árbitro* | hakem | seed 002 art. 12; seed 003 m. 5 |\n"
        "| pair | pasangan | pareja | çift / eş | seed 001 |\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(__import__(__name__, fromlist=["GLOSSARY"]), "GLOSSARY", g)
    rows = glossary_rows()
    assert [r["english"] for r in rows] == ["referee", "pair"]
    assert _uses("El Árbitro decide", rows[0]["es"]) and _uses("Hakemin kararı", rows[0]["tr"])
    assert _uses("eşler", rows[1]["tr"]) and not _uses("takım", rows[1]["tr"])
    assert _alternatives("oturma yeri (short label: Yer)") == ["oturma yeri", "Yer"]
    assert _uses("Yer 2", "oturma yeri (short label: Yer)")


def test_update_and_compile_keep_translations_and_add_the_new_msgids(tmp_path: Path) -> None:
    """scripts/dev.sh i18n: a catalog brought to the template keeps its translations and its plural forms,
    shows a new msgid with an empty translation (no fuzzy guess) and compiles into a .mo gettext reads."""
    import gettext

    from babel.messages.pofile import write_po

    from clubdesk.i18n_tools import compile_all, update_all

    pot = Catalog(domain="clubdesk")
    pot.add("Members")
    pot.add("Member list")  # new, close to an old one: must not be guessed
    pot.add(("{n} table", "{n} tables"))
    with (tmp_path / "clubdesk.pot").open("wb") as fh:
        write_po(fh, pot)
    tr = Catalog(locale="tr", domain="clubdesk")
    tr.add("Members", "Üyeler")
    tr.add("Member lists", "Üye listeleri")  # gone from the code
    tr.add(("{n} table", "{n} tables"), ("{n} masa", "{n} masa"))
    po = tmp_path / "locale" / "tr" / "LC_MESSAGES" / "clubdesk.po"
    po.parent.mkdir(parents=True)
    with po.open("wb") as fh:
        write_po(fh, tr)
    assert update_all(tmp_path / "locale", tmp_path / "clubdesk.pot") == [po]
    cat = _read(po, "tr")
    assert cat["Members"].string == "Üyeler"
    assert cat["Member list"].string == "" and not cat["Member list"].fuzzy
    assert "Member lists" in cat.obsolete
    assert "nplurals=2;" in dict(cat.mime_headers)["Plural-Forms"].replace(" ", "")
    (mo,) = compile_all(tmp_path / "locale")
    with mo.open("rb") as fh:
        t = gettext.GNUTranslations(fh)
    assert t.gettext("Members") == "Üyeler" and t.ngettext("{n} table", "{n} tables", 3) == "{n} masa"


def test_a_gaple_game_is_a_babak_in_indonesian(translated: dict[str, Catalog]) -> None:
    """Seed 001 A2: "3 kali games (3 babak / 2-1)": where a game of a gaple match is meant (the gaple presets,
    the gaple rules on the score sheet) the Indonesian catalog says *babak* (GLOSSARY.md, "game")."""
    cat = translated["id"]
    gaple = [
        m
        for m in cat
        if m.id and any(Path(f).name.startswith("gaple") for f, _line in m.locations) and "game" in str(m.id)
    ]
    gaple += [cat[i] for i in ("Opponents change seats after every game won (G19).",)]
    assert len(gaple) >= 3
    assert [m.id for m in gaple if "babak" not in _fold(str(m.string))] == []
