"""Event commands (CONTRACTS.md §4): ``event create|list|show|readings|status|language`` and ``event-copy``
(next week's night from this week's); the desk's commands for entrants and money are in
:mod:`clubdesk.cli.entrants`.

Amounts on the command line and in ``--json`` output are decimal numbers in the currency's major unit
("12.50"); they are stored as integer minor units.
"""

from __future__ import annotations

import argparse
from typing import Any

from clubdesk.cli.arguments import date_arg, datetime_arg, lengths_arg, override_arg
from clubdesk.cli.core import Context, Output, add_command, major, parse_money
from clubdesk.i18n import LANGUAGE_NAMES, _


def register(sub: Any) -> None:
    parser_class = sub._parser_class
    event = sub.add_parser("event", help=_("events: create, list, show, change status"))
    esub = event.add_subparsers(dest="event_command", metavar="ACTION", parser_class=parser_class)
    esub.required = True

    c = add_command(esub, "create", cmd_event_create, _("create an event"))
    c.add_argument("--name", required=True)
    c.add_argument("--ruleset", required=True, help=_("gaple-tournament, gaple-club, domino-es or tavla"))
    c.add_argument("--format", required=True, dest="fmt")
    c.add_argument("--rounds", type=int, default=None)
    c.add_argument("--match-length", type=lengths_arg, default=(), help=_("tavla: N, or N,N,M per round"))
    c.add_argument("--target", type=int, default=None)
    c.add_argument("--capacity", type=int, default=None)
    c.add_argument("--fee", default="0", help=_("entry fee in major units, e.g. 12.50"))
    c.add_argument("--early-fee", default=None, help=_("price for payments made by --early-until"))
    c.add_argument("--early-until", type=date_arg, default=None)
    c.add_argument("--fee-per", choices=("entrant", "person"), default="entrant")
    c.add_argument("--currency", default="EUR")
    c.add_argument("--entry", choices=("single", "pair", "team"), default="single")
    c.add_argument("--parent", type=int, default=None, help=_("main event of a side event"))
    c.add_argument("--side-fee", choices=("full", "free", "discount"), default="full")
    c.add_argument("--side-discount", type=int, default=0, help=_("percent off for main-event entrants"))
    c.add_argument("--refund-before", type=int, default=100, help=_("percent refunded before the close"))
    c.add_argument("--refund-after", type=int, default=0, help=_("percent refunded after the close"))
    c.add_argument(
        "--closes", type=datetime_arg, default=None, help=_("registration close, YYYY-MM-DD HH:MM")
    )
    c.add_argument("--start", type=datetime_arg, default=None, help=_("start time, YYYY-MM-DD HH:MM"))
    c.add_argument("--arrival-minutes", type=int, default=10, help=_("arrival deadline before the start"))
    c.add_argument("--starts-on", type=date_arg, default=None)
    c.add_argument("--ends-on", type=date_arg, default=None)
    c.add_argument("--venue", default="")
    c.add_argument("--season", default="")
    c.add_argument("--class", dest="coefficient_class", default="")
    c.add_argument("--override", type=override_arg, action="append", default=[], help=_("ruleset NAME=VALUE"))

    add_command(esub, "list", cmd_event_list, _("list events"))

    show = add_command(esub, "show", cmd_event_show, _("show one event"))
    show.add_argument("event", type=int)

    rr = add_command(
        esub,
        "readings",
        cmd_event_readings,
        _("the event's rule readings (B6, B8, T12b, G3); --set / --new preview a switch, --apply saves it"),
    )
    rr.add_argument("event", type=int)
    rr.add_argument(
        "--set",
        action="append",
        type=override_arg,
        default=[],
        metavar="NAME=VALUE",
        help=_("a reading to switch"),
    )
    rr.add_argument("--new", action="store_true", help=_("switch to the preset's current readings"))
    rr.add_argument(
        "--apply", action="store_true", help=_("save the switch (audited); without it: a preview")
    )
    rr.add_argument("--reason", default=None, help=_("why the event switches (written in the audit log)"))

    st = add_command(esub, "status", cmd_event_status, _("open, close, drawn, running, finished"))
    st.add_argument("event", type=int)
    st.add_argument("status")

    lg = add_command(esub, "language", cmd_event_language, _("the language the event's reports print in"))
    lg.add_argument("event", type=int)
    lg.add_argument(
        "language",
        nargs="?",
        default=None,
        help=_("en, id, es or tr; club: the club's; left out: show it"),
    )

    cp = add_command(
        sub,
        "event-copy",
        cmd_event_copy,
        _("a new event with the settings and prize plan of an event (no entrants): a weekly night"),
    )
    cp.add_argument("event", type=int)
    cp.add_argument(
        "--date", type=date_arg, default=None, help=_("its first day (default: a week later, same weekday)")
    )
    cp.add_argument("--name", default=None, help=_("its name (default: the same name)"))


# --------------------------------------------------------------------------- handlers


def cmd_event_create(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import events

    currency = args.currency.strip().upper()
    fee = parse_money(args.fee, currency)
    early = None if args.early_fee is None else parse_money(args.early_fee, currency)
    data = events.EventData(
        name=args.name,
        ruleset=args.ruleset,
        format=args.fmt,
        entry_type=args.entry,
        overrides=dict(args.override),
        rounds=args.rounds,
        match_lengths=tuple(args.match_length),
        target=args.target,
        starts_on=args.starts_on,
        ends_on=args.ends_on,
        venue=args.venue,
        season=args.season,
        coefficient_class=args.coefficient_class,
        capacity=args.capacity,
        currency=currency,
        fee=fee,
        early_fee=early,
        early_until=args.early_until,
        fee_per=args.fee_per,
        parent_event_id=args.parent,
        side_fee_rule=args.side_fee,
        side_discount_percent=args.side_discount,
        refund_percent_before_close=args.refund_before,
        refund_percent_after_close=args.refund_after,
        registration_closes_at=args.closes,
        start_at=args.start,
        arrival_deadline_minutes=args.arrival_minutes,
    )
    info = events.create_event(ctx.database(), ctx.actor(), data)
    return Output({"id": info.id}, _("Event {id} created: {name}").format(id=info.id, name=info.name))


def _event_json(info: Any) -> dict[str, Any]:
    return {
        "id": info.id,
        "name": info.name,
        "ruleset": info.ruleset,
        "format": info.format,
        "entry": info.entry_type,
        "status": info.status,
        "capacity": info.capacity,
        "registered": info.registered,
        "waitlisted": info.waitlisted,
        "fee": major(info.fee, info.currency),
        "currency": info.currency,
        "parent": info.parent_event_id,
    }


def cmd_event_copy(ctx: Context, args: argparse.Namespace) -> Output:
    """A new event from this one ("New event from…"): ``{"id", "name", ..., "copied_from", "starts_on"}``."""
    from clubdesk.services import events

    info = events.copy_event(ctx.database(), ctx.actor(), args.event, starts_on=args.date, name=args.name)
    data = _event_json(info)
    data |= {"copied_from": args.event, "starts_on": info.starts_on.isoformat() if info.starts_on else None}
    return Output(
        data,
        _("Event {id} ({name}) created from event {src}, on {day}.").format(
            id=info.id, name=info.name, src=args.event, day=data["starts_on"]
        ),
    )


def cmd_event_list(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import events

    return Output([_event_json(e) for e in events.list_events(ctx.database())])


def cmd_event_show(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import events, night

    info = events.get_event(ctx.database(), args.event)
    data = _event_json(info)
    data.update(
        {
            "overrides": info.overrides,
            "rounds": info.rounds,
            "match_lengths": list(info.match_lengths),
            "early_fee": None if info.early_fee is None else major(info.early_fee, info.currency),
            "early_until": info.early_until.isoformat() if info.early_until else None,
            "fee_per": info.fee_per,
            "registration_closes_at": info.registration_closes_at.isoformat(" ")
            if info.registration_closes_at
            else None,
            "start_at": info.start_at.isoformat(" ") if info.start_at else None,
            "arrival_deadline_minutes": info.arrival_deadline_minutes,
            "current_round": info.current_round,
        }
    )
    from clubdesk.services import events

    # the event settings show each rule reading the event uses (and the preset's)
    data["readings"] = [r.as_json() for r in night.event_readings(ctx.database(), args.event)]
    return Output(data)


def cmd_event_readings(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    db = ctx.database()
    changes: dict[str, Any] = night.new_readings(db, args.event) if args.new else {}
    changes.update(dict(args.set))
    if not changes:
        settings = night.event_readings(db, args.event)
        lines = [
            _("{rule} {key}: {value} (preset: {preset})").format(
                rule=r.rule,
                key=r.key,
                value=night.value_label(r.value),
                preset=night.value_label(r.preset_value),
            )
            for r in settings
        ]
        text = "\n".join(lines) if lines else _("No rule reading of this preset changed.")
        return Output({"readings": [r.as_json() for r in settings]}, text)
    if args.apply:
        result = night.apply_readings(db, ctx.actor(), args.event, changes, args.reason)
    else:
        result = night.preview_readings(db, args.event, changes)
    head = _("Saved:") if result.applied else _("Preview (nothing saved; --apply saves it):")
    return Output(result.as_json(), "\n".join([head, *result.lines()]))


def cmd_event_status(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import events

    info = events.set_status(ctx.database(), ctx.actor(), args.event, args.status)
    return Output({"id": info.id, "status": info.status})


def cmd_event_language(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import club, events

    db = ctx.database()
    if args.language is not None:
        events.set_event_language(
            db, ctx.actor(), args.event, None if args.language == "club" else args.language
        )
    else:
        events.get_event(db, args.event)  # an unknown event is refused
    lang = events.event_language(db, args.event)
    shown = lang or club.club_settings(db).language
    return Output(
        {"event": args.event, "language": lang, "reports_in": shown},
        _("Reports of event {event} print in {language}.").format(
            event=args.event, language=LANGUAGE_NAMES.get(shown, shown)
        ),
    )
