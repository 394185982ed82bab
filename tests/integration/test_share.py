"""Standings and pairings to share (issue 28): ``clubdesk-cli share KIND EVENT --format png --out DIR`` and
``clubdesk-cli share site --out DIR``, from the seeded club of the reports' tests (a tavla Swiss of 8 in 3
rounds, season 2025, and a knock-out of 4).

The images are read back with OCR (Debian's ``tesseract-ocr``), the site is parsed and loaded in a real
headless Chromium (Debian's ``chromium`` and ``chromium-driver``, installed by ``scripts/dev.sh test``). Every
member carries a marker phone and e-mail and an incident carries a marker note: none may appear (rule T14).
"""

from __future__ import annotations

import difflib
import functools
import json
import re
import shutil
import subprocess
import unicodedata
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from clubdesk.cli.core import main
from clubdesk.models.event import Event
from clubdesk.services.discipline import incidents
from clubdesk.services.events import events
from clubdesk.services.publishing import money_lists, night_data, season_ranking
from tests.integration.test_reports_service import DESK, MAIL_MARK, PHONE_MARK, Club, seeded_club

NOTE_MARK = "Zeugnis-geheim-4711"  # an incident's private note (T14)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Club:
    c = seeded_club(tmp_path_factory, "share")
    kind = incidents.kinds_for_event(c.db, c.swiss)[0].key
    incidents.record_incident(c.db, DESK, c.swiss, round_no=1, table_no=1, kind=kind, text=NOTE_MARK)
    with c.db.session() as s:  # the knock-out belongs to the season too, so that the site has a bracket
        ev = s.get(Event, c.knockout)
        assert ev is not None
        ev.season = "2025"
    c.db.close()
    return c


def cli(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, Any, str]:
    try:
        code = main(["--db", str(db), "--json", *args])
    except SystemExit as exc:  # argparse: wrong usage
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and out.strip() else None), err


def share(capsys: pytest.CaptureFixture[str], club: Club, out: Path, *args: str) -> list[Path]:
    code, data, err = cli(capsys, club.path, "share", *args, "--out", str(out))
    assert code == 0, err
    return [Path(f) for f in data["files"]]


def assert_private_data_absent(folder: Path) -> None:
    # rule T14: no phone, no e-mail, no incident note in any file shared
    for f in folder.rglob("*"):
        if f.is_file():
            raw = f.read_bytes()
            for mark in (PHONE_MARK, MAIL_MARK, NOTE_MARK, "secret"):
                assert mark.encode() not in raw, (f, mark)


# ------------------------------------------------------------------------------------------ images
def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def plain(text: str) -> str:
    """OCR-comparable: no accents, dotless i as i, lower case (tesseract reads English letters)."""
    text = text.replace("ı", "i").replace("İ", "I")
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return text.lower()


def ocr_lines(path: Path) -> list[str]:
    """The lines OCR reads on an image, read once per image (a test asks again for the same file)."""
    stat = path.stat()
    return list(_ocr(path.resolve(), stat.st_size, stat.st_mtime_ns))


@functools.lru_cache(maxsize=64)
def _ocr(path: Path, _size: int, _mtime_ns: int) -> tuple[str, ...]:
    out = subprocess.run(
        ["tesseract", str(path), "-", "--psm", "6"], capture_output=True, text=True, check=True
    )
    return tuple(line for line in out.stdout.splitlines() if line.strip())


def after_name(lines: list[str], name: str) -> list[str] | None:
    """The words after ``name`` on the OCR line that holds it (a close match: OCR misreads a letter)."""
    want = plain(name).split()
    for line in lines:
        words = plain(line).split()
        for i in range(len(words) - len(want) + 1):
            got = " ".join(words[i : i + len(want)])
            if difflib.SequenceMatcher(None, got, " ".join(want)).ratio() >= 0.75:
                return line.split()[i + len(want) :]
    return None


def digits(text: str) -> str:
    """The digits of an OCR text; a lone O is a zero."""
    return re.sub(r"\D", "", " ".join("0" if w in ("O", "o") else w for w in text.split()))


def expected_rows(
    club: Club, capsys: pytest.CaptureFixture[str], kind: str
) -> tuple[int, list[tuple[str, str, str]]]:
    """The event and the first three (name, value, where the value is) from the data the PDFs print, or
    for the standings from ``clubdesk-cli standings EVENT --json``."""
    from clubdesk.storage import Database

    if kind == "standings":
        code, data, err = cli(capsys, club.path, "standings", str(club.swiss))
        assert code == 0, err
        return club.swiss, [(r["name"], str(r["points"]), "next") for r in data["rows"][:3]]
    db = Database(club.path, backups_dir=None)
    try:
        if kind == "pairings":
            pd = night_data.pairings_data(db, club.swiss)
            return club.swiss, [(t.sides[0].name, t.sides[0].points, "next") for t in pd.tables[:3]]
        if kind == "bracket":
            bd = night_data.bracket_data(db, club.knockout)
            first = sorted((m for m in bd.matches if m.bracket == "W"), key=lambda m: (m.round, m.number))
            # the tree: each side's own score right after its name in the match's box
            return club.knockout, [(m.sides[0] or "", m.score[0], "next") for m in first[:3]]
        if kind == "crosstable":
            sd = night_data.standings_data(db, club.swiss)
            return club.swiss, [(r.name, r.points, "next") for r in sd.rows[:3]]
        if kind == "season":
            se = season_ranking.season_data(db, club.swiss)
            return club.swiss, [(r.name, r.points_text or str(r.points), "last") for r in se.rows[:3]]
        pz = money_lists.prizes_data(db, club.swiss)
        return club.swiss, [(r.name, str(r.amount), "last") for r in pz.rows[:3]]  # TRY: 2 decimals
    finally:
        db.close()


@pytest.mark.parametrize("kind", ["pairings", "standings", "bracket", "crosstable", "season", "prizes"])
def test_first_image_reads_back_names_and_points(
    club: Club, capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str
) -> None:
    event, rows = expected_rows(club, capsys, kind)
    assert rows
    files = share(capsys, club, tmp_path, kind, str(event), "--format", "png")
    assert files and all(f.is_file() and f.suffix == ".png" for f in files)
    for f in files:
        width, height = png_size(f)
        assert width == 1080 and height <= 1350
    lines = ocr_lines(files[0])
    text = plain("\n".join(lines))
    assert "bahar kupasi" in text or "kis eleme" in text  # the event is on the image
    for name, value, where in rows:
        rest = after_name(lines, name)
        assert rest is not None, (name, lines)
        if where == "next":
            assert rest and digits(rest[0]) == digits(value), (name, value, rest)
        else:
            assert digits(" ".join(rest)).endswith(digits(value)), (name, value, rest)
    assert_private_data_absent(tmp_path)
    for f in files:  # rule T14: nothing private drawn on any image either
        seen = plain(" ".join(ocr_lines(f)))
        assert "555 77" not in seen and "secret" not in seen and plain(NOTE_MARK) not in seen


def test_long_list_is_split_into_numbered_images(
    club: Club, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from clubdesk.reports.data import ReportHeader
    from clubdesk.reports.images import Column, Sheet, render

    rows = tuple((str(i), f"Oyuncu {i}", str(100 - i)) for i in range(1, 61))
    sheet = Sheet("Standings", (Column("#", width=70), Column("Name"), Column("Pts", width=90)), rows)
    files = render(ReportHeader(club_name="Kulüp", event_name="Bahar"), [sheet], tmp_path, "long")
    # 60 rows of 50 px do not fit in 1350 px: more than one image, every image full width, none too tall
    assert len(files) >= 3
    for k, f in enumerate(files, start=1):
        w, h = png_size(f)
        assert w == 1080 and h <= 1350
        assert f"{k}/{len(files)}" in " ".join(ocr_lines(f))
    # every row is on exactly one image
    seen = [line for f in files for line in ocr_lines(f) if re.search(r"Oyuncu \d+", line)]
    assert len(seen) == 60


def test_turkish_and_indonesian_images(
    club: Club, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tr = share(capsys, club, tmp_path / "tr", "standings", str(club.swiss), "--lang", "tr")
    id_ = share(capsys, club, tmp_path / "id", "pairings", str(club.swiss), "--lang", "id", "--round", "2")
    assert [f.name for f in id_] == [f"pairings-{club.swiss}-r2-01.png", f"pairings-{club.swiss}-r2-02.png"]
    # the titles in the members' language, as the catalogs say them
    from clubdesk import i18n

    i18n.set_language("tr")
    final = i18n._("Final standings")
    i18n.set_language("id")
    paired, by_name = (
        i18n._("Pairings, round {n}").format(n=2),
        i18n._("Pairings by name, round {n}").format(n=2),
    )
    i18n.set_language("en")
    assert final != "Final standings" and paired != "Pairings, round 2"
    assert plain(final) in plain(" ".join(ocr_lines(tr[0])))  # "Son sıralama"
    assert plain(paired) in plain(" ".join(ocr_lines(id_[0])))
    assert plain(by_name) in plain(" ".join(ocr_lines(id_[1])))


@pytest.mark.parametrize(
    "args",
    [
        ["standings", "999"],  # no such event
        ["pairings", "{swiss}", "--round", "9"],  # no such round
        ["standings", "{empty}"],  # an event with no round
        ["site", "--season", "1999"],  # no event in that season
        ["prizes", "{swiss}", "--round", "1"],  # a round only for the pairings
    ],
)
def test_bad_input_is_refused_and_writes_nothing(
    club: Club, capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str]
) -> None:
    from clubdesk.storage import Database

    db = Database(club.path, backups_dir=None)
    try:
        empty = events.create_event(
            db, DESK, events.EventData(name="Boş", ruleset="tavla", format="swiss", rounds=3)
        ).id
    finally:
        db.close()
    out = tmp_path / "out"
    argv = [a.format(swiss=club.swiss, empty=empty) for a in args]
    code, _data, err = cli(capsys, club.path, "share", *argv, "--out", str(out))
    assert code == 1
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_unwritable_folder_is_refused(club: Club, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for kind in (["standings", str(club.swiss)], ["site"]):
        code, _data, err = cli(capsys, club.path, "share", *kind, "--out", str(blocker / "sub"))
        assert code == 1 and len(err.strip().splitlines()) == 1
    assert blocker.read_text() == "x"


# ------------------------------------------------------------------------------------------ the site
class Page(HTMLParser):
    """The links, the tables (rows of cell texts, header cells marked) and the lang of one page."""

    def __init__(self) -> None:
        super().__init__()
        self.lang = ""
        self.links: list[str] = []
        self.sources: list[str] = []
        self.tables: list[list[list[tuple[str, str]]]] = []
        self._cell: list[str] | None = None
        self._tag = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang") or ""
        if tag == "a" and a.get("href"):
            self.links.append(a["href"] or "")
        for key in ("src", "href"):
            if tag != "a" and a.get(key):
                self.sources.append(a[key] or "")
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell, self._tag = [], tag

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append((self._tag, "".join(self._cell).strip()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def parse(path: Path) -> Page:
    p = Page()
    p.feed(path.read_text(encoding="utf-8"))
    return p


@pytest.fixture(scope="module")
def site(club: Club, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "www"
    code = main(["--db", str(club.path), "--json", "share", "site", "--out", str(out)])
    assert code == 0
    return out


def test_site_files_links_and_privacy(site: Path) -> None:
    names = sorted(p.name for p in site.iterdir())
    assert "index.html" in names and "style.css" in names
    assert not [n for n in names if n.startswith(".clubdesk")]  # no temporary folder left behind
    for page in site.glob("*.html"):
        p = parse(page)
        assert p.lang == "en"
        for link in p.links + p.sources:
            # every link is relative and leads to a file of the site (file:// and any host)
            assert "://" not in link and not link.startswith("/"), (page, link)
            assert (site / link).is_file(), (page, link)
        for t in p.tables:
            assert t and all(tag == "th" for tag, _text in t[0])  # header cells
        text = page.read_text(encoding="utf-8")
        assert "<script" not in text and "http" not in text
    assert_private_data_absent(site)


def test_standings_pages_match_the_cli(club: Club, site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pages = sorted(site.glob("event-*-standings.html"))
    assert len(pages) == 2  # the Swiss and the knock-out of the season
    for page in pages:
        event = int(page.name.split("-")[1])
        code, data, err = cli(capsys, club.path, "standings", str(event))
        assert code == 0, err
        table = parse(page).tables[0]
        heads = [text for _tag, text in table[0]]
        body = [[text for _tag, text in row] for row in table[1:]]
        assert len(body) == len(data["rows"])
        for cells, row in zip(body, data["rows"], strict=True):
            shown = dict(zip(heads, cells, strict=True))
            assert int(shown["Rank"]) == row["rank"]
            assert shown["Name"].rstrip(" ⚑") == row["name"]
            assert float(shown["Pts"].replace(",", ".")) == float(row["points"])
            for code_, value in row["tiebreaks"].items():
                if code_ in shown:
                    assert float(shown[code_].replace(",", ".").replace("−", "-")) == pytest.approx(
                        float(value)
                    )


def test_site_index_has_the_season_ranking_and_the_events(site: Path) -> None:
    p = parse(site / "index.html")
    ranking = p.tables[0]
    assert [t for _tag, t in ranking[0]] == ["Rank", "Name", "Club", "Points"]
    # the season's winner: Ayşe Yılmaz won the Swiss (10 points) and the knock-out is not season-scored
    assert ranking[1][1][1] == "Ayşe Yılmaz"
    brackets = sorted(site.glob("event-*-bracket.html"))
    assert len(brackets) == 1 and "<svg" in brackets[0].read_text(encoding="utf-8")  # inline SVG
    knockout = brackets[0].name.split("-")[1]
    assert f"event-{knockout}.html" in p.links and "event-1.html" in p.links


def test_site_in_turkish_and_indonesian(club: Club, tmp_path: Path) -> None:
    from clubdesk import i18n

    for lang in ("tr", "id"):
        i18n.set_language(lang)
        word = i18n._("Final standings")
        i18n.set_language("en")
        assert word != "Final standings"
        out = tmp_path / lang
        assert main(["--db", str(club.path), "share", "site", "--lang", lang, "--out", str(out)]) == 0
        page = next(out.glob("event-*-standings.html"))
        assert parse(page).lang == lang
        assert word.lower() in page.read_text(encoding="utf-8").lower()


def test_site_in_headless_chromium(site: Path) -> None:
    """Load index.html from the disk, follow every link: no console error, no request outside the folder."""
    assert shutil.which("chromium") and Path("/usr/bin/chromedriver").is_file(), (
        "scripts/dev.sh installs them"
    )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or "chromium"
    profile = site.parent / "profile"
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
    ):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    root = site.resolve().as_uri()
    try:
        seen: set[str] = set()
        todo = [f"{root}/index.html"]
        while todo:
            url = todo.pop()
            if url in seen:
                continue
            seen.add(url)
            driver.get(url)
            assert driver.find_element("tag name", "h1").text
            hrefs = [a.get_attribute("href") or "" for a in driver.find_elements("tag name", "a")]
            todo += [h.split("#")[0] for h in hrefs if h.split("#")[0] not in seen]
        errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
        assert errors == []
        requested = []
        for entry in driver.get_log("performance"):
            msg = json.loads(entry["message"])["message"]
            if msg["method"] == "Network.requestWillBeSent":
                requested.append(msg["params"]["request"]["url"])
        assert requested
        # the browser's own pages (its new tab page) are not the site's requests
        internal = ("chrome:", "chrome-untrusted:", "about:", "devtools:", "chrome-extension:", "data:")
        outside = [u for u in requested if not u.startswith(root + "/") and not u.startswith(internal)]
        assert outside == []
        pages = {p.name for p in site.glob("*.html")}
        assert {u.rsplit("/", 1)[1] for u in seen} == pages  # every page is reachable from the index
    finally:
        driver.quit()


def test_many_images_in_one_process_exit_cleanly(tmp_path: Path) -> None:
    # PySide6 6.12 on Python 3.11 drops a reference to None on each void call; without the images module's
    # give-back, a few thousand rows of drawing abort the interpreter ("none_dealloc") by the time it exits
    import sys

    script = (
        "from pathlib import Path\n"
        "from clubdesk.reports.data import ReportHeader\n"
        "from clubdesk.reports.images import Column, Sheet, render\n"
        "rows = tuple((str(i), f'Oyuncu {i}', 'Kulüp', str(i % 7)) for i in range(1200))\n"
        "cols = (Column('#', width=80), Column('Ad'), Column('Kulüp'), Column('Puan', width=100))\n"
        "head = ReportHeader('Kulüp', 'Bahar')\n"
        f"files = render(head, [Sheet('Sıralama', cols, rows)], Path({str(tmp_path)!r}), 'x')\n"
        "print(len(files))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-500:]
    assert int(done.stdout) == len(list(tmp_path.glob("x-*.png"))) > 40
