"""Issue 27, the desk's side and the hall: a real server on 127.0.0.1 (a free port) and a real headless
Chromium (Debian's ``chromium`` + ``chromium-driver``, installed by ``scripts/dev.sh test``; nothing is
downloaded). The hall pages (pairings by name and by table, standings, bracket) in the page's language,
the printed score sheet's QR that opens its table on a phone while table entry is on, and
``clubdesk-cli table-links``."""

from __future__ import annotations

import json
import subprocess
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from clubdesk.cli.core import main
from clubdesk.models.member import Member
from clubdesk.services import night
from clubdesk.services.night.data import reads
from clubdesk.services.night.data.tokens import round_tokens
from clubdesk.services.night.play import results, rounds
from clubdesk.services.night.ranking import standings
from clubdesk.services.phones import desk_side, table_page
from clubdesk.services.publishing import documents, hall, header
from clubdesk.storage import Database
from clubdesk.web.server import TableServer
from tests.integration.test_night_helpers import DESK, make_event
from tests.phone_browser import phone_browsers
from tests.waits import READY_S, wait_for

PHONE = "+62 811 5550 4321"  # marker contact data: never on a hall page (rule T14)
EMAIL = "hall.marker@example.invalid"
# Turkish alphabet: C < Ç < D, I (ı) < İ (i), O < Ö, S < Ş; Spanish: N < Ñ < O
NAMES = ["Şule Demir", "Cem Acar", "Çağla Koç", "Ömer Sarı", "Orhan Ek", "Sinan Uz", "Ilgaz Tan", "İpek Su"]
GAME = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    d = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "backups")
    try:
        yield d
    finally:
        d.close()


def tavla_night(db: Database, names: list[str] = NAMES) -> int:
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=len(names), rounds=3, match_lengths=[3])
    with db.session() as s:
        for k, m in enumerate(s.query(Member).order_by(Member.id)):
            m.name, m.phone, m.email = names[k], PHONE, EMAIL
        from clubdesk.models.event import Entrant

        for k, e in enumerate(s.query(Entrant).where(Entrant.event_id == ev).order_by(Entrant.id)):
            e.name = names[k]
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    return ev


def base(srv: TableServer) -> str:
    return f"http://127.0.0.1:{srv.port}"


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Headless Chromium at a phone's 360x640 in a given browser language (its own profile each)."""
    with phone_browsers(tmp_path) as make:
        yield make


def texts(driver: Any, css: str) -> list[list[str]]:
    from selenium.webdriver.common.by import By

    rows = driver.find_elements(By.CSS_SELECTOR, css)
    return [[c.text for c in r.find_elements(By.TAG_NAME, "td")] for r in rows]


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=READY_S) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8")


# ------------------------------------------------------------------------------------------ hall pages
def test_hall_shows_where_each_player_plays_sorted_in_turkish_and_the_tables(
    db: Database, server: TableServer, browser: Callable[..., Any]
) -> None:
    ev = tavla_night(db)
    rv = reads.get_round(db, ev, 1)
    table_of = {}
    for t in rv.tables:
        a, b = t.names
        table_of[a] = (t.table, b)
        table_of[b] = (t.table, a)
    d = browser("tr")
    d.get(base(server) + "/")  # the only event of the night: its pairings at once
    assert d.find_element("css selector", "html").get_attribute("lang") == "tr"
    assert "Eşleşmeler, 1. tur" in d.page_source  # the page in the browser's language
    rows = texts(d, "#byname tbody tr")
    names = [r[0].split("\n")[0] for r in rows]
    # the Turkish alphabet: Cem < Çağla, Ilgaz (I) < İpek (İ), Orhan < Ömer, Sinan < Şule
    assert names == [
        "Cem Acar",
        "Çağla Koç",
        "Ilgaz Tan",
        "İpek Su",
        "Orhan Ek",
        "Ömer Sarı",
        "Sinan Uz",
        "Şule Demir",
    ]
    for r in rows:
        name = r[0].split("\n")[0]
        assert (int(r[1]), r[2]) == table_of[name]  # his table and his opponent, as the desk paired them
    by_table = texts(d, "#bytable tbody tr")
    assert [int(r[0]) for r in by_table] == [t.table for t in rv.tables]
    # a phone's width: no sideways scrolling
    assert d.execute_script("return document.documentElement.scrollWidth") <= 360
    assert PHONE not in d.page_source and EMAIL not in d.page_source  # rule T14


def test_hall_standings_follow_the_results_and_never_show_contact_data(
    db: Database, server: TableServer, browser: Callable[..., Any]
) -> None:
    ev = tavla_night(db)
    rv = reads.get_round(db, ev, 1)
    t = rv.tables[0]
    for _k in range(3):  # a 3-point match: three single games for side A
        results.add_entry(db, DESK, ev, 1, t.table, GAME)
    results.confirm(db, DESK, ev, 1, t.table, 0, "SC")
    results.confirm(db, DESK, ev, 1, t.table, 1, "CO")

    expected = [(r.rank, r.name) for r in standings.event_standings(db, ev).rows]
    d = browser("en")
    d.get(base(server) + f"/hall/{ev}/standings")
    rows = texts(d, "#standings tbody tr")
    assert [(int(r[0]), r[1].split("\n")[0]) for r in rows] == expected
    assert rows[0][1].split("\n")[0] == t.names[0] and rows[0][2] == "1"  # the winner leads with a point
    for path in ("/", f"/hall/{ev}", f"/hall/{ev}/standings", "/hall"):
        status, html = get(base(server) + path)
        assert status == 200 and PHONE not in html and EMAIL not in html  # rule T14


def test_hall_language_switch_and_a_missing_event(db: Database, server: TableServer) -> None:
    ev = tavla_night(db)
    status, html = get(base(server) + f"/hall/{ev}?lang=es")
    assert status == 200 and '<html lang="es">' in html and "Emparejamientos" in html
    status, html = get(base(server) + "/hall/999")
    assert status == 404 and "There is no such page." in html.split("<main")[1].split("</main>")[0]


def test_hall_bracket_of_an_elimination_event(db: Database, server: TableServer) -> None:
    ev, _ids = make_event(db, ruleset="tavla", fmt="single-elimination", players=4, match_lengths=[1])
    rounds.propose_round(db, DESK, ev)
    rv = rounds.publish_round(db, DESK, ev).round
    status, html = get(base(server) + f"/hall/{ev}/bracket")
    assert status == 200 and "<svg" in html
    for t in rv.tables:
        assert t.names[0] in html and t.names[1] in html
    assert f'href="/hall/{ev}/bracket"' in get(base(server) + f"/hall/{ev}")[1]


# ------------------------------------------------------------------------------------------ printed QR
def qr_texts(pdf: Path, page: int, tmp_path: Path) -> list[str]:
    import zxingcpp
    from PIL import Image

    prefix = tmp_path / f"sheet{page}"
    subprocess.run(
        ["pdftoppm", "-r", "150", "-png", "-f", str(page), "-l", str(page), str(pdf), str(prefix)], check=True
    )
    png = next(tmp_path.glob(f"sheet{page}*.png"))
    return [r.text for r in zxingcpp.read_barcodes(Image.open(png))]


def test_printed_sheet_qr_opens_its_table_on_a_phone_while_table_entry_is_on(
    db: Database, server: TableServer, browser: Callable[..., Any], tmp_path: Path
) -> None:
    ev = tavla_night(db)
    rv = reads.get_round(db, ev, 1)
    second = rv.tables[1]
    off = tmp_path / "off.pdf"
    documents.generate(db, header.ReportRequest("score-sheets", ev, round=1, table=second.table), off)
    (tmp_path / "a").mkdir()
    # CONTRACTS.md §4 while table entry is off
    assert qr_texts(off, 1, tmp_path / "a") == [f"CLUBDESK:TABLE:{ev}:1:{second.table}"]
    desk_side.set_base_url(db, DESK, base(server))
    on = tmp_path / "on.pdf"
    documents.generate(db, header.ReportRequest("score-sheets", ev, round=1), on)
    (tmp_path / "b").mkdir()
    found = qr_texts(on, 2, tmp_path / "b")
    token = round_tokens(db, ev, 1)[second.table]
    url = f"{base(server)}/t/{token}"
    # the table's QR stays the way in; each side's box has its own code and QR (G13, E6, T8c)
    codes = night.side_codes(db, ev, 1)[second.table]
    assert codes[0] != codes[1] and all(len(c) == 6 and c.isdigit() for c in codes)
    assert sorted(found) == sorted([url, f"{url}?side=0&code={codes[0]}", f"{url}?side=1&code={codes[1]}"])
    text = subprocess.run(
        ["pdftotext", "-f", "2", "-l", "2", str(on), "-"], check=True, capture_output=True, text=True
    ).stdout
    for k in (0, 1):
        assert f"Approval code of {second.names[k]}" in text and f"{codes[k][:3]} {codes[k][3:]}" in text
    ref = table_page.table_for_token(db, token)
    assert ref is not None and (ref.event_id, ref.round_no, ref.table_no) == (ev, 1, second.table)
    d = browser("en")
    d.get(url)
    assert second.names[0] in d.page_source and second.names[1] in d.page_source
    d.get(f"{url}?side=1&code={codes[1]}")  # side B's box: the page opens as side B, the code off the URL
    assert d.current_url == url and f"You are: {second.names[1]}" in d.find_element("tag name", "body").text
    other = rv.tables[0]
    assert other.names[0] not in d.page_source  # a token opens only its own table
    desk_side.set_base_url(db, DESK, None)
    again = tmp_path / "again.pdf"
    documents.generate(db, header.ReportRequest("score-sheets", ev, round=1, table=second.table), again)
    (tmp_path / "c").mkdir()
    assert qr_texts(again, 1, tmp_path / "c") == [f"CLUBDESK:TABLE:{ev}:1:{second.table}"]


# ------------------------------------------------------------------------------------------ table-links
def cli(capsys: pytest.CaptureFixture[str], path: Path, *args: str) -> tuple[int, str, str]:
    code = main(["--db", str(path), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_table_links_json_opens_each_table(db: Database, capsys: pytest.CaptureFixture[str]) -> None:
    ev = tavla_night(db)
    rv = reads.get_round(db, ev, 1)
    code, out, err = cli(
        capsys, db.path, "table-links", str(ev), "--base", "http://192.168.1.20:8765/", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["hall"] == "http://192.168.1.20:8765/"
    assert [t["table"] for t in data["tables"]] == [t.table for t in rv.tables]
    for row in data["tables"]:
        prefix = "http://192.168.1.20:8765/t/"
        assert row["url"].startswith(prefix)
        token = row["url"][len(prefix) :]
        assert len(token) >= 22  # ≥ 128 random bits, URL-safe base64
        ref = table_page.table_for_token(db, token)
        assert ref is not None and (ref.event_id, ref.round_no, ref.table_no) == (ev, 1, row["table"])
    # the same links the next time (the tokens are stored, not made again)
    code, again, _err = cli(
        capsys,
        db.path,
        "table-links",
        str(ev),
        "--round",
        "1",
        "--base",
        "http://192.168.1.20:8765",
        "--json",
    )
    assert code == 0 and json.loads(again)["tables"] == data["tables"]


@pytest.mark.parametrize(
    "args, words",
    [
        (["--base", "ftp://desk"], "Not a web address"),
        (["--base", "http://desk:8765/x"], "Not a web address"),
        (["--round", "7", "--base", "http://desk:8765"], "7"),
    ],
)
def test_table_links_refusals_are_one_line(
    db: Database, capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    ev = tavla_night(db)
    before = round_tokens(db, ev, 1)
    code, out, err = cli(capsys, db.path, "table-links", str(ev), *args)
    assert code == 1 and out == "" and len(err.strip().splitlines()) == 1 and words in err
    assert round_tokens(db, ev, 1) == before
    code, _out, err = cli(capsys, db.path, "table-links", "999", "--base", "http://desk:8765")
    assert code == 1 and len(err.strip().splitlines()) == 1


def test_hall_page_follows_a_result_within_a_second_or_two(db: Database, server: TableServer) -> None:
    import time

    ev = tavla_night(db)
    t = reads.get_round(db, ev, 1).tables[0]
    _status, before = get(base(server) + f"/hall/{ev}")
    assert "3-0" not in before
    for _k in range(3):
        results.add_entry(db, DESK, ev, 1, t.table, GAME)
    results.confirm(db, DESK, ev, 1, t.table, 0, "SC")
    results.confirm(db, DESK, ev, 1, t.table, 1, "CO")
    deadline = time.monotonic() + READY_S
    while "3-0" not in get(base(server) + f"/hall/{ev}")[1]:  # the page is built again once it changed
        assert time.monotonic() < deadline, "the hall page still shows the result before"
        time.sleep(0.1)


def test_where_do_i_play_lists_each_player_of_a_pair_with_his_pair(db: Database) -> None:
    from clubdesk.services.night.play import rounds

    ev, _ids = make_event(
        db, ruleset="gaple-club", fmt="swiss", players=4, per_entrant=2, entry="pair", rounds=2
    )
    rounds.propose_round(db, DESK, ev)
    rv = rounds.publish_round(db, DESK, ev).round
    view = hall.round_view(db, ev)
    with db.session() as s:
        players = sorted(m.name for m in s.query(Member))
    assert sorted(line.name for line in view.by_name) == players  # every player finds his own name
    for line in view.by_name:
        t = next(t for t in rv.tables if t.table == line.table)
        assert line.side in t.names and line.opponent in t.names and line.side != line.opponent


def test_hall_counts_down_to_the_table_call(
    db: Database, server: TableServer, browser: Callable[..., Any]
) -> None:
    from datetime import timedelta

    from selenium.webdriver.common.by import By

    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[3])
    rounds.propose_round(db, DESK, ev)
    call = reads.local_now() + timedelta(minutes=10)
    rounds.publish_round(db, DESK, ev, call_at=call)  # rule T3b: the table call, local wall-clock time
    d = browser("en")
    d.get(base(server) + f"/hall/{ev}")
    box = d.find_element(By.ID, "call")
    assert f"Tables are called at {call:%H:%M}." in box.text
    first = d.find_element(By.CSS_SELECTOR, "#call .countdown").text
    minutes, seconds = (int(x) for x in first.split(":"))
    assert 9 * 60 <= minutes * 60 + seconds <= 10 * 60
    countdown = d.find_element(By.CSS_SELECTOR, "#call .countdown")
    wait_for(lambda: countdown.text != first, "the script does not count down")
    _status, html = get(base(server) + f"/hall/{ev}")
    assert 'class="countdown"' in html  # without the script the page says it too
