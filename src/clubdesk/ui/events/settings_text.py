"""An event's stored prize plan and season scale in words, for the night settings tab (T12d, T13)."""

from __future__ import annotations

import json
from decimal import Decimal

from clubdesk.i18n import N_, _
from clubdesk.ui.widgets.money import money

PRIZES_WHERE = N_("set in Standings › Prizes")


def _ordinal(place: int) -> str:
    return _("{n}.").format(n=place)


def prize_plan_summary(raw: str, currency: str) -> str:
    """The prize plan in one line, e.g. "Pool: 80 % of the fees · 1. 50 %, 2. 30 %, 3. 20 %"."""
    try:
        data = json.loads(raw or "{}")
    except json.JSONDecodeError:
        data = {}
    if not isinstance(data, dict) or not (data.get("places") or data.get("categories")):
        return _("No prize plan yet ({where}).").format(where=_(PRIZES_WHERE))
    parts: list[str] = []
    shares = any(p.get("pool_share") for p in data.get("places", []))
    if shares:
        rate = Decimal(int(data.get("pool_rate", 10_000))) / 100
        parts.append(_("Pool: {p} % of the fees").format(p=f"{rate.normalize():f}"))
    places: list[str] = []
    for p in data.get("places", []):
        bits: list[str] = []
        if p.get("fixed"):
            bits.append(money(int(p["fixed"]), currency))
        if p.get("pool_share"):
            bits.append(f"{(Decimal(int(p['pool_share'])) / 100).normalize():f} %")
        if p.get("items"):
            bits.append(_("trophy or goods"))
        places.append(f"{_ordinal(int(p.get('place', 0)))} {' + '.join(bits) or '-'}")
    if places:
        parts.append(", ".join(places))
    if data.get("categories"):
        parts.append(_("{n} category prizes").format(n=len(data["categories"])))
    return " · ".join(parts) + f" ({_(PRIZES_WHERE)})"


def scale_text(raw: str) -> tuple[str, str, int]:
    """Base points "100,70,50", coefficients "local=1, regional=1.5" and best-of from the stored scale."""
    try:
        data = json.loads(raw or "{}")
    except json.JSONDecodeError:
        data = {}
    if not isinstance(data, dict) or not data:
        return "", "", 0
    points = ",".join(str(int(x)) for x in data.get("base_points", []))
    coefficients = ", ".join(
        f"{k}={(Decimal(int(v)) / 100).normalize():f}" for k, v in dict(data.get("coefficients", {})).items()
    )
    return points, coefficients, int(data.get("best_of") or 0)
