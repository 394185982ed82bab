"""An event's prize plan and season scale in words, for the night settings tab (T12d, T13)."""

from __future__ import annotations

from decimal import Decimal

from clubdesk.i18n import N_, _
from clubdesk.standings.prizes import PrizePlan
from clubdesk.standings.season import SeasonScale
from clubdesk.ui.widgets.money import money

PRIZES_WHERE = N_("set in Standings › Prizes")


def _ordinal(place: int) -> str:
    return _("{n}.").format(n=place)


def prize_plan_summary(plan: PrizePlan | None, currency: str) -> str:
    """The prize plan in one line, e.g. "Pool: 80 % of the fees · 1. 50 %, 2. 30 %, 3. 20 %"."""
    if plan is None or not (plan.places or plan.categories):
        return _("No prize plan yet ({where}).").format(where=_(PRIZES_WHERE))
    parts: list[str] = []
    if any(p.pool_share for p in plan.places):
        rate = Decimal(plan.pool_rate) / 100
        parts.append(_("Pool: {p} % of the fees").format(p=f"{rate.normalize():f}"))
    places: list[str] = []
    for p in plan.places:
        bits: list[str] = []
        if p.fixed:
            bits.append(money(p.fixed, currency))
        if p.pool_share:
            bits.append(f"{(Decimal(p.pool_share) / 100).normalize():f} %")
        if p.items:
            bits.append(_("trophy or goods"))
        places.append(f"{_ordinal(p.place)} {' + '.join(bits) or '-'}")
    if places:
        parts.append(", ".join(places))
    if plan.categories:
        parts.append(_("{n} category prizes").format(n=len(plan.categories)))
    return " · ".join(parts) + f" ({_(PRIZES_WHERE)})"


def scale_text(scale: SeasonScale | None) -> tuple[str, str, int]:
    """Base points "100,70,50", coefficients "local=1, regional=1.5" and best-of of the season scale."""
    if scale is None:
        return "", "", 0
    points = ",".join(str(x) for x in scale.base_points)
    coefficients = ", ".join(f"{k}={(Decimal(v) / 100).normalize():f}" for k, v in scale.coefficients.items())
    return points, coefficients, scale.best_of or 0
