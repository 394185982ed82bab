"""Each side approves a table's result for itself on the phones (rules G13, E6, T8c): its own code from
its box on the score sheet, a one-phone hand-over in Bridgemate's way, a forged side cookie worth nothing,
and the desk told how each side approved. A real server on 127.0.0.1; phones without a browser
(http.client, cookies kept) and one headless Chromium at 390x844 for the hand-over step."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from clubdesk.models.audit import AuditEntry
from clubdesk.services import night
from clubdesk.services.night.data import reads
from clubdesk.services.night.data.tokens import round_tokens
from clubdesk.services.phones import posts
from clubdesk.services.publishing import documents, header
from clubdesk.storage import Database
from clubdesk.ui.night.tables_model import COL_APPROVED, TablesModel
from clubdesk.web.server import TableServer
from clubdesk.web.side_cookie import SIDE_COOKIE
from tests.integration.test_table_entry_web import (
    Client,
    fill,
    flash,
    gaple_night,
    page_text,
    small_targets,
    submit,
    tavla_night,
    wait_loaded,
)
from tests.phone_browser import phone_browsers

HAND = {"type": "out", "seat": "0", "pips0": "0", "pips1": "60", "pips2": "40", "pips3": "60"}  # 120


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    d = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "backups")
    try:
        yield d
    finally:
        d.close()


def pick(client: Client, token: str, side: str) -> str:
    """The phone, in by the table's QR, says which side it is (no code asked for that)."""
    _s, html = client.get(f"/t/{token}")
    _s, html, _h = client.post(f"/t/{token}/side", {**client.form_fields(html), "side": side})
    return html


def play_out(client: Client, token: str, hands: int = 6) -> str:
    html = ""
    for _n in range(hands):
        _s, html = client.get(f"/t/{token}")
        _s, html, _h = client.post(f"/t/{token}/entry", {**client.form_fields(html), **HAND})
    return html


def approvals(db: Database, ev: int) -> tuple[str, str, str]:
    view = reads.get_round(db, ev, 1).tables[0]
    return view.status, view.scorer, view.counter


def test_one_phone_cannot_approve_the_other_side_without_its_code_and_can_with_it(
    db: Database, server: TableServer, tmp_path: Path
) -> None:
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    codes = night.side_codes(db, ev, 1)[1]
    phone = Client(server)
    pick(phone, token, "0")
    html = play_out(phone, token)
    # the finishing hand from a phone without E1's code approves nothing: each side confirms with its code
    assert "Each side confirms the result with its code" in flash(html)
    assert approvals(db, ev) == ("pending", "", "")
    # E1 approves with its own code typed
    _s, html, _h = phone.post(f"/t/{token}/confirm", {**phone.form_fields(html), "code": codes[0]})
    assert "Approved. E2 now confirms the result." in flash(html)
    assert approvals(db, ev) == ("pending", "E1", "")
    # the same phone says it is E2: the hand-over step, which asks E2's code; "Change" alone gives nothing
    _s, html, _h = phone.post(f"/t/{token}/side", {**phone.form_fields(html), "side": "1"})
    assert 'id="handover"' in html and "Hand the phone to E2" in html and 'id="confirm"' not in html
    # a wrong code: refused by name, the phone stays E1's
    _s, html, _h = phone.post(f"/t/{token}/side", {**phone.form_fields(html), "side": "1", "code": "000000"})
    assert "That is not E2&#39;s code" in flash(html) and 'id="handcode"' in html
    _s, html = phone.get(f"/t/{token}")
    assert "You are: E1" in html
    # E1's code as E2's is no better
    _s, html, _h = phone.post(f"/t/{token}/side", {**phone.form_fields(html), "side": "1", "code": codes[0]})
    assert "That is not E2&#39;s code" in flash(html)
    assert approvals(db, ev) == ("pending", "E1", "")
    # with E2's code the phone is handed over, and E2 confirms: same phone with code
    _s, html, _h = phone.post(f"/t/{token}/side", {**phone.form_fields(html), "side": "1", "code": codes[1]})
    assert "You are: E2" in html and 'id="code"' not in html  # E2's code is held now
    _s, html, _h = phone.post(f"/t/{token}/confirm", phone.form_fields(html))
    assert "Confirmed at the table by E2." in flash(html)
    assert approvals(db, ev) == ("confirmed", "E1", "E2")
    # the desk and the audit say how each side approved
    st = posts.table_status(db, ev, 1)[1]
    assert st.approved_how == ("phone", "phone-code")
    assert night.approval_with_way("E2", st.approved_how[1]) == "E2 (same phone with code)"
    with db.session() as s:
        rows = [r.after for r in s.query(AuditEntry).filter(AuditEntry.action == "confirm")]
    assert any('"how":"phone-code"' in (r or "") for r in rows)
    # the act says it too, and the Rounds screen's approvals column
    act = tmp_path / "act.pdf"
    documents.generate(db, header.ReportRequest("incident-act", ev, round=1, table=1), act)
    read = subprocess.run(["pdftotext", str(act), "-"], check=True, capture_output=True, text=True)
    text = " ".join(read.stdout.split())
    assert "Approvals of the result" in text
    assert "E1 E1 own phone" in text and "E2 E2 same phone with code" in text
    model = TablesModel()
    model.set_rows(reads.get_round(db, ev, 1).tables, posts.table_status(db, ev, 1))
    shown = model.data(model.index(0, COL_APPROVED), Qt.ItemDataRole.DisplayRole)
    assert shown == "E1 (own phone) / E2 (same phone with code)"


def test_each_side_on_its_own_phone_and_a_code_typed_for_the_other_side_is_refused(
    db: Database, server: TableServer
) -> None:
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    codes = night.side_codes(db, ev, 1)[1]
    home, away = Client(server), Client(server)
    status, _text, headers = home.request("GET", f"/t/{token}?side=0&code={codes[0]}")  # E1's box QR
    assert status == 303 and headers["location"] == f"/t/{token}"  # the code leaves the address
    pick(away, token, "1")
    html = play_out(home, token)
    assert "The match is finished. E2 now confirms the result." in flash(html)  # E1 approved with it
    _s, html = away.get(f"/t/{token}")
    assert 'id="code"' in html  # E2's phone came in by the table's QR: it types E2's code
    _s, html, _h = away.post(f"/t/{token}/confirm", away.form_fields(html))
    assert "To approve as E2, type E2&#39;s code" in flash(html)
    _s, html, _h = away.post(f"/t/{token}/confirm", {**away.form_fields(html), "code": codes[0]})
    assert "That is not E2&#39;s code" in flash(html)
    assert approvals(db, ev) == ("pending", "E1", "")
    _s, html, _h = away.post(f"/t/{token}/confirm", {**away.form_fields(html), "code": codes[1]})
    assert "Confirmed at the table by E2." in flash(html)
    assert html.count("Confirmed at the table by E2.") == 1  # said once: no banner repeating the answer
    assert posts.table_status(db, ev, 1)[1].approved_how == ("phone", "phone")


def test_a_code_typed_as_the_score_sheet_prints_it_with_its_space_approves(
    db: Database, server: TableServer
) -> None:
    """The sheet prints a side's code in two groups ("641 756"): typed so, on the confirm field or at the
    hand-over, it is the same code (the field takes the space, the server reads the digits)."""
    ev = gaple_night(db)
    token = round_tokens(db, ev, 1)[1]
    codes = night.side_codes(db, ev, 1)[1]
    phone = Client(server)
    pick(phone, token, "0")
    html = play_out(phone, token)
    for field in ('id="code"',):
        tag = html.split(field)[0].rsplit("<input", 1)[1] + html.split(field)[1].split(">", 1)[0]
        assert 'maxlength="7"' in tag and 'pattern="[0-9 ]*"' in tag, tag
    printed = f"{codes[0][:3]} {codes[0][3:]}"
    _s, html, _h = phone.post(f"/t/{token}/confirm", {**phone.form_fields(html), "code": printed})
    assert "Approved. E2 now confirms the result." in flash(html)
    _s, html, _h = phone.post(f"/t/{token}/side", {**phone.form_fields(html), "side": "1"})
    assert 'maxlength="7"' in html.split('id="handcode"')[1].split(">", 1)[0]
    printed = f"{codes[1][:3]} {codes[1][3:]}"
    _s, html, _h = phone.post(f"/t/{token}/side", {**phone.form_fields(html), "side": "1", "code": printed})
    assert "You are: E2" in html
    _s, html, _h = phone.post(f"/t/{token}/confirm", phone.form_fields(html))
    assert "Confirmed at the table by E2." in flash(html)
    assert approvals(db, ev) == ("confirmed", "E1", "E2")


def test_a_forged_side_cookie_gives_nothing(db: Database, server: TableServer) -> None:
    ev = tavla_night(db, 1)
    token = round_tokens(db, ev, 1)[1]
    codes = night.side_codes(db, ev, 1)[1]
    honest = Client(server)
    pick(honest, token, "0")
    _s, html = honest.get(f"/t/{token}")
    honest.post(f"/t/{token}/entry", {**honest.form_fields(html), "winner": "1"})
    assert approvals(db, ev)[0] == "pending"
    genuine = honest.cookies[SIDE_COOKIE]
    forger = Client(server)
    _s, html = forger.get(f"/t/{token}")
    fields = forger.form_fields(html)
    for forged in (
        "1",  # a bare side number, unsigned
        genuine.replace("-0-", "-1-", 1),  # a genuine cookie's side edited
        "1-abcdef0123456789-n-" + codes[1] + "-x-" + "0" * 32,  # a cookie made with E2's code but no key
    ):
        forger.cookies[SIDE_COOKIE] = forged
        _s, page = forger.get(f"/t/{token}")
        assert "Which side are you?" in page and 'id="confirm"' not in page
        _s, page, _h = forger.post(f"/t/{token}/confirm", fields)
        assert "Say which side you are first." in flash(page)
    assert approvals(db, ev) == ("pending", "", "")


def test_wrong_codes_are_counted_then_the_side_approves_at_the_desk(
    db: Database, server: TableServer
) -> None:
    ev = tavla_night(db, 1)
    token = round_tokens(db, ev, 1)[1]
    codes = night.side_codes(db, ev, 1)[1]
    phone = Client(server)
    html = pick(phone, token, "1")
    _s, html, _h = phone.post(f"/t/{token}/entry", {**phone.form_fields(html), "winner": "1"})
    wrong = f"{(int(codes[1]) + 1) % 1_000_000:06d}"
    for _n in range(posts.CODE_TRIES):
        _s, html, _h = phone.post(f"/t/{token}/confirm", {**phone.form_fields(html), "code": wrong})
        assert "That is not E2&#39;s code" in flash(html)
    _s, html, _h = phone.post(f"/t/{token}/confirm", {**phone.form_fields(html), "code": codes[1]})
    assert "Too many wrong codes" in flash(html)
    assert approvals(db, ev) == ("pending", "", "")


def fits(driver: Any) -> None:
    """The page fits the phone's width (no sideways scroll) and every touch target is 44 px high."""
    width, inner = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width <= inner, f"the page is {width} px wide on a {inner} px screen"
    assert small_targets(driver) == []


def shot(driver: Any, tmp_path: Path, name: str) -> None:
    """A screenshot to look at: in ``CLUBDESK_SHOTS`` when set, else in the test's own folder."""
    folder = Path(os.environ.get("CLUBDESK_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(folder / f"{name}.png"))


@pytest.fixture
def browsers(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    with phone_browsers(tmp_path) as make:
        yield make


def test_the_hand_over_step_on_a_phone(
    db: Database, server: TableServer, browsers: Callable[..., Any], tmp_path: Path
) -> None:
    """Bridgemate's one terminal: E1 approves, hands the phone to E2, who types E2's code (390x844)."""
    ev = tavla_night(db, 1)
    token = round_tokens(db, ev, 1)[1]
    codes = night.side_codes(db, ev, 1)[1]
    d = browsers()
    d.set_window_size(390, 844)
    d.get(f"{server.urls[0]}t/{token}?side=0&code={codes[0]}")
    wait_loaded(d)
    d.find_element("id", "winner0").click()
    submit(d, "save")  # 1-0 in a match to 1: E1's hand is its approval (its code held)
    assert "Waiting for E2 to confirm the result." in page_text(d)
    submit(d, "handto")
    text = page_text(d)
    assert "Hand the phone to E2" in text and "E2: type your side's code" in text
    fits(d)  # no sideways scroll, touch targets of 44 px at least
    shot(d, tmp_path, "handover")
    fill(d, "handcode", "123")
    submit(d, "handover-ok")
    assert "That is not E2's code" in page_text(d)
    fill(d, "handcode", codes[1])
    submit(d, "handover-ok")
    assert "You are: E2" in page_text(d)
    submit(d, "confirm")
    assert "Confirmed at the table by E2." in page_text(d)
    assert posts.table_status(db, ev, 1)[1].approved_how == ("phone", "phone-code")
