"""Issue 21 (items 4, 5): tavla ratings, the cross-table and the player card; the PDFs read back.

Rule T12c: 1500 v 1500 in a match to 5 points with the newcomer boost K = 5 moves each side by
4 * 5 * sqrt(5) * 0.5 = 22.3607 (REFERENCES.md "FIBS rating"); a correction swaps the sides.
Rule T14: the printed player card carries no phone and no e-mail.
"""

from __future__ import annotations

import math
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader
from sqlalchemy import select

from clubdesk.models.event import EntrantMember
from clubdesk.models.member import Member
from clubdesk.services.discipline import incidents
from clubdesk.services.kernel.base import Actor, Role, ServiceError
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import results, rounds
from clubdesk.services.night.ranking import ratings
from clubdesk.services.publishing import documents, header, players, share
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, REF, make_event, open_db

pytestmark = pytest.mark.usefixtures("both_backends")  # issue 25: SQLite and the club server

SCORER = Actor("Sayıcı", Role.SCORER)
STEP = 4 * 5 * math.sqrt(5) * 0.5  # rule T12c, see the module docstring
PHONE, EMAIL = "+90 532 987 65 43", "gizli.adres@example.com"
TURKISH = "Ilgın Şükrüoğlu İnce"


def member_of(db: Database, entrant_id: int) -> str:
    with db.session() as s:
        m = s.scalar(
            select(Member)
            .join(EntrantMember, EntrantMember.member_id == Member.id)
            .where(EntrantMember.entrant_id == entrant_id)
        )
        assert m is not None
        return m.number


def played_night(db: Database) -> tuple[int, object]:
    """A tavla Swiss of 4 to 5 points, round 1 confirmed 5-3 at both tables, round 2 published."""
    ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=4, rounds=3, match_lengths=[5])
    rv = rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    for t in rv.tables:
        results.set_score(db, DESK, ev, 1, t.table, (5, 3), confirm=True)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    return ev, rv


def test_ratings_follow_the_results_and_a_correction(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, rv = played_night(db)
    a, b = rv.tables[0].sides
    win, lose = member_of(db, a), member_of(db, b)
    shown = {p.number: p for p in players.tavla_ratings(db)}
    assert len(shown) == 4
    assert shown[win].rating == pytest.approx(1500 + STEP, abs=1e-4)
    assert shown[lose].rating == pytest.approx(1500 - STEP, abs=1e-4)
    # rule T12c: one match played, length 5: experience 5, still provisional (fewer than 30 matches)
    assert (shown[win].matches, shown[win].experience, shown[win].provisional) == (1, 5, True)
    assert [x.after for x in players.rating_points(db, win)] == [
        h["after"] for h in ratings.rating_history(db, win)
    ]
    # rule T10: round 2 is published, so the referee corrects round 1 with a written reason
    results.set_score(db, REF, ev, 1, rv.tables[0].table, (3, 5), confirm=True, override="sheet misread")
    shown = {p.number: p for p in players.tavla_ratings(db)}
    assert shown[win].rating == pytest.approx(1500 - STEP, abs=1e-4)
    assert shown[lose].rating == pytest.approx(1500 + STEP, abs=1e-4)
    assert [p.rating for p in players.tavla_ratings(db)] == sorted(
        (p.rating for p in shown.values()), reverse=True
    )


def test_a_tavla_player_without_results_is_listed_at_his_register_rating(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    make_event(db, ruleset="tavla", fmt="swiss", players=2)
    make_event(db, ruleset="gaple-club", fmt="swiss", players=2)  # not tavla: not listed
    shown = players.tavla_ratings(db)
    assert [(p.rating, p.matches, p.rated, p.provisional) for p in shown] == [(1500.0, 0, 0, True)] * 2


def test_crosstable_cells_are_those_of_crosstable_data_with_opponent_side_and_score(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, rv = played_night(db)
    view = players.crosstable(db, ev)
    data = share.crosstable_data(db, ev)
    assert view.texts == [list(r.cells) for r in data.rows]
    assert [(x.rank, x.name) for x in view.lines] == [(r.rank, r.name) for r in data.rows]
    names = reads.get_round(db, ev, 1)
    for t in names.tables:
        a, b = t.sides
        with db.session() as s:
            ent = reads.entrant_names(s, ev)
        cell_a = next(x.cells[0] for x in view.lines if x.name == ent[a])
        cell_b = next(x.cells[0] for x in view.lines if x.name == ent[b])
        assert (cell_a.opponent, cell_a.side, cell_a.score) == (ent[b], "A", "5–3")
        assert (cell_b.opponent, cell_b.side, cell_b.score) == (ent[a], "B", "3–5")
    assert all(x.cells[1].text == "" for x in view.lines)  # round 2 has no confirmed result yet


def test_crosstable_pdf_prints_every_cell(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, _rv = played_night(db)
    out = tmp_path / "cross.pdf"
    assert documents.generate(db, header.ReportRequest("crosstable", ev, language="tr"), out) == 1
    text = "\n".join(p.extract_text() for p in PdfReader(out).pages)
    data = share.crosstable_data(db, ev)
    printed = Counter(t for t in re.findall(r"\S+", text) if re.fullmatch(r"\d+[+−=]|\+", t))
    assert printed == Counter(c for r in data.rows for c in r.cells if c)
    assert all(r.name in text for r in data.rows)
    assert "Çapraz tablo" in text


def _marked_player(db: Database, number: str) -> None:
    with db.session() as s:
        m = s.scalar(select(Member).where(Member.number == number))
        assert m is not None
        m.name, m.phone, m.email = TURKISH, PHONE, EMAIL


def test_player_card_pdf_matches_the_data_and_has_no_phone_or_email(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, rv = played_night(db)
    a, b = rv.tables[0].sides
    number = member_of(db, a)
    _marked_player(db, number)
    incidents.record_incident(
        db,
        REF,
        ev,
        round_no=1,
        table_no=rv.tables[0].table,
        kind="stalling",
        text="ağır oynadı",
        player=number,
    )
    card = players.player_card(db, number, DESK)
    assert card.name == TURKISH and len(card.events) == 1 and len(card.results) == 1
    assert card.results[0].score == "5–3" and card.results[0].side == "A"
    assert card.rating == f"{1500 + STEP:.1f}"
    assert [i.text for i in card.incidents] == ["ağır oynadı"]
    out = tmp_path / "card.pdf"
    req = header.ReportRequest(header.PLAYER_CARD, 0, member=number, viewer=DESK, language="tr")
    assert documents.generate(db, req, out) == 1
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    flat = " ".join(text.split())
    assert TURKISH in flat  # ğ ş ı İ read back exactly
    for fact in (card.rating, card.results[0].opponent, card.results[0].score, card.events[0].event):
        assert fact in flat
    assert "ağır oynadı" in flat and "ÖZEL" in flat  # organiser's print: incidents, marked private
    for secret in (PHONE, EMAIL, "987 65 43", "gizli.adres"):
        assert secret not in flat  # rule T14


def test_incidents_are_hidden_from_a_scorer(tmp_path: Path) -> None:
    db = open_db(tmp_path)
    ev, rv = played_night(db)
    number = member_of(db, rv.tables[0].sides[1])
    incidents.record_incident(
        db,
        REF,
        ev,
        round_no=1,
        table_no=rv.tables[0].table,
        kind="insult",
        text="hakeme hakaret",
        player=number,
    )
    assert [i.text for i in players.player_card(db, number, REF).incidents] == ["hakeme hakaret"]
    card = players.player_card(db, number, SCORER)
    assert card.incidents == () and not card.incidents_shown
    out = tmp_path / "card.pdf"
    documents.generate(
        db, header.ReportRequest(header.PLAYER_CARD, 0, member=number, viewer=SCORER, language="tr"), out
    )
    text = " ".join("\n".join(p.extract_text() for p in PdfReader(out).pages).split())
    assert "hakeme hakaret" not in text and "Olaylar" not in text and "ÖZEL" not in text
    assert (
        card.results[0].result == "lost" and "3–5 kaybetti" in text
    )  # the result itself is printed, in Turkish


def test_a_player_card_for_an_unknown_member_writes_nothing(tmp_path: Path) -> None:
    from clubdesk.services.publishing import documents, header

    db = open_db(tmp_path)
    out = tmp_path / "card.pdf"
    with pytest.raises(ServiceError) as info:
        documents.generate(db, header.ReportRequest(header.PLAYER_CARD, 0, member="nobody", viewer=DESK), out)
    assert info.value.code == "no-such-member" and not out.exists()
