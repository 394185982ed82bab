"""A command that changes a table carries the table's version (no lost update): ``--version N``, else the
version read as the command starts; a table changed by anyone in between is refused, naming who and when."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from clubdesk.cli.core import Context, Refused
from clubdesk.i18n import _
from clubdesk.services import night
from clubdesk.services.kernel import ServiceError

_T = TypeVar("_T")


def version_arg(p: Any) -> None:
    p.add_argument(
        "--version",
        dest="seen_version",
        type=int,
        metavar="N",
        default=None,
        help=_(
            "the table's version this change is based on (as `round --json` shows it); default: the version "
            "read when the command starts. A table changed since by anyone is refused"
        ),
    )


def versioned(ctx: Context, seen: int | None, table: tuple[int, int, int], change: Callable[[int], _T]) -> _T:
    """Run ``change(version)`` on the table (event, round, table number) at the version this command
    changes: ``seen`` (``--version``), else the one read as the command starts. Whoever changes the table
    before this command writes (another desk, a phone, another command) makes it refuse, naming who and
    when, with nothing saved: no lost update. The refusal says how to look at the table again."""
    event_id, round_no, table_no = table
    if seen is None:
        seen = night.get_table(ctx.database(), event_id, round_no, table_no).version
    try:
        return change(seen)
    except ServiceError as exc:
        if exc.code != "changed-elsewhere":
            raise
        who, when, now = exc.params.get("who"), exc.params.get("when"), exc.params.get("version")
        if who and when:
            text = _(
                "Table {t} was changed by {who} at {when} (version {seen} -> {now}) after this command read "
                "it; nothing was saved. Look at it again with `round {e} --round {r}` and repeat if it "
                "still applies."
            )
        else:
            text = _(
                "Table {t} has changed (version {seen} -> {now}) since this command read it; nothing was "
                "saved. Look at it again with `round {e} --round {r}` and repeat if it still applies."
            )
        message = text.format(t=table_no, who=who, when=when, seen=seen, now=now, e=event_id, r=round_no)
        raise Refused(message) from exc
