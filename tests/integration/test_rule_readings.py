"""Issue 29: the rule readings checked again against the seeds, on a real SQLite file.

* a database made before migration 0006 (its events store no override) is upgraded: every old gaple-club and
  tavla event keeps the figures it printed (sheets read back from the PDF, standings), the old readings
  are written as overrides, audited; a new event scores the new way (RULES.md B6, B8, T12b);
* the event's readings are shown, and a switch is previewed (tables, places, tie-breaks) before it is
  applied (audited);
* the federation licence (E15) from the command line and the CSV.

Expected figures are worked out by hand in the comments from RULES.md and the seeds.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from pypdf import PdfReader
from sqlalchemy import create_engine, select, text

from clubdesk.cli.core import main
from clubdesk.models.audit import AuditEntry
from clubdesk.models.event import Event
from clubdesk.services.kernel.base import ServiceError
from clubdesk.services.members import search
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import readings, results, rounds
from clubdesk.services.night.ranking import standings
from clubdesk.services.publishing import documents
from clubdesk.services.publishing import header as publishing_header
from clubdesk.storage import Database, current_revision
from clubdesk.storage.revisions import MIGRATIONS_DIR, head_revision
from tests.integration.test_night_helpers import DESK, REF, make_event

# seed 001 hand by hand, the match's first hands (side 0 = seats 1 + 3 on the sheet, pair A)
# rule B8: seat 2 blocks with 10 against seat 1's 5 and loses; count 5 + 4 + 6 = 15, x2 = 30 for pair A
LOST_DUEL = {"type": "block", "seat": 1, "pips": [5, 10, 4, 6]}
# rule B6: seat 1 goes out with 0-0 as last tile; the opponents hold 25 + 15 = 40: 40 + 50 = 90
OUT_00 = {
    "type": "out",
    "seat": 0,
    "pips": [0, 25, 0, 15],
    "last_tile": "0-0",
    "two_ends": False,
    "dead": {"0-0": None, "6-6": None},
}
# rule B6: seat 2 blocks (10 v seat 1's 20) and wins: 20 + 12 + 14 = 46 for pair B; seat 3 holds a caught 6-6
BLOCK_66 = {"type": "block", "seat": 1, "pips": [20, 10, 12, 14], "dead": {"0-0": None, "6-6": 2}}
CLUB_SHEET = [LOST_DUEL, OUT_00, BLOCK_66]
# the old readings: 0 (15 pure < 25: no first score), 50 (flat), no fine -> 50-46
OLD_HANDS = [(0, 0), (50, 0), (0, 46)]
OLD_POINTS = (50, 46)
# the new readings: 30 (won, >= 25: opens), 90 (40 + 50), pair A fined 50 -> 70-46
NEW_HANDS = [(30, 0), (90, 0), (-50, 46)]
NEW_POINTS = (70, 46)
OLD_CLUB = {"open_on": "pure", "fine_in_block": False, "out_double_mode": "flat"}


def layout_lines(path: Path) -> list[str]:
    return [
        " ".join(line.split())
        for page in PdfReader(path).pages
        for line in page.extract_text(extraction_mode="layout").splitlines()
        if line.strip()
    ]


def sheet_hands(db: Database, event_id: int, tmp_path: Path) -> list[tuple[int, int]]:
    """The A and B points of each hand row of the printed sheet of round 1, table 1, read from the PDF."""
    out = tmp_path / f"sheet-{event_id}.pdf"
    documents.generate(db, publishing_header.ReportRequest("score-sheets", event_id, round=1, table=1), out)
    found: list[tuple[int, int]] = []
    for line in layout_lines(out):
        words = line.split()
        # hand rows: "#  game  outcome ... A  B  ΣA  ΣB [notes]" (the six-doubles row has no pips)
        if (
            len(words) > 5
            and words[0].isdigit()
            and words[1].isdigit()
            and words[2] in ("six", "block", "out")
        ):
            nums: list[str] = []
            for w in words[3:]:
                w = w.replace("\u2212", "-")  # the sheet prints a true minus sign
                if w.lstrip("-").isdigit():
                    nums.append(w)
                elif not re.fullmatch(r"\d-\d", w) and w != "doubles":
                    break  # the notes column ("A fined 50 (B6)") starts here
            a, b = int(nums[-4]), int(nums[-3])
            found.append((a, b))
    return found


def standings_pdf(db: Database, event_id: int, folder: Path) -> list[str]:
    """The printed standings, one line per table row (the printing date is fixed)."""
    out = folder / f"standings-{event_id}.pdf"
    req = publishing_header.ReportRequest("standings", event_id, printed_on=datetime(2025, 5, 4, 22, 0))
    documents.generate(db, req, out)
    return layout_lines(out)


def club_event(db: Database, name: str) -> int:
    """A gaple-club round robin of two pairs with the sheet above entered at table 1 of round 1."""
    ev, _ids = make_event(
        db, ruleset="gaple-club", fmt="round-robin", players=2, per_entrant=2, entry="pair", name=name
    )
    rounds.propose_round(db, DESK, ev, seed=1)
    rounds.publish_round(db, DESK, ev)
    return ev


def play_club_sheet(db: Database, ev: int) -> None:
    for entry in CLUB_SHEET:
        results.add_entry(db, DESK, ev, 1, 1, entry)


def tavla_swiss_with_byes(db: Database, name: str) -> tuple[int, list[int]]:
    """Three tavla players, two rounds of a Swiss: every round one of them has the bye (T4e)."""
    ev, ids = make_event(db, ruleset="tavla", fmt="swiss", players=3, rounds=2, match_lengths=[3], name=name)
    for _round in (1, 2):
        rounds.propose_round(db, DESK, ev, seed=1)
        rv = rounds.publish_round(db, DESK, ev).round
        for t in rv.tables:
            if t.sides[1] is not None:  # the better-ranked side wins 3-1
                results.set_score(db, REF, ev, rv.round, t.table, (3, 1), confirm=True)
    return ev, ids


def bh_by_hand(db: Database, ev: int, *, fide: bool) -> dict[int, float]:
    """Buchholz worked from the stored results: the opponents' points (a win 1, a bye 1); with ``fide`` a bye
    counts as a game against a dummy opponent with the player's own points (REFERENCES.md, FIDE 2024)."""
    with db.session() as s:
        matches = reads.matches_of(s, ev)
        pts: dict[int, int] = {}
        for m in matches:
            for side in (m.side_a, m.side_b):
                if side is not None:
                    pts.setdefault(side, 0)
            if m.side_b is None or m.winner is not None:
                pts[m.side_a if m.side_b is None else m.winner] += 1
        bh = {e: 0.0 for e in pts}
        for m in matches:
            if m.side_b is None:
                if fide:
                    bh[m.side_a] += pts[m.side_a]
                continue
            bh[m.side_a] += pts[m.side_b]
            bh[m.side_b] += pts[m.side_a]
        return bh


def bh_shown(db: Database, ev: int) -> dict[int, float]:
    return {r.entrant: float(r.tiebreaks["BH"]) for r in standings.event_standings(db, ev).rows}


def downgrade_to_0005(path: Path) -> None:
    engine = create_engine(f"sqlite:///{path}", future=True)
    try:
        with engine.begin() as connection:
            cfg = Config()
            cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
            cfg.attributes["connection"] = connection
            command.downgrade(cfg, "0005_discipline")
            # a database made before issue 29 stored no override for these readings
            connection.execute(text("UPDATE events SET ruleset_overrides = '{}'"))
    finally:
        engine.dispose()


# ------------------------------------------------------------------------------------------ the upgrade
def test_an_upgraded_database_keeps_every_old_figure_and_new_events_score_the_new_way(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    db = Database(path, backups_dir=tmp_path / "b")
    # the old version's figures: the events are played with the old readings (what ClubDesk did before)
    club = club_event(db, "Old club league")
    with db.session() as s:
        ev = s.get(Event, club)
        assert ev is not None
        ev.ruleset_overrides = json.dumps(OLD_CLUB)
    play_club_sheet(db, club)
    tavla, _ids = tavla_swiss_with_byes(db, "Old tavla Swiss")
    with db.session() as s:
        ev = s.get(Event, tavla)
        assert ev is not None
        ev.ruleset_overrides = json.dumps({"bh_unplayed": "fide"})
    old_bh = bh_by_hand(db, tavla, fide=True)
    assert bh_shown(db, tavla) == old_bh
    (tmp_path / "before").mkdir()
    assert sheet_hands(db, club, tmp_path / "before") == OLD_HANDS
    standings_before = standings_pdf(db, tavla, tmp_path / "before")
    with db.session() as s:
        tavla_names = reads.entrant_names(s, tavla)
    printed = {
        w[1]: float(w[-1]) for w in (x.split() for x in standings_before) if w[0].rstrip("=").isdigit()
    }
    assert printed == {tavla_names[e]: v for e, v in old_bh.items()}  # BH, the last column, as worked by hand
    db.close()
    downgrade_to_0005(path)
    assert current_revision(path) == "0005_discipline"

    db = Database(path, backups_dir=tmp_path / "b")  # the upgrade to 0006_rule_readings
    assert current_revision(path) == head_revision() and db.upgrade_backup is not None
    with db.session() as s:
        overrides = {e.id: json.loads(e.ruleset_overrides) for e in s.scalars(select(Event))}
        kept = s.scalars(select(AuditEntry).where(AuditEntry.action == "event.rule-readings-kept")).all()
    assert overrides[club] == OLD_CLUB and overrides[tavla] == {"bh_unplayed": "fide"}
    assert {int(a.entity_id or 0) for a in kept} == {club, tavla}
    # rule B6, B8: the old event's sheet prints the very figures it printed before, read back from the PDF
    (tmp_path / "after").mkdir()
    assert sheet_hands(db, club, tmp_path / "after") == OLD_HANDS
    with db.session() as s:
        m = reads.matches_of(s, club)[0]
        assert (m.points_a, m.points_b) == OLD_POINTS
    # rule T12b: the old tavla Swiss keeps its FIDE Buchholz; its printed standings are the same, line by line
    assert bh_shown(db, tavla) == old_bh
    assert standings_pdf(db, tavla, tmp_path / "after") == standings_before

    # a new gaple-club event scores the seed's way: 30, 90 (40 + 50), and the caught 6-6 fined 50
    new_club = club_event(db, "New club league")
    play_club_sheet(db, new_club)
    (tmp_path / "new").mkdir()
    assert sheet_hands(db, new_club, tmp_path / "new") == NEW_HANDS
    with db.session() as s:
        m = reads.matches_of(s, new_club)[0]
        assert (m.points_a, m.points_b) == NEW_POINTS
    # a new tavla Swiss with byes: seed 003's plain sum of the opponents' points
    new_tavla, _ids = tavla_swiss_with_byes(db, "New tavla Swiss")
    plain = bh_by_hand(db, new_tavla, fide=False)
    assert bh_shown(db, new_tavla) == plain
    assert plain != bh_by_hand(db, new_tavla, fide=True)  # the bye would have counted a dummy opponent
    db.close()


def test_tavla_swiss_with_byes_gives_the_plain_sum_buchholz(tmp_path: Path) -> None:
    # rule T12b (seed 003 §4, §12): "the sum of the opponents' points"; a bye adds nothing
    db = Database(tmp_path / "t.sqlite3", backups_dir=tmp_path / "b")
    ev, ids = tavla_swiss_with_byes(db, "Swiss")
    with db.session() as s:
        byes = [m.side_a for m in reads.matches_of(s, ev) if m.side_b is None]
    assert len(byes) == 2
    shown = bh_shown(db, ev)
    assert shown == bh_by_hand(db, ev, fide=False)
    for e in byes:  # each player with a bye: his one opponent's points, no dummy
        assert shown[e] < bh_by_hand(db, ev, fide=True)[e]
    db.close()


# ------------------------------------------------------------------------------------- switching readings
def test_switching_an_old_event_previews_then_applies_and_audits(tmp_path: Path) -> None:
    db = Database(tmp_path / "s.sqlite3", backups_dir=tmp_path / "b")
    club = club_event(db, "Club league")
    with db.session() as s:
        ev = s.get(Event, club)
        assert ev is not None
        ev.ruleset_overrides = json.dumps(OLD_CLUB)  # as the migration leaves an old event
    play_club_sheet(db, club)
    shown = {r.key: (r.value, r.preset_value, r.rule) for r in readings.event_readings(db, club)}
    assert shown["open_on"] == ("pure", "won", "B8")
    assert shown["out_double_mode"] == ("flat", "plus", "B6")
    assert shown["fine_in_block"] == (False, True, "B6")
    assert shown["allow_negative"] == (True, True, "G3")  # rule G3: the floor shown as the preset's setting
    changes = readings.new_readings(db, club)
    assert changes == {"open_on": "won", "fine_in_block": True, "out_double_mode": "plus"}
    preview = readings.preview_readings(db, club, changes)
    assert [(t.round, t.table, t.score, t.points) for t in preview.tables] == [
        (1, 1, ((0, 0), (0, 0)), (OLD_POINTS, NEW_POINTS))
    ]
    assert not preview.applied
    # nothing was written by the preview
    with db.session() as s:
        ev = s.get(Event, club)
        assert ev is not None and json.loads(ev.ruleset_overrides) == OLD_CLUB
        m = reads.matches_of(s, club)[0]
        assert (m.points_a, m.points_b) == OLD_POINTS
    (tmp_path / "p").mkdir()
    assert sheet_hands(db, club, tmp_path / "p") == OLD_HANDS
    # rule T10: a played table's score changes only by a referee; refused, nothing is written
    with pytest.raises(ServiceError) as err:
        readings.apply_readings(db, DESK, club, changes)
    assert err.value.code == "referee-only"
    with db.session() as s:
        ev = s.get(Event, club)
        assert ev is not None and json.loads(ev.ruleset_overrides) == OLD_CLUB
    done = readings.apply_readings(db, REF, club, changes, "the club adopts the seed's reading")
    assert done.applied and done.tables == preview.tables
    with db.session() as s:
        ev = s.get(Event, club)
        assert ev is not None and json.loads(ev.ruleset_overrides) == {}  # the preset's readings: no override
        m = reads.matches_of(s, club)[0]
        assert (m.points_a, m.points_b) == NEW_POINTS
        row = s.scalars(select(AuditEntry).where(AuditEntry.action == "event.rule-readings")).one()
        assert row.reason == "the club adopts the seed's reading" and row.actor_name == REF.name
        assert json.loads(row.before or "{}") == {"ruleset_overrides": OLD_CLUB}
    (tmp_path / "a").mkdir()
    assert sheet_hands(db, club, tmp_path / "a") == NEW_HANDS
    db.close()


def test_switching_a_tavla_swiss_names_the_tiebreaks_that_move(tmp_path: Path) -> None:
    db = Database(tmp_path / "s.sqlite3", backups_dir=tmp_path / "b")
    ev, _ids = tavla_swiss_with_byes(db, "Swiss")
    fide = bh_by_hand(db, ev, fide=True)
    plain = bh_by_hand(db, ev, fide=False)
    preview = readings.preview_readings(db, ev, {"bh_unplayed": "fide"})
    assert preview.tables == ()  # no table's score moves
    moved = {e: d["BH"] for e, d in preview.tiebreaks.items() if "BH" in d}
    assert moved == {e: (plain[e], fide[e]) for e in plain if plain[e] != fide[e]}
    assert bh_shown(db, ev) == plain  # still as it was


def test_a_bad_reading_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    db = Database(tmp_path / "s.sqlite3", backups_dir=tmp_path / "b")
    club = club_event(db, "Club league")
    with pytest.raises(ServiceError) as err:
        readings.preview_readings(db, club, {"open_on": "maybe"})
    assert "open_on" in err.value.message
    with pytest.raises(ServiceError) as err:
        readings.apply_readings(db, REF, club, {"target": 100})
    assert err.value.code == "not-a-reading"
    with db.session() as s:
        ev = s.get(Event, club)
        assert ev is not None and ev.ruleset_overrides in ("{}", "")
    db.close()


# ------------------------------------------------------------------------------------------------ CLI
def cli(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, Any, str]:
    code = main(["--db", str(db), "--json", *args])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and out.strip() else None), err


def test_readings_from_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLUBDESK_ACTOR", "Ana")
    monkeypatch.setenv("CLUBDESK_ROLE", "referee")  # rule T10: the switch rescores a played table
    path = tmp_path / "c.sqlite3"
    db = Database(path, backups_dir=tmp_path / "b")
    club = club_event(db, "Club league")
    with db.session() as s:
        ev = s.get(Event, club)
        assert ev is not None
        ev.ruleset_overrides = json.dumps(OLD_CLUB)
    play_club_sheet(db, club)
    db.close()
    code, out, err = cli(capsys, path, "event", "show", str(club))
    assert code == 0, err
    assert {r["key"]: r["value"] for r in out["readings"]}["out_double_mode"] == "flat"
    code, out, err = cli(capsys, path, "event", "readings", str(club), "--new")
    assert code == 0, err
    assert out["applied"] is False and out["tables"][0]["points_after"] == list(NEW_POINTS)
    code, out, err = cli(capsys, path, "event", "readings", str(club), "--set", "open_on=won", "--apply")
    assert code == 0, err
    assert out["applied"] is True and out["changes"] == {"open_on": {"before": "pure", "after": "won"}}
    # B8 alone: the lost duel now opens with 30; the 0-0 stays a flat 50 and the blocked hand unfined
    assert out["tables"][0]["points_after"] == [80, 46]
    code, out, err = cli(capsys, path, "event", "readings", str(club), "--set", "open_on=sometimes")
    assert (code, out) == (1, None) and err.count("\n") == 1


def test_licence_from_the_cli_and_the_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # rule E15: the federation licence is a member field of its own
    path = tmp_path / "m.sqlite3"
    code, out, err = cli(capsys, path, "member", "add", "--name", "Ana Ruiz", "--licence", "FEDM-1234")
    assert code == 0, err
    number = out["number"]
    db = Database(path, backups_dir=tmp_path / "b")
    assert search.get_member(db, number).licence == "FEDM-1234"
    db.close()
    code, out, err = cli(capsys, path, "member", "edit", number, "--licence", "FEDM-9999")
    assert (code, out) == (0, {"number": number, "licence": "FEDM-9999"}), err
    code, out, err = cli(capsys, path, "member", "edit", "nobody", "--licence", "X")
    assert code == 1 and err.count("\n") == 1
    export = tmp_path / "out.csv"
    assert cli(capsys, path, "member", "export", str(export))[0] == 0
    rows = export.read_text(encoding="utf-8-sig").splitlines()
    header = rows[0].split(",")
    assert header[-1] == "licence" and rows[1].split(",")[header.index("licence")] == "FEDM-9999"
    # import: the licence column is optional; "license" is read as the licence, not the member number
    with_col = tmp_path / "with.csv"
    with_col.write_text("name,number,license\nBea Gil,7001,FEDM-7\n", encoding="utf-8")
    without = tmp_path / "without.csv"
    without.write_text("name,number\nCarlos Paz,7002\n", encoding="utf-8")
    assert cli(capsys, path, "member", "import", str(with_col))[0] == 0
    assert cli(capsys, path, "member", "import", str(without))[0] == 0
    db = Database(path, backups_dir=tmp_path / "b")
    assert search.get_member(db, "7001").licence == "FEDM-7"
    assert search.get_member(db, "7002").licence == ""
    db.close()


def test_e7_the_domino_sheet_says_when_equal_tiles_were_drawn_again(tmp_path: Path) -> None:
    # rule E7: equal tiles (6-3 and 5-4 both 9): the tied players draw again, and the sheet says so
    from clubdesk.competition import seating
    from clubdesk.models.member import Member
    from clubdesk.models.result import Match
    from clubdesk.services.night.play import rounds
    from clubdesk.services.publishing import documents
    from clubdesk.services.publishing import header as publishing_header

    db = Database(tmp_path / "d.sqlite3", backups_dir=tmp_path / "b")
    ev, _ids = make_event(db, ruleset="domino-es", fmt="round-robin", players=2, per_entrant=2, entry="pair")
    rounds.propose_round(db, DESK, ev, seed=1)
    rounds.publish_round(db, DESK, ev)
    with db.session() as s:
        m = s.scalars(select(Match).where(Match.event_id == ev)).one()
        a, b = json.loads(m.seats)["seats"][0::2], json.loads(m.seats)["seats"][1::2]
        seed = next(k for k in range(1000) if seating.seat_draw(k, a, b)["redraws"])
        draw = seating.seat_draw(seed, a, b)
        m.seats = json.dumps(draw)
        names = {mm.number: mm.name for mm in s.scalars(select(Member))}
    out = tmp_path / "sheet.pdf"
    documents.generate(db, publishing_header.ReportRequest("score-sheets", ev, round=1, table=1), out)
    flat = " ".join(" ".join(p.extract_text() or "" for p in PdfReader(out).pages).split())
    assert "Equal tiles drawn again among the tied (E7):" in flat
    for p, tile in draw["redraws"][0]["tiles"].items():
        assert f"{names[p]} {tile}" in flat
    db.close()
