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


def cmd_version(ctx: Context, args: argparse.Namespace) -> Output:
    return Output({"version": __version__}, _("ClubDesk {version}").format(version=__version__))


def register_info(sub: Any) -> None:
    p = add_command(sub, "info", cmd_info, _("show which database is open and its schema"))
    p.add_argument("--demo", action="store_true", help=_("the demo database"))


def cmd_info(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import settings as settings_service

    db = ctx.database(demo=args.demo)
    data = {
        "database": db.location,  # a file's path or the club server's URL without password (issue 25)
        "schema": db.revision(),
        "club": settings_service.club_settings(db).club_name,
    }
    return Output(data)
