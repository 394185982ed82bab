"""Sharing on the command line:
``share KIND EVENT [--round R] [--lang L] --format png --out DIR`` → ``{"files": [...]}`` (images for the
club's group chat) and ``share site [--season S] [--lang L] --out DIR`` → ``{"files": [...]}`` (the site).

An unknown event or round, an empty event or a folder that cannot be written is refused (exit 1, one line)
and nothing is left half-written.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from clubdesk.cli.core import Context, Output, Refused, add_command
from clubdesk.i18n import _, ngettext


def register(sub: Any) -> None:
    from clubdesk.services.publishing import FORMATS
    from clubdesk.services.publishing import SHARE_KINDS as KINDS

    p = add_command(sub, "share", cmd_share, _("images for the group chat, or the club's web site"))
    p.add_argument("kind", choices=(*KINDS, "site"), help=_("what to share"))
    p.add_argument("event", type=int, nargs="?", default=None)
    p.add_argument("--round", type=int, default=None, help=_("the round (default: the latest)"))
    p.add_argument("--season", default=None, help=_("the season of the site (default: the latest)"))
    p.add_argument("--lang", dest="share_lang", default=None, help=_("language of the images or the site"))
    p.add_argument("--format", dest="share_format", choices=FORMATS, default="png")
    p.add_argument("--out", type=Path, required=True, help=_("the folder to write into"))


def cmd_share(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import publishing

    lang = args.share_lang
    if lang is None and args.lang is not None:
        lang = args.lang
    if args.kind == "site":
        if args.event is not None:
            raise Refused(_("The site takes no event: use --season."))
        files = publishing.share_site(ctx.database(), args.out, season=args.season, language=lang)
    else:
        if args.event is None:
            raise Refused(_("Say which event to share."))
        files = publishing.share_images(
            ctx.database(),
            args.kind,
            args.event,
            args.out,
            round_no=args.round,
            language=lang,
            fmt=args.share_format,
        )
    n = len(files)
    return Output(
        {"files": [str(f) for f in files]},
        ngettext("{n} file written in {dir}", "{n} files written in {dir}", n).format(n=n, dir=args.out),
    )
