"""Data-safety commands: ``backup`` and ``restore``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from clubdesk.cli.core import Context, Output, add_command
from clubdesk.i18n import _, ngettext


def register(sub: Any) -> None:
    b = add_command(sub, "backup", cmd_backup, _("make a verified copy of the database (safe while in use)"))
    b.add_argument("--to", type=Path, default=None, help=_("folder for the copy (default: backups folder)"))
    r = add_command(sub, "restore", cmd_restore, _("replace the database with a backup (current one kept)"))
    r.add_argument("file", type=Path, help=_("the backup file to restore"))


def cmd_backup(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import club

    info = club.backup(ctx.database(), ctx.actor(), folder=args.to)
    data = {
        "file": str(info.file),
        "bytes": info.bytes,
        "integrity": info.integrity,
        "schema": info.revision,
        "audit_head": info.audit_head,
        "audit_rows": info.audit_rows,
        "audit_key": info.audit_key,
        "audit_anchor": info.audit_anchor,
    }
    text = _("Backup written to {file} ({size} bytes, check: {check}).").format(
        file=info.file, size=info.bytes, check=info.integrity
    )
    if info.audit_anchor:
        text += "\n" + ngettext(
            "Audit log: {n} row, head {head}; anchor recorded in {anchor}.",
            "Audit log: {n} rows, head {head}; anchor recorded in {anchor}.",
            info.audit_rows or 0,
        ).format(n=info.audit_rows, head=(info.audit_head or "")[:12], anchor=info.audit_anchor)
    return Output(data, text)


def cmd_restore(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import club

    db = ctx.database()
    kept = club.restore(db, ctx.actor(), args.file)
    data = {"restored": str(args.file), "database": str(db.path), "previous_kept_as": str(kept.file)}
    return Output(
        data,
        _("Restored {file} into {db}; the database as it was is kept in {kept}.").format(
            file=args.file, db=db.path, kept=kept.file
        ),
    )
