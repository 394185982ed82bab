"""Rule T13e: prize payments are recorded: who paid which prize, to whom, when and how; never twice.
The prize list shows each prize paid or unpaid (``services.publishing.money_lists.prizes_data``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import select

from clubdesk.i18n import N_, _
from clubdesk.models.event import Entrant
from clubdesk.models.money import METHODS, Payment
from clubdesk.models.result import FinalPlace, PrizeAward
from clubdesk.models.round import EventNight
from clubdesk.services import night
from clubdesk.services.kernel import Actor, ServiceError, audit, require
from clubdesk.services.night import prize_plan_from
from clubdesk.standings.prizes import Item, PrizeError, PrizePlan, award_prizes
from clubdesk.standings.season import Placing
from clubdesk.storage import Database, lock_event


@dataclass(frozen=True)
class PrizePayment:
    award: int
    entrant: int
    name: str
    place: int
    kind: str
    amount: int
    currency: str
    paid_at: datetime
    paid_by: str
    paid_to: str
    method: str

    def as_json(self) -> dict[str, Any]:
        return {
            "award": self.award,
            "entrant": self.entrant,
            "name": self.name,
            "place": self.place,
            "kind": self.kind,
            "amount": self.amount,
            "currency": self.currency,
            "paid_at": self.paid_at.isoformat(timespec="minutes"),
            "paid_by": self.paid_by,
            "paid_to": self.paid_to,
            "method": self.method,
        }


def pay_prize(
    db: Database,
    actor: Actor,
    event_id: int,
    place: int,
    method: str,
    *,
    on: date | None = None,
    entrant: int | None = None,
    paid_to: str | None = None,
    now: datetime | None = None,
    award: int | None = None,
) -> PrizePayment:
    """Record the payment of the place prize of ``place`` (``entrant`` picks one when players share the
    place, T13c); ``award`` pays that one award instead (a category prize, T13d, won at ``place``).
    Refused: an unknown method, no such prize, a choice needed, or already paid."""
    require(actor, "prizes.pay", db)  # permission table
    if method not in METHODS:
        raise ServiceError(
            "bad-method",
            _("Unknown payment method {method}: one of {choices}.").format(
                method=method, choices=", ".join(METHODS)
            ),
        )
    with db.session() as s:
        ev = night.get_event(s, event_id)
        # one desk at a time per event: two desks paying one prize at once pay it once (T13e)
        lock_event(s, ev.id)
        names = night.entrant_names(s, ev.id)
        places = {
            fp.entrant_id: fp.place_from
            for fp in s.scalars(select(FinalPlace).where(FinalPlace.event_id == ev.id))
        }
        awards = [
            a
            for a in s.scalars(select(PrizeAward).where(PrizeAward.event_id == ev.id).order_by(PrizeAward.id))
            if (a.id == award if award is not None else a.award_key.startswith("place"))
            and places.get(a.entrant_id) == place
        ]
        if entrant is not None:
            awards = [a for a in awards if a.entrant_id == entrant]
        if not awards:
            raise ServiceError(
                "no-prize", _("There is no prize for place {p} in this event.").format(p=place)
            )
        unpaid = [a for a in awards if a.paid_at is None]
        if not unpaid:
            a = awards[0]
            assert a.paid_at is not None
            raise ServiceError(
                "already-paid",
                _(
                    "The prize for place {p} was paid on {d} by {who} ({how}): never twice (rule T13e)."
                ).format(
                    p=place, d=a.paid_at.strftime("%Y-%m-%d"), who=a.paid_by or "?", how=a.paid_method or "?"
                ),
            )
        if len({a.entrant_id for a in unpaid}) > 1:
            raise ServiceError(
                "which-entrant",
                _("Place {p} is shared: say which entrant is paid ({ids}).").format(
                    p=place, ids=", ".join(str(a.entrant_id) for a in unpaid)
                ),
            )
        when = datetime.combine(on, (now or datetime.now()).time()) if on else (now or night.local_now())
        before = []
        for aw in unpaid:  # one entrant's place prizes (money and trophy...) are handed out together
            before.append({"award": aw.id, "paid_at": None})
            aw.paid_at = when
            aw.paid_by = actor.name[:80]
            aw.paid_to = (paid_to or names.get(aw.entrant_id) or "")[:120]
            aw.paid_method = method
        aw = unpaid[0]
        out = PrizePayment(
            aw.id,
            aw.entrant_id,
            names.get(aw.entrant_id) or "",
            place,
            aw.kind,
            sum(a.amount for a in unpaid if a.kind == "money"),
            aw.currency,
            when,
            aw.paid_by,
            aw.paid_to,
            method,
        )
        audit(
            s,
            actor,
            "prize-paid",
            "prize",
            ",".join(str(a.id) for a in unpaid),
            before=before,
            after=out.as_json(),
            event_id=ev.id,
        )
        return out


@dataclass(frozen=True)
class PrizeLine:
    """One awarded prize as the Prizes screen lists it (T13e: paid or not)."""

    award: int
    place: int
    entrant: int
    name: str
    kind: str
    amount: int
    currency: str
    description: str
    paid_at: datetime | None
    paid_by: str
    method: str
    place_to: int = 0  # the last place of a shared place (T13c): 5-8; 0 for a category prize
    paid_to: str = ""
    key: str = ""  # the engine's award id: "place:1:money:e12", "cat:women:1:item0"

    @property
    def place_text(self) -> str:
        """ "3", "5-8" (shared, T13c) or the category's code ("women", T13d)."""
        if self.key.startswith("cat:"):
            return self.key.split(":")[1]
        if not self.place:
            return ""
        return str(self.place) if self.place_to <= self.place else f"{self.place}-{self.place_to}"


def prize_lines(db: Database, event_id: int) -> list[PrizeLine]:
    """The event's prizes by place (category prizes after the place prizes)."""
    with db.session() as s:
        ev = night.get_event(s, event_id)
        names = night.entrant_names(s, ev.id)
        places = {
            fp.entrant_id: (fp.place_from, fp.place_to)
            for fp in s.scalars(select(FinalPlace).where(FinalPlace.event_id == ev.id))
        }
        out = [
            PrizeLine(
                a.id,
                places.get(a.entrant_id, (0, 0))[0],
                a.entrant_id,
                names.get(a.entrant_id) or "",
                a.kind,
                a.amount,
                a.currency,
                a.description,
                a.paid_at,
                a.paid_by,
                a.paid_method,
                places.get(a.entrant_id, (0, 0))[1],
                a.paid_to,
                a.award_key,
            )
            for a in s.scalars(select(PrizeAward).where(PrizeAward.event_id == ev.id))
        ]
        # place prizes by place, then the category prizes (T13d)
        return sorted(out, key=lambda x: (x.key.startswith("cat:"), x.place == 0, x.place, x.award))


# ------------------------------------------------------------------------------------------ the plan
@dataclass(frozen=True)
class PrizeContext:
    """What the Prizes screen needs of an event besides its awards: the plan as stored, the entrants and
    the fees actually collected (T13b), and whether the event is over (the prizes are then awarded)."""

    event_id: int
    currency: str
    plan_json: str
    plan: PrizePlan | None
    plan_error: str
    entrants: int  # registered (and disqualified) entrants
    collected: int  # fees collected net of refunds, minor units
    fee: int  # the entry fee of one entrant (what a further entrant would pay), minor units
    finished: bool
    event_date: date


def prize_context(db: Database, event_id: int) -> PrizeContext:

    with db.session() as s:
        ev = night.get_event(s, event_id)
        n = s.get(EventNight, ev.id)
        raw = n.prize_plan if n is not None else "{}"
        plan: PrizePlan | None = None
        error = ""
        try:
            plan = prize_plan_from(raw, ev.currency)
        except PrizeError as exc:
            error = exc.message or exc.code
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            error = _("The prize plan or season scale is not well formed: {e}").format(e=exc)
        entrants = list(s.scalars(select(Entrant).where(Entrant.event_id == ev.id)))
        fees = [
            p.amount
            for p in s.scalars(
                select(Payment)
                .join(Entrant, Entrant.id == Payment.entrant_id)
                .where(Entrant.event_id == ev.id)
            )
        ]
        per = 1
        if ev.fee_per == "person":
            per = {"single": 1, "pair": 2}.get(ev.entry_type, 4)
        return PrizeContext(
            event_id=ev.id,
            currency=ev.currency,
            plan_json=raw or "{}",
            plan=plan,
            plan_error=error,
            entrants=sum(1 for e in entrants if e.status in ("registered", "disqualified")),
            collected=max(0, sum(fees)),
            fee=(ev.fee or 0) * per,
            finished=n is not None and n.finished_at is not None,
            event_date=ev.starts_on or date.today(),
        )


@dataclass(frozen=True)
class PreviewLine:
    """One place (or category prize) of the preview: its money and items, or why nobody gets it."""

    place: str  # "1", or a category's code with its rank: "women 1"
    amount: int
    items: tuple[str, ...]  # item kinds with their descriptions
    awarded: bool  # False: no entrant for this place with this many entrants


@dataclass(frozen=True)
class PrizePreview:
    entrants: int
    fees: int  # the fees the pool is taken from (T13b)
    actual: bool  # True: the fees actually collected; False: ``entrants`` x the entry fee
    pool: int
    lines: tuple[PreviewLine, ...]
    undistributed: int  # planned money no place gets with this many entrants


def prize_preview(ctx: PrizeContext, plan: PrizePlan, entrants: int | None = None) -> PrizePreview:
    """The amounts of ``plan`` if the event ended with ``entrants`` entrants at places 1..N (none shared): the
    prize engine's own award_prizes (T13a-T13c). With the current entrant count the pool comes from the fees
    actually collected (T13b); with another count, from that many entry fees. Category prizes (T13d) show
    their money, as if the category has enough entrants."""
    n = ctx.entrants if entrants is None else max(0, entrants)
    actual = n == ctx.entrants
    fees = ctx.collected if actual else n * ctx.fee
    ranking = [Placing(f"e{k}", k) for k in range(1, n + 1)]
    prizes = award_prizes(plan, ranking, event_date=ctx.event_date, collected=fees)
    by_place: dict[int, int] = {}
    for a in prizes.awards:
        by_place[a.place_from] = by_place.get(a.place_from, 0) + a.amount
    lines = [
        PreviewLine(
            str(p.place),
            by_place.get(p.place, 0),
            tuple(_item_text(i) for i in p.items),
            p.place <= n,
        )
        for p in sorted(plan.places, key=lambda p: p.place)
    ]
    _places, cats = plan.money_by_line(prizes.pool)
    lines += [
        PreviewLine(
            f"{label_category(c.category.code)} {c.rank}",
            cats[(c.category.code, c.rank)],
            tuple(_item_text(i) for i in c.items),
            n >= max(c.rank, plan.category_minimum),
        )
        for c in plan.categories
    ]
    undistributed = sum(v for p, v in _places.items() if p > n)
    return PrizePreview(n, fees, actual, prizes.pool, tuple(lines), undistributed)


def _item_text(item: Item) -> str:
    kind = payment_item_label(str(item.kind))
    return f"{kind}: {item.description}" if item.description else kind


CATEGORY_LABELS = {"women": N_("women"), "youth": N_("youth"), "veterans": N_("veterans")}
ITEM_LABELS = {"trophy": N_("trophy"), "goods": N_("goods"), "free-entry": N_("free entry")}


def label_category(code: str) -> str:
    return _(CATEGORY_LABELS[code]) if code in CATEGORY_LABELS else code


def payment_item_label(kind: str) -> str:
    return _(ITEM_LABELS[kind]) if kind in ITEM_LABELS else kind
