"""Discipline commands (CONTRACTS.md §4): ``incident``, ``penalty``, ``appeal``, ``appeal-decide``,
``disqualify``; and ``audit`` (the audit view, filtered, optionally as CSV).

The acting person comes from ``CLUBDESK_ACTOR`` / ``CLUBDESK_ROLE``: penalties, disqualifications, appeal
decisions and late appeals need ``CLUBDESK_ROLE=referee``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from clubdesk.cli.core import Context, Output, add_command, event_currency, major, parse_money
from clubdesk.cli.table_versions import version_arg, versioned
from clubdesk.i18n import _, ngettext
from clubdesk.timefmt import local_text


def _side(text: str) -> int:
    from clubdesk.competition.discipline import DisciplineRuleError, parse_side

    try:
        return parse_side(text)
    except DisciplineRuleError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def register(sub: Any) -> None:
    inc = add_command(sub, "incident", cmd_incident, _("write an incident in the match act"))
    inc.add_argument("event", type=int)
    inc.add_argument("--round", type=int, required=True, dest="round_no")
    inc.add_argument("--table", type=int, required=True, dest="table_no")
    inc.add_argument("--kind", required=True, help=_("incident kind (see the event's catalog)"))
    inc.add_argument("--text", required=True, help=_("what happened"))
    inc.add_argument("--player", default=None, help=_("member (licence) number of the player"))
    inc.add_argument("--hand", type=int, default=None, help=_("hand number"))
    inc.add_argument("--game", type=int, default=1, help=_("game of the encounter (default 1)"))
    inc.add_argument("--side", type=_side, default=None, help=_("side when no player is named: 0/a or 1/b"))
    inc.add_argument("--decision", default="", help=_("decision taken (e.g. annul-hand, warning)"))

    pen = add_command(sub, "penalty", cmd_penalty, _("a referee's penalty or decision on a table"))
    pen.add_argument("event", type=int)
    pen.add_argument("--round", type=int, required=True, dest="round_no")
    pen.add_argument("--table", type=int, required=True, dest="table_no")
    pen.add_argument("--side", type=_side, required=True, help=_("penalised side: 0/a (first named) or 1/b"))
    pen.add_argument("--kind", required=True, help=_("none, warning, annul-hand, fine, deduction, ..."))
    pen.add_argument("--points", type=int, default=None, help=_("points of a fine or deduction"))
    pen.add_argument("--reason", required=True)
    pen.add_argument("--override", default=None, help=_("written reason to change a locked result (T10)"))
    pen.add_argument("--after-hand", type=int, default=None, help=_("put the entry after this hand"))
    pen.add_argument("--game", type=int, default=None, help=_("game of the encounter"))
    pen.add_argument("--cube", type=int, default=1, help=_("tavla: the cube's value for a game loss"))
    pen.add_argument("--incident", type=int, default=None, help=_("the incident it answers"))
    version_arg(pen)  # a score-changing penalty is a change of the table like any other

    ap = add_command(sub, "appeal", cmd_appeal, _("file an appeal (within the window after the match)"))
    ap.add_argument("event", type=int)
    ap.add_argument("--round", type=int, required=True, dest="round_no")
    ap.add_argument("--table", type=int, required=True, dest="table_no")
    ap.add_argument("--by", type=int, required=True, help=_("entrant id of the appellant"))
    ap.add_argument("--fee", default=None, help=_("appeal fee paid, e.g. 5 or 12.50"))
    ap.add_argument("--text", required=True)
    ap.add_argument("--override", default=None, help=_("referee's reason to hear a late appeal"))
    ap.add_argument(
        "--subject",
        default="result",
        help=_("what the appeal is about (default: result); a decision is final"),
    )

    ro = add_command(
        sub,
        "appeal-reopen",
        cmd_appeal_reopen,
        _("reopen a decided appeal (referee, with a reason; G16, T10)"),
    )
    ro.add_argument("appeal", type=int)
    ro.add_argument("--reason", required=True)

    dec = add_command(sub, "appeal-decide", cmd_appeal_decide, _("decide an appeal (referee)"))
    dec.add_argument("appeal", type=int)
    way = dec.add_mutually_exclusive_group(required=True)
    way.add_argument("--upheld", action="store_true")
    way.add_argument("--rejected", action="store_true")
    dec.add_argument("--reasons", required=True)
    dec.add_argument("--appellant-notes", default=None, help=_("what the appellant said"))
    dec.add_argument("--respondent-notes", default=None, help=_("what the other side said"))

    dq = add_command(sub, "disqualify", cmd_disqualify, _("disqualify an entrant (rule T9c)"))
    dq.add_argument("event", type=int)
    dq.add_argument("entrant", type=int)
    dq.add_argument("--reason", required=True)

    au = add_command(sub, "audit", cmd_audit, _("the audit log: who changed what, before and after"))
    au.add_argument("--event", type=int, default=None)
    au.add_argument("--round", type=int, default=None, dest="round_no")
    au.add_argument("--table", type=int, default=None, dest="table_no")
    au.add_argument("--person", default=None, help=_("who acted, or a name or number in the change"))
    au.add_argument("--csv", type=Path, default=None, help=_("write the rows to this CSV file"))
    au.add_argument("--limit", type=int, default=None)
    au.add_argument(
        "--verify", action="store_true", help=_("check the audit log's hash chain; name the first broken row")
    )
    au.add_argument(
        "--anchor",
        action="store_true",
        help=_("with --verify: when the log is intact, record its head and length outside the club file"),
    )
    keycmd = au.add_subparsers(dest="audit_part").add_parser(
        "key", help=_("move the audit log's key to another PC (secretary)")
    )
    keysub = keycmd.add_subparsers(dest="key_action", required=True)
    ke = add_command(
        keysub, "export", cmd_audit_key_export, _("write the club's audit key to a file (owner-only)")
    )
    ke.add_argument("--out", type=Path, required=True, help=_("the key file to write"))
    ki = add_command(
        keysub, "import", cmd_audit_key_import, _("keep the club's audit key from a file on this PC")
    )
    ki.add_argument("file", type=Path, help=_("the key file written by 'audit key export'"))
    ki.add_argument(
        "--backup",
        type=Path,
        default=None,
        help=_("check the key against this backup (to restore it onto this PC) instead of the club file"),
    )


def cmd_incident(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import discipline

    view = discipline.record_incident(
        ctx.database(),
        ctx.actor(),
        args.event,
        round_no=args.round_no,
        table_no=args.table_no,
        kind=args.kind,
        text=args.text,
        player=args.player,
        hand=args.hand,
        game_no=args.game,
        side=args.side,
        decision=args.decision,
    )
    text = _("Incident {id} written: {kind}.").format(id=view.id, kind=view.kind_label)
    if view.counter_text:
        text += " " + view.counter_text
    return Output({"incident": view.id}, text)


def cmd_penalty(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import discipline

    view = versioned(
        ctx,
        args.seen_version,
        (args.event, args.round_no, args.table_no),
        lambda seen: discipline.impose_penalty(
            ctx.database(),
            ctx.actor(),
            args.event,
            round_no=args.round_no,
            table_no=args.table_no,
            side=args.side,
            kind=args.kind,
            points=args.points,
            reason=args.reason,
            override=args.override,
            after_hand=args.after_hand,
            game_no=args.game,
            cube=args.cube,
            incident_id=args.incident,
            expected_version=seen,
        ),
    )
    return Output({"penalty": view.id}, _("Penalty {id}: {kind}.").format(id=view.id, kind=view.kind_label))


def _fee(ctx: Context, event_id: int, text: str | None) -> int:
    if text is None:
        return 0
    return parse_money(text, event_currency(ctx, event_id))


def cmd_appeal(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import discipline

    fee = _fee(ctx, args.event, args.fee)
    view = discipline.file_appeal(
        ctx.database(),
        ctx.actor(),
        args.event,
        round_no=args.round_no,
        table_no=args.table_no,
        entrant_id=args.by,
        text=args.text,
        fee=fee,
        override=args.override,
        subject=args.subject,
    )
    return Output({"appeal": view.id}, _("Appeal {id} filed.").format(id=view.id))


def cmd_appeal_reopen(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import discipline

    view = discipline.reopen_appeal(ctx.database(), ctx.actor(), args.appeal, args.reason)
    return Output(
        {"appeal": view.id, "status": view.status},
        _("Appeal {id} reopened: it is open again.").format(id=view.id),
    )


def cmd_appeal_decide(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import discipline

    view = discipline.decide_appeal(
        ctx.database(),
        ctx.actor(),
        args.appeal,
        upheld=bool(args.upheld),
        reasons=args.reasons,
        appellant_notes=args.appellant_notes,
        respondent_notes=args.respondent_notes,
    )
    refund = major(view.refund, view.currency)
    if view.status == "upheld":
        text = _("Appeal {id} upheld; refund {amount} {currency}.").format(
            id=view.id, amount=refund, currency=view.currency
        )
    else:
        text = _("Appeal {id} rejected; the fee is kept.").format(id=view.id)
    return Output({"appeal": view.id, "refund": refund}, text)


def cmd_disqualify(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import discipline

    view = discipline.disqualify(ctx.database(), ctx.actor(), args.event, args.entrant, args.reason)
    return Output({"ok": True}, _("{name} is disqualified.").format(name=view.entrant_name or args.entrant))


def cmd_audit(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import club
    from clubdesk.services.kernel import verify_chain

    if args.verify:
        from clubdesk.cli.core import Refused
        from clubdesk.services.kernel import record_anchor, verify_chain

        db = ctx.database()
        report = verify_chain(db)
        if not report.ok:
            raise Refused(report.message())
        data = report.as_json()
        text = report.message()
        if args.anchor:
            anchor = record_anchor(db, "verify")
            if anchor is not None:
                data["anchored"] = anchor.path
                text += "\n" + ngettext(
                    "Its head {head} and {n} row are recorded in {file}.",
                    "Its head {head} and {n} rows are recorded in {file}.",
                    anchor.rows,
                ).format(head=anchor.head[:12], n=anchor.rows, file=anchor.path)
        return Output(data, text)

    rows = club.audit_rows(
        ctx.database(),
        event_id=args.event,
        round_no=args.round_no,
        table_no=args.table_no,
        person=args.person,
        limit=args.limit,
        viewer=ctx.viewer(),
    )
    if args.csv is not None:
        n = club.export_audit_csv(ctx.database(), args.csv, rows)
        return Output(
            {"rows": n, "file": str(args.csv)},
            ngettext("{n} row written to {file}.", "{n} rows written to {file}.", n).format(
                n=n, file=args.csv
            ),
        )
    data = [
        {
            "at": local_text(r.at, "%Y-%m-%d %H:%M:%S"),  # the club's wall clock (stored in UTC)
            "at_utc": r.at.isoformat(sep=" ", timespec="seconds"),
            "actor": r.actor,
            "role": r.role,
            "action": r.action,
            "entity": r.entity,
            "id": r.entity_id,
            "event": r.event,
            "round": r.round,
            "table": r.table,
            "before": r.before,
            "after": r.after,
            "reason": r.reason,
        }
        for r in rows
    ]
    return Output(data)


def cmd_audit_key_export(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import club

    moved = club.export_audit_key(ctx.database(), ctx.actor(), args.out)
    text = _(
        "The club's audit key {name} is written to {file}, readable by you only. Whoever holds this file "
        "can re-sign the audit log: carry it to the new PC yourself, import it there with "
        "'clubdesk-cli audit key import', then delete it."
    ).format(name=moved.name, file=moved.path)
    return Output({"key": moved.name, "file": moved.path}, text)


def cmd_audit_key_import(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import club

    moved = club.import_audit_key(ctx.database(), ctx.actor(), args.file, backup=args.backup)
    if moved.already:
        text = _("The club's audit key {name} is already on this PC ({where}); nothing was changed.")
    else:
        text = _(
            "The club's audit key {name} is kept on this PC ({where}). Delete {file} now: whoever "
            "holds it can re-sign the audit log."
        )
    data = {"key": moved.name, "kept": moved.kept, "already": moved.already}
    return Output(data, text.format(name=moved.name, where=moved.kept, file=moved.path))
