"""Staff accounts on the command line: ``staff add|list|pin|deactivate``."""

from __future__ import annotations

import argparse
from typing import Any

from clubdesk.cli.core import Context, Output, add_command
from clubdesk.i18n import _

ROLES = ("secretary", "referee", "scorer")


def register(sub: Any) -> None:
    group = sub.add_parser("staff", help=_("staff accounts: who may act, with which role and PIN"))
    actions = group.add_subparsers(dest="staff_action", metavar="ACTION")
    actions.required = True
    add = add_command(actions, "add", cmd_add, _("add a person (the first one is the secretary)"))
    add.add_argument("--name", required=True)
    add.add_argument("--role", required=True, choices=ROLES)
    add.add_argument("--pin", required=True, help=_("4 to 12 digits"))
    add_command(actions, "list", cmd_list, _("list the staff accounts"))
    pin = add_command(actions, "pin", cmd_pin, _("change a person's PIN"))
    pin.add_argument("--name", required=True)
    pin.add_argument("--pin", required=True, help=_("4 to 12 digits"))
    off = add_command(actions, "deactivate", cmd_deactivate, _("deactivate a person's account"))
    off.add_argument("--name", required=True)


def cmd_add(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import club

    db = ctx.database()
    first = not club.has_accounts(db)
    actor = _first_actor(args.name) if first else ctx.actor()
    info = club.add_staff(db, actor, args.name, args.role, args.pin)
    return Output(info.as_json(), _("{name} can now act as {role}.").format(name=info.name, role=info.role))


def _first_actor(name: str) -> Any:
    from clubdesk.services.kernel import Actor

    return Actor(" ".join(name.split()) or "CLI")


def cmd_list(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import club

    return Output([i.as_json() for i in club.list_staff(ctx.database())])


def cmd_pin(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import club

    info = club.set_pin(ctx.database(), ctx.actor(), args.name, args.pin)
    return Output(info.as_json(), _("The PIN of {name} is changed.").format(name=info.name))


def cmd_deactivate(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import club

    info = club.deactivate(ctx.database(), ctx.actor(), args.name)
    return Output(info.as_json(), _("{name} can no longer act.").format(name=info.name))
