"""Every page a player reads, on a 360x640 phone and on the hall's 1920x1080 screen: a real server on
127.0.0.1 and a real headless Chromium (Debian's ``chromium`` + ``chromium-driver``). A 120-character name
without a space wraps on the table page, the hall pages and the static site (no page scrolls sideways); the
standings keep the tie-break columns that decided the order at phone width and say how each tie was broken
(T12b); the hall's screen gets type readable across a hall; the index lists tonight's events and hides the
earlier ones behind one link; the double elimination names its grand final and its reset apart; a standings
page is never older than the last confirmed table.

``CLUBDESK_TEST_SHOTS=DIR`` keeps the screenshots the tests take (``DIR/<page>-<width>.png``) to look at.
"""

from __future__ import annotations

import os
import shutil
import urllib.request
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from clubdesk.cli.core import main
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.services.night.data import reads
from clubdesk.services.night.data.tokens import round_tokens
from clubdesk.services.night.play import results, rounds
from clubdesk.services.phones import desk_side
from clubdesk.storage import Database
from clubdesk.web.server import TableServer
from tests.integration.test_night_helpers import DESK, make_event
from tests.phone_browser import phone_browsers
from tests.waits import READY_S, wait_for

LONG = "Kuşadası" + "Wolfeschlegelsteinhausenbergerdorff" * 3 + "Yılmazoğlu" * 1  # no space to break at
LONG = (LONG + "X" * 120)[:120]
GAME = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}
PROJECTOR = (1920, 1080)
FLOOR_PX = 26.0  # the smallest table text on the hall's screen: readable from the back of a hall


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    d = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "backups")
    try:
        yield d
    finally:
        d.close()


def base(srv: TableServer) -> str:
    return f"http://127.0.0.1:{srv.port}"


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=READY_S) as r:
        return str(r.read().decode("utf-8"))


def rename(db: Database, ev: int, names: dict[int, str]) -> None:
    """Entrant k (0-based, by id) of ``ev`` and its member get ``names[k]``."""
    with db.session() as s:
        entrants = list(s.query(Entrant).where(Entrant.event_id == ev).order_by(Entrant.id))
        for k, name in names.items():
            entrants[k].name = name
            for link in s.query(EntrantMember).where(EntrantMember.entrant_id == entrants[k].id):
                member = s.get(Member, link.member_id)
                assert member is not None
                member.name = name


def swiss_night(db: Database) -> int:
    """A tavla Swiss of 8, round 1 published, its first table (a long name's) confirmed 3-0; the second
    table, another long name's, not started."""
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=8, rounds=3, match_lengths=[3])
    rename(db, ev, {0: LONG, 1: LONG[::-1]})
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    confirm_table(db, ev, 0)
    return ev


def confirm_table(db: Database, ev: int, k: int) -> None:
    t = reads.get_round(db, ev, 1).tables[k]
    for _game in range(3):  # a 3-point match: three single games for side A
        results.add_entry(db, DESK, ev, 1, t.table, GAME)
    results.confirm(db, DESK, ev, 1, t.table, 0, "SC")
    results.confirm(db, DESK, ev, 1, t.table, 1, "CO")


def finished_last_week(db: Database) -> int:
    """An event of an earlier night: played, finished, a week ago."""
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=1, name="Last week's cup")
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    with db.session() as s:
        event = s.get(Event, ev)
        assert event is not None
        event.status = "finished"
        event.starts_on = date.today() - timedelta(days=7)
    return ev


def double_elimination(db: Database) -> int:
    ev, _ids = make_event(
        db, ruleset="tavla", fmt="double-elimination", players=4, match_lengths=[1], name="Double cup"
    )
    rename(db, ev, {1: LONG[::-1]})
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    return ev


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    with phone_browsers(tmp_path / "profiles") as make:
        yield make


def shoot(driver: Any, name: str, tmp_path: Path) -> Path:
    """A screenshot of the page as the browser shows it, kept under ``CLUBDESK_TEST_SHOTS`` when set."""
    width = driver.execute_script("return window.innerWidth")
    path = tmp_path / f"{name}-{width}.png"
    assert driver.save_screenshot(str(path))
    keep = os.environ.get("CLUBDESK_TEST_SHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / path.name)
    return path


OVERFLOW_JS = """
const vw = document.documentElement.clientWidth;
const out = [];
for (const el of document.querySelectorAll('body *')) {
  if (el.closest('.scroll') && !el.classList.contains('scroll')) continue;  // a bracket tree scrolls inside
  const r = el.getBoundingClientRect();
  if (r.width > 0 && r.right > vw + 1) out.push(el.tagName + ' ' + (el.textContent || '').slice(0, 40));
}
return [document.documentElement.scrollWidth, window.innerWidth, vw, out.slice(0, 5)];
"""


def assert_fits(driver: Any, what: str) -> None:
    """Nothing of the page reaches past the phone's right edge: no sideways scrolling, no clipped text."""
    scroll_width, inner, client, past = driver.execute_script(OVERFLOW_JS)
    assert inner == 360, "the phone's viewport"
    assert scroll_width <= inner, f"{what}: the page is {scroll_width} px wide on a {inner} px phone"
    assert past == [], f"{what}: past the right edge at {client} px: {past}"


# ------------------------------------------------------------------------------------------ 360 px
def test_every_page_fits_a_360_px_phone_with_a_120_character_name(
    db: Database, server: TableServer, browser: Callable[..., Any], tmp_path: Path
) -> None:
    assert len(LONG) == 120 and " " not in LONG
    swiss = swiss_night(db)
    finished_last_week(db)
    double = double_elimination(db)
    desk_side.set_base_url(db, DESK, base(server))
    token = round_tokens(db, swiss, 1)[reads.get_round(db, swiss, 1).tables[1].table]
    long_token = round_tokens(db, swiss, 1)[reads.get_round(db, swiss, 1).tables[0].table]
    pages = {
        "index": "/hall",
        "past": "/hall/past",
        "pairings": f"/hall/{swiss}",
        "standings": f"/hall/{swiss}/standings",
        "bracket": f"/hall/{double}/bracket",
        "double-pairings": f"/hall/{double}",
        "table": f"/t/{token}",
        "table-long": f"/t/{long_token}",
    }
    d = browser("en")
    for name, path in pages.items():
        d.get(base(server) + path)
        if name not in ("index", "past"):
            assert LONG in d.page_source or LONG[::-1] in d.page_source, name
        shoot(d, name, tmp_path)
        assert_fits(d, name)
    # the long name's side picked: the entry form with its name on every label
    d.get(base(server) + pages["table"])
    d.find_element("id", "side0").click()
    wait_for(lambda: d.find_elements("id", "switchside"), "the page after the pick")  # a post, then a load
    shoot(d, "table-entry", tmp_path)
    assert_fits(d, "the table's entry form")
    # longer words: the standings and the pairings in Turkish and Indonesian fit too
    for lang in ("tr", "id"):
        for name in ("standings", "pairings"):
            d.get(base(server) + pages[name] + f"?lang={lang}")
            shoot(d, f"{name}-{lang}", tmp_path)
            assert_fits(d, f"{name} in {lang}")


def test_the_static_site_fits_a_360_px_phone(
    db: Database, browser: Callable[..., Any], tmp_path: Path
) -> None:
    swiss = swiss_night(db)
    with db.session() as s:
        event = s.get(Event, swiss)
        assert event is not None
        event.season = "2026"
    out = tmp_path / "www"
    assert main(["--db", str(db.path), "share", "site", "--out", str(out)]) == 0
    d = browser("en")
    for page in sorted(out.glob("*.html")):
        d.get(page.resolve().as_uri())
        shoot(d, f"site-{page.stem}", tmp_path)
        assert_fits(d, page.name)
        if page.name.endswith("-standings.html"):
            assert LONG in d.page_source
            # the standings table itself fits: no sideways scrolling inside its box either
            wide = d.execute_script(
                "return [...document.querySelectorAll('.scroll')].map(b => [b.scrollWidth, b.clientWidth]);"
            )
            assert wide and all(sw <= cw for sw, cw in wide), (page.name, wide)


# ------------------------------------------------------------------------------------------ the hall
def test_phone_standings_show_what_decided_the_order(
    db: Database, server: TableServer, browser: Callable[..., Any], tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    ev = swiss_night(db)
    d = browser("en")
    d.get(base(server) + f"/hall/{ev}/standings")
    heads = [th.text for th in d.find_elements(By.CSS_SELECTOR, "#standings thead th") if th.is_displayed()]
    codes = heads[3:]
    assert len(codes) >= 2, heads  # every tie-break column, not the first only
    rows = d.find_elements(By.CSS_SELECTOR, "#standings tbody tr")
    for r in rows:  # each row shows each column
        assert len([c for c in r.find_elements(By.TAG_NAME, "td") if c.is_displayed()]) == len(heads)
    legend = d.find_element(By.ID, "legend").text
    assert all(f"{code}:" in legend for code in codes)  # each column's long name
    ties = d.find_elements(By.CSS_SELECTOR, "#ties li")
    assert ties and all(t.is_displayed() and t.text for t in ties)  # what split each tie, in words
    shoot(d, "standings-ties", tmp_path)
    d.execute_script("document.getElementById('legend').scrollIntoView()")
    shoot(d, "standings-ties-below", tmp_path)


def listed_events(driver: Any) -> set[str]:
    from selenium.webdriver.common.by import By

    return {
        a.get_attribute("href").rsplit("/", 1)[1] for a in driver.find_elements(By.CSS_SELECTOR, "#events a")
    }


def test_the_hall_index_lists_tonight_and_one_link_to_earlier_nights(
    db: Database, server: TableServer, browser: Callable[..., Any]
) -> None:
    from selenium.webdriver.common.by import By

    swiss = swiss_night(db)
    past = finished_last_week(db)
    double = double_elimination(db)
    d = browser("en")
    d.get(base(server) + "/hall")
    assert listed_events(d) == {str(swiss), str(double)}  # tonight's two, not last week's
    earlier = d.find_elements(By.CSS_SELECTOR, "#earlier a")
    assert len(earlier) == 1 and "Last week's cup" not in d.page_source
    earlier[0].click()
    assert listed_events(d) == {str(past)}


def test_the_double_elimination_names_the_grand_final_and_its_reset_apart(
    db: Database, server: TableServer
) -> None:
    ev = double_elimination(db)
    html = get(base(server) + f"/hall/{ev}/bracket")
    heads = [h.split("</h2>")[0] for h in html.split("<h2>")[1:]]
    assert "Grand final" in heads and "Grand final, reset" in heads
    assert heads.count("Final") == 0 and len(heads) == len(set(heads))  # no two sections alike


NAME_RUNS_INTO_SCORE_JS = """
const out = [];
const texts = [...document.querySelectorAll('.scroll svg text')];
for (const score of texts.filter(t => t.getAttribute('text-anchor') === 'end')) {
  const name = texts.find(t => t !== score && t.getAttribute('y') === score.getAttribute('y')
    && Math.abs(t.getBBox().x - score.getBBox().x) < 220 && t.getBBox().x < score.getBBox().x);
  if (name && name.getBBox().x + name.getBBox().width > score.getBBox().x - 2) out.push(name.textContent);
}
return out;
"""


def test_a_long_name_in_the_bracket_tree_stops_before_its_score_and_is_kept_whole_in_a_tooltip(
    db: Database, server: TableServer, browser: Callable[..., Any]
) -> None:
    """The tree's boxes hold a name and its score: a 120-character name is cut with "…" before the
    score (never drawn over it), and the whole name is the box line's tooltip."""
    ev = double_elimination(db)
    d = browser("en")
    d.get(base(server) + f"/hall/{ev}/bracket")
    assert d.execute_script(NAME_RUNS_INTO_SCORE_JS) == []
    shown = [
        t.text
        for t in d.find_elements("css selector", ".scroll svg text")
        if t.text.startswith(LONG[::-1][:10])
    ]
    assert shown and all(t.endswith("…") for t in shown), shown
    assert f"<title>{LONG[::-1]}</title>" in d.page_source


def test_a_standings_page_is_never_older_than_the_last_confirmed_table(
    db: Database, server: TableServer
) -> None:
    ev = swiss_night(db)
    page = base(server) + f"/hall/{ev}/standings"
    first = get(page)
    assert get(page) == first  # kept: nothing changed
    assert get(base(server) + "/").count("3-0") == 1  # tonight's only event: "/" is its pairings
    winner = reads.get_round(db, ev, 1).tables[1].names[0]
    row = first.split(winner)[0].rsplit("<tr", 1)[1]
    assert 'class="t n">1<' not in row  # 0 points before its table is confirmed
    confirm_table(db, ev, 1)
    # the very next read shows it (no second of grace, no page of a moment ago)
    after = get(page)
    row = after.split(winner)[0].rsplit("<tr", 1)[1]
    assert 'class="t n">1<' in row, "the standings do not show the table just confirmed"
    for path in (f"/hall/{ev}", "/"):
        assert get(base(server) + path).count("3-0") == 2, path  # both confirmed tables at once


# ------------------------------------------------------------------------------------------ the screen
def test_the_hall_screen_at_1920_by_1080_reads_across_the_hall(
    db: Database, server: TableServer, browser: Callable[..., Any], tmp_path: Path
) -> None:
    ev = swiss_night(db)
    double = double_elimination(db)
    d = browser("en")
    d.set_window_size(*PROJECTOR)
    for name, path, cell in (
        ("screen-pairings", f"/hall/{ev}", "#bytable tbody td"),
        ("screen-standings", f"/hall/{ev}/standings", "#standings tbody td"),
        ("screen-index", "/hall", "#events a"),
        ("screen-bracket", f"/hall/{double}/bracket", "main table td"),
    ):
        d.get(base(server) + path)
        width = d.execute_script("return window.innerWidth")
        assert width >= 1900, "the screen's viewport"
        size = d.execute_script(
            f"return parseFloat(getComputedStyle(document.querySelector('{cell}')).fontSize)"
        )
        assert size >= FLOOR_PX, f"{name}: {size} px text on a {width} px screen"
        used = d.execute_script("return document.querySelector('main').getBoundingClientRect().width")
        assert used >= 0.9 * width, f"{name}: a {used} px column on a {width} px screen"
        scroll_width = d.execute_script("return document.documentElement.scrollWidth")
        assert scroll_width <= width
        shoot(d, name, tmp_path)


def test_a_page_of_minutes_ago_is_never_served_on_a_first_open(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache's own rule, on a clock the test moves: a page built before a change of the file is served
    once more only while it is seconds old (its new one builds meanwhile); older, the reader waits for
    the new page (before, a first open after a quiet while showed the page of minutes ago)."""
    from starlette.responses import Response

    from clubdesk.web import hall

    now = [1000.0]
    monkeypatch.setattr(hall.time, "monotonic", lambda: now[0])
    cache = hall._Cache()  # noqa: SLF001 - the rule under test
    built: list[int] = []

    def build() -> Response:
        built.append(len(built) + 1)
        return Response(str(built[-1]))

    first = cache.get(db, ("index",), build)
    assert first is not None and first.body == b"1"
    now[0] += 600  # ten quiet minutes
    assert cache.get(db, ("index",), build, wait=False) is first  # nothing changed: still current
    make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=1, name="Added at the desk")
    assert cache.get(db, ("index",), build, wait=False) is None  # not served: the reader's thread builds it
    again = cache.get(db, ("index",), build)
    assert again is not None and again.body == b"2"
