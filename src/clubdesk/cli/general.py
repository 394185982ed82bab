"""General commands: ``version``."""

from __future__ import annotations

import argparse
from typing import Any

from clubdesk import __version__
from clubdesk.cli.core import Context, Output, add_command
from clubdesk.i18n import _


def register(sub: Any) -> None:
    add_command(sub, "version", cmd_version, _("print the ClubDesk version"))
    register_info(sub)
    register_guide(sub)


def cmd_version(ctx: Context, args: argparse.Namespace) -> Output:
    return Output({"version": __version__}, _("ClubDesk {version}").format(version=__version__))


def register_info(sub: Any) -> None:
    p = add_command(sub, "info", cmd_info, _("show which database is open and its schema"))
    p.add_argument("--demo", action="store_true", help=_("the demo database"))


def cmd_info(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import club

    db = ctx.database(demo=args.demo)
    data = {
        "database": db.location,  # a file's path or the club server's URL without password
        "schema": db.revision(),
        "club": club.club_settings(db).club_name,
    }
    return Output(data)


def register_guide(sub: Any) -> None:
    p = add_command(sub, "guide", cmd_guide, _("print where the user guide is (the page to open)"))
    p.add_argument("--lang", dest="guide_lang", default=None, help=_("the guide's language: en, id, es, tr"))


def cmd_guide(ctx: Context, args: argparse.Namespace) -> Output:
    """The built guide's start page in the language asked (else the CLI's language)."""
    from clubdesk import guide
    from clubdesk.i18n import LANGUAGE_NAMES
    from clubdesk.services.kernel import ServiceError

    lang = args.guide_lang or ctx.lang
    if lang not in LANGUAGE_NAMES:
        raise ServiceError("unknown-language", _("Unknown language: {lang}").format(lang=lang), lang=lang)
    folder = guide.guide_dir(lang)
    if folder is None:
        raise ServiceError(
            "guide-not-built",
            _("The user guide is not built in {folder}: run scripts/dev.sh guide.").format(
                folder=guide.guide_root()
            ),
        )
    index = folder / guide.START_PAGE
    data = {
        "lang": folder.name,
        "asked": lang,
        "folder": str(folder),
        "index": str(index),
        "url": index.resolve().as_uri(),
        "languages": guide.built_languages(),
        "pictures": not guide.pictures_missing(folder),
    }
    text = str(index)
    if folder.name != lang:
        text += "\n" + _("(not built in {lang}: the English guide)").format(lang=lang)
    if guide.pictures_missing(folder):
        text += "\n" + guide.without_pictures()
    return Output(data, text)
