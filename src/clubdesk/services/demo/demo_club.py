"""The demo club: a living register for newcomers (``clubdesk --demo``, ``clubdesk-cli demo``).

About 40 members in 4 clubs from 3 cities (Jakarta, Madrid, İstanbul), with Indonesian, Spanish and Turkish
names (ğ ş ı İ ñ á...), phones and e-mails at reserved example domains. Deterministic for a given seed.

Each part of the demo adds its events by appending a hook to :data:`DEMO_HOOKS`: a function
``hook(db, actor, options, members) -> list[int]`` returning the ids of the events it created (``members`` are
the demo members' numbers). Hooks run in order after the members exist.

The demo is written into a demo file only (:func:`is_demo_file`): the marker is the setting
:data:`DEMO_MARKER`, written before anything else into an empty file; a club file with members or events and
no marker is a real club and is refused, whatever its path or name.
"""

from __future__ import annotations

import random

from clubdesk.i18n import _
from clubdesk.services import club
from clubdesk.services import events as events_service
from clubdesk.services import members as members_service
from clubdesk.services.demo.nights import night_demo
from clubdesk.services.demo.options import (
    DEMO_ACTOR,
    DemoHook,
    DemoOptions,
    DemoResult,
)
from clubdesk.services.demo.season import prizes_demo, season_demo
from clubdesk.services.demo.tavla_cup import demo_tavla_tournament
from clubdesk.services.kernel import Actor, ServiceError, require
from clubdesk.storage import Database
from clubdesk.text import fold

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


# the setting that makes a file the demo club's: written by the demo alone, never by the settings screen
DEMO_MARKER = "demo.club"


def is_demo_file(db: Database) -> bool:
    """The demo club's file: it carries :data:`DEMO_MARKER`, or it is still empty (no member, no event).
    A file made by an earlier ClubDesk's demo, without the marker, is known by the demo club's name."""
    if club.get(db, DEMO_MARKER):
        return True
    if club.get(db, club.CLUB_NAME) == DEMO_CLUB_NAME:
        return True
    return members_service.count_members(db) == 0 and not events_service.list_events(db)


def fill_demo(db: Database, options: DemoOptions | None = None, actor: Actor = DEMO_ACTOR) -> DemoResult:
    """Fill the demo register when it is empty, then run the demo hooks (:data:`DEMO_HOOKS`: events...).
    Refused, with nothing written, in a real club's file (:func:`is_demo_file`)."""
    require(actor, "demo.fill", db)  # permission table
    if not is_demo_file(db):
        raise ServiceError(
            "not-demo-file",
            _(
                "{path} is a real club's file: the demo club is written only into its own file "
                "(run the demo without --db)."
            ).format(path=db.location),
        )
    options = options or DemoOptions()
    if not club.get(db, DEMO_MARKER):
        club.put(db, actor, DEMO_MARKER, True, audited=False)
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


# in this order: the prizes go on every event made before them; the season joins the tavla cup's season
DEMO_HOOKS.extend([_events_demo, night_demo, prizes_demo, season_demo])
