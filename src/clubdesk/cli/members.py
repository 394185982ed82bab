"""Register commands: ``member add|import|list|export|merge`` and ``demo`` (CONTRACTS.md §4)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from clubdesk.cli.core import Context, Output, Refused, add_command
from clubdesk.i18n import _, ngettext


def register(sub: Any) -> None:
    demo_cmd = add_command(sub, "demo", cmd_demo, _("fill the demo database with a demo club"))
    demo_cmd.add_argument("--game", default=None, help=_("ruleset of the demo events"))
    demo_cmd.add_argument("--members", type=int, default=None, help=_("how many demo members (default 40)"))
    demo_cmd.add_argument("--seed", type=int, default=None, help=_("seed of the demo data"))

    member = sub.add_parser("member", help=_("the club's register"))
    msub = member.add_subparsers(dest="member_command", metavar="ACTION", parser_class=sub._parser_class)
    msub.required = True

    add = add_command(msub, "add", cmd_add, _("add a member"))
    add.add_argument("--name", required=True, help=_("full name"))
    add.add_argument("--number", default="", help=_("member number (default: the next free one)"))
    add.add_argument("--club", default="", help=_("club name (created if new)"))
    add.add_argument("--city", default="")
    add.add_argument("--phone", default="")
    add.add_argument("--email", default="")
    add.add_argument("--gender", choices=("m", "f"), default="")
    add.add_argument("--birth-year", type=int, default=None)
    add.add_argument("--rating", type=float, default=None)
    add.add_argument("--notes", default="")
    add.add_argument(
        "--licence", default="", help=_("federation licence number (printed on the match act, E15)")
    )
    add.add_argument(
        "--public-name",
        choices=("full", "initials"),
        default="full",
        help=_("on share images, the site, the hall and the projector: the full name, or initials and club"),
    )
    add.add_argument(
        "--force",
        action="store_true",
        help=_("add even when a member of the same name and club exists (another person of that name)"),
    )

    edit = add_command(msub, "edit", cmd_edit, _("change a member's data (only the options given)"))
    edit.add_argument("number", help=_("member number"))
    edit.add_argument("--name", default=None, help=_("full name"))
    edit.add_argument("--new-number", default=None, help=_("a new member number"))
    edit.add_argument("--club", default=None, help=_("club name (created if new)"))
    edit.add_argument("--city", default=None)
    edit.add_argument("--phone", default=None)
    edit.add_argument("--email", default=None)
    edit.add_argument("--gender", choices=("m", "f", ""), default=None)
    edit.add_argument("--birth-year", type=int, default=None)
    edit.add_argument("--notes", default=None)
    edit.add_argument(
        "--licence",
        default=None,
        help=_("federation licence number (printed on the match act, E15); '' clears it"),
    )
    edit.add_argument(
        "--public-name",
        choices=("full", "initials"),
        default=None,
        help=_("on share images, the site, the hall and the projector: the full name, or initials and club"),
    )

    personal = add_command(
        msub, "export-personal", cmd_export_personal, _("everything held about a member, as JSON and PDF")
    )
    personal.add_argument("number", help=_("member number"))
    personal.add_argument("--out", type=Path, default=Path("."), help=_("folder to write into"))

    erase = add_command(
        msub, "erase", cmd_erase, _("erase a member: anonymised by number, contacts wiped, results kept")
    )
    erase.add_argument("number", help=_("member number"))

    inactive = add_command(
        msub, "clear-inactive", cmd_clear_inactive, _("clear the contact data of members inactive for years")
    )
    inactive.add_argument("--years", type=int, required=True, help=_("inactive for at least this many years"))
    inactive.add_argument(
        "--dry-run", action="store_true", help=_("say whose data would be cleared, write nothing")
    )

    imp = add_command(msub, "import", cmd_import, _("import members from a CSV file (all or nothing)"))
    imp.add_argument("file", type=Path)
    imp.add_argument("--dry-run", action="store_true", help=_("check the file, write nothing"))

    lst = add_command(msub, "list", cmd_list, _("list active members (no phone, no e-mail)"))
    lst.add_argument("--search", default="", help=_("filter by number, name, club or city"))
    lst.add_argument(
        "--limit", type=int, default=None, help=_("show at most this many members (in name order)")
    )

    exp = add_command(msub, "export", cmd_export, _("export the register to CSV (for the organiser)"))
    exp.add_argument("file", type=Path)
    exp.add_argument("--delimiter", choices=(",", ";"), default=",", help=_("column separator"))

    merge = add_command(msub, "merge", cmd_merge, _("merge two records of the same person (KEEP stays)"))
    merge.add_argument("keep", help=_("member number to keep"))
    merge.add_argument("drop", help=_("member number merged into KEEP"))


def cmd_demo(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import demo

    if args.members is not None and not 0 <= args.members <= 10000:
        raise Refused(_("--members must be between 0 and 10000."))
    options = demo.DemoOptions(
        members=demo.DEFAULT_MEMBERS if args.members is None else args.members,
        seed=demo.DEFAULT_SEED if args.seed is None else args.seed,
        game=args.game,
    )
    db = ctx.database(demo=True)
    result = demo.fill_demo(db, options)
    text = _("Demo club ready in {path}: {n} members.").format(path=db.location, n=result.members)
    return Output(result.as_json(), text)


def cmd_add(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import members

    data = members.MemberData(
        name=args.name,
        number=args.number,
        club=args.club,
        city=args.city,
        gender=args.gender,
        birth_year=args.birth_year,
        rating=args.rating,
        phone=args.phone,
        email=args.email,
        notes=args.notes,
        licence=args.licence,
        public_name=args.public_name,
    )
    same = [] if args.force else members.likely_duplicates(ctx.database(), args.name, args.club)
    if same:
        numbers = ", ".join(f"{m.number} {m.name}" + (f" ({m.club})" if m.club else "") for m in same)
        raise Refused(
            ngettext(
                "A member of the same name and club exists already: {members}. Nothing added; give "
                "--force if this is another person.",
                "Members of the same name and club exist already: {members}. Nothing added; give "
                "--force if this is another person.",
                len(same),
            ).format(members=numbers)
        )
    info = members.create_member(ctx.database(), ctx.actor(), data)
    return Output({"number": info.number}, _("Added {name} as member {number}.").format(**vars(info)))


def cmd_edit(ctx: Context, args: argparse.Namespace) -> Output:
    from dataclasses import replace

    from clubdesk.services import members

    db = ctx.database()
    current = members.get_member(db, args.number, follow_merged=False).data()
    changes: dict[str, Any] = {
        key: value
        for key, value in (
            ("name", args.name),
            ("number", args.new_number),
            ("club", args.club),
            ("city", args.city),
            ("phone", args.phone),
            ("email", args.email),
            ("gender", args.gender),
            ("birth_year", args.birth_year),
            ("notes", args.notes),
            ("licence", args.licence),  # rule E15
            ("public_name", args.public_name),  # his consent for public outputs
        )
        if value is not None
    }
    info = members.update_member(db, ctx.actor(), args.number, replace(current, **changes))
    data = {"number": info.number, "licence": info.licence}
    return Output(data, _("Saved member {number} ({name}).").format(number=info.number, name=info.name))


def cmd_import(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import members

    if not args.file.is_file():
        raise Refused(_("No such file: {file}").format(file=args.file))
    preview = members.import_members(ctx.database(), ctx.actor(), args.file, dry_run=args.dry_run)
    n = len(preview.additions)
    if args.dry_run:
        data = {"imported": 0, "dry_run": True, "would_import": n}
        text = _("The file is fine: {n} members would be imported ({encoding}). Nothing was written.")
        return Output(data, text.format(n=n, encoding=preview.encoding))
    return Output({"imported": n}, _("Imported {n} members.").format(n=n))


def cmd_list(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import members

    # rule T14: number, name, club, city, rating only; never phone or e-mail
    if args.limit is not None and args.limit < 1:
        raise Refused(_("--limit must be 1 or more."))
    found = members.public_list(ctx.database(), args.search, limit=args.limit)  # a page in SQL
    return Output([m.as_json() for m in found])


def cmd_export(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import members

    n = members.export_csv(ctx.database(), ctx.actor(), args.file, delimiter=args.delimiter)
    return Output(
        {"ok": True},
        ngettext("Exported {n} member to {file}.", "Exported {n} members to {file}.", n).format(
            n=n, file=args.file
        ),
    )


def cmd_merge(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import members

    result = members.merge_members(ctx.database(), ctx.actor(), args.keep, args.drop)
    text = _("Merged {drop} into {keep}.").format(drop=result.drop, keep=result.keep)
    return Output({"ok": True}, text)


def cmd_export_personal(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import publishing

    done = publishing.export_personal(ctx.database(), ctx.actor(), args.number, args.out, language=ctx.lang)
    data = {
        "number": done.number,
        "json": str(done.json_path),
        "pdf": str(done.pdf_path),
        "rows": done.sections,
    }
    text = _("Everything held about member {number} is in {json} and {pdf}.").format(
        number=done.number, json=done.json_path, pdf=done.pdf_path
    )
    return Output(data, text)


def cmd_erase(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import members

    done = members.erase_member(ctx.database(), ctx.actor(), args.number)
    data = {"number": done.number, "name": done.name, "redacted_rows": done.redacted_rows}
    text = _("Member {number} is erased: now named {name}; results, standings and ratings are kept.").format(
        number=done.number, name=done.name
    )
    return Output(data, text)


def cmd_clear_inactive(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import members

    done = members.clear_inactive(ctx.database(), ctx.actor(), args.years, dry_run=args.dry_run)
    n = len(done.numbers)
    data = {"members": list(done.numbers), "dry_run": done.dry_run}
    if n == 0:
        return Output(data, _("No member has been inactive that long with contact data kept."))
    if done.dry_run:
        text = ngettext(
            "{n} member's contact data would be cleared: {numbers}. Nothing was written.",
            "{n} members' contact data would be cleared: {numbers}. Nothing was written.",
            n,
        )
    else:
        text = ngettext(
            "Cleared the contact data of {n} member: {numbers}.",
            "Cleared the contact data of {n} members: {numbers}.",
            n,
        )
    return Output(data, text.format(n=n, numbers=", ".join(done.numbers)))
