"""The act of a Spanish team encounter as seed 002 lays it out (Acta del Encuentro): one encounter per act,
its result line, the round said once, and the team that rests (the bye) on no act. Read back from the PDF.
"""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader
from sqlalchemy import select

from clubdesk.models.event import Entrant
from clubdesk.services.night.data import reads, settings
from clubdesk.services.night.play import results, rounds
from clubdesk.services.publishing import documents, header, match_act
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, make_event

TEAMS = [
    "Equipo Peña El Cierre",
    "Equipo Los Dobles",
    "Equipo Casino Mercantil",
    "Equipo Ateneo",
    "Equipo Sur",
]
WIN_GAME = [  # side 0 scores 75 a hand (E18): two hands win a game to 100
    {"type": "domino", "seat": 0, "pips": [0, 30, 20, 25]},
    {"type": "domino", "seat": 0, "pips": [0, 30, 20, 25]},
]


def team_league(tmp_path: Path) -> tuple[Database, int]:
    """Five teams of four, two games an encounter (E7b): round 1 has two encounters and a team that rests."""
    db = Database(tmp_path / "liga.sqlite3")
    ev, ids = make_event(db, ruleset="domino-es", fmt="round-robin", players=5, per_entrant=4, entry="team")
    with db.session() as s:
        for ent, name in zip(
            s.scalars(select(Entrant).where(Entrant.id.in_(ids)).order_by(Entrant.id)), TEAMS, strict=True
        ):
            ent.name = name
    settings.configure(db, DESK, ev, encounter_games=2)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    return db, ev


def pages_of(path: Path) -> list[str]:
    return [" ".join((p.extract_text() or "").split()) for p in PdfReader(str(path)).pages]


def test_a_round_act_has_one_encounter_per_act_with_its_result_and_no_bye(tmp_path: Path) -> None:
    db, ev = team_league(tmp_path)
    rnd = reads.get_round(db, ev, 1)
    played = [t for t in rnd.tables if t.sides[1] is not None]
    resting = [str(t.names[0]) for t in rnd.tables if t.sides[1] is None]
    assert len(played) == 2 and len(resting) == 1
    first = played[0]
    for game in (1, 2):
        for hand in WIN_GAME:
            results.add_entry(db, DESK, ev, 1, first.table, hand, game_no=game)
    home, away = (str(n) for n in first.names)
    assert reads.get_round(db, ev, 1).tables[0].score == (2, 0)

    out = tmp_path / "acta.pdf"
    documents.generate(db, header.ReportRequest("incident-act", ev, round=1, language="en"), out)
    pages = pages_of(out)
    assert len(pages) == 2  # one act per encounter
    for page, table in zip(pages, played, strict=True):
        a, b = (str(n) for n in table.names)
        assert f"{a} – {b} · Round 1 · Table {table.table}" in page
        assert page.count("Round 1 · Round 1") == 0 and "Round 1 Round 1" not in page
        assert resting[0] not in page  # the team with the bye is in no encounter's box
        others = [n for t in played if t is not table for n in t.names]
        assert not any(f"Captain, {n}" in page for n in others)  # each act names its own two teams
    # rule E6: both sides approve the sheet; until then the act says so
    assert f"Result: {home} 2 – 0 {away}, won by {home} (not approved yet)" in pages[0]
    b1, b2 = (str(n) for n in played[1].names)
    assert f"Result: {b1} 0 – 0 {b2}, not finished" in pages[1]
    # the act of one table is that encounter's act alone
    data = match_act.incident_act_data(db, ev, 1, first.table)
    assert [t.name for t in data.teams] == [home, away]
    assert data.result == f"{home} 2 – 0 {away}, won by {home} (not approved yet)"
    results.confirm(db, DESK, ev, 1, first.table, 0, "AB")
    results.confirm(db, DESK, ev, 1, first.table, 1, "CD")
    confirmed = match_act.incident_act_data(db, ev, 1, first.table)
    assert confirmed.result == f"{home} 2 – 0 {away}, won by {home}"
