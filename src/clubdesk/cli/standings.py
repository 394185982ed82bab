"""Standings commands (CONTRACTS.md §4): ``standings EVENT``, ``tiebreaks FILE.trf --tiebreaks ...``;
and ``places EVENT``, ``ratings NUMBER``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from clubdesk.cli.core import Context, Output, Refused, add_command
from clubdesk.i18n import _


def register(sub: Any) -> None:
    p = add_command(sub, "standings", cmd_standings, _("an event's standings with tie-breaks"))
    p.add_argument("event", type=int)

    p = add_command(sub, "tiebreaks", cmd_tiebreaks, _("tie-breaks of a TRF file"))
    p.add_argument("file", type=Path)
    p.add_argument("--tiebreaks", required=True, help="PTS,BH,BH-C1,SB,PS")
    p.add_argument(
        "--rules",
        choices=("2024", "2026", "auto"),
        default="2024",
        help=_("FIDE rule set; auto: by the tournament's start date (as FIDE TEC's checker)"),
    )

    p = add_command(
        sub, "places", cmd_places, _("final places, season points and prizes of a finished event")
    )
    p.add_argument("event", type=int)

    p = add_command(sub, "prize-paid", cmd_prize_paid, _("record that a prize was paid (T13e)"))
    p.add_argument("event", type=int)
    p.add_argument("--place", type=int, required=True)
    p.add_argument("--method", required=True, choices=("cash", "card", "transfer", "pos"))
    p.add_argument("--date", type=_day, default=None, help=_("the day it was paid (default today)"))
    p.add_argument("--entrant", type=int, default=None, help=_("which entrant, when a place is shared"))
    p.add_argument("--to", default=None, help=_("who received it, when not the winner"))

    p = add_command(sub, "ratings", cmd_ratings, _("a member's rating history (T12c)"))
    p.add_argument("number")


def cmd_standings(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    st = night.event_standings(ctx.database(), args.event)
    name, points = _("name"), _("points")
    lines = [f"{'#':>4}  {name:<30} {points:>6}  " + "  ".join(c for c in st.codes if c != "PTS")]
    for r in st.rows:
        tb = "  ".join(r.shown[c] for c in st.codes if c != "PTS")
        flag = "  " + _("(play-off)") if r.playoff else ""
        lines.append(f"{r.place:>4}  {r.name:<30} {r.points!s:>6}  {tb}{flag}")
    lines += [f"  {line}" for line in st.explanations]
    return Output(st.as_json(), "\n".join(lines))


def cmd_tiebreaks(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.standings.trf import TrfError, read_trf, tiebreaks_for_trf

    codes = [c for c in args.tiebreaks.split(",") if c.strip()]
    try:
        values = tiebreaks_for_trf(args.file, codes, args.rules)
        t = read_trf(args.file)
        shown = [c.strip().upper() for c in codes]
        lines = [f"{'#':>5}  " + "  ".join(f"{c:>7}" for c in shown)]
        for no, vals in sorted(values.items(), key=lambda kv: int(kv[0])):
            lines.append(f"{no:>5}  " + "  ".join(f"{vals.get(c, ''):>7}" for c in shown))
        lines.append(_("standings after round {r}").format(r=t.complete_rounds))
        if t.open_round:
            # a round paired without results is not played yet; say so
            lines.append(_("round {r} is paired but has no results yet").format(r=t.open_round))
        return Output(values, "\n".join(lines))
    except TrfError as exc:
        raise Refused(str(exc)) from exc
    except ValueError as exc:
        raise Refused(str(exc)) from exc


def cmd_places(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    return Output(night.final_places(ctx.database(), args.event))


def _day(text: str) -> Any:
    from datetime import date

    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected a date like 2024-05-01")) from None


def cmd_prize_paid(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import money

    res = money.pay_prize(
        ctx.database(),
        ctx.actor(),
        args.event,
        args.place,
        args.method,
        on=args.date,
        entrant=args.entrant,
        paid_to=args.to,
    )
    return Output(
        res.as_json(),
        _("Prize for place {p} paid to {name} ({how}).").format(
            p=res.place, name=res.paid_to, how=res.method
        ),
    )


def cmd_ratings(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    return Output(night.rating_history(ctx.database(), args.number))
