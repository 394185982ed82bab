"""Every printed figure read back (issue 18): each report kind is rendered from events built through the
services, its text extracted with pypdf, and every figure and name compared with the engine or service data
it came from. The expected values are never typed in: they are taken from the rules engines (``replay``),
the standings, prize and season engines, and the services, so a wrong cell anywhere fails.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from pypdf import PdfReader

from clubdesk.games import replay
from clubdesk.reports.frame import fmt_money
from clubdesk.services.desk import arrivals, lists, registration
from clubdesk.services.discipline import incidents
from clubdesk.services.events import events
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.services.members import edit, records, search
from clubdesk.services.night.data import prize_plans, reads, settings
from clubdesk.services.night.play import results, rounds, table_sides
from clubdesk.services.night.ranking import event_end, standings
from clubdesk.services.publishing import documents, header, season_ranking
from clubdesk.storage import Database
from tests.integration.test_reports_service import DESK, add_members, assert_public, enter

PRINTED = dt.datetime(2025, 6, 1, 21, 0)
REFEREE = Actor("Árbitro Fernández", Role.REFEREE)
LONG_A = "Kusumawardhani Setyaningrum"  # with "Bambang Prasetyo": a 46-character pair name
LONG_B = "Bambang Prasetyo"
SUBSTITUTE = "Suplente Ñúñez"

# round 1 table 1 of the tavla Swiss: each player wins games (match to 5, T7c, T7b):
# p2 gammon (0-2), p1 single (1-2), p1 backgammon (4-2), Crawford game p2 single (4-3), p1 single (5-3)
TAVLA_SHEET = [
    {"type": "game", "winner": 1, "kind": "gammon", "cube": 1, "dropped": False},
    {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False},
    {"type": "game", "winner": 0, "kind": "backgammon", "cube": 1, "dropped": False},
    {"type": "game", "winner": 1, "kind": "single", "cube": 1, "dropped": False},
    {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False},
]


def flat(text: str) -> str:
    return " ".join(text.split())


def lines_of(path: Path) -> list[str]:
    """The text with each table row kept on one line, spaces collapsed."""
    return [
        flat(line)
        for page in PdfReader(path).pages
        for line in page.extract_text(extraction_mode="layout").splitlines()
        if line.strip()
    ]


def text_of(path: Path) -> str:
    return flat(" ".join(page.extract_text() or "" for page in PdfReader(path).pages))


def row(lines: list[str], pattern: str) -> str:
    found = [line for line in lines if re.search(pattern, line)]
    assert found, f"no printed line matches {pattern!r}"
    return found[0]


@dataclass
class Club:
    db: Database
    numbers: list[str]
    swiss: int  # tavla Swiss of 4, 2 rounds, finished; prize plan; season S18
    cup: int  # tavla Swiss of 4, 1 round, finished; season S18, best 1 result
    knockout: int
    gaple: int
    domino: int
    extra: dict[str, str]  # name -> member number of the long-named players and the substitute
    sides: tuple[list[str], list[str]]  # the domino table's home and away players (member numbers)


def _hands_until_done(ruleset: str, winner_pair: int, kind: str, pips: list[list[int]]) -> list[dict]:
    """Hands in which ``winner_pair`` goes out, until the engine says the match is over."""
    sheet: list[dict] = []
    k = 0
    while not replay(ruleset, sheet)["finished"] and len(sheet) < 60:
        seat = winner_pair + 2 * (k % 2)
        hand = list(pips[k % len(pips)])
        hand[seat] = 0
        if kind == "out":
            sheet.append(
                {
                    "type": "out",
                    "seat": seat,
                    "pips": hand,
                    "last_tile": None,
                    "two_ends": False,
                    "dead": {"0-0": None, "6-6": None},
                }
            )
        else:
            sheet.append({"type": "domino", "seat": seat, "pips": hand})
        k += 1
    return sheet


def build(tmp_path: Path) -> Club:
    db = Database(tmp_path / "club.sqlite3", backups_dir=None)
    numbers = add_members(db)
    extra = {}
    for name in (LONG_A, LONG_B, SUBSTITUTE):
        extra[name] = edit.create_member(db, DESK, records.MemberData(name=name, city="Jakarta")).number
    scale = {"base_points": [10, 6, 4, 2], "coefficients": {"local": 100}}
    swiss = events.create_event(
        db,
        DESK,
        events.EventData(
            name="Yaz Kupası",
            ruleset="tavla",
            format="swiss",
            rounds=2,
            match_lengths=(5,),
            starts_on=dt.date(2025, 6, 1),
            season="S18",
            coefficient_class="local",
            currency="TRY",
            fee=10000,
        ),
    ).id
    settings.configure(
        db,
        DESK,
        swiss,
        season_scale=scale,
        prize_plan={
            "pool_rate": 7000,
            "places": [
                {"place": 1, "fixed": 5000, "pool_share": 6000},
                {"place": 2, "pool_share": 4000},
            ],
        },
    )
    enter(db, swiss, numbers[:3], fee=10000)
    enter(db, swiss, numbers[3:4], fee=5000)  # paid half the fee: the receipt says what is still due
    for rno in (1, 2):
        rv = rounds.propose_round(db, DESK, swiss, seed=2)
        rounds.publish_round(db, DESK, swiss)
        for t in rv.tables:
            if rno == 1 and t.table == 1:
                results.record_result(db, DESK, swiss, 1, 1, entries=TAVLA_SHEET, confirm_both=True)
            else:  # the second-named side wins 5-3, so the standings are not in seed order
                results.set_score(db, DESK, swiss, rno, t.table, (3, 5), confirm=True)
    cup = events.create_event(
        db,
        DESK,
        events.EventData(
            name="Güz Kupası",
            ruleset="tavla",
            format="swiss",
            rounds=1,
            match_lengths=(3,),
            starts_on=dt.date(2025, 6, 8),
            season="S18",
            coefficient_class="local",
        ),
    ).id
    settings.configure(db, DESK, cup, season_scale={**scale, "best_of": 1})
    enter(db, cup, numbers[:4])
    rv = rounds.propose_round(db, DESK, cup, seed=4)
    rounds.publish_round(db, DESK, cup)
    for t in rv.tables:  # different margins, so that the tie-breaks separate the two winners (BC2)
        results.set_score(db, DESK, cup, 1, t.table, (3, t.table - 1), confirm=True)
    knockout = events.create_event(
        db,
        DESK,
        events.EventData(name="Eleme", ruleset="tavla", format="single-elimination", match_lengths=(3,)),
    ).id
    enter(db, knockout, numbers[4:8])
    for _ in range(3):
        try:
            rv = rounds.propose_round(db, DESK, knockout, seed=3)
        except Exception:  # noqa: BLE001 - the bracket is over
            break
        rounds.publish_round(db, DESK, knockout)
        for t in rv.tables:
            if t.sides[1] is not None:
                results.set_score(db, DESK, knockout, rv.round, t.table, (1, 3), confirm=True)
    # gaple: a pair with a 46-character name against an ordinary pair, hand by hand
    gaple = events.create_event(
        db,
        DESK,
        events.EventData(
            name="Gaple Panjang", ruleset="gaple-tournament", format="round-robin", entry_type="pair"
        ),
    ).id
    for a, b in ((extra[LONG_A], extra[LONG_B]), (numbers[0], numbers[1])):
        reg = registration.register(db, DESK, gaple, a, partner=b)
        arrivals.checkin(db, DESK, gaple, reg.code)
    rounds.propose_round(db, DESK, gaple, seed=1)
    rounds.publish_round(db, DESK, gaple)
    sheet = _hands_until_done("gaple-tournament", 0, "out", [[0, 12, 9, 20], [7, 0, 30, 10], [15, 25, 0, 5]])
    results.replace_entries(db, DESK, gaple, 1, 1, {1: sheet})
    # domino-es: two pairs; a substitute from hand 3; three dropped-tile incidents; a false think;
    # the game suspended and awarded to the pair ahead (art. 20)
    domino = events.create_event(
        db,
        DESK,
        events.EventData(name="Liga Anotada", ruleset="domino-es", format="round-robin", entry_type="pair"),
    ).id
    for a, b in ((numbers[2], numbers[3]), (numbers[4], numbers[5])):
        reg = registration.register(db, DESK, domino, a, partner=b)
        arrivals.checkin(db, DESK, domino, reg.code)
    rounds.propose_round(db, DESK, domino, seed=1)
    rounds.publish_round(db, DESK, domino)
    members_of = {r.entrant: list(r.members) for r in lists.entrants(db, domino)}
    home, away = (members_of[e] for e in reads.get_round(db, domino, 1).tables[0].sides if e is not None)
    hands = [
        {"type": "domino", "seat": 0, "pips": [0, 10, 6, 15]},
        {"type": "domino", "seat": 1, "pips": [4, 0, 8, 5]},
        {"type": "domino", "seat": 2, "pips": [9, 7, 0, 12]},
    ]
    results.replace_entries(db, DESK, domino, 1, 1, {1: hands[:2]})
    table_sides.substitute(db, REFEREE, domino, 1, 1, 1, 1, away[1], extra[SUBSTITUTE], "indisposición")
    results.add_entry(db, DESK, domino, 1, 1, hands[2], game_no=1)
    for k in range(3):  # rule E19: the same pair drops tiles three times in game 1
        incidents.record_incident(
            db,
            REFEREE,
            domino,
            round_no=1,
            table_no=1,
            kind="dropped-tiles",
            text=f"Fichas caídas ({k + 1})",
            player=home[0],
            hand=k + 1,
            decision="continue",
        )
    incidents.record_incident(
        db,
        REFEREE,
        domino,
        round_no=1,
        table_no=1,
        kind="false-think",
        text="Pensó con una sola ficha jugable",
        player=away[0],
        hand=2,
        decision="none",
    )
    table_sides.name_captains(db, DESK, domino, 1, 1, home[0], away[0])
    incidents.impose_penalty(
        db,
        REFEREE,
        domino,
        round_no=1,
        table_no=1,
        side=0,
        kind="award-leader",
        reason="Corte de luz: no se puede seguir",
        game_no=1,
    )
    table_sides.name_scorers(db, REFEREE, domino, 1, 1, home[0], away[0], referee_scores=True, approve=True)
    return Club(db, numbers, swiss, cup, knockout, gaple, domino, extra, (home, away))


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Club:
    c = build(tmp_path_factory.mktemp("readback"))
    yield c
    c.db.close()


def make(club: Club, tmp_path: Path, kind: str, event: int, **kw: object) -> Path:
    out = tmp_path / f"{kind}-{event}-{len(kw)}.pdf"
    documents.generate(club.db, header.ReportRequest(kind, event, printed_on=PRINTED, **kw), out)  # type: ignore[arg-type]
    assert_public(text_of(out))
    return out


def names_of(club: Club, event: int, rno: int) -> dict[int, tuple[str, str | None]]:
    return {t.table: t.names for t in reads.get_round(club.db, event, rno).tables}


# ------------------------------------------------------------------------------------------ score sheets
def test_tavla_sheet_every_game_row_and_the_final_score(club: Club, tmp_path: Path) -> None:
    out = make(club, tmp_path, "score-sheets", club.swiss, round=1, table=1)
    lines = lines_of(out)
    players = names_of(club, club.swiss, 1)[1]
    entries = results.table_entries(club.db, club.swiss, 1, 1)[1]
    result = replay("tavla", entries, {"match_length": 5})
    winners = set()
    for k, game in enumerate(result["games"]):
        winner = players[game["winner"]]
        winners.add(winner)
        a, b = game["score"]
        # rule T8c: each game's winner, its points and the running score, as the engine has them
        line = row(lines, rf"^{k + 1} {re.escape(str(winner))} ")
        assert re.search(rf" {game['points'][game['winner']]} {a} {b}( Crawford)?$", line), line
    assert winners == set(players)  # each player won some games: the winner column is not constant
    final = row(lines, r"^Final score")
    score = result["score"]
    assert final == (
        f"Final score {players[0]} {score[0]} {players[1]} {score[1]} Winner {players[result['winner']]}"
    )
    # the table's stored result agrees with what the sheet prints
    table = reads.get_round(club.db, club.swiss, 1).tables[0]
    assert table.score == tuple(score)


def test_tavla_sheets_of_recorded_scores_print_the_stored_result(club: Club, tmp_path: Path) -> None:
    out = make(club, tmp_path, "score-sheets", club.swiss, round=2)
    pages = [p.extract_text(extraction_mode="layout") for p in PdfReader(out).pages]
    tables = reads.get_round(club.db, club.swiss, 2).tables
    assert len(pages) == len(tables)
    for page, t in zip(pages, tables, strict=True):
        final = next(flat(x) for x in page.splitlines() if flat(x).startswith("Final score"))
        winner = t.names[0] if t.winner == t.sides[0] else t.names[1]
        assert final == f"Final score {t.names[0]} {t.score[0]} {t.names[1]} {t.score[1]} Winner {winner}"


def test_gaple_sheet_every_hand_with_a_long_pair_name(club: Club, tmp_path: Path) -> None:
    out = make(club, tmp_path, "score-sheets", club.gaple, round=1, table=1)
    reader = PdfReader(out)
    lines = lines_of(out)
    pair_a, pair_b = names_of(club, club.gaple, 1)[1]
    assert pair_a is not None and pair_b is not None
    assert len(max(pair_a, pair_b, key=len)) >= 40 and LONG_A in pair_a + pair_b
    entries = results.table_entries(club.db, club.gaple, 1, 1)[1]
    result = replay("gaple-tournament", entries)
    n = 0
    for g, game in enumerate(result["games"]):
        for hand in game["hands"]:
            pa, pb = hand["points"]
            ta, tb = hand["totals"]
            # every hand's points and running totals (GN1-GN7), as the engine scores them
            line = row(lines, rf"^{n + 1} {g + 1} ")
            assert re.search(rf" {pa} {pb} {ta} {tb}( |$)", line), line
            n += 1
        if game["winner"] is not None:
            won = (pair_a, pair_b)[game["winner"]]
            assert f"Game {g + 1} won by {won}: {game['totals'][0]}–{game['totals'][1]}" in text_of(out)
    assert n == len(entries)
    gw = result["games_won"]
    winner = (pair_a, pair_b)[result["winner"]]
    text = text_of(out)
    # the long name wraps in its cells: every word printed, nothing beyond the page's right edge
    assert f"Games won {pair_a} {gw[0]} {pair_b} {gw[1]} Winner {winner}" in text
    assert all(x <= float(reader.pages[0].mediabox.width) - 39 for x in right_edges(reader))


def right_edges(reader: PdfReader) -> list[float]:
    """Where each printed piece of text ends, in points from the left edge."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from clubdesk.reports.fonts import register_fonts

    register_fonts()
    ends: list[float] = []

    def visit(text: str, cm: list[float], tm: list[float], font: dict | None, size: float) -> None:
        if not text.strip() or font is None:
            return
        base = str(font.get("/BaseFont", "")).split("+")[-1].lstrip("/")
        if not base.startswith("DejaVu"):
            return
        scale = tm[0] * cm[0] or 1
        x = tm[4] * cm[0] + cm[4]
        ends.append(x + stringWidth(text.rstrip("\n"), base, size) * scale)

    for page in reader.pages:
        page.extract_text(visitor_text=visit)
    return ends


def test_domino_sheet_hands_scorers_approvals_and_substitution(club: Club, tmp_path: Path) -> None:
    out = make(club, tmp_path, "score-sheets", club.domino, round=1, table=1)
    lines = lines_of(out)
    text = text_of(out)
    pair1, pair2 = names_of(club, club.domino, 1)[1]
    entries = results.table_entries(club.db, club.domino, 1, 1)[1]
    result = replay("domino-es", entries)
    n = 0
    for g, game in enumerate(result["games"]):
        for hand in game["hands"]:
            a, b = hand["points"]
            ta, tb = hand["totals"]
            # every hand's points and running totals (E18), as the engine scores them
            line = row(lines, rf"^{n + 1} {g + 1} ")
            assert re.search(rf" {a} {b} {ta} {tb}( |$)", line), line
            n += 1
        if game["winner"] is not None:
            won = (pair1, pair2)[game["winner"]]
            assert f"Game {g + 1} won by {won}: {game['totals'][0]}–{game['totals'][1]}" in text
    assert n == len(entries)
    # rule E6: scorer and counter are players of each pair, named; the referee scored, both approved
    members = {m.number: m.name for m in search.list_members(club.db)}
    home, away = club.sides
    scorer, counter = members[home[0]], members[away[0]]
    line = row(lines, r"Approval for pair 1")
    assert line.index(scorer) < line.index("Approval for pair 2") < line.index(counter), line
    # rules G13, E6: each approval says how it was given; both were given at the desk here
    assert row(lines, r"^Approved ") == f"Approved {scorer} (at the desk) Approved {counter} (at the desk)"
    assert f"Scored and counted by the referee {REFEREE.name}" in text
    # rules E7.2, E20: the substitution, who left, who came in, game 1, from hand 3 (two hands entered)
    sub = row(lines, rf"{re.escape(SUBSTITUTE)} 1 3")
    assert sub == f"{pair2} {members[away[1]]} {SUBSTITUTE} 1 3 indisposición"
    gw = result["games_won"]
    final = row(lines, r"^Games won")
    assert final == f"Games won {pair1} {gw[0]} {pair2} {gw[1]} Winner {(pair1, pair2)[result['winner']]}"
    # the substitute plays the seat of the player he replaced (E7b)
    seats = reads.get_round(club.db, club.domino, 1).tables[0].seats or {}
    assert club.extra[SUBSTITUTE] in seats["game1"]


def test_blank_sheets_of_each_family_before_play(club: Club, tmp_path: Path) -> None:
    db = club.db
    for ruleset, entry, heads in (
        ("gaple-tournament", "pair", "Σ A"),
        ("domino-es", "pair", "Initials"),
        ("tavla", "single", "Crawford"),
    ):
        ev = events.create_event(
            db,
            DESK,
            events.EventData(
                name=f"Blank {ruleset}", ruleset=ruleset, format="round-robin", entry_type=entry
            ),
        ).id
        nums = club.numbers
        if entry == "pair":
            for a, b in ((nums[0], nums[1]), (nums[2], nums[3])):
                arrivals.checkin(db, DESK, ev, registration.register(db, DESK, ev, a, partner=b).code)
        else:
            enter(db, ev, nums[:2])
        rounds.propose_round(db, DESK, ev, seed=1)
        rounds.publish_round(db, DESK, ev)
        out = make(club, tmp_path, "score-sheets", ev)
        text = text_of(out)
        t = reads.get_round(db, ev, 1).tables[0]
        assert heads in text
        for name in t.names:
            assert name is not None and name in text
        assert "Winner" in text and len(PdfReader(out).pages) == 1


# ------------------------------------------------------------------------------------------ pairings
def test_pairings_every_table_with_points_before_the_round(club: Club, tmp_path: Path) -> None:
    out = make(club, tmp_path, "pairings", club.swiss, round=2)
    lines = lines_of(out)
    r1 = reads.get_round(club.db, club.swiss, 1).tables
    before: dict[int, int] = {}
    for t in r1:  # tavla Swiss: a won match is 1 point (T12b); the service's stored winners of round 1
        for e in t.sides:
            if e is not None:
                before[e] = before.get(e, 0) + (1 if t.winner == e else 0)
    for t in reads.get_round(club.db, club.swiss, 2).tables:
        a, b = t.sides
        assert b is not None
        line = row(lines, rf"^{t.table} {before[a]} {re.escape(str(t.names[0]))}")
        assert str(t.names[1]) in line and line.endswith(f" {before[b]}")
        assert f"{t.score[0]}-{t.score[1]}" in line  # the result, once known


# ------------------------------------------------------------------------------------------ standings
def test_standings_every_place_points_and_tiebreak(club: Club, tmp_path: Path) -> None:
    out = make(club, tmp_path, "standings", club.swiss)
    lines = lines_of(out)
    est = standings.event_standings(club.db, club.swiss)
    ranks = [r.rank for r in est.rows]
    codes = [c for c in est.codes if c != "PTS"]
    for r in est.rows:
        rank = f"{r.rank}{'=' if ranks.count(r.rank) > 1 else ''}"
        line = row(lines, rf"^{re.escape(rank)} {re.escape(r.name)} ")
        points = str(int(r.points)) if float(r.points).is_integer() else f"{float(r.points):g}"
        values = [r.shown[c] for c in codes]
        assert line.endswith(" ".join([points, *values])), (line, values)


# ------------------------------------------------------------------------------------------ bracket
def test_bracket_every_played_match_and_the_champion(club: Club, tmp_path: Path) -> None:
    out = make(club, tmp_path, "bracket", club.knockout)
    text = text_of(out)
    winner = ""
    played = 0
    for rno in (1, 2):
        for t in reads.get_round(club.db, club.knockout, rno).tables:
            if t.sides[1] is None:
                continue
            # each match box: its id, both sides (seed first in round 1) with the stored score (T4c)
            sides = [f"(\\d+ )?{re.escape(str(n))} {sc}" for n, sc in zip(t.names, t.score, strict=True)]
            pattern = f"{re.escape(t.ref)} ({sides[0]} {sides[1]}|{sides[1]} {sides[0]})"
            assert re.search(pattern, text), (pattern, text)
            winner = str(t.names[0] if t.winner == t.sides[0] else t.names[1])
            played += 1
    assert played == 3
    assert f"Champion {winner}" in text  # the winner of the final, as the service stored it


# ------------------------------------------------------------------------------------------ match act
def test_match_act_carries_every_seed_002_field(club: Club, tmp_path: Path) -> None:
    out = make(club, tmp_path, "incident-act", club.domino, round=1, table=1)
    text = text_of(out)
    members = {m.number: m.name for m in search.list_members(club.db)}
    pair1, pair2 = names_of(club, club.domino, 1)[1]
    home, away = club.sides
    # the referee's and the captains' names, not only signature lines
    assert f"Referee: {REFEREE.name}" in text
    assert f"Captain: {members[home[0]]}" in text and f"Captain: {members[away[0]]}" in text
    assert f"Captain, {pair1}: {members[home[0]]}" in text
    listing = incidents.discipline_list(club.db, club.domino, round_no=1, table_no=1)
    drops = [i for i in listing.incidents if i.kind == "dropped-tiles"]
    assert [i.occurrence for i in drops][-1] == 3
    for i in drops:
        # the act's game column, the hand, the pair and the player (E19.4); rule E15: without a federation
        # licence the offender's club number is printed under its own label
        player = f"{members[home[0]]} (club no. {home[0]})"
        assert f"1 1 {i.hand} {pair1} {player} Dropped tiles (E19) {i.text}" in text
    # rule E19 (Reading): the count is written from the second time on
    assert "[time 3 by this pair in this game]" in text and "[time 2 by this pair in this game]" in text
    assert "[time 1 " not in text
    assert members[home[0]] + f" (club no. {home[0]})" in text  # the offender and his club number (E15)
    # E15: the effect on the hand (the engine's hand 2) and the captains' and referee's intervention
    entries = results.table_entries(club.db, club.domino, 1, 1)[1]
    result = replay("domino-es", entries)
    hand2 = result["games"][0]["hands"][1]
    assert f"Effect: hand 2: {hand2['points'][0]}–{hand2['points'][1]}" in text
    assert f"Resolved with captains: {members[home[0]]}, {members[away[0]]}; referee: {REFEREE.name}" in text
    # art. 20: the decision, its reason and the result the engine gives after it
    game = result["games"][0]
    won = (pair1, pair2)[game["winner"]]
    assert "Award the game to the pair ahead" in text and "Corte de luz: no se puede seguir" in text
    assert f"game 1: {pair1} {game['totals'][0]} – {pair2} {game['totals'][1]}, won by {won}" in text
    # substitutions (E7.2, E20)
    assert f"{pair2} {members[away[1]]} {SUBSTITUTE} 1 3 indisposición" in text


# ------------------------------------------------------------------------------------------ receipts
def test_receipts_every_entrant_code_and_amount(club: Club, tmp_path: Path) -> None:
    out = make(club, tmp_path, "receipts", club.swiss)
    text = text_of(out)
    rows = lists.entrants(club.db, club.swiss)
    assert text.count("Receipt ") == len(rows)
    for r in rows:
        assert r.code in text and r.name in text
        assert fmt_money(r.paid, r.currency, "en") in text
    # the one who paid half owes the rest, as the desk service says (T2b)
    half = next(r for r in rows if r.owed)
    assert f"Still due {fmt_money(half.owed, half.currency, 'en')}" in text


# ------------------------------------------------------------------------------------------ prizes
def test_prize_list_plan_and_awards_from_the_prize_engine(club: Club, tmp_path: Path) -> None:
    out = make(club, tmp_path, "prizes", club.swiss)
    lines = lines_of(out)
    text = text_of(out)
    with club.db.session() as s:
        raw = reads.night(s, reads.get_event(s, club.swiss)).prize_plan
    plan = prize_plans.prize_plan_from(raw, "TRY")
    assert plan is not None
    paid = sum(r.paid for r in lists.entrants(club.db, club.swiss))
    pool = plan.pool(paid)
    money, _cats = plan.money_by_line(pool)
    assert f"Prize pool (70 % of the fees, T13b): {fmt_money(pool, 'TRY', 'en')}" in text
    places = {}
    for fp in event_end.final_places(club.db, club.swiss):
        if fp["place"]:
            for p in range(fp["place"][0], fp["place"][1] + 1):
                places.setdefault(p, []).append(fp["name"])
    for pp in plan.places:
        line = row(lines, rf"^{pp.place} .*{re.escape(fmt_money(money[pp.place], 'TRY', 'en'))}")
        assert all(name in line for name in places[pp.place])
    awarded = 0
    for fp in event_end.final_places(club.db, club.swiss):
        for prize in fp["prizes"]:
            awarded += prize["amount"]
            line = row(lines, rf"^\d+ {re.escape(fp['name'])} ")
            # the amount, then whether it was paid (rule T13e: nothing paid yet)
            assert line.split()[-2:] == [fmt_money(prize["amount"], "TRY", "en").split()[-1], "unpaid"]
    assert row(lines, r"\bTotal\b").split()[-2] == fmt_money(awarded, "TRY", "en")


# ------------------------------------------------------------------------------------------ season
def test_season_ranking_each_event_points_and_best_n(club: Club, tmp_path: Path) -> None:
    out = make(club, tmp_path, "season", club.cup)
    lines = lines_of(out)
    text = text_of(out)
    assert "Best 1 of 2 results count; dropped results in brackets." in text
    per_member: dict[str, dict[int, float]] = {}
    for ev in (club.swiss, club.cup):
        for fp in event_end.final_places(club.db, ev):
            per_member.setdefault(str(fp["name"]), {})[ev] = fp["season_points"]
    data = season_ranking.season_data(club.db, club.cup)
    assert len(data.rows) == len(per_member)
    for r in data.rows:
        got = per_member[r.name]
        best = max(got.values())
        # rule T12d: best 1 of 2: the better result counts, the other is printed in brackets
        line = row(lines, rf"^{r.rank} {re.escape(r.name)} ")
        cells = []
        counted = False
        for ev in (club.swiss, club.cup):
            v = got.get(ev)
            text_v = "" if v is None else f"{v:g}"
            if v is not None and (v != best or counted):
                text_v = f"({text_v})"
            elif v is not None:
                counted = True
            if text_v:
                cells.append(text_v)
        assert line.endswith(" ".join([*cells, f"{best:g}"])), (line, cells)
    points = [r.points for r in data.rows]
    assert points == sorted(points, reverse=True)


# ------------------------------------------------------------------------------------------ another language
def test_turkish_prints_read_back_with_their_figures(club: Club, tmp_path: Path) -> None:
    # the same figures in a Turkish print: money in the tr locale (Babel), names with ğ ş ı İ exact
    out = make(club, tmp_path, "receipts", club.swiss, language="tr")
    text = text_of(out)
    for r in lists.entrants(club.db, club.swiss):
        assert r.name in text and fmt_money(r.paid, r.currency, "tr") in text
    out = make(club, tmp_path, "standings", club.swiss, language="tr")
    lines = lines_of(out)
    for r in standings.event_standings(club.db, club.swiss).rows:
        assert any(line.split(" ", 1)[-1].startswith(r.name) for line in lines), r.name
    import subprocess

    plain = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    names = [r.name for r in standings.event_standings(club.db, club.swiss).rows]
    assert {"İsmail Güneş", "Iğdır Şahin"} <= set(names)
    assert all(name in plain for name in names)  # pdftotext too reads ğ ş ı İ back exactly


def test_team_encounter_prints_one_sheet_per_game_with_the_engine_figures(tmp_path: Path) -> None:
    from tests.integration.test_night_helpers import make_event, open_db

    db = open_db(tmp_path)
    try:
        ev, _ids = make_event(
            db, ruleset="domino-es", fmt="round-robin", players=2, per_entrant=4, entry="team"
        )
        settings.configure(db, DESK, ev, encounter_games=2)  # rule E7b: two games per encounter
        rounds.propose_round(db, DESK, ev)
        rounds.publish_round(db, DESK, ev)
        games = {
            1: _hands_until_done("domino-es", 0, "domino", [[0, 20, 15, 30], [9, 0, 25, 11]]),
            2: _hands_until_done("domino-es", 1, "domino", [[14, 0, 22, 30], [0, 18, 5, 27]]),
        }
        results.replace_entries(db, DESK, ev, 1, 1, games)
        out = tmp_path / "encounter.pdf"
        documents.generate(db, header.ReportRequest("score-sheets", ev, round=1, printed_on=PRINTED), out)
        pages = [p.extract_text(extraction_mode="layout") for p in PdfReader(out).pages]
        assert len(pages) == 2
        t = reads.get_round(db, ev, 1).tables[0]
        stored = results.table_entries(db, ev, 1, 1)
        for g, page in ((1, pages[0]), (2, pages[1])):
            lines = [flat(x) for x in page.splitlines() if x.strip()]
            assert f"game {g} of the encounter (E7b)" in flat(page)
            result = replay("domino-es", stored[g], {"games_to_win": 1})
            game = result["games"][0]
            for n, hand in enumerate(game["hands"]):
                a, b = hand["points"]
                ta, tb = hand["totals"]
                line = row(lines, rf"^{n + 1} 1 ")
                assert re.search(rf" {a} {b} {ta} {tb}( |$)", line), line
            won = t.names[game["winner"]]
            assert row(lines, r"^Games won").endswith(f"Winner {won}")
    finally:
        db.close()


def test_recorded_final_scores_of_gaple_and_domino_print_the_stored_result(
    club: Club, tmp_path: Path
) -> None:
    db = club.db
    for ruleset, score, points in (("gaple-club", (1, 2), (310, 402)), ("domino-es", (1, 0), (100, 62))):
        ev = events.create_event(
            db,
            DESK,
            events.EventData(name=f"Rec {ruleset}", ruleset=ruleset, format="round-robin", entry_type="pair"),
        ).id
        for a, b in ((club.numbers[4], club.numbers[5]), (club.numbers[6], club.numbers[7])):
            arrivals.checkin(db, DESK, ev, registration.register(db, DESK, ev, a, partner=b).code)
        rounds.propose_round(db, DESK, ev, seed=3)
        rounds.publish_round(db, DESK, ev)
        results.set_score(db, DESK, ev, 1, 1, score, points, confirm=True)
        out = make(club, tmp_path, "score-sheets", ev)
        text = text_of(out)
        t = reads.get_round(db, ev, 1).tables[0]
        assert t.points is not None
        winner = t.names[0] if t.winner == t.sides[0] else t.names[1]
        # the stored games won, game points and winner of the table, as the results service keeps them
        assert f"Games won {t.names[0]} {t.score[0]} {t.names[1]} {t.score[1]} Winner {winner}" in text
        assert f"Points {t.names[0]} {t.points[0]} {t.names[1]} {t.points[1]}" in text
