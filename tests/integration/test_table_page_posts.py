"""The table on the phones, trustworthy: every post carries the table's version its page showed (a post
without one is refused as a stale page's is, in the same words), a confirmed table refuses a call for the
referee, and the page shows the result as it stands when the desk entered it without hands. A real server
on 127.0.0.1 (a free port); the posts through http.client as a phone's form makes them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from clubdesk.services.night.data.tokens import round_tokens
from clubdesk.services.night.play import results
from clubdesk.services.phones import posts
from clubdesk.storage import Database
from clubdesk.web.server import TableServer
from tests.integration.test_night_helpers import DESK
from tests.integration.test_table_entry_web import (
    Client,
    flash,
    gaple_night,
    no_sideways_scroll,
    page_text,
    tavla_night,
    wait_loaded,
)
from tests.phone_browser import phone_browsers

GAME = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}
HAND = {"type": "out", "seat": "0", "pips0": "0", "pips1": "60", "pips2": "40", "pips3": "60"}


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    d = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "backups")
    try:
        yield d
    finally:
        d.close()


def _without_version(fields: dict[str, str], post_id: str) -> dict[str, str]:
    return {k: v for k, v in fields.items() if k != "version"} | {"post_id": post_id}


def test_a_post_without_its_version_is_refused_as_a_stale_page_is(db: Database, server: TableServer) -> None:
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    c = Client(server)
    c.cookies["cd_lang"] = "es"  # the refusal in the page's language
    _s, html = c.get(f"/t/{token}")
    f = c.form_fields(html)
    c.post(f"/t/{token}/side", {**f, "side": "0", "post_id": "side"})
    # a page older than the table: the refusal every stale page gets
    _s, stale, _h = c.post(f"/t/{token}/entry", {**f, **HAND, "version": str(int(f["version"]) + 1)})
    refusal = flash(stale)
    # nobody changed it: no "by ? at ?", the page is simply older than the table
    assert refusal.startswith("La mesa 1 ha cambiado desde que se mostró")
    assert "no se ha guardado nada" in refusal
    # no version at all: the same words, nothing stored
    for action, extra in (("entry", HAND), ("undo", {}), ("confirm", {}), ("referee", {})):
        status, text, _h = c.post(f"/t/{token}/{action}", {**_without_version(f, f"no-{action}"), **extra})
        assert status == 200 and flash(text) == refusal, action
    assert results.table_entries(db, ev, 1, 1) == {}
    assert posts.referee_calls(db, ev) == []
    # the same page with its version: stored
    _s, text, _h = c.post(f"/t/{token}/entry", {**f, **HAND, "post_id": "with-version"})
    assert flash(text) == "Mano 1 guardada."
    assert len(results.table_entries(db, ev, 1, 1)[1]) == 1


def test_a_confirmed_table_refuses_a_call_for_the_referee(db: Database, server: TableServer) -> None:
    ev = tavla_night(db, 1)
    token = round_tokens(db, ev, 1)[1]
    c = Client(server)
    _s, html = c.get(f"/t/{token}")
    f = c.form_fields(html)  # the CSRF field of this phone (the page of a confirmed table has no form)
    results.add_entry(db, DESK, ev, 1, 1, GAME)
    results.confirm(db, DESK, ev, 1, 1, 0, "A")
    results.confirm(db, DESK, ev, 1, 1, 1, "B")
    _s, html = c.get(f"/t/{token}")
    assert "The result is confirmed." in html and 'id="referee"' not in html
    now = str(posts.table_status(db, ev, 1)[1].version)  # the table's current version: not a stale page
    status, text, _h = c.post(f"/t/{token}/referee", {**f, "version": now, "post_id": "late-call"})
    assert status == 200 and flash(text) == "The result is confirmed."
    assert posts.referee_calls(db, ev) == []
    assert not posts.table_status(db, ev, 1)[1].referee_called


def _total(html: str, side: int) -> str:
    m = re.search(rf'id="total{side}">([^<]*)<', html)
    return "" if m is None else m.group(1)


def test_a_result_entered_at_the_desk_shows_on_the_table_page_as_it_stands(
    db: Database, server: TableServer, tmp_path: Path
) -> None:
    """``clubdesk-cli result … --score 5-2 --confirm``: a final score with no hands behind it."""
    ev = tavla_night(db, 5)
    token = round_tokens(db, ev, 1)[1]
    results.set_score(db, DESK, ev, 1, 1, (5, 2), confirm=True)
    c = Client(server)
    _s, html = c.get(f"/t/{token}")
    assert (_total(html, 0), _total(html, 1)) == ("5", "2")
    assert "Entered at the desk: 5 – 2" in html
    with phone_browsers(tmp_path) as make:  # as a phone at 360 px shows it
        phone = make()
        phone.get(f"{server.urls[0]}t/{token}")
        wait_loaded(phone)
        shown = [phone.find_element("id", f"total{i}").text for i in (0, 1)]
        assert shown == ["5", "2"] and "Entered at the desk: 5 – 2" in page_text(phone)
        no_sideways_scroll(phone)
    for lang, words in (
        ("es", "Anotado en secretaría: 5 – 2"),
        ("id", "Dimasukkan di loket: 5 – 2"),
        ("tr", "Kayıt masasında girildi: 5 – 2"),
    ):
        _s, html = c.get(f"/t/{token}?lang={lang}")
        assert words in html, lang


def test_a_dominoes_result_entered_at_the_desk_shows_the_games_won(db: Database, server: TableServer) -> None:
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    results.set_score(db, DESK, ev, 1, 1, (2, 1))
    c = Client(server)
    _s, html = c.get(f"/t/{token}")
    assert "Entered at the desk: 2 – 1" in html
    assert "2 games" in html and "1 game" in html
