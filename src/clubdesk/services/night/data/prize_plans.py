"""The night's prize plan (rules T13a-T13e) and season scale (T12d) read from their JSON settings and
written back: checked when they are set, used when the event ends."""

from __future__ import annotations

import json
from typing import Any

from clubdesk.models.event import Event
from clubdesk.models.round import EventNight
from clubdesk.standings.prizes import (
    VETERANS,
    WOMEN,
    YOUTH,
    Category,
    CategoryPrize,
    Item,
    PlacePrize,
    PrizeKind,
    PrizePlan,
)
from clubdesk.standings.season import SeasonScale


def season_scale_of(n: EventNight) -> SeasonScale | None:
    return season_scale_from(n.season_scale)


def season_scale_from(raw: str | dict[str, Any] | None) -> SeasonScale | None:
    """Rule T12d: ``{"base_points": [100, 70, ...], "coefficients": {"local": 100, "regional": 150}}``
    (coefficients in hundredths). Raises KeyError/ValueError/SeasonError when badly formed."""
    data = json.loads(raw or "{}") if isinstance(raw, str) or raw is None else raw
    if not data:
        return None
    best_of = data.get("best_of")
    return SeasonScale(
        tuple(int(x) for x in data["base_points"]),
        {str(k): int(v) for k, v in data["coefficients"].items()},
        best_of=None if best_of in (None, 0, "") else int(best_of),  # rule T12d: best N results count
        seed=int(data.get("seed", 0)),
    )


def season_scale_json(scale: SeasonScale) -> dict[str, Any]:
    """The JSON ``night-config --season-scale`` takes for ``scale`` (what :func:`season_scale_from` reads
    back)."""
    out: dict[str, Any] = {
        "base_points": list(scale.base_points),
        "coefficients": {str(k): int(v) for k, v in scale.coefficients.items()},
    }
    if scale.best_of:
        out["best_of"] = scale.best_of
    if scale.seed:
        out["seed"] = scale.seed
    return out


def prize_plan_of(n: EventNight, ev: Event) -> PrizePlan | None:
    return prize_plan_from(n.prize_plan, ev.currency)


def prize_plan_from(raw: str | dict[str, Any] | None, currency: str) -> PrizePlan | None:
    """Rules T13a-T13d: ``{"pool_rate": 8000, "places": [{"place": 1, "fixed": 0, "pool_share": 5000,
    "items": [{"kind": "trophy", "description": "Cup"}]}], "categories": [{"code": "women", "rank": 1,
    "fixed": 0, "pool_share": 0, "items": []}], "category_minimum": 3}`` (basis points, 10 000 = 100 %;
    fixed money in minor units; a category is women, youth or veterans, or gives its own gender/ages)."""
    data = json.loads(raw or "{}") if isinstance(raw, str) or raw is None else raw
    if not data:
        return None

    def items(d: dict[str, Any]) -> tuple[Item, ...]:
        return tuple(
            Item(PrizeKind(str(i["kind"])), str(i.get("description", ""))) for i in d.get("items", [])
        )

    places = tuple(
        PlacePrize(int(p["place"]), int(p.get("fixed", 0)), int(p.get("pool_share", 0)), items(p))
        for p in data.get("places", [])
    )
    cats = []
    for c in data.get("categories", []):
        code = str(c["code"])
        known = CATEGORIES.get(code)
        cat = (
            known
            if known is not None and not ({"gender", "min_age", "max_age"} & set(c))
            else Category(code, c.get("gender"), c.get("min_age"), c.get("max_age"))
        )
        cats.append(
            CategoryPrize(
                cat, int(c.get("rank", 1)), int(c.get("fixed", 0)), int(c.get("pool_share", 0)), items(c)
            )
        )
    return PrizePlan(
        currency,
        places,
        tuple(cats),
        pool_rate=int(data.get("pool_rate", 10_000)),
        category_minimum=int(data.get("category_minimum", 1)),
        seed=int(data.get("seed", 0)),
    )


CATEGORIES = {c.code: c for c in (WOMEN, YOUTH, VETERANS)}  # rule T13d: the usual categories


def prize_plan_json(plan: PrizePlan) -> dict[str, Any]:
    """The JSON ``night-config --prize-plan`` takes for ``plan`` (what :func:`prize_plan_from` reads back)."""

    def items(its: tuple[Item, ...]) -> list[dict[str, str]]:
        return [{"kind": str(i.kind), "description": i.description} for i in its]

    def cat(c: CategoryPrize) -> dict[str, Any]:
        out: dict[str, Any] = {"code": c.category.code, "rank": c.rank, "fixed": c.fixed}
        out["pool_share"] = c.pool_share
        if CATEGORIES.get(c.category.code) != c.category:
            out.update(gender=c.category.gender, min_age=c.category.min_age, max_age=c.category.max_age)
        return {**out, "items": items(c.items)}

    out: dict[str, Any] = {
        "pool_rate": plan.pool_rate,
        "places": [
            {"place": p.place, "fixed": p.fixed, "pool_share": p.pool_share, "items": items(p.items)}
            for p in sorted(plan.places, key=lambda p: p.place)
        ],
    }
    if plan.categories:
        out["categories"] = [cat(c) for c in plan.categories]
        out["category_minimum"] = plan.category_minimum
    if plan.seed:
        out["seed"] = plan.seed
    return out
