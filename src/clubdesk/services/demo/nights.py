"""The demo's competition nights: an event of every format with a few rounds played, for the Rounds screen."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import select

from clubdesk.games import replay
from clubdesk.models.event import Event
from clubdesk.services import desk, events, night
from clubdesk.services.demo.options import DemoOptions
from clubdesk.services.kernel import Actor, ServiceError
from clubdesk.storage import Database

NIGHT_DEMO_PREFIX = "Demo night: "


def night_demo(db: Database, actor: Actor, options: DemoOptions, members: list[str]) -> list[int]:
    """Events of every format with a few rounds played, all through the services: a tavla
    Swiss, a gaple-club round robin, a gaple-tournament knockout with hand-by-hand sheets, a domino-es team
    event, a tavla double elimination, a tavla lives event and a gaple-club open league. Each is left
    running (results pending, a round still to play). Deterministic for the seed; run twice, adds nothing."""

    rng = random.Random(options.seed * 31 + 11)
    pool = list(members)
    plans: tuple[tuple[str, str, str, str, int, int, int, dict[str, Any]], ...] = (
        # name, ruleset, format, entry, entrants, players per entrant, rounds to play, extra settings
        ("Tavla Swiss", "tavla", "swiss", "single", 10, 1, 3, {"rounds": 5, "match_lengths": (5,)}),
        ("Gaple Club League", "gaple-club", "round-robin", "pair", 4, 2, 2, {}),
        ("Gaple Knockout", "gaple-tournament", "single-elimination", "pair", 6, 2, 1, {}),
        ("Dominó por equipos", "domino-es", "round-robin", "team", 3, 4, 1, {}),
        (
            "Tavla Double Elimination",
            "tavla",
            "double-elimination",
            "single",
            8,
            1,
            2,
            {"match_lengths": (3,)},
        ),
        ("Tavla Lives", "tavla", "lives", "single", 9, 1, 2, {"match_lengths": (3,)}),
        ("Gaple Open League", "gaple-club", "open-round-robin", "pair", 5, 2, 1, {}),
    )
    ids: list[int] = []
    for name, ruleset, fmt, entry, count, per, to_play, extra in plans:
        if options.game not in (None, ruleset):
            continue
        full_name = NIGHT_DEMO_PREFIX + name
        with db.session() as s:
            existing = s.scalar(select(Event.id).where(Event.name == full_name))
        if existing is not None:
            ids.append(existing)
            continue
        if len(pool) < count * per:
            continue  # a very small demo club cannot field this event
        info = events.create_event(
            db,
            actor,
            events.EventData(
                name=full_name,
                ruleset=ruleset,
                format=fmt,
                entry_type=entry,
                rounds=extra.get("rounds"),
                match_lengths=tuple(extra.get("match_lengths", ())),
                currency="TRY" if ruleset == "tavla" else ("EUR" if ruleset == "domino-es" else "IDR"),
                season=str(options.seed),
            ),
        )
        players = rng.sample(pool, count * per)
        for k in range(count):
            group = players[k * per : (k + 1) * per]
            try:
                if entry == "single":
                    reg = desk.register(db, actor, info.id, group[0])
                elif entry == "pair":
                    reg = desk.register(db, actor, info.id, group[0], partner=group[1])
                else:
                    reg = desk.register(
                        db, actor, info.id, group[0], others=group[1:], team_name=f"Equipo {k + 1}"
                    )
                desk.checkin(db, actor, info.id, reg.code)
            except ServiceError:
                continue
        if entry == "team":
            night.configure(db, actor, info.id, encounter_games=2)  # rule E7b: two games per encounter
        ids.append(info.id)
        for r in range(1, to_play + 2):
            try:
                rv = night.propose_round(db, actor, info.id, seed=options.seed + r)
            except ServiceError:
                break
            night.publish_round(db, actor, info.id)
            last = r == to_play + 1
            for i, t in enumerate(rv.tables):
                if t.sides[1] is None or (last and i % 2 == 0):
                    continue  # the latest round is under way: some tables still playing
                w = rng.randrange(2)
                if ruleset == "tavla":
                    length = night.get_round(db, info.id, r).tables[i].match_length or 5
                    lo = rng.randrange(length)
                    night.set_score(
                        db, actor, info.id, r, t.table, (length, lo) if w == 0 else (lo, length), confirm=True
                    )
                elif ruleset == "gaple-tournament":
                    # hand by hand (G6 warm-up, GN1 going out): the chosen side mostly goes out
                    sheet: list[dict[str, object]] = []
                    while not replay(ruleset, sheet)["finished"] and len(sheet) < 80:
                        seat = (w if rng.random() < 0.8 else 1 - w) + 2 * rng.randrange(2)
                        pips = [rng.randrange(8, 36) for _ in range(4)]
                        pips[seat] = 0
                        sheet.append(
                            {
                                "type": "out",
                                "seat": seat,
                                "pips": pips,
                                "last_tile": None,
                                "two_ends": False,
                                "dead": {"0-0": None, "6-6": None},
                            }
                        )
                    night.replace_entries(db, actor, info.id, r, t.table, {1: sheet})
                    night.confirm(db, actor, info.id, r, t.table, 0, "AB")
                    night.confirm(db, actor, info.id, r, t.table, 1, "CD")
                elif ruleset == "domino-es":
                    games: dict[int, list[dict[str, object]]] = {}
                    for g in (1, 2):
                        gw = w if g == 1 else rng.randrange(2)
                        hands: list[dict[str, object]] = []
                        while not replay(ruleset, hands, {"games_to_win": 1})["finished"] and len(hands) < 40:
                            seat = gw + 2 * rng.randrange(2)
                            pips = [rng.randrange(5, 30) for _ in range(4)]
                            pips[seat] = 0
                            hands.append({"type": "domino", "seat": seat, "pips": pips})
                        games[g] = hands
                    night.replace_entries(db, actor, info.id, r, t.table, games)
                    night.confirm(db, actor, info.id, r, t.table, 0, "AN")
                    night.confirm(db, actor, info.id, r, t.table, 1, "RC")
                else:  # gaple-club: games won (B2) and game points
                    lo = rng.randrange(2)
                    score = (2, lo) if w == 0 else (lo, 2)
                    pts = (250 + rng.randrange(60), 120 + rng.randrange(100))
                    night.set_score(
                        db, actor, info.id, r, t.table, score, pts if w == 0 else pts[::-1], confirm=True
                    )
    return ids
