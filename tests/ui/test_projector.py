"""The projector view for the hall (issue 21, item 6): live results, no contact data (rule T14), names in the
language's alphabetical order, large type (readable from 8 m) and the desk's announcement."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontMetrics
from sqlalchemy import select

from clubdesk import i18n
from clubdesk.models.event import Entrant
from clubdesk.models.member import Member
from clubdesk.services.night.play import results
from clubdesk.services.night.play import rounds as play_rounds
from clubdesk.services.publishing import projector
from clubdesk.services.publishing.night_data import bracket_data
from clubdesk.storage import Database
from clubdesk.ui.publishing.projector import (
    ProjectorControl,
    ProjectorWindow,
    install_projector_menu,
    open_projector,
)
from clubdesk.ui.publishing.projector.pages import KINDS
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_night_helpers import DESK, REF, make_event, open_db
from tests.waits import READY_MS

PHONE = "+62 812 7777 4242"
EMAIL = "marker.t14@example.org"


def _rename(db: Database, event_id: int, names: list[str]) -> None:
    with db.session() as s:
        entrants = list(s.scalars(select(Entrant).where(Entrant.event_id == event_id).order_by(Entrant.id)))
        for en, name in zip(entrants, names, strict=True):
            en.name = name


def _night(tmp_path, players: int = 4, names: list[str] | None = None, fmt: str = "swiss"):  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    ev, ids = make_event(db, ruleset="tavla", fmt=fmt, players=players, rounds=3, match_lengths=[3])
    if names:
        _rename(db, ev, names)
    rv = play_rounds.propose_round(db, DESK, ev)
    play_rounds.publish_round(db, DESK, ev)
    return db, ev, rv


def _projector(qtbot, db: Database, ev: int, size: tuple[int, int] = (1366, 768)) -> ProjectorWindow:  # type: ignore[no-untyped-def]
    win = ProjectorWindow(DeskState(db, REF))
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    win.set_event(ev)
    return win


def _all_texts(win: ProjectorWindow) -> list[str]:
    """Every string drawn on every page: the cycle's pages and each kind shown on demand."""
    out: list[str] = []
    for only in (None, *KINDS):
        win.set_only(only)
        for k in range(len(win.pages)):
            win.show_index(k)
            out += win.board.texts()
    return out


def test_a_result_confirmed_elsewhere_appears_without_anyone_touching_the_projector(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db, ev, rv = _night(tmp_path)
    win = _projector(qtbot, db, ev)
    win.poll.setInterval(200)
    win.set_only("standings")
    before = win.board.texts()
    assert "The standings appear here with the first confirmed result." in before
    table = rv.tables[0]
    winner = table.names[0]
    # another desk (or the CLI) confirms a result: nothing in this window is clicked or told
    results.set_score(db, REF, ev, 1, table.table, (3, 0), confirm=True)
    qtbot.waitUntil(lambda: winner in win.board.texts(), timeout=READY_MS)
    first = win.current_page().rows[0]  # type: ignore[union-attr]
    assert first[:3] == ("1", winner, "1")  # the winner leads with one point
    assert win.board.texts() != before
    # the pairings by table show the result too
    win.set_only("tables")
    assert "3-0" in win.board.texts()


def test_data_changed_at_this_desk_reloads_at_once(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db, ev, rv = _night(tmp_path)
    win = _projector(qtbot, db, ev)
    win.poll.stop()  # only the desk's signal (and the club server's live refresh, which fires it)
    win.set_only("tables")
    assert "3-0" not in win.board.texts()
    results.set_score(db, REF, ev, 1, rv.tables[0].table, (3, 0), confirm=True)
    win.state.dataChanged.emit("rounds")
    qtbot.waitUntil(lambda: "3-0" in win.board.texts(), timeout=READY_MS)


def test_never_a_phone_or_an_email_on_any_page(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Rule T14: every member has a marker phone and e-mail; no page of the projector shows either."""
    for fmt in ("swiss", "single-elimination"):
        (tmp_path / fmt).mkdir()
        db, ev, rv = _night(tmp_path / fmt, fmt=fmt)
        with db.session() as s:
            for m in s.scalars(select(Member)):
                m.phone, m.email = PHONE, EMAIL
        results.set_score(db, REF, ev, 1, rv.tables[0].table, (3, 0), confirm=True)
        projector.set_announcement(db, DESK, "Tea is served.")
        win = _projector(qtbot, db, ev)
        texts = _all_texts(win)
        joined = "\n".join(texts)
        assert rv.tables[0].names[0] in joined  # the pages were drawn, with names
        assert "Tea is served." in joined
        if fmt == "single-elimination":
            assert any(rv.tables[0].names[0] in t for t in texts)
            win.set_only("bracket")
            assert win.board.bracket.boxes  # the bracket was drawn
        assert PHONE not in joined and "7777" not in joined
        assert EMAIL not in joined and "@" not in joined
        assert PHONE not in repr(win.data) and EMAIL not in repr(win.data)
        win.close()
        db.close()


TURKISH = ["İnce", "Çelik", "Işık", "Cem", "Dora", "Irmak"]


def test_pairings_by_name_follow_the_turkish_alphabet(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """clubdesk.collation: Turkish C < Ç and dotless I (Irmak, Işık) before dotted İ (İnce)."""
    db, ev, _rv = _night(tmp_path, players=6, names=TURKISH)
    i18n.set_language("tr")
    win = _projector(qtbot, db, ev)
    win.set_only("names")
    page = win.current_page()
    assert page is not None and page.count == 1
    assert [r[0] for r in page.rows] == ["Cem", "Çelik", "Dora", "Irmak", "Işık", "İnce"]
    drawn = win.board.texts()
    # as drawn: each row is the name, the table, the opponent
    assert [t for t in drawn if t in TURKISH][::2] == ["Cem", "Çelik", "Dora", "Irmak", "Işık", "İnce"]
    assert "Masa" in drawn  # the Turkish column heading
    # in English the same names sort by the default table: Çelik beside Cem, İnce among the I's
    i18n.set_language("en")
    win.reload()
    assert [r[0] for r in win.current_page().rows] == ["Çelik", "Cem", "Dora", "İnce", "Irmak", "Işık"]  # type: ignore[union-attr]


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_names_are_readable_from_eight_metres(qtbot, tmp_path, size) -> None:  # type: ignore[no-untyped-def]
    """A name's line is at least 1/40 of the screen's height, on every kind of table page."""
    db, ev, rv = _night(tmp_path)
    results.set_score(db, REF, ev, 1, rv.tables[0].table, (3, 0), confirm=True)
    win = _projector(qtbot, db, ev, size)
    assert win.board.height() == size[1]
    names = {n for t in rv.tables for n in t.names if n}
    for kind in ("tables", "names", "standings"):
        win.set_only(kind)
        drawn = [d for d in win.board.items if d.text in names]
        assert drawn, kind
        for d in drawn:
            assert QFontMetrics(d.font).height() >= size[1] / 40, (kind, d.text)


def test_a_long_list_is_paged_not_scrolled(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    names = [f"Player {k:02d}" for k in range(1, 41)]
    db, ev, _rv = _night(tmp_path, players=40, names=names)
    win = _projector(qtbot, db, ev)
    win.set_only("names")
    assert len(win.pages) > 1
    seen: list[str] = []
    for k in range(len(win.pages)):
        win.show_index(k)
        assert f"page {k + 1} of {len(win.pages)}" in win.board.texts()
        seen += [t for t in win.board.texts() if t in names][::2]  # the name column, as drawn
        bottom = max(d.rect.bottom() for d in win.board.items if d.text in names)
        assert bottom <= win.board.body_rect().bottom()  # every row inside the screen
    assert seen == names  # each once, in order, over the pages
    # the cycle moves on by itself
    win.set_seconds(1)
    first = win.index
    qtbot.waitUntil(lambda: win.index != first, timeout=READY_MS)


def test_an_announcement_typed_at_the_desk_appears_in_the_hall(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db, ev, _rv = _night(tmp_path)
    state = DeskState(db, DESK)
    win = ProjectorWindow(state)
    control = ProjectorControl(state, win)
    qtbot.addWidget(win)
    qtbot.addWidget(control)
    win.resize(1366, 768)
    win.show()
    control.show()
    control.event_box.setCurrentIndex(control.event_box.findData(ev))
    qtbot.keyClicks(control.text, "Round 2 starts at 21:30")
    control.announce.click()
    assert "Shown in the hall." in control.message.text()
    assert "Round 2 starts at 21:30" in win.board.texts()  # under every page
    control.show_box.setCurrentIndex(control.show_box.findData("announcement"))
    assert win.current_page().kind == "announcement"  # type: ignore[union-attr]
    assert "Round 2 starts at 21:30" in win.board.texts()
    # too long: refused with the reason, the hall keeps the one it had
    control.text.setPlainText("x" * (projector.ANNOUNCEMENT_MAX + 1))
    control.announce.click()
    assert "at most" in control.message.text()
    assert projector.announcement(db) == "Round 2 starts at 21:30"
    control.clear.click()
    assert projector.announcement(db) == ""
    assert "Round 2 starts at 21:30" not in win.board.texts()


def test_before_any_event_the_hall_is_told_what_comes(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = open_db(tmp_path)
    state = DeskState(db, DESK)
    win = ProjectorWindow(state)
    control = ProjectorControl(state, win)
    qtbot.addWidget(win)
    qtbot.addWidget(control)
    win.show()
    control.show()
    assert any("choose an event in the projector control" in t for t in win.board.texts())
    assert not control.empty.isHidden()  # the desk is told to create an event first
    # an event whose round is not published yet: the proposed draft is not shown to the hall
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[3])
    play_rounds.propose_round(db, DESK, ev)
    state.dataChanged.emit("events")
    control.event_box.setCurrentIndex(control.event_box.findData(ev))
    assert control.empty.isHidden()
    assert any("when the desk publishes the round" in t for t in win.board.texts())
    assert "E1" not in win.board.texts()


def test_view_menu_opens_the_projector_with_its_shortcut(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QMainWindow

    db, ev, _rv = _night(tmp_path)
    main = QMainWindow()
    main.state = DeskState(db, DESK)  # type: ignore[attr-defined]
    qtbot.addWidget(main)
    action = install_projector_menu(main)
    assert action.shortcut().toString() == "Ctrl+Shift+P"
    assert action.text() == "Projector…"
    control = open_projector(main, ask_screen=False)
    assert control is not None and control.projector.isVisible() and control.isVisible()
    assert open_projector(main, ask_screen=False) is control  # a second time: the same one, brought forward
    control.close()
    assert not control.projector.isVisible()
    assert open_projector(main, ask_screen=False) is control  # opened again after a close
    assert control.projector.isVisible()
    control.close()


def test_the_screen_dialog_names_each_screen_with_its_size(qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QGuiApplication

    from clubdesk.ui.publishing.projector.control import ScreenDialog

    dialog = ScreenDialog()
    qtbot.addWidget(dialog)
    screens = QGuiApplication.screens()
    assert dialog.list.count() == len(screens)
    size = screens[0].geometry()
    assert f"{size.width()} × {size.height()}" in dialog.list.item(0).text()
    screen, full = dialog.chosen()
    assert screen is not None
    if len(screens) == 1:  # one screen: a window to try it out, not full screen over the desk
        assert not full


def test_the_main_windows_menus_survive_a_language_switch(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """View › Projector… and Help › User guide are both in the real window, Help last, and still there
    (translated, one of each) after the window switches language (issues 21 and 30 share the menu bar)."""
    from clubdesk import i18n
    from clubdesk.ui.shell.main_window import MainWindow

    db, _ev, _rv = _night(tmp_path)
    window = MainWindow(DeskState(db, DESK))
    qtbot.addWidget(window)
    try:
        for _round in range(2):
            menus = [a.menu() for a in window.menuBar().actions()]
            names = [m.objectName() for m in menus]
            assert names.count("viewMenu") == 1 and menus[-1] is window.help_menu
            view = menus[names.index("viewMenu")]
            assert [a.objectName() for a in view.actions()] == ["openProjector"]
            window.set_language("tr")
        assert window.help_menu.title() != "Help"  # rebuilt in Turkish
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_a_double_elimination_bracket_is_readable_from_eight_metres(qtbot, tmp_path, size) -> None:  # type: ignore[no-untyped-def]
    """An 8-player double elimination fitted whole to the screen has names below 1/40 of its height: after
    the drawn overview, every round of both brackets comes as rows of the other pages' large type, with
    each match's players and result, and nothing of the bracket is left out."""
    from clubdesk.reports.words import bracket_rounds
    from clubdesk.services.night.play import results

    names = [f"Oyuncu {k}" for k in range(1, 9)]
    db, ev, rv = _night(tmp_path, players=8, names=names, fmt="double-elimination")
    results.set_score(db, REF, ev, 1, rv.tables[0].table, (3, 1), confirm=True)
    win = _projector(qtbot, db, ev, size)
    win.set_only("bracket")
    assert win.pages[0].kind == "bracket" and not win.pages[0].columns  # the tree first
    rounds = [p for p in win.pages if p.columns]
    assert len(rounds) >= 2
    expected = bracket_rounds(bracket_data(db, ev))  # the share images' and site's own reading
    shown_rows = [r for p in rounds for r in p.rows]
    assert len(shown_rows) == sum(len(ms) for _h, ms in expected)  # every match of every round, once
    assert any(p.title.endswith(expected[0][0]) for p in rounds)
    a, b = rv.tables[0].names
    assert (
        (a, "3 – 1", b) in shown_rows
        or (b, "1 – 3", a) in shown_rows
        or any(a in r and b in r and "3" in r[1] for r in shown_rows)
    )
    for k, page in enumerate(win.pages):
        if not page.columns:
            continue
        win.show_index(k)
        assert not win.board.bracket.isVisible()
        drawn = [d for d in win.board.items if d.text in names]
        for d in drawn:
            assert QFontMetrics(d.font).height() >= size[1] / 40, (page.title, d.text)
