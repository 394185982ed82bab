"""The command-line frame: global options, exit codes, JSON output, translated one-line errors.

Exit codes: 0 success, 1 refused input (one line per reason on stderr, in the chosen language), 2 wrong usage.
Each area registers its commands in a module listed in :data:`COMMAND_MODULES`; a command handler takes
``(ctx, args)`` and returns a JSON-able value (what ``--json`` prints) and optionally a text for people.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from clubdesk import i18n
from clubdesk.cli import argparse_i18n
from clubdesk.i18n import N_, _


def db_target(value: str) -> Path | str:
    """``--db``: a club server's URL (``postgresql+psycopg://…``) stays text, else a file path."""
    return value if "://" in value and not value.startswith("sqlite") else Path(value)


COMMAND_MODULES: tuple[str, ...] = (
    "clubdesk.cli.general",
    "clubdesk.cli.members",
    "clubdesk.cli.events",
    "clubdesk.cli.entrants",
    "clubdesk.cli.night",
    "clubdesk.cli.standings",
    "clubdesk.cli.discipline",
    "clubdesk.cli.reports",
    "clubdesk.cli.safety",
    "clubdesk.cli.staff",
    "clubdesk.cli.dbcopy",
    "clubdesk.cli.share",
    "clubdesk.cli.phones",  # table-links
    "clubdesk.cli.web",  # serve
    "clubdesk.cli.federation",  # signed event files, the hub
)


class Refused(Exception):
    """A refusal raised by the CLI itself (bad file name, unknown id...): exit 1."""

    def __init__(self, message: str, details: list[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or []


@dataclass
class Output:
    data: Any
    text: str | None = None


@dataclass
class Context:
    db_path: Path | str | None  # a file, or a club server's URL
    lang: str
    json: bool
    as_name: str | None = None
    _db: Any = field(default=None, repr=False)
    _actor: Any = field(default=None, repr=False)

    def database(self, *, demo: bool = False) -> Any:
        """Open (and migrate) the database: ``--db``, else the demo file or the user data dir's file."""
        if self._db is None:
            from clubdesk import paths
            from clubdesk.storage import Database

            if self.db_path is not None:
                path = self.db_path
            else:
                path = paths.demo_db_path() if demo else paths.default_db_path()
            from clubdesk.storage import is_server_url

            if is_server_url(path):
                from clubdesk.server import password_for_url

                self._db = Database(
                    path, backups_dir=paths.backups_dir(), password=password_for_url(str(path))
                )
            else:
                self._db = Database(path, backups_dir=None if self.db_path else paths.backups_dir())
                if self._db.read_only:  # said once, before what is read; a write is refused clearly
                    print(
                        _("{path} is read-only: it is open for reading only; nothing can be saved.").format(
                            path=self._db.path
                        ),
                        file=sys.stderr,
                    )
        return self._db

    def actor(self) -> Any:
        """Who acts. Once the club has staff accounts, only a person proved by PIN (``--as NAME`` with
        ``CLUBDESK_PIN`` or a prompt): ``CLUBDESK_ROLE`` then grants nothing. Without accounts
        (a one-person club) ``CLUBDESK_ACTOR``/``CLUBDESK_ROLE`` say who acts, as before."""
        from clubdesk.services import club
        from clubdesk.services.kernel import Actor, Role

        if self._actor is not None:
            return self._actor
        if club.has_accounts(self.database()):
            if not self.as_name:
                raise Refused(
                    _("This club has staff accounts: say who you are with --as NAME (PIN in CLUBDESK_PIN).")
                )
            pin = os.environ.get("CLUBDESK_PIN")
            if pin is None:
                if not sys.stdin.isatty():
                    raise Refused(_("Give the PIN of {name} in CLUBDESK_PIN.").format(name=self.as_name))
                import getpass

                pin = getpass.getpass(_("PIN for {name}: ").format(name=self.as_name))
            self._actor = club.authenticate(self.database(), self.as_name, pin)
            return self._actor
        name = (self.as_name or os.environ.get("CLUBDESK_ACTOR", "")).strip() or "CLI"
        role = os.environ.get("CLUBDESK_ROLE", "secretary").strip().lower()
        try:
            self._actor = Actor(name, Role(role))
        except ValueError as exc:
            raise Refused(_("Unknown role in CLUBDESK_ROLE: {role}").format(role=role)) from exc
        return self._actor

    def viewer(self) -> Any:
        """Who is reading (for what a role may see): the proved person, or nobody in particular when the club
        has accounts and no ``--as`` was given; in a one-person club, the person acting."""
        from clubdesk.services import club
        from clubdesk.services.kernel import Actor, Role

        if club.has_accounts(self.database()) and not self.as_name:
            return Actor("?", Role.SCORER)  # sees no more than the least of the roles
        return self.actor()


Handler = Callable[[Context, argparse.Namespace], Output | Any]


class _Parser(argparse.ArgumentParser):
    """argparse that exits 2 with a translated prefix on wrong usage, and names the commands closest to a
    mistyped one instead of listing them all."""

    def error(self, message: str) -> Any:  # noqa: D401 - argparse API
        self.print_usage(sys.stderr)
        self.exit(2, _("clubdesk-cli: wrong usage: {message}").format(message=message) + "\n")

    def _check_value(self, action: argparse.Action, value: Any) -> None:  # argparse's hook for choices
        if isinstance(action.choices, Mapping) and isinstance(value, str) and value not in action.choices:
            close = difflib.get_close_matches(value, list(action.choices), n=3, cutoff=0.6)
            if close:
                message = _("invalid choice: {value} (did you mean {names}?)").format(
                    value=repr(value), names=", ".join(close)
                )
                raise argparse.ArgumentError(action, message)
        super()._check_value(action, value)


def language_code(value: str) -> str:
    """A ``--lang`` value: one of the four languages, in any case (``TR`` is ``tr``); else wrong usage."""
    code = value.strip().lower()
    if code in i18n.LANGUAGES or code == i18n.PSEUDO:
        return code
    raise argparse.ArgumentTypeError(
        _("unknown language {value}: choose from {codes}").format(
            value=repr(value), codes=", ".join(i18n.LANGUAGES)
        )
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="clubdesk-cli", description=_("ClubDesk on the command line."))
    parser.add_argument(
        "--db",
        type=db_target,
        help=_("database file or club server URL (default: the one in the user data folder)"),
    )
    parser.add_argument(
        "--lang", type=language_code, default=None, help=_("language of messages: en, id, es, tr")
    )
    parser.add_argument("--json", action="store_true", help=_("print one JSON document on stdout"))
    parser.add_argument(
        "--as", dest="as_name", default=None, metavar="NAME", help=_("act as this staff member (PIN asked)")
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # that area has not landed yet
            raise
        module.register(sub)
    return parser


def add_json_flag(p: argparse.ArgumentParser) -> None:
    """Let ``--json`` also follow the command (``clubdesk-cli version --json``)."""
    p.add_argument("--json", action="store_true", dest="json_after", help=argparse.SUPPRESS)


def add_command(sub: Any, name: str, handler: Handler, help: str) -> argparse.ArgumentParser:  # noqa: A002
    """A command (or an action of a command group) run by ``handler``, taking ``--json`` after it too."""
    p: argparse.ArgumentParser = sub.add_parser(name, help=help)
    add_json_flag(p)
    p.set_defaults(handler=handler)
    return p


def parse_money(text: str, currency: str) -> int:
    """An amount typed in major units ("12.50") as integer minor units; a bad one is refused (exit 1)."""
    from clubdesk.standings.money import MoneyError, parse_amount

    try:
        return parse_amount(text, currency)
    except MoneyError as exc:
        raise Refused(exc.message or _("Not an amount: {text}").format(text=text)) from None


def major(amount: int, currency: str) -> int | float:
    """Minor units as a JSON number in major units (2500 EUR -> 25, 1250 EUR -> 12.5)."""
    from clubdesk.standings.money import currency_exponent

    value = Decimal(amount).scaleb(-currency_exponent(currency))
    return int(value) if value == value.to_integral_value() else float(value)


def event_currency(ctx: Context, event_id: int) -> str:
    """The currency of an event's fees (an unknown event is the events service's refusal)."""
    from clubdesk.services.events import get_event

    return get_event(ctx.database(), event_id).currency


def pre_lang(argv: Sequence[str]) -> str | None:
    """The ``--lang`` given, before the parser is built (its help is in that language); None when none is
    given or it is no language (the parser then refuses it)."""
    for i, arg in enumerate(argv):
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else None
        if arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
        if value is not None:
            try:
                return language_code(value)
            except argparse.ArgumentTypeError:
                return None
    return None


# Titles of the text tables' columns: the JSON keys (what --json prints) shown as words for people.
FIELD_TITLES: dict[str, str] = {
    "number": N_("number"),
    "name": N_("name"),
    "club": N_("club"),
    "city": N_("city"),
    "rating": N_("rating"),
    "id": N_("no."),
    "entrant": N_("entrant"),
    "status": N_("status"),
    "waitlist_position": N_("waiting"),
    "paid": N_("paid"),
    "owed": N_("owed"),
    "checked_in": N_("checked in"),
    "code": N_("code"),
    "members": N_("members"),
    "joins_from_round": N_("from round"),
    "ruleset": N_("ruleset"),
    "format": N_("format"),
    "entry": N_("entry"),
    "capacity": N_("places"),
    "registered": N_("entered"),
    "waitlisted": N_("waiting list"),
    "fee": N_("fee"),
    "currency": N_("currency"),
    "parent": N_("main event"),
    "at": N_("when"),
    "at_utc": N_("when (UTC)"),
    "actor": N_("who"),
    "role": N_("role"),
    "action": N_("action"),
    "entity": N_("what"),
    "event": N_("event"),
    "round": N_("round"),
    "table": N_("table"),
    "before": N_("before"),
    "after": N_("after"),
    "reason": N_("reason"),
    "date": N_("date"),
    "count": N_("count"),
    "file": N_("file"),
    "kind": N_("kind"),
    "method": N_("method"),
    "amount": N_("amount"),
    "place": N_("place"),
    "points": N_("points"),
    "score": N_("score"),
    "seed": N_("seed"),
    "sides": N_("sides"),
    "text": N_("text"),
    "version": N_("version"),
    "database": N_("database"),
    "schema": N_("schema"),
    "lives": N_("lives"),
    "penalty": N_("penalty"),
    "incident": N_("incident"),
    "appeal": N_("appeal"),
    "refund": N_("refund"),
    "received": N_("received"),
    "refunded": N_("refunded"),
    "net": N_("net"),
    "start_at": N_("start"),
    "pages": N_("pages"),
    "rows": N_("rows"),
}


def _title(key: str) -> str:
    title = FIELD_TITLES.get(key)
    return _(title) if title is not None else key


def _value(key: str, value: Any) -> str:
    """A stored key shown as its word ("swiss" → "Swiss system"); JSON keeps the key."""
    from clubdesk import labels

    if isinstance(value, str):
        if key == "format":
            return labels.format_label(value)
        if key == "ruleset":
            return labels.ruleset_label(value)
        if key == "entry":
            return labels.entry_type_label(value)
        if key == "action":
            return labels.audit_action_label(value)
        if key == "role":
            return labels.role_label(value)
        if key == "entity":
            return labels.entity_label(value)
        if key == "status":
            return labels.status_label(value)
    return _cell(value)


def _render_text(data: Any) -> str:
    if isinstance(data, list):
        if not data:
            return _("(none)")
        if all(isinstance(row, dict) for row in data):
            keys = list(data[0].keys())
            cells = [{k: _value(k, r.get(k)) for k in keys} for r in data]
            widths = {k: max(len(_title(k)), *(len(c[k]) for c in cells)) for k in keys}
            lines = ["  ".join(_title(k).ljust(widths[k]) for k in keys)]
            lines += ["  ".join(c[k].ljust(widths[k]) for k in keys) for c in cells]
            return "\n".join(line.rstrip() for line in lines)
        return "\n".join(str(x) for x in data)
    if isinstance(data, dict):
        return "\n".join(f"{_title(k)}: {_value(k, v)}" for k, v in data.items())
    return str(data)


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    lang = pre_lang(argv) or os.environ.get("CLUBDESK_LANG") or "en"
    i18n.set_language(lang)
    missing = i18n.missing_catalog_warning(lang)
    if missing:
        print(missing, file=sys.stderr)
    argparse_i18n.install()  # "usage:", "options", argparse's errors in the chosen language too
    parser = build_parser()
    args = parser.parse_args(argv)
    ctx = Context(
        db_path=args.db,
        lang=lang,
        json=bool(args.json or getattr(args, "json_after", False)),
        as_name=args.as_name,
    )
    try:
        result = args.handler(ctx, args)
    except KeyboardInterrupt:
        return 130  # Ctrl+C: the command ends as a shell expects (what was not committed was not written)
    except Exception as exc:  # noqa: BLE001 - every refusal becomes one line and exit 1
        message, details = _refusal(exc)
        if message is None:
            raise
        for line in details:
            print(line, file=sys.stderr)
        print(_("clubdesk-cli: {message}").format(message=message), file=sys.stderr)
        return 1
    finally:
        if ctx._db is not None:
            ctx._db.close()
    out = result if isinstance(result, Output) else Output(result)
    if ctx.json:
        print(json.dumps(out.data, ensure_ascii=False))
    else:
        print(out.text if out.text is not None else _render_text(out.data))
    return 0


def _refusal(exc: Exception) -> tuple[str | None, list[str]]:
    """Known refusals become (message, details); anything else is a bug and is re-raised."""
    from clubdesk.games.errors import EntryError, RulesetError
    from clubdesk.services.kernel import ServiceError
    from clubdesk.storage import DatabaseError

    if isinstance(exc, Refused):
        return exc.message, exc.details
    if isinstance(exc, ServiceError):
        return exc.message, exc.details
    if isinstance(exc, DatabaseError):
        return str(exc), []
    if isinstance(exc, EntryError):
        return _("entry {index}: {reason}").format(index=exc.index + 1, reason=exc.message or exc.code), []
    if isinstance(exc, RulesetError):
        return str(exc), []
    if isinstance(exc, OverflowError):  # e.g. an id of 23 digits: a refusal, not a traceback
        return _("A number is too large."), []
    if isinstance(exc, OSError):
        return _("cannot use {file}: {reason}").format(file=exc.filename, reason=exc.strerror), []
    return None, []
