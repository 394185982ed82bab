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
    p.add_argument("--rules", choices=("2024", "2026"), default="2024")

    p = add_command(
        sub, "places", cmd_places, _("final places, season points and prizes of a finished event")
    )
    p.add_argument("event", type=int)

    p = add_command(sub, "ratings", cmd_ratings, _("a member's rating history (T12c)"))
    p.add_argument("number")


def cmd_standings(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import standings

    st = standings.event_standings(ctx.database(), args.event)
    name, points = _("name"), _("points")
    lines = [f"{'#':>4}  {name:<30} {points:>6}  " + "  ".join(c for c in st.codes if c != "PTS")]
    for r in st.rows:
        tb = "  ".join(r.shown[c] for c in st.codes if c != "PTS")
        flag = "  " + _("(play-off)") if r.playoff else ""
        lines.append(f"{r.place:>4}  {r.name:<30} {r.points!s:>6}  {tb}{flag}")
    lines += [f"  {line}" for line in st.explanations]
    return Output(st.as_json(), "\n".join(lines))


def cmd_tiebreaks(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.standings.trf import TrfError, tiebreaks_for_trf

    codes = [c for c in args.tiebreaks.split(",") if c.strip()]
    try:
        return Output(tiebreaks_for_trf(args.file, codes, args.rules))
    except TrfError as exc:
        raise Refused(str(exc)) from exc
    except ValueError as exc:
        raise Refused(str(exc)) from exc


def cmd_places(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import standings

    return Output(standings.final_places(ctx.database(), args.event))


def cmd_ratings(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import standings

    return Output(standings.rating_history(ctx.database(), args.number))
