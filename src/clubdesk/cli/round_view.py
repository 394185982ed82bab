"""``round EVENT --round R``: a round's tables, their state, score and version, and the table call."""

from __future__ import annotations

import argparse

from clubdesk import labels
from clubdesk.cli.core import Context, Output
from clubdesk.competition.seating import seat_draw_note
from clubdesk.i18n import _
from clubdesk.services import night


def cmd_round(ctx: Context, args: argparse.Namespace) -> Output:
    rv = night.get_round(ctx.database(), args.event, args.round)
    data = {
        "round": rv.round,
        "status": rv.status,
        "seed": rv.seed,
        "call_at": rv.call_at.isoformat() if rv.call_at else None,
        "start_at": rv.start_at.isoformat() if rv.start_at else None,
        "forfeit_from": rv.forfeit_due.isoformat() if rv.forfeit_due else None,
        "forfeit_rule": rv.forfeit_rule,
        "tables": [
            {
                "table": t.table,
                "sides": list(t.sides),
                "names": list(t.names),
                "status": t.status,
                "score": list(t.score),
                "ref": t.ref,
                "locked": t.locked,
                "seats": t.seats,
                "version": t.version,  # give it back as `result --version N` (no lost update)
            }
            for t in rv.tables
        ],
        "explanations": list(rv.explanations),
    }
    call = rv.call_at.strftime("%Y-%m-%d %H:%M") if rv.call_at else "-"
    lines = [
        _("Round {r} ({status}), seed {s}, tables called {c}").format(
            r=rv.round, status=labels.round_status_label(rv.status), s=rv.seed, c=call
        )
    ]
    if rv.forfeit_due is not None:
        lines.append(
            _("absent sides can be forfeited from {d} (rule {rule})").format(
                d=rv.forfeit_due.strftime("%H:%M"), rule=rv.forfeit_rule
            )
        )
    for t in rv.tables:
        b = t.names[1] if t.names[1] else _("BYE")
        lock = "  " + _("locked") if t.locked else ""
        ref = f"  [{t.ref}]" if t.ref else ""
        lines.append(
            f"  {t.table:>3}  {t.names[0]}  –  {b}  {t.score[0]}-{t.score[1]}  "
            f"{labels.status_label(t.status)}{ref}{lock}"
        )
        if t.seats and t.seats.get("seats"):
            # rule E7: the seat draw, seats in playing order, the leader marked
            tiles = t.seats.get("tiles", {})
            seats = [
                f"{'*' if i == t.seats.get('leader') else ''}{p} ({tiles.get(p, '?')})"
                for i, p in enumerate(t.seats["seats"])
            ]
            lines.append("       " + _("seats") + ": " + ", ".join(seats))
            note = seat_draw_note(t.seats)  # rule E7: equal tiles drawn again among the tied
            if note:
                lines.append("       " + note)
    lines += [f"  {x}" for x in rv.explanations]
    return Output(data, "\n".join(lines))
