"""The federation on the command line: a club's key and signed event files (``federation key|export|push``)
and the hub's work for the federation secretary (``federation init|club add|import|queue|merge|season|
serve``). The hub is a PostgreSQL database named by ``--hub URL`` or ``CLUBDESK_HUB_URL``."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from clubdesk.cli.core import Context, Output, Refused, add_command
from clubdesk.i18n import _


def register(sub: Any) -> None:
    group = sub.add_parser(
        "federation", help=_("signed event files and the federation's hub (season across clubs)")
    )
    actions = group.add_subparsers(dest="federation_action", metavar="ACTION")
    actions.required = True
    add_command(actions, "key", cmd_key, _("show this club's public key (for the federation secretary)"))
    exp = add_command(actions, "export", cmd_export, _("write the signed file of a finished event"))
    exp.add_argument("event", type=int, help=_("event id"))
    exp.add_argument("--out", type=Path, required=True, help=_("the file to write"))


def cmd_key(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import federation

    key = federation.public_key(ctx.database())
    data = {"club_uid": key.club_uid, "public_key": key.public_key, "kept_in": key.location}
    return Output(
        data,
        _(
            "This club's public key: {key}\n"
            "Give it to the federation secretary (federation club add NAME --key KEY)."
        ).format(key=key.public_key),
    )


def cmd_export(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import federation

    done = federation.export_event(ctx.database(), ctx.actor(), args.event, args.out)
    data = {
        "file": str(done.file),
        "event": done.event_uid,
        "digest": done.digest,
        "supersedes": done.supersedes,
        "tables": done.tables,
        "placings": done.placings,
    }
    return Output(
        data,
        _("Signed event file written to {file} ({tables} tables, {placings} places).").format(
            file=done.file, tables=done.tables, placings=done.placings
        ),
    )


def hub_url(args: argparse.Namespace) -> str:
    url = getattr(args, "hub", None) or os.environ.get("CLUBDESK_HUB_URL", "")
    if not url:
        raise Refused(_("Name the federation hub with --hub URL or CLUBDESK_HUB_URL."))
    return str(url)
