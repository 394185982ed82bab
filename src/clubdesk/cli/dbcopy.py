"""``db copy SRC DST``: a whole club from one backend to another."""

from __future__ import annotations

import argparse
from typing import Any

from clubdesk.cli.core import Context, Output, add_command, db_target
from clubdesk.i18n import _


def register(sub: Any) -> None:
    group = sub.add_parser("db", help=_("the database itself: copy a club between a file and a club server"))
    actions = group.add_subparsers(dest="db_action", metavar="ACTION")
    actions.required = True
    c = add_command(
        actions, "copy", cmd_copy, _("copy a whole club into a new, empty database (a file or a server URL)")
    )
    c.add_argument("source", type=db_target, help=_("the database to copy: a file or a server URL"))
    c.add_argument("destination", type=db_target, help=_("the new database: a file or a server URL"))


def _open(target: Any, ctx: Context) -> Any:
    from clubdesk import paths
    from clubdesk.storage import Database, is_server_url

    if is_server_url(target):
        from clubdesk.server import password_for_url

        return Database(str(target), backups_dir=paths.backups_dir(), password=password_for_url(str(target)))
    return Database(target, backups_dir=paths.backups_dir())


def cmd_copy(ctx: Context, args: argparse.Namespace) -> Output:
    from pathlib import Path

    from clubdesk.services.club import copy_database
    from clubdesk.services.kernel import require
    from clubdesk.storage import DatabaseError

    if isinstance(args.destination, Path) and args.destination.exists() and args.destination.stat().st_size:
        raise DatabaseError(
            "copy-not-empty",
            _("{db} already exists; copy only into a new, empty database.").format(db=args.destination),
        )
    source = _open(args.source, ctx)
    try:
        ctx._db = source  # who acts is checked against the source club's staff accounts
        require(ctx.actor(), "database.backup", source)
        destination = _open(args.destination, ctx)
        try:
            report = copy_database(source, destination, ctx.actor())
        finally:
            destination.close()
    finally:
        source.close()
        ctx._db = None
    lines = [
        _("Copied {n} rows from {src} to {dst}; every table checked:").format(
            n=report.rows, src=report.source, dst=report.destination
        )
    ]
    lines += [
        f"  {t.table:<24} {t.rows:>7}  {t.checksum[:16]}  {'ok' if t.ok else '!!'}" for t in report.tables
    ]
    return Output(report.as_json(), "\n".join(lines))
