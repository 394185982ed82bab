"""Printed outputs on the command line (CONTRACTS.md §4):
``report KIND EVENT [--round R] [--table T] [--lang L] [--paper a4/letter] --out FILE.pdf``
→ ``{"pages": n}``.

An unknown kind is wrong usage (exit 2); an unknown event, round or table is refused (exit 1, one line) and
no file is written. Without ``--lang`` the report speaks the language given to ``clubdesk-cli --lang``, else
the event's report language (``clubdesk-cli event language EVENT LANG``), else the club's from the settings.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from clubdesk.cli.core import Context, Output, add_command
from clubdesk.i18n import _, ngettext


def register(sub: Any) -> None:
    from clubdesk.services.publishing import KINDS

    p = add_command(sub, "report", cmd_report, _("print a report to a PDF file"))
    p.add_argument("kind", choices=KINDS, help=_("what to print"))
    p.add_argument("event", type=int)
    p.add_argument("--round", type=int, default=None, help=_("the round (default: the latest)"))
    p.add_argument("--table", type=int, default=None, help=_("one table (default: every table)"))
    p.add_argument("--lang", dest="report_lang", default=None, help=_("language of the report"))
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", type=str.lower)
    p.add_argument("--out", type=Path, required=True, help=_("the PDF file to write"))


def cmd_report(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import publishing

    lang = args.report_lang
    if lang is None and args.lang is not None:
        lang = args.lang  # clubdesk-cli --lang L report ...: the report follows the messages' language
    request = publishing.ReportRequest(
        kind=args.kind,
        event_id=args.event,
        round=args.round,
        table=args.table,
        language=lang,
        paper=args.paper,
    )
    pages = publishing.generate(ctx.database(), request, args.out)
    return Output(
        {"pages": pages},
        ngettext("{file}: {n} page", "{file}: {n} pages", pages).format(file=args.out, n=pages),
    )
