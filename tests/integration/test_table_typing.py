"""The table page on a phone keeps what is typed (a live update never replaces a form holding input; a
refused hand comes back typed, its field marked, the players named), and tavla's cube and Crawford game
read as players say them (rules T7a-T7c). A real server and headless Chromium at 390x844; the other
phone without a browser."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from clubdesk.services.night.data.tokens import round_tokens
from clubdesk.services.night.play import results
from clubdesk.storage import Database
from clubdesk.web.server import TableServer
from tests.integration.test_night_helpers import DESK
from tests.integration.test_table_entry_web import (
    Client,
    choose,
    click,
    fill,
    flash,
    gaple_night,
    page_text,
    submit,
    tavla_night,
    wait_for_text,
    wait_loaded,
)
from tests.integration.test_table_side_approval import fits, shot
from tests.phone_browser import phone_browsers
from tests.waits import READY_S


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    d = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "backups")
    try:
        yield d
    finally:
        d.close()


@pytest.fixture
def phone(tmp_path: Path) -> Iterator[Callable[[], Any]]:
    with phone_browsers(tmp_path) as make:

        def one() -> Any:
            d = make()
            d.set_window_size(390, 844)
            return d

        yield one


def value(d: Any, el_id: str) -> str:
    return str(d.find_element("id", el_id).get_attribute("value"))


def visible(d: Any, el_id: str, timeout: float = READY_S) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = d.find_elements("id", el_id)
        if found and found[0].is_displayed():
            return True
        time.sleep(0.1)
    return False


def other_phone(server: TableServer, token: str, side: str) -> Client:
    client = Client(server)
    _s, html = client.get(f"/t/{token}")
    client.post(f"/t/{token}/side", {**client.form_fields(html), "side": side})
    return client


def post(client: Client, token: str, action: str, fields: dict[str, str]) -> str:
    _s, html = client.get(f"/t/{token}")
    _s, answer, _h = client.post(f"/t/{token}/{action}", {**client.form_fields(html), **fields})
    return answer


def half_type(d: Any) -> None:
    click(d, "type-out")
    choose(d, "seat", "0")
    fill(d, "pips0", "0")
    fill(d, "pips1", "60")
    fill(d, "pips2", "40")  # the fourth is still to type


def test_a_half_typed_hand_survives_the_other_phones_hand_and_a_referee_call(
    db: Database, server: TableServer, phone: Callable[[], Any], tmp_path: Path
) -> None:
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    d = phone()
    d.get(f"{server.urls[0]}t/{token}")
    wait_loaded(d)
    submit(d, "side0")
    half_type(d)
    d.execute_script("window.__sameDocument = true;")
    b = other_phone(server, token, "1")
    hand = {"type": "out", "seat": "1", "pips0": "30", "pips1": "0", "pips2": "20", "pips3": "10"}
    assert "Hand 1 saved." in flash(post(b, token, "entry", hand))
    # the page says the table changed and shows the other phone's hand, and keeps the form as typed
    assert visible(d, "changed"), "no banner: the page did not follow the table"
    assert wait_for_text(d, "hands", "went out")
    assert d.execute_script("return window.__sameDocument === true")  # not reloaded
    assert [value(d, f"pips{i}") for i in range(3)] == ["0", "60", "40"] and value(d, "seat") == "0"
    assert "The table changed — reload" in page_text(d)
    fits(d)
    shot(d, tmp_path, "typing-banner")
    # a referee call from the other phone: still the same document, still typed
    assert "The referee has been called" in flash(post(b, token, "referee", {}))
    live = json.loads(b.get(f"/t/{token}/live")[1])["key"]
    end = time.monotonic() + READY_S  # the page has seen the call, and kept its form (no reload)
    while d.find_element("id", "score").get_attribute("data-seen") != live and time.monotonic() < end:
        time.sleep(0.05)
    assert d.find_element("id", "score").get_attribute("data-seen") == live
    assert d.execute_script("return window.__sameDocument === true")
    assert [value(d, f"pips{i}") for i in range(3)] == ["0", "60", "40"]
    # the player reloads with the banner's button: the page is current and the typing comes back
    d.find_element("id", "reload").click()
    end = time.monotonic() + READY_S
    while d.execute_script("return window.__sameDocument === true") and time.monotonic() < end:
        time.sleep(0.05)
    wait_loaded(d)
    assert [value(d, f"pips{i}") for i in range(3)] == ["0", "60", "40"] and value(d, "seat") == "0"
    fill(d, "pips3", "60")
    submit(d, "save")
    assert "Hand 2 saved." in page_text(d)
    assert results.table_entries(db, ev, 1, 1)[1][1]["pips"] == [0, 60, 40, 60]


def test_a_refused_hand_keeps_every_value_marks_the_field_and_names_the_players(
    db: Database, server: TableServer, phone: Callable[[], Any], tmp_path: Path
) -> None:
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    d = phone()
    d.get(f"{server.urls[0]}t/{token}")
    wait_loaded(d)
    submit(d, "side0")
    click(d, "type-out")
    choose(d, "seat", "0")
    for i, p in enumerate(["5", "60", "40", "60"]):  # the one who went out cannot hold 5 pips (G9)
        fill(d, f"pips{i}", p)
    d.find_element("css selector", "details summary").click()
    choose(d, "dead66", "1")
    submit(d, "save")
    msg = d.find_element("id", "flash").text
    assert "Player 1a went out" in msg and "5" in msg and "seat" not in msg.lower()
    assert [value(d, f"pips{i}") for i in range(4)] == ["5", "60", "40", "60"]
    assert value(d, "seat") == "0" and value(d, "dead66") == "1"
    assert d.find_element("id", "type-out").is_selected()
    marked = d.find_element("id", "pips0")
    assert "fault" in (marked.get_attribute("class") or "") and marked.get_attribute("aria-invalid") == "true"
    assert results.table_entries(db, ev, 1, 1) == {}
    # the engine's own refusal names players too (70 pips: a hand holds 0 to 69)
    fill(d, "pips0", "0")
    fill(d, "pips3", "70")
    submit(d, "save")
    msg = d.find_element("id", "flash").text
    assert "70" in msg and "69" in msg and "seat" not in msg.lower() and "Player 2b" in msg
    assert [value(d, f"pips{i}") for i in range(4)] == ["0", "60", "40", "70"]
    # the page then follows another change without losing the refused hand's values
    results.add_entry(db, DESK, ev, 1, 1, {"type": "redeal"})
    assert visible(d, "changed")
    assert [value(d, f"pips{i}") for i in range(4)] == ["0", "60", "40", "70"]


def test_a_refused_first_double_entered_the_natural_way_scores_1(
    db: Database, server: TableServer, phone: Callable[[], Any], tmp_path: Path
) -> None:
    """Rule T7a: the loser refuses the first double, to 2: the game is lost at the cube before it, 1."""
    ev = tavla_night(db, 5)
    token = round_tokens(db, ev, 1)[1]
    d = phone()
    d.get(f"{server.urls[0]}t/{token}")
    wait_loaded(d)
    submit(d, "side0")
    options = [o.text for o in d.find_elements("css selector", "#cube option")]
    assert options[:3] == ["no double", "doubled to 2", "doubled to 4"]
    assert "refused a double to 2" in options
    click(d, "winner0")
    choose(d, "cube", "drop2")
    fits(d)
    shot(d, tmp_path, "tavla-form")
    submit(d, "save")
    assert d.find_element("id", "total0").text == "1"
    assert "E1 wins: E2 refused a double to 2" in page_text(d)
    assert results.table_entries(db, ev, 1, 1)[1][0] == {
        "type": "game",
        "winner": 0,
        "kind": "single",
        "cube": 1,
        "dropped": True,
    }
    click(d, "winner1")
    click(d, "kind-gammon")
    choose(d, "cube", "4")  # doubled to 4 and played out: gammon x 4 = 8, capped at the match
    submit(d, "save")
    assert "E2 wins: gammon, doubled to 4" in page_text(d)


def test_a_hand_the_rules_refuse_marks_its_field_and_says_why_without_entry_numbers(
    db: Database, server: TableServer
) -> None:
    """Rules G9, G10: a hand the game's rules refuse (not only a field left empty) comes back typed with
    the field at fault marked, its reason in the players' names, no "Entry n" of the sheet's numbering."""
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    b = other_phone(server, token, "0")
    hand = {"type": "out", "seat": "0", "pips0": "0", "pips1": "300", "pips2": "40", "pips3": "60"}
    answer = post(b, token, "entry", hand)
    said = flash(answer)
    assert "300" in said and "Entry" not in said, said
    assert 'value="300" class="fault" aria-invalid="true"' in answer  # E2's seat-2 player's pips
    # a dead 0-0 "held" by the player who went out: the 0-0 field is marked, the Doubles part open
    hand = {**hand, "pips1": "60", "dead00": "0"}
    answer = post(b, token, "entry", hand)
    assert "Entry" not in flash(answer) and "0-0" in flash(answer)
    assert '<select name="dead00" id="dead00" class="fault"' in answer
    assert "<details open>" in answer
    assert results.table_entries(db, ev, 1, 1) == {}  # nothing stored


def test_a_refused_double_won_as_a_gammon_is_refused_in_players_words_with_the_field_marked(
    db: Database, server: TableServer
) -> None:
    """Rule T7a: a refused double ends the game at once, so it is won single. The phone says so in the
    words of its own cube field ("refused a double to ..."), marks "How?", keeps the choices, stores
    nothing; no engine numbering ("Entry 1") and no "dropped"."""
    ev = tavla_night(db, 5)
    token = round_tokens(db, ev, 1)[1]
    b = other_phone(server, token, "0")
    answer = post(b, token, "entry", {"winner": "0", "kind": "gammon", "cube": "drop2"})
    said = flash(answer)
    assert "refused double" in said and "single" in said, said
    assert "Entry 1" not in said and "dropped" not in said
    assert '<fieldset class="fault" aria-invalid="true" autofocus><legend>How?' in answer
    assert 'value="gammon" id="kind-gammon" checked' in answer
    assert results.table_entries(db, ev, 1, 1) == {}  # nothing stored


def test_the_crawford_game_is_marked_before_it_is_played_with_its_cube_disabled(
    db: Database, server: TableServer, phone: Callable[[], Any], tmp_path: Path
) -> None:
    """Rule T7b: E1 reaches 2 in a match to 3; the next game is the Crawford game, then post-Crawford."""
    ev = tavla_night(db, 3)
    token = round_tokens(db, ev, 1)[1]
    d = phone()
    d.get(f"{server.urls[0]}t/{token}")
    wait_loaded(d)
    submit(d, "side0")
    assert d.find_elements("id", "crawford") == []
    click(d, "winner0")
    click(d, "kind-gammon")
    submit(d, "save")  # 2-0: one point from the match
    assert "Crawford game" in d.find_element("id", "crawford").text  # before it is played
    assert "Game 2" in d.find_element("css selector", "#entry h2").text
    cube = d.find_element("id", "cube")
    assert not cube.is_enabled()
    assert "without the cube" in d.find_element("id", "crawford-note").text
    shot(d, tmp_path, "tavla-crawford")
    # a cube posted anyway (an old form) is refused by the engine, nothing stored
    b = other_phone(server, token, "1")
    answer = post(b, token, "entry", {"winner": "1", "kind": "single", "cube": "2"})
    assert "Crawford" in flash(answer) and len(results.table_entries(db, ev, 1, 1)[1]) == 1
    wait_loaded(d)
    d.get(f"{server.urls[0]}t/{token}")
    click(d, "winner1")
    submit(d, "save")  # the Crawford game: 2-1
    assert d.find_elements("id", "crawford") == []
    assert "post-Crawford game" in d.find_element("id", "postcrawford").text
    assert d.find_element("id", "cube").is_enabled()
    assert "Crawford game" in d.find_element("id", "hands").text  # the game played as Crawford, named


def test_a_half_typed_hand_survives_a_referee_call_from_the_same_phone(
    db: Database, server: TableServer, phone: Callable[[], Any]
) -> None:
    """The page's own post (the referee called mid-hand) is answered with a new page: the typing returns."""
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    d = phone()
    d.get(f"{server.urls[0]}t/{token}")
    wait_loaded(d)
    submit(d, "side0")
    half_type(d)
    submit(d, "referee")
    assert "The referee has been called" in page_text(d)
    assert [value(d, f"pips{i}") for i in range(3)] == ["0", "60", "40"] and value(d, "seat") == "0"
    fill(d, "pips3", "60")
    submit(d, "save")
    assert "Hand 1 saved." in page_text(d)
    assert results.table_entries(db, ev, 1, 1)[1][0]["pips"] == [0, 60, 40, 60]
