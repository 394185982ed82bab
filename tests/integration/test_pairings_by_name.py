"""The notice board's pairings by name: a pair is found under each of its players, the second as well as the
first, with its table and opponent. Read back from the PDF."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader
from sqlalchemy import select

from clubdesk.models.event import Entrant, EntrantMember
from clubdesk.models.member import Member
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import rounds
from clubdesk.services.publishing import documents, header
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, make_event

PLAYERS = [
    ("Budi Santoso", "Agus Wijaya"),
    ("Sri Rahayu", "Wayan Sudirta"),
    ("Dewi Lestari", "Zainal Abidin"),
    ("Made Ayu", "Nyoman Sari"),
]


def test_a_pair_is_listed_under_its_second_player_too(tmp_path: Path) -> None:
    db = Database(tmp_path / "gaple.sqlite3")
    ev, ids = make_event(
        db, ruleset="gaple-club", fmt="swiss", players=4, per_entrant=2, entry="pair", rounds=2
    )
    with db.session() as s:
        for ent_id, names in zip(ids, PLAYERS, strict=True):
            ent = s.get(Entrant, ent_id)
            assert ent is not None
            ent.name = " / ".join(names)
            members = s.scalars(
                select(Member)
                .join(EntrantMember, EntrantMember.member_id == Member.id)
                .where(EntrantMember.entrant_id == ent_id)
                .order_by(EntrantMember.id)
            ).all()
            for mem, name in zip(members, names, strict=True):
                mem.name = name
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    out = tmp_path / "pairings.pdf"
    documents.generate(db, header.ReportRequest("pairings", ev, round=1, language="en"), out)
    pages = [" ".join((p.extract_text() or "").split()) for p in PdfReader(str(out)).pages]
    board = pages[-1]
    assert "Pairings by name, round 1" in board
    tables = reads.get_round(db, ev, 1).tables
    for t in tables:
        for me, other in ((0, 1), (1, 0)):
            side, opp = str(t.names[me]), str(t.names[other])
            first, second = side.split(" / ")
            for player in (first, second):
                assert f"{player} ({side}) {t.table} {opp}" in board, (player, board)
    # alphabetical by the player's own name: Agus before Budi, Zainal last
    order = [board.index(f"{p} (") for p in ("Agus Wijaya", "Budi Santoso", "Zainal Abidin")]
    assert order == sorted(order)


def test_a_printed_pdf_gets_the_mode_of_any_saved_file(tmp_path: Path) -> None:
    """A PDF is written through a temporary file, owner-only (0600); the printed file is readable as any file
    the user saves (0666 less the umask: 0644 with 022, 0640 with 027)."""
    import os
    import stat

    db = Database(tmp_path / "gaple.sqlite3")
    ev, _ids = make_event(db, ruleset="gaple-club", fmt="swiss", players=4, rounds=2)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    old = os.umask(0o022)
    try:
        for mask, mode in ((0o022, 0o644), (0o027, 0o640)):
            os.umask(mask)
            out = tmp_path / f"pairings-{mask:o}.pdf"
            documents.generate(db, header.ReportRequest("pairings", ev, round=1, language="en"), out)
            assert stat.S_IMODE(out.stat().st_mode) == mode
    finally:
        os.umask(old)
