"""The money reports: receipts of entry
fees and the prize list.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sqlalchemy import select

from clubdesk.i18n import N_, _, retranslate
from clubdesk.models.money import Payment
from clubdesk.models.result import FinalPlace, PrizeAward
from clubdesk.reports import data as report_data
from clubdesk.reports.prizes import prizes
from clubdesk.reports.receipts import receipts
from clubdesk.reports.words import place_text
from clubdesk.services import desk, night
from clubdesk.services.kernel import ServiceError
from clubdesk.services.publishing.header import (
    entrants_of,
    event_payments,
    public,
    render,
    report_event,
    report_header,
)
from clubdesk.storage import Database

# ------------------------------------------------------------------------------------------ receipts
_METHODS = {
    "cash": N_("cash"),
    "card": N_("card"),
    "transfer": N_("bank transfer"),
    "pos": N_("card terminal"),
}


def receipts_data(
    db: Database, event_id: int, entrant_id: int | None = None
) -> list[report_data.ReceiptData]:
    """One receipt per entrant on the list (registered and waiting), with the check-in QR (T2b, T3a):
    the entry fee owed by the payments' dates and what was paid, net of refunds."""

    rows = desk.entrants(db, event_id, include_withdrawn=False)
    if entrant_id is not None:
        rows = [r for r in rows if r.entrant == entrant_id]
        if not rows:
            raise ServiceError("no-entrant", _("No entrant {id}.").format(id=entrant_id))
    with db.session() as s:
        ev = report_event(s, event_id)
        who = public(s, ev)
        pays: dict[int, list[Payment]] = {}
        for p in s.scalars(event_payments(ev).order_by(Payment.paid_at, Payment.id)):
            pays.setdefault(p.entrant_id, []).append(p)
        event_name = ev.name
        plain = {k: [(p.id, p.amount, p.method, p.reference, p.paid_at) for p in v] for k, v in pays.items()}
    out: list[report_data.ReceiptData] = []
    for r in rows:
        w = who[r.entrant]
        own = plain.get(r.entrant, [])
        last = next((p for p in reversed(own) if p[1] > 0), None)
        members = w.members
        out.append(
            report_data.ReceiptData(
                event_id=str(event_id),
                receipt_no=f"{event_id}-{r.entrant}" + (f"-{last[0]}" if last else ""),
                name=w.name if len(members) != 2 else members[0][1],
                checkin_code=r.code,
                currency=r.currency,
                lines=(report_data.ReceiptLine(_("Entry fee: {event}").format(event=event_name), r.price),),
                paid=r.paid,
                number=members[0][0] if members else "",
                club=w.club,
                method=_(_METHODS.get(last[2], last[2])) if last else "",
                reference=last[3] if last else "",
                paid_on=last[4].date() if last else None,
                partner=members[1][1] if len(members) == 2 else "",
                owed=r.owed,
            )
        )
    return out


def receipts_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    entrant_id: int | None = None,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:

    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    return render(out, header, receipts, lambda: receipts_data(db, event_id, entrant_id))


# ------------------------------------------------------------------------------------------ prizes
_GENERATED_PRIZES = (N_("Prize money"), N_("Category prize money"))  # standings.prizes descriptions
_PRIZE_KINDS = {
    "money": N_("money"),
    "trophy": N_("trophy"),
    "medal": N_("medal"),
    "goods": N_("goods"),
    "free_entry": N_("free entry"),
    "free-entry": N_("free entry"),
}


def prizes_data(db: Database, event_id: int) -> report_data.PrizeListData:
    """The prizes awarded when the event ended (T13a-T13d), with their payments (T13e)."""
    with db.session() as s:
        ev = report_event(s, event_id)
        who = public(s, ev)
        places = {
            fp.entrant_id: (fp.place_from, fp.place_to)
            for fp in s.scalars(select(FinalPlace).where(FinalPlace.event_id == ev.id))
        }
        awards = list(s.scalars(select(PrizeAward).where(PrizeAward.event_id == ev.id)))
        rows: list[tuple[tuple[int, int, str], report_data.PrizeRow]] = []
        for aw in awards:
            a, b = places.get(aw.entrant_id, (10**6, 10**6))
            category = not aw.award_key.startswith("place")
            # a category prize (T13d) shows its category: "cat:women:1:money" -> "women"
            place = aw.award_key.split(":")[1] if category and ":" in aw.award_key else place_text(a, b)
            kind = _(_PRIZE_KINDS.get(aw.kind, aw.kind))
            # the engine's own words were stored in the language of the day: shown in the report's
            prize = retranslate(aw.description, _GENERATED_PRIZES) if aw.description else kind
            w = who.get(aw.entrant_id)
            rows.append(
                (
                    (a, 1 if category else 0, aw.award_key),
                    report_data.PrizeRow(
                        place=place,
                        name=w.name if w else str(aw.entrant_id),
                        prize=prize,
                        amount=aw.amount if aw.kind == "money" else 0,
                        club=w.club if w else "",
                        paid=aw.paid_at is not None,
                        paid_on=aw.paid_at.date() if aw.paid_at else None,
                        method=_(_METHODS.get(aw.paid_method, aw.paid_method)) if aw.paid_method else "",
                    ),
                )
            )
        rows.sort(key=lambda x: x[0])
        fees = [p.amount for p in s.scalars(event_payments(ev))]
        collected = sum(a for a in fees if a > 0)
        refunded = -sum(a for a in fees if a < 0)
        entrants = sum(1 for e in entrants_of(s, ev) if e.status in ("registered", "disqualified"))
        final = night.night(s, ev).finished_at is not None
        try:
            plan = night.prize_plan_from(night.night(s, ev).prize_plan, ev.currency)
        except (KeyError, TypeError, ValueError):
            plan = None  # a broken plan prints as none; the night settings say what is wrong
        pool = 0
        lines: list[report_data.PlanLine] = []
        if plan is not None:
            # rule T13b: the prize engine's pool (fees collected net of refunds x the pool rate) and each
            # place's money (fixed + its share of the pool, apportioned by the engine)
            pool = plan.pool(collected, refunded) if collected >= refunded else 0
            money, _cats = plan.money_by_line(pool)
            holders: dict[int, list[str]] = {}
            for en_id, (a, b) in places.items():
                for place in range(a, b + 1):
                    w = who.get(en_id)
                    holders.setdefault(place, []).append(w.name if w else str(en_id))
            for pp in sorted(plan.places, key=lambda p: p.place):
                lines.append(
                    report_data.PlanLine(
                        place=str(pp.place),
                        amount=money.get(pp.place, 0),
                        items=", ".join(_(_PRIZE_KINDS.get(str(i.kind), str(i.kind))) for i in pp.items),
                        entrants=tuple(sorted(holders.get(pp.place, []))),
                        fixed=pp.fixed,
                        share=pp.pool_share,
                    )
                )
        return report_data.PrizeListData(
            event_id=str(ev.id),
            currency=ev.currency,
            rows=tuple(r for _k, r in rows),
            pool=pool,
            plan=tuple(lines),
            has_plan=plan is not None,
            entrants=entrants,
            collected=collected - refunded,
            pool_rate=plan.pool_rate if plan is not None else 0,
            final=final,
        )


def prizes_report(
    db: Database,
    event_id: int,
    out: str | Path,
    *,
    language: str | None = None,
    paper: str = "a4",
    printed_on: dt.datetime | None = None,
) -> int:

    header = report_header(db, event_id, language=language, paper=paper, printed_on=printed_on)
    return render(out, header, prizes, lambda: prizes_data(db, event_id))
