"""The demo club: a living register for newcomers (``clubdesk --demo``, ``clubdesk-cli demo``).

About 40 members in 4 clubs from 3 cities (Jakarta, Madrid, İstanbul), with Indonesian, Spanish and Turkish
names (ğ ş ı İ ñ á...), phones and e-mails at reserved example domains. Deterministic for a given seed.

Each part of the demo adds its events by appending a hook to :data:`DEMO_HOOKS`: a function
``hook(db, actor, options, members) -> list[int]`` returning the ids of the events it created (``members`` are
the demo members' numbers). Hooks run in order after the members exist.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from sqlalchemy import select

from clubdesk.games import replay
from clubdesk.models.event import Event
from clubdesk.services import club, desk, events, money, night
from clubdesk.services import members as members_service
from clubdesk.services.demo.tavla_cup import DEMO_EVENT_NAME, demo_tavla_tournament
from clubdesk.services.kernel import Actor, Role, ServiceError
from clubdesk.standings.money import currency_exponent
from clubdesk.storage import Database
from clubdesk.text import fold

DEMO_ACTOR = Actor("Demo", Role.SECRETARY)
DEFAULT_MEMBERS = 40
DEFAULT_SEED = 2024


@dataclass(frozen=True)
class DemoOptions:
    members: int = DEFAULT_MEMBERS
    seed: int = DEFAULT_SEED
    game: str | None = None  # a ruleset name for the demo events (used by the demo hooks)


@dataclass(frozen=True)
class DemoResult:
    members: int  # members in the demo register
    events: list[int] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {"members": self.members, "events": list(self.events)}


DemoHook = Callable[[Database, Actor, DemoOptions, list[str]], list[int]]
DEMO_HOOKS: list[DemoHook] = []


# (club name, city); the first two clubs share İstanbul, so 4 clubs come from 3 cities.
CLUBS: tuple[tuple[str, str], ...] = (
    ("Kadıköy Tavla Kulübü", "İstanbul"),
    ("Beşiktaş Oyun Kulübü", "İstanbul"),
    ("Peña Dominó Chamberí", "Madrid"),
    ("Gaple Garuda Jakarta", "Jakarta"),
)

# (name, culture, gender); interleaved so that even a small demo has all three languages and ğ ş ı İ ñ á.
NAMES: tuple[tuple[str, str, str], ...] = (
    ("Şükrü Işık", "tr", "m"),
    ("José Muñoz", "es", "m"),
    ("Budi Santoso", "id", "m"),
    ("Ayşe Doğan", "tr", "f"),
    ("María Peña", "es", "f"),
    ("Siti Rahayu", "id", "f"),
    ("İbrahim Çelik", "tr", "m"),
    ("Álvaro Núñez", "es", "m"),
    ("Agus Wijaya", "id", "m"),
    ("Gülşen Yılmaz", "tr", "f"),
    ("Lucía Ibáñez", "es", "f"),
    ("Dewi Lestari", "id", "f"),
    ("Ömer Şahin", "tr", "m"),
    ("Íñigo Gómez", "es", "m"),
    ("Bambang Susilo", "id", "m"),
    ("Çağla Aydın", "tr", "f"),
    ("Begoña Martín", "es", "f"),
    ("Putri Anggraini", "id", "f"),
    ("Ertuğrul Öztürk", "tr", "m"),
    ("Sebastián Castaño", "es", "m"),
    ("Rizky Pratama", "id", "m"),
    ("İpek Kılıç", "tr", "f"),
    ("Pilar Cañizares", "es", "f"),
    ("Wahyu Hidayat", "id", "m"),
    ("Hakan Erdoğan", "tr", "m"),
    ("Ramón Fernández", "es", "m"),
    ("Ayu Kartika", "id", "f"),
    ("Zeynep Arslan", "tr", "f"),
    ("Jesús Ortiz", "es", "m"),
    ("Joko Purnomo", "id", "m"),
    ("Oğuz Kaya", "tr", "m"),
    ("Nuria Ruiz Sáez", "es", "f"),
    ("Nur Aini", "id", "f"),
    ("Yağmur Koç", "tr", "f"),
    ("Adrián López", "es", "m"),
    ("Hendra Gunawan", "id", "m"),
    ("İsmail Güneş", "tr", "m"),
    ("Ana Belén Díaz", "es", "f"),
    ("Slamet Riyadi", "id", "m"),
    ("Sukru Isik", "tr", "m"),  # typed without Turkish letters: a duplicate of Şükrü Işık to try merging on
)

FIRST = {
    "tr": ("Ahmet", "Fatma", "Mehmet", "Elif", "Mustafa", "Hülya", "Barış", "Gökçe", "Tuğba", "Işıl"),
    "es": ("Carlos", "Carmen", "Javier", "Rocío", "Andrés", "Inés", "Raúl", "Sofía", "Óscar", "Ángela"),
    "id": ("Andi", "Sri", "Eko", "Rina", "Fajar", "Wulan", "Dimas", "Indah", "Yusuf", "Lestari"),
}
LAST = {
    "tr": ("Yıldız", "Şimşek", "Çakır", "Güler", "Özdemir", "Kurt", "Aslan", "Doğru", "Ağca", "Işıklı"),
    "es": (
        "García",
        "Martínez",
        "Sánchez",
        "Pérez",
        "Jiménez",
        "Muñiz",
        "Romero",
        "Navarro",
        "Ibarra",
        "Peñalver",
    ),
    "id": (
        "Saputra",
        "Nugroho",
        "Kusuma",
        "Setiawan",
        "Halim",
        "Siregar",
        "Wibowo",
        "Hakim",
        "Utami",
        "Rahman",
    ),
}
HOME = {"tr": (0, 1), "es": (2,), "id": (3,)}  # indexes into CLUBS
FEMALE_FIRST = {
    "Fatma",
    "Elif",
    "Hülya",
    "Gökçe",
    "Tuğba",
    "Işıl",
    "Carmen",
    "Rocío",
    "Inés",
    "Sofía",
    "Ángela",
}
FEMALE_FIRST |= {"Sri", "Rina", "Wulan", "Indah", "Lestari"}


def _names(n: int, rng: random.Random) -> list[tuple[str, str, str]]:
    out = list(NAMES[:n])
    taken = {fold(x[0]) for x in out}
    cultures = ("tr", "es", "id")
    while len(out) < n:
        culture = cultures[len(out) % 3]
        first = rng.choice(FIRST[culture])
        name = f"{first} {rng.choice(LAST[culture])}"
        if fold(name) in taken:
            name = f"{name} {rng.choice(LAST[culture])}"
            if fold(name) in taken:
                continue
        taken.add(fold(name))
        out.append((name, culture, "f" if first in FEMALE_FIRST else "m"))
    return out


def _phone(culture: str, rng: random.Random) -> str:
    d = [str(rng.randrange(10)) for _ in range(10)]
    if culture == "tr":
        return f"+90 5{d[0]}{d[1]} {''.join(d[2:5])} {''.join(d[5:7])} {''.join(d[7:9])}"
    if culture == "es":
        return f"+34 6{d[0]}{d[1]} {''.join(d[2:5])} {''.join(d[5:8])}"
    return f"+62 812 {''.join(d[0:4])} {''.join(d[4:8])}"


def _email(name: str, culture: str) -> str:
    domain = {"tr": "example.com.tr", "es": "example.es", "id": "example.co.id"}[culture]
    return ".".join(fold(name).split()) + "@" + domain


def demo_members(options: DemoOptions) -> list[members_service.MemberData]:
    """The demo register for these options (no database involved: same seed, same club)."""
    rng = random.Random(options.seed)
    out: list[members_service.MemberData] = []
    for i, (name, culture, gender) in enumerate(_names(max(0, options.members), rng)):
        club_name, city = CLUBS[rng.choice(HOME[culture])]
        if rng.random() < 0.1:  # a few members without a club, playing as individuals
            club_name = ""
        experience = rng.choice((0, 0, 5, 12, 25, 40, 60, 90, 140))
        rating = 1500.0 if experience == 0 else round(rng.gauss(1500, 120), 2)
        notes = ""
        if fold(name) == "sukru isik":
            notes = "Registered twice? Compare with Şükrü Işık."
        out.append(
            members_service.MemberData(
                name=name,
                number=str(members_service.FIRST_NUMBER + i),
                club=club_name,
                city=city,
                gender=gender,
                birth_year=rng.randrange(1950, 2008),
                rating=rating,
                rating_experience=experience,
                phone=_phone(culture, rng),
                email=_email(name, culture) if rng.random() < 0.85 else "",
                notes=notes,
                active=rng.random() > 0.05,
            )
        )
    return out


DEMO_CLUB_NAME = "ClubDesk Demo — Gaple, Dominó & Tavla"


def fill_demo(db: Database, options: DemoOptions | None = None, actor: Actor = DEMO_ACTOR) -> DemoResult:
    """Fill the demo register when it is empty, then run the demo hooks (:data:`DEMO_HOOKS`: events...)."""
    options = options or DemoOptions()
    if members_service.count_members(db) == 0:
        if club.get(db, club.CLUB_NAME) is None:
            # the window title, report headers and receipts name the demo club, not "My club"
            club.put(db, actor, club.CLUB_NAME, DEMO_CLUB_NAME)
        for club_name, city in CLUBS:
            members_service.save_club(db, actor, club_name, city)
        for data in demo_members(options):
            members_service.create_member(db, actor, data)
    numbers = [m.number for m in members_service.list_members(db)]
    events: list[int] = []
    for hook in DEMO_HOOKS:
        events += hook(db, actor, options, numbers)
    return DemoResult(members_service.count_members(db), events)


def ensure_demo(db: Database) -> DemoResult | None:
    """``clubdesk --demo``: fill the demo database when its register is empty; otherwise leave it."""
    if members_service.count_members(db) > 0:
        return None
    return fill_demo(db)


def _events_demo(db: Database, actor: Actor, options: DemoOptions, members: list[str]) -> list[int]:
    """The demo tavla tournament with registrations, payments and a waiting list."""

    return demo_tavla_tournament(db, actor, options, members)


DEMO_HOOKS.append(_events_demo)


# ------------------------------------------------------------------------------- nights of every format
NIGHT_DEMO_PREFIX = "Demo night: "


def _night_demo(db: Database, actor: Actor, options: DemoOptions, members: list[str]) -> list[int]:
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


DEMO_HOOKS.append(_night_demo)


# ----------------------------------------------------------------------------------------- prize plans
def _prizes_demo(db: Database, actor: Actor, options: DemoOptions, members: list[str]) -> list[int]:
    """A prize plan on every demo event that has none (T13a, T13b), so that the prize list
    prints its places and amounts: a share of the fees where there is an entry fee, fixed money elsewhere
    (in the event's currency: 1st 500, 2nd 250, 3rd 100 major units). Run twice, changes nothing."""

    with db.session() as s:
        events = [(e.id, e.currency, e.fee) for e in s.scalars(select(Event).order_by(Event.id))]
        planned = {
            e_id
            for e_id, _c, _f in events
            if json.loads(night.night(s, s.get(Event, e_id)).prize_plan or "{}")  # type: ignore[arg-type]
        }
    for e_id, currency, fee in events:
        if e_id in planned:
            continue
        if fee:
            plan: dict[str, object] = {
                "pool_rate": 8000,
                "places": [
                    {"place": 1, "pool_share": 5000},
                    {"place": 2, "pool_share": 3000},
                    {"place": 3, "pool_share": 2000},
                ],
            }
        else:
            unit = 10 ** currency_exponent(currency)
            plan = {"places": [{"place": p, "fixed": a * unit} for p, a in ((1, 500), (2, 250), (3, 100))]}
        night.configure(db, actor, e_id, prize_plan=plan)
    return []


DEMO_HOOKS.append(_prizes_demo)


# ---------------------------------------------------------------------------- a season of weekly nights
SEASON_DEMO_PREFIX = "Demo season: "
SEASON_DEMO_SCALE: dict[str, object] = {
    # rule T12d: base points by place x the event's coefficient (hundredths); best 2 results count;
    # the top 4 are invited to the Super Final and start it with 3, 2, 2 and 1 lives (T4g)
    "base_points": [100, 70, 50, 40, 30, 20, 10, 5],
    "coefficients": {"local": 100, "regional": 150, "B": 150},
    "best_of": 2,
    "super_final": 4,
    "starting_lives": {
        "bands": [{"from": 1, "to": 1, "lives": 3}, {"from": 2, "to": 3, "lives": 2}],
        "default": 1,
    },
}
SEASON_DEMO_PLAN: dict[str, object] = {
    # rules T13a-T13d: 80 % of the fees collected; a trophy for the winner; 3rd place is shared in a
    # knockout (3-4) and split; the best woman wins a free entry and 50 of the currency on top
    "pool_rate": 8000,
    "places": [
        {"place": 1, "pool_share": 5000, "items": [{"kind": "trophy", "description": "Kupa"}]},
        {"place": 2, "pool_share": 3000},
        {"place": 3, "pool_share": 2000},
    ],
    "categories": [
        {"code": "women", "rank": 1, "fixed": 5000, "items": [{"kind": "free-entry", "description": ""}]}
    ],
    "category_minimum": 2,
}


def _season_demo(db: Database, actor: Actor, options: DemoOptions, members: list[str]) -> list[int]:
    """Three tavla nights of the last weeks, played to the end, in the season of the demo tavla
    tournament: entry fees paid, a prize plan (so the prize list has its awards, one of them paid, T13e) and a
    season scale (so the Season screen ranks them, T12d). Deterministic; run twice, adds nothing."""

    if options.game not in (None, "tavla") or len(members) < 8:
        return []
    with db.session() as s:
        season = s.scalar(select(Event.season).where(Event.name == DEMO_EVENT_NAME))
        have = {
            n: i
            for i, n in s.execute(
                select(Event.id, Event.name).where(Event.name.like(SEASON_DEMO_PREFIX + "%"))
            )
        }
    season = season or str(date.today().year)
    rng = random.Random(options.seed * 7 + 21)
    today = date.today()
    nights = (
        ("Kadıköy Night 1", "single-elimination", "local", 21),
        ("Kadıköy Night 2", "round-robin", "local", 14),
        ("Regional Cup", "single-elimination", "regional", 7),
    )
    regulars = rng.sample(members, min(len(members), 11))  # the same faces most weeks: best 2 of 3 drops some
    ids: list[int] = []
    for name, fmt, klass, ago in nights:
        full = SEASON_DEMO_PREFIX + name
        if full in have:
            ids.append(have[full])
            continue
        day = today - timedelta(days=ago)
        info = events.create_event(
            db,
            actor,
            events.EventData(
                name=full,
                ruleset="tavla",
                format=fmt,
                match_lengths=(3,),
                starts_on=day,
                ends_on=day,
                season=season,
                coefficient_class=klass,
                currency="TRY",
                fee=10000,  # ₺100
            ),
        )
        ids.append(info.id)
        night.configure(db, actor, info.id, prize_plan=SEASON_DEMO_PLAN, season_scale=SEASON_DEMO_SCALE)
        count = 8 if fmt == "single-elimination" else 5
        for number in rng.sample(regulars, len(regulars)):
            if count == 0:
                break
            try:
                reg = desk.register(db, actor, info.id, number)
                money.pay(db, actor, info.id, reg.entrant, 10000, ("cash", "card", "transfer")[count % 3])
                desk.checkin(db, actor, info.id, reg.code)
            except ServiceError:
                continue
            count -= 1
        for r in range(1, 12):
            try:
                rv = night.propose_round(db, actor, info.id, seed=options.seed + r)
            except ServiceError:
                break  # the event is over
            night.publish_round(db, actor, info.id)
            for t in rv.tables:
                if t.sides[1] is None:
                    continue
                lo = rng.randrange(3)
                night.set_score(
                    db, actor, info.id, r, t.table, (3, lo) if rng.randrange(2) else (lo, 3), confirm=True
                )
        try:  # rule T13e: the winner of the first night has been paid
            if ago == 21:
                money.pay_prize(db, actor, info.id, 1, "cash", on=day)
        except ServiceError:
            pass
    with db.session() as s:
        main = s.scalar(select(Event.id).where(Event.name == DEMO_EVENT_NAME))
    if main is not None and not ids == []:
        settings = night.night_settings(db, main)
        if not json.loads(settings["season_scale"] or "{}"):
            night.configure(db, actor, main, season_scale=SEASON_DEMO_SCALE)
    return ids


DEMO_HOOKS.append(_season_demo)
