"""Competition-night commands (CONTRACTS.md §4): ``pair``, ``publish``, ``result``; and ``discard``,
``confirm``, ``referee``, ``postpone``, ``league-deadline``, ``night-config``, ``bye``, ``round``,
``seats``."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from clubdesk.cli.arguments import (
    coefficient_arg,
    int_list_arg,
    pair_arg,
    percent_arg,
    percent_list_arg,
    when_arg,
)
from clubdesk.cli.core import Context, Output, Refused, add_command
from clubdesk.cli.round_view import cmd_round
from clubdesk.cli.table_versions import version_arg, versioned
from clubdesk.i18n import _

_T = TypeVar("_T")


def _json_arg(text: str, what: str) -> Any:
    """JSON given inline or as the path of a JSON file."""
    raw = text
    if not text.lstrip().startswith("{"):
        try:
            raw = Path(text).read_text(encoding="utf-8")
        except OSError as exc:
            raise Refused(
                _("{what}: cannot read {f}: {e}").format(what=what, f=text, e=exc.strerror)
            ) from exc
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise Refused(_("{what} is not JSON: {e}").format(what=what, e=exc.msg)) from exc


def _versioned(ctx: Context, args: argparse.Namespace, change: Callable[[int], _T]) -> _T:
    return versioned(ctx, args.seen_version, (args.event, args.round, args.table), change)


def register(sub: Any) -> None:
    p = add_command(sub, "pair", cmd_pair, _("propose the next round (nothing is final)"))
    p.add_argument("event", type=int)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--discard", action="store_true", help=_("throw away the proposed round first"))

    p = add_command(sub, "publish", cmd_publish, _("publish the proposed round"))
    p.add_argument("event", type=int)
    p.add_argument(
        "--call-time",
        type=when_arg,
        default=None,
        help=_("when the tables are called (T3b; default: now plus the night's waiting time)"),
    )
    p.add_argument("--start-time", type=when_arg, default=None, help=_("when the matches start (G15)"))

    p = add_command(sub, "unpublish", cmd_unpublish, _("referee: take back the latest published round (T10)"))
    p.add_argument("event", type=int)
    p.add_argument("--reason", required=True)

    p = add_command(sub, "late-notice", cmd_late_notice, _("record a notice that a side will be late (G15)"))
    p.add_argument("event", type=int)
    p.add_argument("--round", type=int, required=True)
    p.add_argument("--table", type=int, required=True)
    p.add_argument("--side", type=int, choices=(0, 1), required=True)
    p.add_argument("--given-by", required=True, help=_("who gave the notice"))

    p = add_command(
        sub, "late-decision", cmd_late_decision, _("referee: decide on a notice of lateness (G15)")
    )
    p.add_argument("event", type=int)
    p.add_argument("--round", type=int, required=True)
    p.add_argument("--table", type=int, required=True)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--walkover", action="store_true", help=_("the late side loses by walkover"))
    g.add_argument("--wait", action="store_true", help=_("the match waits for the late side"))
    p.add_argument("--reason", required=True)
    version_arg(p)

    p = add_command(sub, "result", cmd_result, _("enter a table's result"))
    p.add_argument("event", type=int)
    p.add_argument("--round", type=int, required=True)
    p.add_argument("--table", type=int, required=True)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--score", type=pair_arg)
    g.add_argument("--entries", type=Path)
    g.add_argument("--entry", help=_("one hand or game as JSON, saved at once"))
    g.add_argument("--forfeit", type=int, choices=(0, 1), help=_("the absent side"))
    g.add_argument("--match-file", type=Path, help=_("a backgammon match record (.mat) to save as the sheet"))
    p.add_argument(
        "--swap-sides", action="store_true", help=_("the match file's right-hand player is the home side")
    )
    p.add_argument("--points", type=pair_arg)
    p.add_argument("--game", type=int, default=1, help=_("game of a team encounter (with --entry)"))
    p.add_argument("--confirm", action="store_true", help=_("both sides approve"))
    p.add_argument(
        "--scorer", help=_("member number of the home pair's scorer (anotador, E6); asked with --confirm")
    )
    p.add_argument(
        "--counter", help=_("member number of the rival pair's counter (recuento, E6); asked with --confirm")
    )
    p.add_argument(
        "--referee-scores",
        action="store_true",
        help=_("referee: he scores and counts; --scorer and --counter approve for their pairs (E6)"),
    )
    p.add_argument("--reason", help=_("why a confirmed result is corrected"))
    p.add_argument("--override", help=_("referee: written reason to change a locked result (T10)"))
    version_arg(p)

    p = add_command(sub, "match-file", cmd_match_file, _("read a backgammon match record (.mat)"))
    p.add_argument("file", type=Path)

    p = add_command(sub, "confirm", cmd_confirm, _("one side approves a table's result (G13, E6, T8c)"))
    p.add_argument("event", type=int)
    p.add_argument("--round", type=int, required=True)
    p.add_argument("--table", type=int, required=True)
    p.add_argument("--side", type=int, choices=(0, 1), required=True)
    p.add_argument("--initials", default="", help=_("name or initials of who approves (or --member)"))
    p.add_argument(
        "--member",
        help=_("member number of the player of this side who approves: the scorer or the counter (E6)"),
    )
    version_arg(p)

    p = add_command(sub, "captains", cmd_captains, _("name the captains of a table's sides (match act)"))
    p.add_argument("event", type=int)
    p.add_argument("--round", type=int, required=True)
    p.add_argument("--table", type=int, required=True)
    p.add_argument("--home", default="", help=_("member number of the home side's captain"))
    p.add_argument("--away", default="", help=_("member number of the other side's captain"))

    p = add_command(sub, "referee", cmd_referee, _("referee: approve or dispute a table's result"))
    p.add_argument("event", type=int)
    p.add_argument("--round", type=int, required=True)
    p.add_argument("--table", type=int, required=True)
    p.add_argument("--dispute", action="store_true")
    p.add_argument("--note", default="")
    version_arg(p)

    p = add_command(sub, "round", cmd_round, _("show a round's tables"))
    p.add_argument("event", type=int)
    p.add_argument("--round", type=int, default=None)

    p = add_command(sub, "league-deadline", cmd_deadline, _("open league: apply the deadline (BC3)"))
    p.add_argument("event", type=int)
    p.add_argument("--at-fault", action="append", default=[], help=_("MATCH=ENTRANT, e.g. M3=12"))

    p = add_command(sub, "night-config", cmd_config, _("competition-night settings of an event"))
    p.add_argument("event", type=int)
    p.add_argument("--result-mode", choices=("entries", "score"))
    p.add_argument("--tiebreaks")
    p.add_argument("--lives", type=int)
    p.add_argument("--call-minutes", type=int)
    p.add_argument("--encounter-games", type=int)
    p.add_argument("--deadline", type=when_arg)
    p.add_argument(
        "--prize-pool", type=percent_arg, help=_("share of the entry fees that goes to prizes, in %% (T13b)")
    )
    p.add_argument(
        "--prize-shares",
        type=percent_list_arg,
        help=_("the pool's split by place, in %%, e.g. 50,30,20 (T13b, T13c)"),
    )
    p.add_argument("--prize-plan", help=_("the whole prize plan as JSON, or a JSON file (T13)"))
    p.add_argument(
        "--season-points", type=int_list_arg, help=_("season base points by place, e.g. 100,70,50 (T12d)")
    )
    p.add_argument(
        "--coefficient",
        action="append",
        default=[],
        type=coefficient_arg,
        help=_("season coefficient of an event class, e.g. regional=1.5 (T12d); repeat per class"),
    )
    p.add_argument("--season-scale", help=_("the whole season scale as JSON, or a JSON file (T12d)"))
    p.add_argument(
        "--requested-bye",
        choices=("zero-bye", "half-bye", "full-bye"),
        help=_("what a requested bye is worth: nothing (default), a draw or a win"),
    )

    p = add_command(
        sub, "bye", cmd_bye, _("an entrant asks for a bye in the next round (Swiss, lives, league)")
    )
    p.add_argument("event", type=int)
    p.add_argument("entrant", type=int)
    p.add_argument("--cancel", action="store_true", help=_("withdraw the request"))


def cmd_bye(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    asked = night.request_bye(ctx.database(), ctx.actor(), args.event, args.entrant, cancel=args.cancel)
    return Output({"requested_byes": [{"entrant": e, "round": r} for e, r in sorted(asked.items())]})


def cmd_pair(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    db = ctx.database()
    if args.discard:
        night.discard_round(db, ctx.actor(), args.event)
    rv = night.propose_round(db, ctx.actor(), args.event, seed=args.seed)
    lines = [_("Round {r} (proposed, seed {s})").format(r=rv.round, s=rv.seed)]
    bye = _("BYE")
    for t in rv.tables:
        lines.append(f"  {t.table:>3}  {t.names[0]}  –  {t.names[1] or bye}")
    return Output(rv.as_json(), "\n".join(lines))


def cmd_publish(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    rv = night.publish_round(
        ctx.database(), ctx.actor(), args.event, call_at=args.call_time, start_at=args.start_time
    ).round
    return Output({"round": rv.round}, _("Round {r} published.").format(r=rv.round))


def cmd_unpublish(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    rv = night.unpublish_round(ctx.database(), ctx.actor(), args.event, args.reason).round
    return Output(
        {"round": rv.round, "status": rv.status},
        _("Round {r} is proposed again.").format(r=rv.round),
    )


def cmd_late_notice(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    res = night.late_notice(
        ctx.database(), ctx.actor(), args.event, args.round, args.table, args.side, args.given_by
    )
    return Output(res.table.as_json())


def cmd_late_decision(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    res = _versioned(
        ctx,
        args,
        lambda seen: night.decide_late_notice(
            ctx.database(),
            ctx.actor(),
            args.event,
            args.round,
            args.table,
            walkover=args.walkover,
            reason=args.reason,
            expected_version=seen,
        ),
    )
    return Output(res.table.as_json())


def cmd_result(ctx: Context, args: argparse.Namespace) -> Output:
    return _versioned(ctx, args, lambda seen: _result(ctx, args, seen))


def _result(ctx: Context, args: argparse.Namespace, seen: int) -> Output:
    from clubdesk.services import night

    db, actor = ctx.database(), ctx.actor()
    if args.entry is not None:
        try:
            entry = json.loads(args.entry)
        except json.JSONDecodeError as exc:
            raise Refused(_("--entry is not JSON: {e}").format(e=exc.msg)) from exc
        res = night.add_entry(
            db,
            actor,
            args.event,
            args.round,
            args.table,
            entry,
            game_no=args.game,
            override=args.override,
            expected_version=seen,
        )
        return Output(res.as_json())
    if args.match_file is not None:
        from clubdesk.services import night

        res = night.import_match_file(
            db,
            actor,
            args.event,
            args.round,
            args.table,
            args.match_file,
            swap_sides=args.swap_sides,
            reason=args.reason,
            override=args.override,
            expected_version=seen,
        )
        if args.confirm:
            night.confirm(
                db, actor, args.event, args.round, args.table, 0, actor.name, override=args.override
            )
            res = night.confirm(
                db, actor, args.event, args.round, args.table, 1, actor.name, override=args.override
            )
        return Output(res.as_json())
    entries = None
    if args.entries is not None:
        try:
            entries = json.loads(args.entries.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise Refused(_("{f} is not JSON: {e}").format(f=args.entries, e=exc.msg)) from exc
    named = args.scorer is not None or args.counter is not None
    if args.confirm and not named and args.forfeit is None and night.names_scorers(db, args.event):
        # rule E6: who scored and who counted is asked, never filled in with the operator's name
        raise Refused(
            _(
                "Name the scorer (a player of the home pair) and the counter (a player of the rival pair): "
                "--scorer NUMBER --counter NUMBER (rule E6)."
            )
        )
    recorded = night.record_result(
        db,
        actor,
        args.event,
        args.round,
        args.table,
        score=args.score,
        points=args.points,
        entries=entries,
        forfeit_side=args.forfeit,
        confirm_both=args.confirm,
        reason=args.reason,
        override=args.override,
        scorer=args.scorer,
        counter=args.counter,
        referee_scores=args.referee_scores,
        expected_version=seen,
    )
    return Output(recorded.table.as_json())


def cmd_match_file(ctx: Context, args: argparse.Namespace) -> Output:
    """``{"players", "length", "games": [{"start", "winner", "points", "cube", "crawford"}], "score",
    "finished"}``; no database is opened."""
    from clubdesk.services import night

    rec = night.read_match_file(args.file)
    data = rec.as_json()
    lines = [_("{a} - {b}, {n}-point match").format(a=rec.players[0], b=rec.players[1], n=rec.match_length)]
    for i, g in enumerate(rec.games, start=1):
        flag = "  " + _("(Crawford)") if g.crawford else ""
        lines.append(
            _("game {i}: {x}-{y}, {name} wins {p} (cube {c}){flag}").format(
                i=i, x=g.start[0], y=g.start[1], name=rec.players[g.winner], p=g.points, c=g.cube, flag=flag
            )
        )
    state = _("finished") if rec.finished else _("not finished")
    lines.append(_("score {x}-{y}, {state}").format(x=rec.score[0], y=rec.score[1], state=state))
    return Output(data, "\n".join(lines))


def cmd_confirm(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    res = _versioned(
        ctx,
        args,
        lambda seen: night.confirm(
            ctx.database(),
            ctx.actor(),
            args.event,
            args.round,
            args.table,
            args.side,
            args.initials,
            member=args.member,
            expected_version=seen,
        ),
    )
    return Output(res.as_json())


def cmd_captains(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    out = night.name_captains(
        ctx.database(), ctx.actor(), args.event, args.round, args.table, args.home, args.away
    )
    return Output(
        {"home": out.home, "away": out.away},
        _("Captains: {home} / {away}").format(home=out.home or "-", away=out.away or "-"),
    )


def cmd_referee(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    res = _versioned(
        ctx,
        args,
        lambda seen: night.referee_decision(
            ctx.database(),
            ctx.actor(),
            args.event,
            args.round,
            args.table,
            approve=not args.dispute,
            note=args.note,
            expected_version=seen,
        ),
    )
    return Output(res.table.as_json())


def cmd_deadline(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    faults: dict[str, int] = {}
    for item in args.at_fault:
        try:
            k, v = item.split("=", 1)
            faults[k.strip()] = int(v)
        except ValueError:
            raise Refused(_("--at-fault expects MATCH=ENTRANT: {t}").format(t=item)) from None
    return Output({"matches": night.league_deadline(ctx.database(), ctx.actor(), args.event, faults)})


def cmd_config(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import night

    settings = {
        k: v
        for k, v in {
            "result_mode": args.result_mode,
            "tiebreaks": args.tiebreaks,
            "lives": args.lives,
            "call_minutes": args.call_minutes,
            "encounter_games": args.encounter_games,
            "deadline": args.deadline,
            "requested_bye": args.requested_bye,
        }.items()
        if v is not None
    }
    if args.prize_plan is not None:
        settings["prize_plan"] = _json_arg(args.prize_plan, "--prize-plan")
    elif args.prize_pool is not None or args.prize_shares is not None:
        # rule T13b: the pool is a share of the fees, split by place
        settings["prize_plan"] = {
            "pool_rate": 10_000 if args.prize_pool is None else args.prize_pool,
            "places": [
                {"place": i, "pool_share": share} for i, share in enumerate(args.prize_shares or [], start=1)
            ],
        }
    if args.season_scale is not None:
        settings["season_scale"] = _json_arg(args.season_scale, "--season-scale")
    elif args.season_points is not None or args.coefficient:
        if args.season_points is None or not args.coefficient:
            raise Refused(_("A season scale needs both --season-points and --coefficient."))
        settings["season_scale"] = {"base_points": args.season_points, "coefficients": dict(args.coefficient)}
    return Output(night.configure(ctx.database(), ctx.actor(), args.event, **settings))
