"""Event and desk commands (CONTRACTS.md §4): ``event create|list|show|status``, ``register``, ``withdraw``,
``pay``, ``refund``, ``promote``, ``checkin``, ``no-shows``, ``entrants``, ``cashbox``, ``outbox``; and
``event-copy`` (next week's night from this week's).

Amounts on the command line and in ``--json`` output are decimal numbers in the currency's major unit
("12.50"); they are stored as integer minor units.
"""

from __future__ import annotations

import argparse
import json
from datetime import date, datetime
from typing import Any

from clubdesk import labels
from clubdesk.cli.core import Context, Output, add_command, event_currency, major, parse_money
from clubdesk.i18n import LANGUAGE_NAMES, _


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a date (YYYY-MM-DD): {text}").format(text=text)) from None


def _datetime(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text.replace("T", " "))
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("not a date and time (YYYY-MM-DD HH:MM): {text}").format(text=text)
        ) from None


def _lengths(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.replace(" ", "").split(",") if x)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("match lengths are whole numbers: {text}").format(text=text)
        ) from None


def _override(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(_("an override is NAME=VALUE: {text}").format(text=text))
    key, raw = text.split("=", 1)
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip(), value


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
    c.add_argument("--match-length", type=_lengths, default=(), help=_("tavla: N, or N,N,M per round"))
    c.add_argument("--target", type=int, default=None)
    c.add_argument("--capacity", type=int, default=None)
    c.add_argument("--fee", default="0", help=_("entry fee in major units, e.g. 12.50"))
    c.add_argument("--early-fee", default=None, help=_("price for payments made by --early-until"))
    c.add_argument("--early-until", type=_date, default=None)
    c.add_argument("--fee-per", choices=("entrant", "person"), default="entrant")
    c.add_argument("--currency", default="EUR")
    c.add_argument("--entry", choices=("single", "pair", "team"), default="single")
    c.add_argument("--parent", type=int, default=None, help=_("main event of a side event"))
    c.add_argument("--side-fee", choices=("full", "free", "discount"), default="full")
    c.add_argument("--side-discount", type=int, default=0, help=_("percent off for main-event entrants"))
    c.add_argument("--refund-before", type=int, default=100, help=_("percent refunded before the close"))
    c.add_argument("--refund-after", type=int, default=0, help=_("percent refunded after the close"))
    c.add_argument("--closes", type=_datetime, default=None, help=_("registration close, YYYY-MM-DD HH:MM"))
    c.add_argument("--start", type=_datetime, default=None, help=_("start time, YYYY-MM-DD HH:MM"))
    c.add_argument("--arrival-minutes", type=int, default=10, help=_("arrival deadline before the start"))
    c.add_argument("--starts-on", type=_date, default=None)
    c.add_argument("--ends-on", type=_date, default=None)
    c.add_argument("--venue", default="")
    c.add_argument("--season", default="")
    c.add_argument("--class", dest="coefficient_class", default="")
    c.add_argument("--override", type=_override, action="append", default=[], help=_("ruleset NAME=VALUE"))

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
        type=_override,
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
        "--date", type=_date, default=None, help=_("its first day (default: a week later, same weekday)")
    )
    cp.add_argument("--name", default=None, help=_("its name (default: the same name)"))

    r = add_command(sub, "register", cmd_register, _("register a member (or a pair, or a team) for an event"))
    r.add_argument("event", type=int)
    r.add_argument("number", help=_("member number"))
    r.add_argument("--partner", default=None)
    r.add_argument("--team", default=None, help=_("team name"))
    r.add_argument("--player", action="append", default=[], help=_("further team player (repeat)"))
    r.add_argument("--substitute", action="append", default=[], help=_("team substitute (repeat)"))

    w = add_command(
        sub, "withdraw", cmd_withdraw, _("withdraw an entrant (refund per policy, waiting list moves up)")
    )
    w.add_argument("event", type=int)
    w.add_argument("entrant", type=int)
    w.add_argument("--member", default=None, help=_("only this player leaves the pair or team"))
    w.add_argument("--substitute", default=None, help=_("member number of the substitute"))
    w.add_argument("--reason", default="")

    p = add_command(sub, "pay", cmd_pay, _("record a payment"))
    p.add_argument("event", type=int)
    p.add_argument("entrant", type=int)
    p.add_argument("--amount", required=True)
    p.add_argument("--method", required=True, choices=("cash", "card", "transfer", "pos"))
    p.add_argument("--reference", default="")
    p.add_argument("--paid-at", type=_datetime, default=None, help=_("when it was paid (default: now)"))

    rf = add_command(sub, "refund", cmd_refund, _("give money back to an entrant"))
    rf.add_argument("event", type=int)
    rf.add_argument("entrant", type=int)
    rf.add_argument("--amount", required=True)
    rf.add_argument("--reason", default="")

    pr = add_command(sub, "promote", cmd_promote, _("move a waiting entrant up (needs a free place)"))
    pr.add_argument("event", type=int)
    pr.add_argument("entrant", type=int)

    ci = add_command(
        sub, "checkin", cmd_checkin, _("check in by name, code, QR payload, member number or phone")
    )
    ci.add_argument("event", type=int)
    ci.add_argument("code")

    ns = add_command(sub, "no-shows", cmd_no_shows, _("give no-shows' places to waiting entrants present"))
    ns.add_argument("event", type=int)

    en = add_command(sub, "entrants", cmd_entrants, _("list an event's entrants"))
    en.add_argument("event", type=int)

    pd = add_command(sub, "pairs-draw", cmd_pairs_draw, _("draw a league's pairs by lot, once (B1)"))
    pd.add_argument("event", type=int)
    pd.add_argument("--seed", type=int, required=True, help=_("the same seed gives the same draw"))

    cb = add_command(sub, "cashbox", cmd_cashbox, _("the cash box of a day, per method"))
    cb.add_argument("--date", type=_date, default=None)
    cb.add_argument("--event", type=int, default=None)

    ob = add_command(sub, "outbox", cmd_outbox, _("notifications waiting to be sent"))
    ob.add_argument("--event", type=int, default=None)
    ob.add_argument("--mark-sent", action="store_true", help=_("mark them sent (printed)"))


# --------------------------------------------------------------------------- money helpers


def _money_text(amount: int, currency: str) -> str:
    from clubdesk.services.kernel import money_text

    return money_text(amount, currency)


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


def cmd_register(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import desk

    reg = desk.register(
        ctx.database(),
        ctx.actor(),
        args.event,
        args.number,
        partner=args.partner,
        others=args.player,
        substitutes=args.substitute,
        team_name=args.team,
    )
    data = {
        "entrant": reg.entrant,
        "status": reg.status,
        "waitlist_position": reg.waitlist_position,
        "code": reg.code,
    }
    return Output(data, reg.message)


def cmd_withdraw(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import desk

    currency = event_currency(ctx, args.event)
    out = desk.withdraw(
        ctx.database(),
        ctx.actor(),
        args.event,
        args.entrant,
        member=args.member,
        substitute=args.substitute,
        reason=args.reason,
    )
    return Output({"refund": major(out.refund, currency), "promoted": out.promoted}, out.message)


def cmd_pay(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import money

    currency = event_currency(ctx, args.event)
    p = money.pay(
        ctx.database(),
        ctx.actor(),
        args.event,
        args.entrant,
        parse_money(args.amount, currency),
        args.method,
        reference=args.reference,
        paid_at=args.paid_at,
    )
    return Output(
        {"payment": p.id},
        _("Payment {id}: {amount} by {method}.").format(
            id=p.id, amount=_money_text(p.amount, currency), method=p.method
        ),
    )


def cmd_refund(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import money

    currency = event_currency(ctx, args.event)
    pays = money.refund(
        ctx.database(),
        ctx.actor(),
        args.event,
        args.entrant,
        parse_money(args.amount, currency),
        reason=args.reason,
    )
    total = -sum(p.amount for p in pays)
    return Output(
        {"payments": [p.id for p in pays], "refund": major(total, currency)},
        _("Refunded {amount}.").format(amount=_money_text(total, currency)),
    )


def cmd_promote(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import desk

    entrant = desk.promote(ctx.database(), ctx.actor(), args.event, args.entrant)
    return Output({"entrant": entrant, "status": "registered"})


def cmd_checkin(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import desk

    c = desk.checkin(ctx.database(), ctx.actor(), args.event, args.code)
    data = {
        "entrant": c.entrant,
        "name": c.name,
        "status": c.status,
        "joins_from_round": c.joins_from_round,
        "owed": major(c.owed, c.currency),
    }
    return Output(data, c.message)


def cmd_no_shows(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import desk

    swaps = desk.give_no_show_places(ctx.database(), ctx.actor(), args.event)
    data = [{"no_show": x.no_show, "promoted": x.promoted} for x in swaps]
    text = "\n".join(
        _("{new} takes the place of {old}.").format(new=x.promoted_name, old=x.no_show_name) for x in swaps
    ) or _("No place changed hands.")
    return Output(data, text)


def cmd_pairs_draw(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import events

    res = events.draw_league_pairs(ctx.database(), ctx.actor(), args.event, args.seed)
    return Output(res.as_json(), "\n".join(res.explanations))


def cmd_entrants(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import desk

    rows = desk.by_name(desk.entrants(ctx.database(), args.event))
    data = [
        {
            "entrant": r.entrant,
            "name": r.name,
            "status": r.status,
            "waitlist_position": r.waitlist_position,
            "paid": major(r.paid, r.currency),
            "checked_in": r.checked_in,
            "owed": major(r.owed, r.currency),
            "code": r.code,
            "members": list(r.members),
            "joins_from_round": r.joins_from_round,
        }
        for r in rows
    ]
    return Output(data)


def cmd_cashbox(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import money

    box = money.cash_box(ctx.database(), args.date, event_id=args.event)
    lines = [
        {
            "currency": line.currency,
            "method": line.method,
            "received": major(line.received, line.currency),
            "refunded": major(line.refunded, line.currency),
            "net": major(line.net, line.currency),
            "count": line.count,
        }
        for line in box.lines
    ]
    currencies = sorted({line.currency for line in box.lines})
    totals = {c: major(box.total(c), c) for c in currencies}
    text_lines = [_("Cash box of {day}").format(day=box.day.isoformat())]
    text_lines += [
        f"  {labels.payment_method_label(line.method):<16} {_money_text(line.received, line.currency):>14}  "
        f"-{_money_text(line.refunded, line.currency):>13}  = {_money_text(line.net, line.currency):>14}"
        for line in box.lines
    ]
    text_lines += [_("  total {amount}").format(amount=_money_text(box.total(c), c)) for c in currencies]
    return Output({"date": box.day.isoformat(), "lines": lines, "totals": totals}, "\n".join(text_lines))


def cmd_outbox(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import desk

    db = ctx.database()
    items = desk.outbox(db, event_id=args.event, unsent_only=True)
    data = [
        {
            "id": i.id,
            "event": i.event_id,
            "entrant": i.entrant_id,
            "member": i.member_number,
            "kind": i.kind,
            "text": i.text,
        }
        for i in items
    ]
    if args.mark_sent:
        desk.mark_sent(db, ctx.actor(), [i.id for i in items])
    text = "\n".join(f"[{i.member_number or '-'}] {i.text}" for i in items) or _("The outbox is empty.")
    return Output(data, text)
