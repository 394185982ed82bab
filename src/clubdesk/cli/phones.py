"""Table entry on phones from the command line (the desk's side):
``table-links EVENT [--round R] --base URL --json`` → ``{"hall": url, "tables": [{"table": t, "url": url}]}``
(the tables' tokens are made when the round has none yet).

An unknown event or round, a proposed round or an address that is not ``http://host:port`` is refused
(exit 1, one line); nothing is written then.
"""

from __future__ import annotations

import argparse
from typing import Any

from clubdesk.cli.core import Context, Output, add_command
from clubdesk.i18n import _


def register(sub: Any) -> None:
    what = _("every table's address on the phones, and the hall's")
    p = add_command(sub, "table-links", cmd_table_links, what)
    p.add_argument("event", type=int)
    p.add_argument("--round", type=int, default=None, help=_("the round (default: the latest)"))
    p.add_argument(
        "--base",
        required=True,
        help=_("the address the hall reaches this desk at, e.g. http://192.168.1.20:8080"),
    )


def cmd_table_links(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import phones

    data = phones.table_links(ctx.database(), ctx.actor(), args.event, args.round, args.base)
    lines = [_("Hall: {url}").format(url=data["hall"])]
    lines += [_("Table {t}: {url}").format(t=t["table"], url=t["url"]) for t in data["tables"]]
    return Output({"hall": data["hall"], "tables": data["tables"]}, "\n".join(lines))
