"""Issue 27: results entered at the table on the players' phones — a real server on 127.0.0.1 (a free port)
and a real headless Chromium (Debian's ``chromium`` + ``chromium-driver``, installed by ``scripts/dev.sh
test``; Selenium drives it, nothing is downloaded). Posts that a browser would not make (the same post twice,
no CSRF field, an oversize body) go through http.client."""

from __future__ import annotations

import http.client
import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from clubdesk.models.member import Member
from clubdesk.services import night, phones
from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.night.data import reads, settings
from clubdesk.services.night.data.tokens import ensure_tokens, round_tokens
from clubdesk.services.night.play import hands, results, rounds, table_sides
from clubdesk.services.night.ranking import standings
from clubdesk.services.phones import posts, table_page
from clubdesk.storage import Database
from clubdesk.web.server import TableServer
from tests.integration.test_night_helpers import DESK, REF, make_event
from tests.phone_browser import phone_browsers
from tests.waits import READY_S, Processes, wait_for

PHONE = "+62 811 5550 9876"  # marker contact data: never on any page (rule T14)
EMAIL = "marker.contact@example.invalid"
# gaple-club: seat 1 goes out, the others hold 60, 40 and 60 pips -> 120 points a hand; 3 hands a game,
# 2 games the match (6 hands)
OUT_HAND = {"seat": "0", "pips": ["0", "60", "40", "60"]}


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    d = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "backups")
    try:
        yield d
    finally:
        d.close()


def _mark_contacts(db: Database) -> None:
    with db.session() as s:
        for m in s.query(Member):
            m.phone, m.email = PHONE, EMAIL


def gaple_night(db: Database) -> int:
    ev, _ids = make_event(
        db, ruleset="gaple-club", fmt="swiss", players=2, per_entrant=2, entry="pair", rounds=2
    )
    _mark_contacts(db)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    return ev


def tavla_night(db: Database, length: int = 3, players: int = 2) -> int:
    ev, _ids = make_event(
        db, ruleset="tavla", fmt="swiss", players=players, rounds=2, match_lengths=[length, length]
    )
    _mark_contacts(db)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    return ev


# ------------------------------------------------------------------------------------------ browser

Browser = Any


@pytest.fixture
def browsers(tmp_path: Path) -> Iterator[Callable[..., Browser]]:
    """Headless Chromium sessions at a phone's 360x640, each with its own profile (its own cookies)."""
    with phone_browsers(tmp_path) as make:
        yield make


def page_text(driver: Browser) -> str:
    return str(driver.find_element("tag name", "body").text)


def fill(driver: Browser, field_id: str, value: str) -> None:
    el = driver.find_element("id", field_id)
    el.clear()
    el.send_keys(value)


def choose(driver: Browser, select_id: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", select_id)).select_by_value(value)


def click(driver: Browser, el_id: str) -> None:
    driver.find_element("id", el_id).click()


def submit(driver: Browser, el_id: str) -> None:
    """Press a button that posts its form, and wait for the page that the post-redirect-get brings."""
    from selenium.common.exceptions import WebDriverException

    # Mark the current document; the new page after the redirect has no mark. (Waiting for the old <html>
    # element to go stale is racy: chromedriver may answer "Node ... does not belong to the document".)
    driver.execute_script("window.__clubdeskOld = true;")
    driver.find_element("id", el_id).click()
    end = time.monotonic() + READY_S
    while time.monotonic() < end:
        try:
            script = "return window.__clubdeskOld !== true && document.readyState === 'complete'"
            if driver.execute_script(script):
                return
        except WebDriverException:
            pass  # the document is being replaced
        time.sleep(0.05)
    raise AssertionError(f"pressing {el_id!r} brought no new page within {READY_S:.0f} s")


def wait_loaded(driver: Browser, timeout: float = READY_S) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if driver.execute_script("return document.readyState") == "complete":
            return
        time.sleep(0.05)


def wait_for_text(driver: Browser, el_id: str, text: str, timeout: float = READY_S) -> bool:
    """True once the element shows ``text`` (the page may reload meanwhile), False after ``timeout``."""
    from selenium.common.exceptions import WebDriverException

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if any(text in el.text for el in driver.find_elements("id", el_id)):
                return True
        except WebDriverException:  # the element went with a reload
            pass
        time.sleep(0.1)
    return False


def enter_gaple_out(driver: Browser) -> None:
    click(driver, "type-out")
    choose(driver, "seat", OUT_HAND["seat"])
    for i, p in enumerate(OUT_HAND["pips"]):
        fill(driver, f"pips{i}", p)
    submit(driver, "save")


def no_sideways_scroll(driver: Browser) -> None:
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px phone"


def small_targets(driver: Browser) -> list[str]:
    """Buttons, links, selects, text fields and choice labels smaller than 44 px high (touch targets)."""
    return list(
        driver.execute_script(
            """
            const out = [];
            for (const el of document.querySelectorAll('button, a, select, input[type=text], label.choice')) {
              const r = el.getBoundingClientRect();
              if (r.width > 0 && r.height < 44) out.push(el.outerHTML.slice(0, 80) + ' ' + r.height);
            }
            return out;
            """
        )
    )


def check_page(driver: Browser) -> None:
    no_sideways_scroll(driver)
    assert small_targets(driver) == []
    html = driver.page_source
    assert PHONE not in html and EMAIL not in html  # rule T14


# ------------------------------------------------------------------------------------------ http.client


class Client:
    """A phone without a browser: cookies kept, forms read from the page."""

    def __init__(self, srv: TableServer) -> None:
        self.port = srv.port
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ):  # type: ignore[no-untyped-def]
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=READY_S)
        h = dict(headers or {})
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn.request(method, path, body=body, headers=h)
        resp = conn.getresponse()
        data = resp.read()
        for key, value in resp.getheaders():
            if key.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                val = rest.split(";", 1)[0]
                if "max-age=0" in value.lower() or val in ('""', ""):
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = val
        conn.close()
        return resp.status, data.decode("utf-8", "replace"), dict(resp.getheaders())

    def get(self, path: str) -> tuple[int, str]:
        status, text, _h = self.request("GET", path)
        return status, text

    def form_fields(self, html: str) -> dict[str, str]:
        return {
            "csrf": re.search(r'name="csrf" value="([^"]+)"', html).group(1),  # type: ignore[union-attr]
            "version": re.search(r'name="version" value="(\d+)"', html).group(1),  # type: ignore[union-attr]
            "post_id": re.search(r'name="post_id" value="([^"]+)"', html).group(1),  # type: ignore[union-attr]
        }

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str, dict[str, str]]:
        body = urllib.parse.urlencode(fields).encode()
        return self.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})


def flash(html: str) -> str:
    """The message on the page a post was answered with."""
    m = re.search(r'class="flash[^"]*"[^>]*>([^<]*)<', html)
    return "" if m is None else m.group(1)


# ------------------------------------------------------------------------------------------ tests


def test_publishing_gives_every_table_a_long_random_token(db: Database) -> None:
    ev, _ids = make_event(
        db, ruleset="gaple-club", fmt="swiss", players=8, per_entrant=2, entry="pair", rounds=2
    )
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    toks = round_tokens(db, ev, 1)
    assert sorted(toks) == [1, 2, 3, 4]
    assert len(set(toks.values())) == 4
    assert all(len(t) >= 32 for t in toks.values())  # token_urlsafe(24): 192 bits >= 128
    assert ensure_tokens(db, DESK, ev, 1) == toks  # idempotent
    ref = table_page.table_for_token(db, toks[3])
    assert ref is not None and (ref.event_id, ref.round_no, ref.table_no) == (ev, 1, 3)
    assert table_page.table_for_token(db, "x" + toks[3][1:]) is None
    assert {s.state for s in posts.table_status(db, ev, 1).values()} == {"not_started"}
    rounds.unpublish_round(db, REF, ev, "wrong draw")
    assert round_tokens(db, ev, 1) == {}
    assert table_page.table_for_token(db, toks[3]) is None


def test_a_whole_gaple_match_on_two_phones_confirmed_by_the_other_side(
    db: Database, server: TableServer, browsers: Callable[..., Browser]
) -> None:
    """Rules G13 (both sides approve): side A, its box's QR scanned, enters six hands (the last one its
    approval); side B, in by the table's QR, confirms on its own phone with its code."""
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    codes = night.side_codes(db, ev, 1)[1]
    url = f"{server.urls[0]}t/{token}"
    a = browsers()
    a.get(url)
    wait_loaded(a)
    assert "Round 1, table 1" in page_text(a)
    assert "E1" in page_text(a) and "E2" in page_text(a)
    assert "Player 1a" in page_text(a)  # the seats by name
    check_page(a)
    a.get(f"{url}?side=0&code={codes[0]}")  # side A's box QR on the score sheet
    wait_loaded(a)
    assert a.current_url == url and "You are: E1" in page_text(a)
    pips = [a.find_element("id", f"pips{i}") for i in range(4)]
    assert [x.get_attribute("inputmode") for x in pips] == ["numeric"] * 4  # the phone's number keypad
    for n in range(1, 7):
        enter_gaple_out(a)
        check_page(a)
        if n < 6:
            assert f"Hand {n} saved." in page_text(a)
            assert posts.table_status(db, ev, 1)[1].state == "in_play"
            assert posts.table_status(db, ev, 1)[1].hands == n
    text = page_text(a)
    assert "The match is finished" in text and "Waiting for E2 to confirm the result." in text
    assert posts.table_status(db, ev, 1)[1].state == "awaiting_confirmation"
    assert results.table_entries(db, ev, 1, 1)[1][0]["pips"] == [0, 60, 40, 60]
    # the same side cannot confirm its own entry; the other side, on its own phone, can
    assert a.find_elements("id", "confirm") == []
    b = browsers()
    b.get(url)
    wait_loaded(b)
    submit(b, "side1")
    check_page(b)
    fill(b, "code", codes[1])
    submit(b, "confirm")
    assert "Confirmed at the table by E2." in page_text(b)
    st = posts.table_status(db, ev, 1)[1]
    assert (st.state, st.confirmed_by, st.hands) == ("confirmed_at_table", "E2", 6)
    view = reads.get_round(db, ev, 1).tables[0]
    assert view.status == "confirmed" and view.scorer == "E1" and view.counter == "E2"
    # the service's standings show it: E1 won the match
    rows = standings.event_standings(db, ev).rows
    assert [(r.name, r.points) for r in rows] == [("E1", 1), ("E2", 0)]
    # side A's phone follows without a tap (the live poll)
    assert wait_for_text(a, "state", "Confirmed at the table by E2.")
    check_page(a)
    # audited as the table's phone with its address
    from clubdesk.models.audit import AuditEntry

    with db.session() as s:
        rows_a = s.query(AuditEntry).filter(AuditEntry.actor_role == "table").all()
        assert rows_a and all(r.table_no == 1 and "127.0.0.1" in r.actor_name for r in rows_a)
        assert {r.action for r in rows_a} >= {"add-entry", "confirm"}


def test_a_refused_hand_stores_nothing_and_says_why(
    db: Database, server: TableServer, browsers: Callable[..., Browser]
) -> None:
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    d = browsers()
    d.get(f"{server.urls[0]}t/{token}")
    wait_loaded(d)
    submit(d, "side0")
    click(d, "type-out")
    choose(d, "seat", "0")
    for i, p in enumerate(["0", "60", "40", "70"]):  # 70 pips: a hand holds 0 to 69
        fill(d, f"pips{i}", p)
    submit(d, "save")
    msg = d.find_element("id", "flash").text
    assert "70" in msg and "69" in msg
    assert results.table_entries(db, ev, 1, 1) == {}
    assert posts.table_status(db, ev, 1)[1].state == "not_started"
    # undo of the last hand until confirmation
    enter_gaple_out(d)
    assert len(results.table_entries(db, ev, 1, 1)[1]) == 1
    # the post was answered with the page; it shows the table's own address, so a reload stores nothing
    assert d.current_url.endswith(f"/t/{token}")
    d.refresh()
    wait_loaded(d)
    assert len(results.table_entries(db, ev, 1, 1)[1]) == 1 and "Hand 2" in page_text(d)  # one hand shown
    submit(d, "undo")
    assert "The last hand was undone." in page_text(d)
    assert results.table_entries(db, ev, 1, 1).get(1, []) == []
    # a hand entered at the desk shows on the phone without a tap (the live poll reloads the page)
    results.add_entry(db, DESK, ev, 1, 1, {"type": "redeal"})
    assert wait_for_text(d, "hands", "Dealt again"), "the desk's hand did not reach the phone"


def test_the_same_post_twice_stores_once_and_a_stale_page_is_refused(
    db: Database, server: TableServer
) -> None:
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    c = Client(server)
    status, html = c.get(f"/t/{token}")
    assert status == 200
    f = c.form_fields(html)
    c.post(f"/t/{token}/side", {"csrf": f["csrf"], "side": "0", "post_id": "s", "version": f["version"]})
    hand = {"type": "out", "seat": "0", "pips0": "0", "pips1": "60", "pips2": "40", "pips3": "60"}
    for _ in range(2):  # a retry on a flaky Wi-Fi: the same page, the same post id
        status, text, _headers = c.post(f"/t/{token}/entry", {**f, **hand})
        assert status == 200 and flash(text) == "Hand 1 saved."  # the retry gets the first answer
    assert len(results.table_entries(db, ev, 1, 1)[1]) == 1
    # a new post from the old page (the table changed since): refused, what changed is said
    status, text, _h = c.post(f"/t/{token}/entry", {**f, **hand, "post_id": "another-id"})
    assert status == 200
    msg = flash(text)
    assert "changed meanwhile" in msg and "nothing was saved" in msg
    assert len(results.table_entries(db, ev, 1, 1)[1]) == 1
    # the desk changes the table: the phone's next post on the older page is refused too
    _s, html = c.get(f"/t/{token}")
    f = c.form_fields(html)
    results.add_entry(db, DESK, ev, 1, 1, {"type": "redeal"})
    _s, text, _h = c.post(f"/t/{token}/entry", {**f, **hand})
    assert "changed meanwhile by Desk" in flash(text)
    assert len(results.table_entries(db, ev, 1, 1)[1]) == 2
    # and the live key the page polls has moved on, so the page reloads
    _s, live = c.get(f"/t/{token}/live")
    assert json.loads(live)["key"].split(".")[0] != f["version"]


def test_csrf_missing_is_403_and_an_oversize_body_is_413(db: Database, server: TableServer) -> None:
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    c = Client(server)
    _s, html = c.get(f"/t/{token}")
    f = c.form_fields(html)
    hand = {"type": "redeal", "post_id": "p1", "version": f["version"]}
    status, _t, _h = c.post(f"/t/{token}/entry", hand)
    assert status == 403
    status, _t, _h = c.post(f"/t/{token}/entry", {**hand, "csrf": "0" * 64})
    assert status == 403
    other = Client(server)  # a page of another browser: its field does not match this cookie
    status, _t, _h = other.post(f"/t/{token}/entry", {**hand, "csrf": f["csrf"]})
    assert status == 403
    status, _t, _h = c.post(f"/t/{token}/entry", {**hand, "csrf": f["csrf"], "pad": "x" * 20000})
    assert status == 413
    assert results.table_entries(db, ev, 1, 1) == {}


def test_a_wrong_token_is_a_plain_404_and_a_past_round_is_read_only(
    db: Database, server: TableServer
) -> None:
    ev = tavla_night(db, 1, players=4)
    token = round_tokens(db, ev, 1)[1]
    c = Client(server)
    for path in ("/t/" + "A" * 32, "/t/" + token[:-1], "/t/x/live", "/nothing"):
        status, text = c.get(path)
        assert status == 404 and text == "Not Found"
    status, _t, _h = c.post("/t/" + "A" * 32 + "/entry", {"csrf": "x"})
    assert status == 404
    _s, html = c.get(f"/t/{token}")
    early = {**c.form_fields(html), "version": ""}
    results.add_entry(
        db, DESK, ev, 1, 1, {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}
    )
    for table in (1, 2):
        if table == 2:
            results.add_entry(
                db,
                DESK,
                ev,
                1,
                2,
                {"type": "game", "winner": 1, "kind": "single", "cube": 1, "dropped": False},
            )
        results.confirm(db, DESK, ev, 1, table, 0, "A")
        results.confirm(db, DESK, ev, 1, table, 1, "B")
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)  # rule T10: round 1 is locked now
    status, html = c.get(f"/t/{token}")
    assert status == 200
    assert "Round 1 is over" in html or "The result is confirmed." in html
    assert 'id="entry"' not in html and 'id="undo"' not in html
    status, text, _h = c.post(f"/t/{token}/undo", {**early, "post_id": "late-undo"})  # an old page's form
    assert status == 200 and "Round 1 is over" in flash(text)
    assert len(results.table_entries(db, ev, 1, 1)[1]) == 1
    assert posts.table_status(db, ev, 1)[1].state == "entered_at_desk"


def test_a_tavla_match_in_turkish_with_a_cube_and_a_gammon(
    db: Database, server: TableServer, browsers: Callable[..., Browser]
) -> None:
    """Rules T7a-T7c (cube, gammon), T8c (both sides approve): Turkish from the browser's language."""
    ev = tavla_night(db, 5)
    token = round_tokens(db, ev, 1)[1]
    d = browsers("tr")
    d.get(f"{server.urls[0]}t/{token}")
    wait_loaded(d)
    assert d.find_element("tag name", "html").get_attribute("lang") == "tr"
    assert "1. tur, 1. masa" in page_text(d)
    assert "5 puanlık maç" in page_text(d)
    check_page(d)
    submit(d, "side1")
    click(d, "winner1")
    click(d, "kind-gammon")
    choose(d, "cube", "2")
    submit(d, "save")  # 2 x gammon = 4 points
    check_page(d)
    assert d.find_element("id", "total1").text == "4"
    assert "mars" in page_text(d) and "katlama 2" in page_text(d)
    click(d, "winner0")
    submit(d, "save")  # a single game: 1-4
    click(d, "winner1")
    submit(d, "save")  # 1-5: the match is over
    assert "Maç bitti" in page_text(d)
    assert results.table_entries(db, ev, 1, 1)[1][0] == {
        "type": "game",
        "winner": 1,
        "kind": "gammon",
        "cube": 2,
        "dropped": False,
    }
    # one phone for both sides (T8c): each approves with its own code, the phone handed over between
    codes = night.side_codes(db, ev, 1)[1]
    fill(d, "code", codes[1])
    submit(d, "confirm")
    submit(d, "handto")
    fill(d, "handcode", codes[0])
    submit(d, "handover-ok")
    submit(d, "confirm")
    assert "Masada E1 tarafından teyit edildi." in page_text(d)
    view = reads.get_round(db, ev, 1).tables[0]
    assert view.status == "confirmed" and view.score == (1, 5)
    # the desk's window language is not touched by the phone's
    from clubdesk import i18n

    assert i18n.current_language() == "en"
    # the language switch on the page is remembered
    d.find_element("css selector", "a[hreflang=es]").click()
    wait_loaded(d)
    assert "Ronda 1, mesa 1" in page_text(d)
    d.get(f"{server.urls[0]}t/{token}")
    wait_loaded(d)
    assert "Ronda 1, mesa 1" in page_text(d)


def test_calling_the_referee_and_a_desk_dispute_wins(db: Database, server: TableServer) -> None:
    ev = tavla_night(db, 1)
    token = round_tokens(db, ev, 1)[1]
    c = Client(server)
    _s, html = c.get(f"/t/{token}")
    f = c.form_fields(html)
    c.post(f"/t/{token}/referee", f)
    c.post(f"/t/{token}/referee", f)  # the retry: one call
    calls = posts.referee_calls(db, ev)
    assert [(x.round_no, x.table_no, x.handled) for x in calls] == [(1, 1, False)]
    assert posts.table_status(db, ev, 1)[1].referee_called
    _s, html = c.get(f"/t/{token}")
    assert "The referee has been called." in html
    results.add_entry(
        db, DESK, ev, 1, 1, {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}
    )
    results.referee_decision(db, REF, ev, 1, 1, approve=False, note="dice")
    _s, html = c.get(f"/t/{token}")
    assert (
        "The referee decides this table&#39;s result." in html
        or "The referee decides this table's result." in html
    )
    f = c.form_fields(html)
    c.post(f"/t/{token}/side", {**f, "side": "1"})
    _s, html = c.get(f"/t/{token}")
    c.post(f"/t/{token}/confirm", c.form_fields(html))
    assert reads.get_round(db, ev, 1).tables[0].status == "disputed"
    posts.handle_referee_call(db, REF, calls[0].id)
    assert not posts.table_status(db, ev, 1)[1].referee_called


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ``serve`` whose stop first waits for ``<gate>`` (the test writes it), saying so by ``<gate>.stopping``
STOP_AT_A_GATE = """
import pathlib, sys, time
import clubdesk.web.server as S
gate = pathlib.Path(sys.argv.pop())
real = S.TableServer.stop
def stop(self):
    gate.with_name(gate.name + ".stopping").touch()
    while not gate.exists():
        time.sleep(0.01)
    real(self)
S.TableServer.stop = stop
from clubdesk.cli import main
raise SystemExit(main())
"""


def test_serve_cli_starts_stops_and_refuses_a_port_in_use(tmp_path: Path, processes: Processes) -> None:
    """Waits on readiness only (the lines the server prints, its exit); if it fails, the ``processes``
    fixture stops the server, so no ``serve`` is left running after the suite. Ctrl+C pressed again
    while it stops (an impatient secretary) changes nothing: it still stops cleanly, the sheets' address
    switched off."""
    dbfile = tmp_path / "cli.sqlite3"
    Database(dbfile, backups_dir=tmp_path / "b").close()
    port = _free_port()
    args = ["--db", str(dbfile), "serve", "--port", str(port)]
    cmd = [sys.executable, "-c", "from clubdesk.cli import main; raise SystemExit(main())", *args]
    gate = tmp_path / "gate"
    proc = processes.start(
        [sys.executable, "-c", STOP_AT_A_GATE, *args, str(gate)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        first = proc.stdout.readline() if proc.stdout else ""  # "Table entry is served at:"
        url = proc.stdout.readline().strip() if proc.stdout else ""
        assert first.strip() and url == f"http://127.0.0.1:{port}/"
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=READY_S)
        conn.request("GET", "/t/nothing")
        assert conn.getresponse().status == 404
        conn.close()
        # while it serves, sheets printed meanwhile carry their table's address (as with the Desk's switch)
        watch = Database(dbfile, backups_dir=tmp_path / "b")
        try:
            assert phones.base_url(watch) == f"http://127.0.0.1:{port}"
        finally:
            watch.engine.dispose()
        # a second server on the same port: one clear line, exit 1
        again = subprocess.run(cmd, capture_output=True, text=True, timeout=READY_S)
        assert again.returncode == 1
        assert again.stderr.strip().splitlines() == [
            f"clubdesk-cli: Port {port} is already in use on this computer; choose another port."
        ]
        proc.send_signal(signal.SIGINT)  # Ctrl+C
        wait_for(lambda: gate.with_name("gate.stopping").exists() or proc.poll() is not None, "no stop began")
        proc.send_signal(signal.SIGINT)  # and again while it stops
    finally:
        gate.touch()
    out, err = processes.wait_ended(proc, READY_S, "Ctrl+C")  # a hang fails with its threads' stacks
    assert proc.returncode == 0, err
    assert "The server has stopped." in out and "Traceback" not in err
    with socket.socket() as s:  # the port is free again
        s.bind(("127.0.0.1", port))
    after = Database(dbfile, backups_dir=tmp_path / "b")
    try:
        assert phones.base_url(after) is None  # stopped: sheets carry the desk's own payload again
    finally:
        after.close()


def _group(leader: int) -> list[tuple[int, str]]:
    """The processes of ``leader``'s process group but the leader: (pid, command line)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == leader:
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # ended meanwhile
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == leader and fields[0] != "Z":
            found.append((int(entry.name), command))
    return found


def test_ctrl_c_while_serve_starts_its_second_process_ends_it_without_a_traceback(
    tmp_path: Path, processes: Processes
) -> None:
    """``serve --workers 2`` with Ctrl+C pressed (to the whole process group, as a terminal does) while its
    second process is still importing: the server stops with its usual line, no traceback from either
    process, and nothing of it is left."""
    dbfile = tmp_path / "cli.sqlite3"
    Database(dbfile, backups_dir=tmp_path / "b").close()
    cmd = [sys.executable, "-c", "from clubdesk.cli import main; raise SystemExit(main())"]
    proc = processes.start(
        [*cmd, "--db", str(dbfile), "serve", "--workers", "2", "--port", str(_free_port())],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )

    def starting_worker() -> bool:
        return proc.poll() is not None or any("spawn_main" in c for _p, c in _group(proc.pid))

    wait_for(starting_worker, "the second process did not start")
    assert proc.poll() is None
    out, err = processes.interrupt(proc, group=True)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "The server has stopped." in out
    wait_for(lambda: not _group(proc.pid), "a process of the server was left")


def test_serve_refuses_a_bad_number_of_workers_in_one_line(tmp_path: Path) -> None:
    dbfile = tmp_path / "cli.sqlite3"
    Database(dbfile, backups_dir=tmp_path / "b").close()
    cmd = [sys.executable, "-c", "from clubdesk.cli import main; raise SystemExit(main())"]
    out = subprocess.run(
        [*cmd, "--db", str(dbfile), "serve", "--port", "0", "--workers", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1
    assert out.stderr.strip().splitlines() == ["clubdesk-cli: --workers takes a number from 1 to 8."]


def test_two_server_processes_answer_any_phone_and_store_each_game_once(db: Database) -> None:
    """``serve --workers 2`` (a big hall): two processes on one socket. A page served by one and its post
    answered by the other agree (one CSRF secret); every game is stored once; stopping ends both."""
    ev = tavla_night(db, 99)
    token = round_tokens(db, ev, 1)[1]
    srv = TableServer(db, "127.0.0.1", 0, workers=2)
    srv.start()
    try:
        children = list(srv._children)
        assert len(children) == 1 and children[0].is_alive()
        c = Client(srv)
        _s, html = c.get(f"/t/{token}")
        f = c.form_fields(html)
        c.post(f"/t/{token}/side", {"csrf": f["csrf"], "side": "0"})
        wins = [0, 1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1]
        for k, winner in enumerate(wins):  # a fresh connection per request: either process may answer
            _s, html = c.get(f"/t/{token}")
            f = c.form_fields(html)
            game = {"winner": str(winner), "kind": "gammon" if k == 3 else "single", "cube": "1"}
            status, text, _h = c.post(f"/t/{token}/entry", {**f, **game})
            assert status == 200
            assert flash(text) == f"Game {k + 1} saved.", k
            status, _t, _h = c.post(f"/t/{token}/entry", {**f, **game})  # the retry: stored once
        stored = results.table_entries(db, ev, 1, 1)[1]
        assert [e["winner"] for e in stored] == wins
        page = table_page.page(db, token)
        # rule T7b: six single games (1 point each) and a gammon (2) for the first side, five for the other
        assert page is not None and page.totals == (8, 5)
    finally:
        srv.stop()
    assert not children[0].is_alive()


def test_a_server_process_killed_in_its_writing_turn_does_not_stop_the_hall(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``serve --workers N``'s processes take turns at writing through one shared lock. A process that
    dies holding its turn (killed by the system) must not stop every other phone's hands: the turn is
    waited for at most the busy timeout, then the hand goes in under SQLite's own write lock."""
    import multiprocessing
    import operator

    ev = tavla_night(db, 99)
    spawn = multiprocessing.get_context("spawn")
    writer = spawn.RLock()
    # a process that takes the turn and ends with it held
    holder = spawn.Process(target=operator.methodcaller("acquire"), args=(writer,), daemon=True)
    holder.start()
    holder.join(timeout=60)
    assert holder.exitcode == 0
    assert not writer.acquire(timeout=0.1)  # the dead process's turn is still taken
    monkeypatch.setattr("clubdesk.storage.sqlite.BUSY_TIMEOUT_MS", 300)
    db.share_writer(writer)
    try:
        results.add_entry(db, DESK, ev, 1, 1, {"type": "game", "winner": 0, "kind": "gammon", "cube": 1})
    finally:
        db.share_writer(None)
    assert [e["kind"] for e in results.table_entries(db, ev, 1, 1)[1]] == ["gammon"]


def test_a_spanish_dominoes_table_hand_by_hand_with_both_approvals(db: Database, server: TableServer) -> None:
    """Rules E18 (a hand: seat out, the pips left) and E6 (both pairs approve): two phones, no browser."""
    ev, _ids = make_event(
        db, ruleset="domino-es", fmt="swiss", players=2, per_entrant=2, entry="pair", rounds=1
    )
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    token = round_tokens(db, ev, 1)[1]
    seats = reads.get_round(db, ev, 1).tables[0].seats
    assert seats  # the seat draw (E7): the page names the players at their seats
    home, away = Client(server), Client(server)
    codes = night.side_codes(db, ev, 1)[1]
    for client, side in ((home, 0), (away, 1)):  # each side's own box QR on the score sheet
        status, _html = client.get(f"/t/{token}?side={side}&code={codes[side]}")
        assert status == 303
    hand = {"type": "domino", "seat": "1", "pips0": "30", "pips1": "0", "pips2": "20", "pips3": "10"}
    for n in (1, 2):  # 60 points a hand to side 2 (seat 2 went out): 120 >= 100 ends the match
        _s, html = away.get(f"/t/{token}")
        away.post(f"/t/{token}/entry", {**away.form_fields(html), **hand})
        assert posts.table_status(db, ev, 1)[1].hands == n
    assert results.table_entries(db, ev, 1, 1)[1][0] == {"type": "domino", "seat": 1, "pips": [30, 0, 20, 10]}
    assert posts.table_status(db, ev, 1)[1].state == "awaiting_confirmation"
    _s, html = home.get(f"/t/{token}")
    assert 'id="confirm"' in html and "Player 1a" in html
    _s, text, _h = home.post(f"/t/{token}/confirm", home.form_fields(html))
    assert "Confirmed at the table by E1." in flash(text)
    view = reads.get_round(db, ev, 1).tables[0]
    assert (view.status, view.scorer, view.counter, view.winner) == ("confirmed", "E1", "E2", _ids[1])


def test_a_spanish_team_encounter_game_by_game_with_the_seats_swapped(
    db: Database, server: TableServer
) -> None:
    """Rule E7b: an encounter's two games one after another on the phones; in game 2 the pair that lost
    game 1 has swapped seats; E18 hands; E6 both teams approve the encounter."""
    ev, _ids = make_event(db, ruleset="domino-es", fmt="round-robin", players=2, per_entrant=4, entry="team")
    settings.configure(db, DESK, ev, encounter_games=2)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    token = round_tokens(db, ev, 1)[1]
    home, away = Client(server), Client(server)
    codes = night.side_codes(db, ev, 1)[1]
    for client, side in ((home, 0), (away, 1)):  # each side's own box QR on the score sheet
        status, _html = client.get(f"/t/{token}?side={side}&code={codes[side]}")
        assert status == 303
    _s, html = home.get(f"/t/{token}")
    assert "Game 1 of 2, hand 1" in html and 'name="game" value="1"' in html
    # seat 1 goes out, 30 + 20 + 25 = 75 left in the others' hands: 75, then 150 >= 100 ends game 1
    out0 = {"type": "domino", "seat": "0", "pips0": "0", "pips1": "30", "pips2": "20", "pips3": "25"}
    for _n in (1, 2):
        _s, html = home.get(f"/t/{token}")
        home.post(f"/t/{token}/entry", {**home.form_fields(html), **out0, "game": "1"})
    stored = {"type": "domino", "seat": 0, "pips": [0, 30, 20, 25]}
    assert results.table_entries(db, ev, 1, 1) == {1: [stored, stored]}  # both hands in game 1
    _s, html = away.get(f"/t/{token}")
    assert "Game 2 of 2, hand 1" in html and 'name="game" value="2"' in html
    seats1, seats2 = (
        table_sides.encounter_seats(db, ev, 1, 1, 1),
        table_sides.encounter_seats(db, ev, 1, 1, 2),
    )
    assert seats2 == [seats1[0], seats1[3], seats1[2], seats1[1]]  # the losers of game 1 swapped
    with db.session() as s:
        names = {m.number: m.name for m in s.query(Member)}
    seat_options = re.findall(
        r'<option value="(\d)">([^<]+) \(', html.split('id="seat"')[1].split("</select>")[0]
    )
    assert [name for _v, name in seat_options] == [names[n] for n in seats2]
    # a hand posted to game 1 from an old form is refused, nothing stored
    _s, text, _h = away.post(f"/t/{token}/entry", {**away.form_fields(html), **out0, "game": "1"})
    assert "game 2" in flash(text) and len(results.table_entries(db, ev, 1, 1).get(2, [])) == 0
    out1 = {"type": "domino", "seat": "1", "pips0": "30", "pips1": "0", "pips2": "20", "pips3": "25"}
    for _n in (1, 2):
        _s, html = away.get(f"/t/{token}")
        away.post(f"/t/{token}/entry", {**away.form_fields(html), **out1, "game": "2"})
    assert len(results.table_entries(db, ev, 1, 1)[2]) == 2
    assert posts.table_status(db, ev, 1)[1].state == "awaiting_confirmation"
    _s, html = home.get(f"/t/{token}")
    assert 'id="confirm"' in html
    home.post(f"/t/{token}/confirm", home.form_fields(html))
    view = reads.get_round(db, ev, 1).tables[0]
    # one game each: a level encounter (E7b), confirmed by both teams at the table
    assert view.status == "confirmed" and view.score == (1, 1) and view.scorer and view.counter
    assert [r.points for r in standings.event_standings(db, ev).rows] == [0.5, 0.5]


def test_a_name_changed_at_the_desk_reaches_the_page_while_hands_keep_coming(
    db: Database, server: TableServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page after a hand reuses the names it showed a moment ago, for a few seconds only."""
    from clubdesk.models.event import Entrant
    from clubdesk.services.night.data import reads
    from clubdesk.services.phones import page_cache

    monkeypatch.setattr(page_cache, "PAGE_SECONDS", 0.5)
    ev = tavla_night(db, 99)
    token = round_tokens(db, ev, 1)[1]
    c = Client(server)
    _s, html = c.get(f"/t/{token}")
    c.post(f"/t/{token}/side", {**c.form_fields(html), "side": "0"})
    game = {"winner": "0", "kind": "single", "cube": "1"}
    with db.session() as s:
        first = s.get(Entrant, reads.get_round(db, ev, 1).tables[0].sides[0])
        assert first is not None
        first.name = "Renamed At The Desk"
    shown = False
    deadline = time.monotonic() + READY_S
    while not shown and time.monotonic() < deadline:  # a hand every 0.1 s: the page is primed each time
        _s, html = c.get(f"/t/{token}")
        shown = "Renamed At The Desk" in html
        c.post(f"/t/{token}/entry", {**c.form_fields(html), **game})
        time.sleep(0.1)
    assert shown, "the new name never reached the table page"


def test_the_server_refuses_an_address_this_computer_does_not_have(db: Database) -> None:

    srv = TableServer(db, "192.0.2.77", 0)  # TEST-NET-1: no machine has it
    with pytest.raises(ServiceError) as info:
        srv.start()
    assert info.value.code == "no-network"
    assert "192.0.2.77" in info.value.message and "127.0.0.1" in info.value.message
    assert not srv.running


def test_a_hand_whose_answer_failed_is_stored_once_on_retry(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27 item 6: the post id is stored in the hand's own transaction. A failure after the hand was
    stored (here: the answer is lost, the database busy once the hand's transaction committed) gives the
    phone an error; its retry with the same post id stores nothing twice (the 64-table benchmark once
    stored two hands twice)."""
    from clubdesk.services.night.play import results
    from clubdesk.services.phones import posts, table_page
    from clubdesk.storage import DatabaseError

    ev = gaple_night(db)
    ref = table_page.table_for_token(db, round_tokens(db, ev, 1)[1])
    assert ref is not None
    hand = {
        "type": "out",
        "seat": 0,
        "pips": [0, 60, 40, 60],
        "last_tile": None,
        "two_ends": False,
        "dead": {},
    }
    real = hands.enter_hand
    calls = {"n": 0}

    def busy_once(*args: object, **kwargs: object) -> object:
        calls["n"] += 1
        out = real(*args, **kwargs)  # type: ignore[arg-type]
        if calls["n"] == 1:  # stored, then the answer fails
            raise DatabaseError("busy", "The database is busy at another desk; try again.")
        return out

    shown = posts.table_status(db, ev, 1)[1].version  # the page's version, the same in the retry
    monkeypatch.setattr(night, "enter_hand", busy_once)  # the phones reach it through the night's face
    with pytest.raises(DatabaseError):
        posts.post_entry(db, ref, hand, client_id="post-1", version=shown, side=0, address="127.0.0.1")
    assert len(results.table_entries(db, ev, 1, 1)[1]) == 1  # the hand itself was stored
    again = posts.post_entry(db, ref, hand, client_id="post-1", version=shown, side=0, address="127.0.0.1")
    assert again.duplicate
    assert len(results.table_entries(db, ev, 1, 1)[1]) == 1  # and only once


def test_the_page_key_read_without_a_transaction_is_the_one_read_in_one(db: Database) -> None:
    """The table page is served from memory while its key stays: the key read on a bare connection (each
    page, each live poll) must change exactly when the key read in a transaction does, and the page a
    post primes must carry it (else a phone would be shown a stale table, or never a cached one)."""
    from clubdesk.services.night.play import results
    from clubdesk.services.phones import page_cache, posts, table_page

    ev = tavla_night(db, 99)
    token = round_tokens(db, ev, 1)[1]
    ref = table_page.table_for_token(db, token)
    assert ref is not None

    def keys() -> tuple[str, str]:
        fast = page_cache.key_of(db, token)
        with db.read_session() as s:
            slow = page_cache.key_row(s, token)
        assert fast is not None and slow is not None
        assert fast[1:] == slow[1:]
        return fast[1], fast[2]

    seen = [keys()]
    game = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}
    for k in range(3):  # hands from a phone: each primes the page with the key read afterwards
        page = page_cache.cached_page(db, token)
        assert page is not None
        posts.post_entry(db, ref, game, client_id=f"k{k}", version=page.page.version, side=0, address="x")
        seen.append(keys())
        primed = page_cache.shown(db, token)
        assert primed is not None and primed.key == seen[-1][1]
        assert page_cache.cached_page(db, token) is primed  # the page after the hand is the primed one
    results.add_entry(db, DESK, ev, 1, 1, game)  # the desk
    seen.append(keys())
    shown = posts.table_status(db, ev, 1)[1].version
    posts.call_referee(db, ref, client_id="ref", version=shown, address="x")  # the referee is called
    seen.append(keys())
    assert len({full for _live, full in seen}) == len(seen)  # every change moved the key
