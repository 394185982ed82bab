"""The federation on the command line: a club's key and signed event files (``federation key|export|push``)
and the hub's work for the federation secretary (``federation init|club add|import|queue|merge|season|
serve``). The hub is a PostgreSQL database named by ``--hub URL`` or ``CLUBDESK_HUB_URL``."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from clubdesk.cli.core import Context, Output, Refused, add_command
from clubdesk.i18n import _


def register(sub: Any) -> None:
    group = sub.add_parser(
        "federation", help=_("signed event files and the federation's hub (season across clubs)")
    )
    actions = group.add_subparsers(dest="federation_action", metavar="ACTION")
    actions.required = True
    add_command(actions, "key", cmd_key, _("show this club's public key (for the federation secretary)"))
    exp = add_command(actions, "export", cmd_export, _("write the signed file of a finished event"))
    exp.add_argument("event", type=int, help=_("event id"))
    exp.add_argument("--out", type=Path, required=True, help=_("the file to write"))
    register_hub(actions)
    register_season(actions)
    register_push(actions)


def cmd_key(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import federation

    key = federation.public_key(ctx.database())
    data = {"club_uid": key.club_uid, "public_key": key.public_key, "kept_in": key.location}
    return Output(
        data,
        _(
            "This club's public key: {key}\n"
            "Give it to the federation secretary (federation club add NAME --key KEY)."
        ).format(key=key.public_key),
    )


def cmd_export(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import federation

    done = federation.export_event(ctx.database(), ctx.actor(), args.event, args.out)
    data = {
        "file": str(done.file),
        "event": done.event_uid,
        "digest": done.digest,
        "supersedes": done.supersedes,
        "tables": done.tables,
        "placings": done.placings,
    }
    return Output(
        data,
        _("Signed event file written to {file} ({tables} tables, {placings} places).").format(
            file=done.file, tables=done.tables, placings=done.placings
        ),
    )


def hub_url(args: argparse.Namespace) -> str:
    url = getattr(args, "hub", None) or os.environ.get("CLUBDESK_HUB_URL", "")
    if not url:
        raise Refused(_("Name the federation hub with --hub URL or CLUBDESK_HUB_URL."))
    return str(url)


def _hub(args: argparse.Namespace) -> Any:
    from clubdesk.storage.hub import HubError, open_hub

    try:
        return open_hub(hub_url(args))
    except HubError as exc:
        raise Refused(str(exc)) from None


def register_hub(actions: Any) -> None:
    init = add_command(actions, "init", cmd_init, _("make a PostgreSQL database the federation's hub"))
    init.add_argument("url", help=_("the hub's PostgreSQL URL"))
    club = actions.add_parser("club", help=_("the clubs of the federation"))
    club_actions = club.add_subparsers(dest="club_action", metavar="ACTION")
    club_actions.required = True
    add = add_command(club_actions, "add", cmd_club_add, _("add a club with its public key"))
    add.add_argument("name")
    add.add_argument("--key", required=True, help=_("the club's public key (federation key at its desk)"))
    add.add_argument("--hub", default=None, help=_("the hub's PostgreSQL URL"))
    imp = add_command(actions, "import", cmd_import, _("take signed event files into the hub"))
    imp.add_argument("files", nargs="+", type=Path)
    imp.add_argument("--hub", default=None, help=_("the hub's PostgreSQL URL"))
    que = add_command(actions, "queue", cmd_queue, _("players the federation secretary has to settle"))
    que.add_argument("--hub", default=None, help=_("the hub's PostgreSQL URL"))
    que.add_argument("--apart", type=int, default=None, metavar="ITEM", help=_("settle an item: two people"))
    mrg = add_command(
        actions, "merge", cmd_merge, _("one player, one ID: merge player A into player B (T2a)")
    )
    mrg.add_argument("a", type=int)
    mrg.add_argument("b", type=int)
    mrg.add_argument("--hub", default=None, help=_("the hub's PostgreSQL URL"))


def cmd_init(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.storage.hub import HubError, init_hub

    try:
        revision = init_hub(args.url)
    except HubError as exc:
        raise Refused(str(exc)) from None
    return Output(
        {"revision": revision}, _("The federation hub is ready (revision {rev}).").format(rev=revision)
    )


def cmd_club_add(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import federation

    hub = _hub(args)
    try:
        club = federation.add_club(hub, args.name, args.key)
    finally:
        hub.close()
    data = {"id": club.id, "name": club.name, "public_key": club.public_key, "token": club.token}
    return Output(
        data,
        _("Club {name} added. Its push token (shown once): {token}").format(name=club.name, token=club.token),
    )


def cmd_import(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import federation
    from clubdesk.services.kernel import ServiceError

    hub = _hub(args)
    done: list[dict[str, Any]] = []
    refused: list[str] = []
    lines: list[str] = []
    try:
        for path in args.files:
            try:
                got = federation.import_file(hub, path.read_bytes())
            except ServiceError as exc:
                refused.append(f"{path}: {exc.message}")
                continue
            done.append(
                {
                    "file": str(path),
                    "status": got.status,
                    "event": got.event_uid,
                    "version": got.version,
                    "diff": got.diff,
                }
            )
            lines.append(import_line(str(path), got))
    finally:
        hub.close()
    if refused:
        raise Refused(
            _("{n} of {total} files refused; nothing of them was stored.").format(
                n=len(refused), total=len(args.files)
            ),
            lines + refused,
        )
    return Output(done, "\n".join(lines))


def import_line(name: str, got: Any) -> str:
    if got.status == "new":
        return _("{file}: {event} of {club} stored.").format(file=name, event=got.event_name, club=got.club)
    if got.status == "corrected":
        return _("{file}: {event} corrected (version {v}): {t} tables and {p} places moved.").format(
            file=name,
            event=got.event_name,
            v=got.version,
            t=len(got.diff["tables"]),
            p=len(got.diff["places"]),
        )
    if got.status == "same":
        return _("{file}: {event} is already stored.").format(file=name, event=got.event_name)
    return _("{file}: {event}: an older version, already corrected.").format(file=name, event=got.event_name)


def cmd_queue(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import federation

    hub = _hub(args)
    try:
        if args.apart is not None:
            federation.keep_apart(hub, args.apart)
        lines = federation.queue(hub)
    finally:
        hub.close()
    data = [
        {"item": q.id, "reason": q.reason, "detail": q.detail, "player": q.player, "candidate": q.candidate}
        for q in lines
    ]
    if not lines:
        return Output(data, _("Nothing waits for the federation secretary."))
    text = [
        _("#{item} player {player}: {detail}").format(item=q.id, player=q.player, detail=q.detail)
        + (
            " " + _("(maybe player {c}: federation merge {p} {c})").format(c=q.candidate, p=q.player)
            if q.candidate
            else ""
        )
        for q in lines
    ]
    return Output(data, "\n".join(text))


def cmd_merge(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import federation

    hub = _hub(args)
    try:
        done = federation.merge_players(hub, args.a, args.b)
    finally:
        hub.close()
    data = {"kept": done.kept, "merged": done.gone, "identities": done.identities, "resolved": done.resolved}
    return Output(
        data,
        _("Player {a} is now player {b}: their results are combined.").format(a=done.gone, b=done.kept),
    )


def register_season(actions: Any) -> None:
    sea = add_command(actions, "season", cmd_season, _("the season across every club of the hub (T12d)"))
    sea.add_argument("season")
    sea.add_argument("--hub", default=None, help=_("the hub's PostgreSQL URL"))
    sea.add_argument(
        "--super-final", type=int, default=None, help=_("how many are invited to the Super Final")
    )
    sea.add_argument("--pdf", type=Path, default=None, help=_("also write the season's ranking as a PDF"))
    sea.add_argument("--site", type=Path, default=None, help=_("also write the circuit's static site here"))
    sea.add_argument("--name", default="", help=_("the federation's name on the PDF and the site"))


def cmd_season(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.reports.words import centi_text
    from clubdesk.services import federation

    hub = _hub(args)
    try:
        cs = federation.circuit_season(hub, args.season, super_final=args.super_final)
        if args.pdf is not None:
            federation.circuit_pdf(hub, args.season, args.pdf, federation_name=args.name, language=ctx.lang)
        if args.site is not None:
            federation.circuit_site(hub, args.season, args.site, federation_name=args.name, language=ctx.lang)
    finally:
        hub.close()
    lives = {f.player: f.lives for f in cs.finalists}
    data = {
        "season": cs.season,
        "events": [{"uid": e.uid, "name": e.name, "club": e.club, "tier": e.tier} for e in cs.events],
        "rows": [
            {
                "rank": r.rank,
                "player": r.player,
                "name": r.name,
                "licence": r.licence,
                "clubs": list(r.clubs),
                "points": r.points / 100,
                "rating": r.rating,
                "lives": lives.get(r.player),
            }
            for r in cs.rows
        ],
        "super_final": cs.super_final,
        "cut_decided_by": cs.cut_decided_by,
    }
    lines = [
        _("Season {season}: {n} events, {p} players").format(
            season=cs.season, n=len(cs.events), p=len(cs.rows)
        )
    ]
    for r in cs.rows:
        rating = f"{r.rating:.1f}" if r.rating is not None else "-"
        lines.append(
            f"{r.rank:>4}  {r.name:<30} {centi_text(r.points):>8}  {rating:>7}  {', '.join(r.clubs)}"
        )
        if r.rank == cs.super_final:
            lines.append("-" * 60 + " " + _("Super Final cut-off"))
    if cs.cut_decided_by:
        lines.append(_("A tie at the cut-off was decided by {what}.").format(what=cs.cut_decided_by))
    return Output(data, "\n".join(lines))


def register_push(actions: Any) -> None:
    hub = add_command(actions, "hub", cmd_set_hub, _("where this club pushes its events, with its token"))
    hub.add_argument("url", help=_("the hub's https:// address"))
    hub.add_argument("--token", required=True, help=_("the club's push token from the federation secretary"))
    hub.add_argument("--cafile", default="", help=_("the hub's certificate authority, if it has its own"))
    push = add_command(actions, "push", cmd_push, _("send a finished event's signed file to the hub"))
    push.add_argument("event", type=int, help=_("event id"))
    push.add_argument("--folder", type=Path, default=None, help=_("where the sent file is kept"))
    add_command(actions, "sent", cmd_sent, _("what this club sent to the federation and the hub's answers"))
    serve = add_command(actions, "serve", cmd_serve, _("serve the hub: pushes from the clubs, a status page"))
    serve.add_argument("--hub", default=None, help=_("the hub's PostgreSQL URL"))
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8443)
    serve.add_argument("--cert", default=os.environ.get("CLUBDESK_HUB_CERT", ""), help=_("TLS certificate"))
    serve.add_argument("--key", default=os.environ.get("CLUBDESK_HUB_KEY", ""), help=_("TLS private key"))
    status = add_command(actions, "status", cmd_status, _("the hub's clubs, events and queue"))
    status.add_argument("--hub", default=None, help=_("the hub's PostgreSQL URL"))


def cmd_set_hub(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import federation

    got = federation.set_hub(ctx.database(), ctx.actor(), args.url, args.token, args.cafile)
    return Output({"url": got.url}, _("This club pushes its events to {url}.").format(url=got.url))


def cmd_push(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk import paths
    from clubdesk.services import federation

    folder = args.folder or paths.data_dir() / "federation"
    got = federation.push_event(ctx.database(), ctx.actor(), args.event, folder)
    data = {
        "event": got.event,
        "digest": got.digest,
        "accepted": got.accepted,
        "status": got.status,
        "message": got.message,
        "version": got.version,
    }
    if not got.accepted:
        raise Refused(_("The hub refused the event: {why}").format(why=got.message))
    return Output(
        data, _("The hub accepted event {event} ({status}).").format(event=got.event, status=got.status)
    )


def cmd_sent(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import federation

    lines = federation.sent_events(ctx.database())
    data = [
        {
            "event": x.event,
            "name": x.name,
            "digest": x.digest,
            "file": x.file,
            "pushed": x.pushed,
            "accepted": x.accepted,
            "answer": x.answer,
        }
        for x in lines
    ]
    if not lines:
        return Output(data, _("Nothing was sent to the federation yet."))
    text = []
    for x in lines:
        if x.pushed is None:
            state = _("written to {file}").format(file=x.file)
        elif x.accepted:
            state = _("accepted by the hub ({when})").format(when=x.pushed)
        else:
            state = _("refused by the hub ({when}): {why}").format(when=x.pushed, why=x.answer)
        text.append(f"{x.event}  {x.name}: {state}")
    return Output(data, "\n".join(text))


def cmd_serve(ctx: Context, args: argparse.Namespace) -> Output:
    import uvicorn

    from clubdesk.web.hub import hub_app

    if bool(args.cert) != bool(args.key):
        raise Refused(_("TLS needs both the certificate (--cert) and its key (--key)."))
    if not args.cert and args.host not in ("127.0.0.1", "::1", "localhost"):
        raise Refused(_("A hub served beyond this computer needs TLS: give --cert and --key."))
    hub = _hub(args)
    scheme = "https" if args.cert else "http"
    print(
        _("The federation hub is served at: {url}").format(url=f"{scheme}://{args.host}:{args.port}/"),
        flush=True,
    )
    try:
        uvicorn.run(
            hub_app(hub),
            host=args.host,
            port=args.port,
            ssl_certfile=args.cert or None,
            ssl_keyfile=args.key or None,
            log_level="warning",
        )
    finally:
        hub.close()
    return Output({"stopped": True}, _("The server has stopped."))


def cmd_status(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import federation

    hub = _hub(args)
    try:
        info = federation.hub_status(hub)
    finally:
        hub.close()
    data = {
        "events": info.events,
        "players": info.players,
        "queue": info.queue,
        "clubs": [{"name": c.name, "events": c.events, "last": c.last} for c in info.clubs],
    }
    text = [
        _("{e} events, {p} players, {q} waiting for the secretary.").format(
            e=info.events, p=info.players, q=info.queue
        )
    ]
    text += [f"{c.name}: {c.events} ({c.last or '-'})" for c in info.clubs]
    return Output(data, "\n".join(text))
