"""The desk's commands for an event's entrants and money (CONTRACTS.md §4): ``register``, ``withdraw``,
``pay``, ``refund``, ``promote``, ``checkin``, ``no-shows``, ``entrants``, ``pairs-draw``, ``cashbox``,
``outbox``.

Amounts on the command line and in ``--json`` output are decimal numbers in the currency's major unit
("12.50"); they are stored as integer minor units.
"""

from __future__ import annotations

import argparse
from typing import Any

from clubdesk import labels
from clubdesk.cli.arguments import date_arg, datetime_arg
from clubdesk.cli.core import Context, Output, add_command, event_currency, major, parse_money
from clubdesk.i18n import _


def register(sub: Any) -> None:
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
    p.add_argument("--paid-at", type=datetime_arg, default=None, help=_("when it was paid (default: now)"))

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
    cb.add_argument("--date", type=date_arg, default=None)
    cb.add_argument("--event", type=int, default=None)

    ob = add_command(sub, "outbox", cmd_outbox, _("notifications waiting to be sent"))
    ob.add_argument("--event", type=int, default=None)
    ob.add_argument("--mark-sent", action="store_true", help=_("mark them sent (printed)"))


def _money_text(amount: int, currency: str) -> str:
    from clubdesk.services.kernel import money_text

    return money_text(amount, currency)


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
