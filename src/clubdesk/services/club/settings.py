"""Settings of this database: club name and logo, language, window state."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select

from clubdesk.i18n import LANGUAGES, PSEUDO, _
from clubdesk.models.club import Setting
from clubdesk.services.kernel import Actor, ServiceError, audit, require
from clubdesk.storage import Database

CLUB_NAME = "club.name"
CLUB_LOGO = "club.logo"
LANGUAGE = "app.language"
RECENT_ACTORS = "desk.recent_actors"


@dataclass(frozen=True)
class ClubSettings:
    club_name: str
    logo_path: str | None
    language: str


def get(db: Database, key: str, default: Any = None) -> Any:
    with db.session() as s:
        row = s.get(Setting, key)
        return default if row is None else json.loads(row.value)


def get_all(db: Database) -> dict[str, Any]:
    with db.session() as s:
        return {row.key: json.loads(row.value) for row in s.scalars(select(Setting))}


def put(db: Database, actor: Actor, key: str, value: Any, *, audited: bool = True) -> None:
    with db.session() as s:
        row = s.get(Setting, key)
        before = None if row is None else json.loads(row.value)
        if row is None:
            s.add(Setting(key=key, value=json.dumps(value, ensure_ascii=False)))
        else:
            row.value = json.dumps(value, ensure_ascii=False)
        if audited and before != value:
            audit(s, actor, "settings.change", "setting", key, before=before, after=value)


def club_settings(db: Database) -> ClubSettings:
    values = get_all(db)
    return ClubSettings(
        club_name=values.get(CLUB_NAME) or _("My club"),
        logo_path=values.get(CLUB_LOGO),
        language=values.get(LANGUAGE) or "en",
    )


def save_club_settings(
    db: Database, actor: Actor, club_name: str, logo_path: str | None, language: str
) -> None:
    """Validate everything first, then write in one transaction."""
    require(actor, "settings.edit", db)  # permission table
    name = club_name.strip()
    if not name:
        raise ServiceError("club-name-required", _("The club needs a name."), field="club_name")
    if len(name) > 120:
        raise ServiceError("club-name-too-long", _("The club name is too long (120 characters at most)."))
    if logo_path and not Path(logo_path).is_file():
        raise ServiceError("logo-missing", _("The logo file does not exist: {path}").format(path=logo_path))
    if language not in LANGUAGES and language != PSEUDO:
        raise ServiceError("unknown-language", _("Unknown language: {lang}").format(lang=language))
    new = {CLUB_NAME: name, CLUB_LOGO: logo_path or None, LANGUAGE: language}
    with db.session() as s:
        for key, value in new.items():
            row = s.get(Setting, key)
            before = None if row is None else json.loads(row.value)
            if before == value:
                continue
            if row is None:
                s.add(Setting(key=key, value=json.dumps(value, ensure_ascii=False)))
            else:
                row.value = json.dumps(value, ensure_ascii=False)
            audit(s, actor, "settings.change", "setting", key, before=before, after=value)
