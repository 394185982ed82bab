"""Money in and out: fees and refunds, the cash box, prize payments.

The package's face: what ui/, cli/, web/ and the packages above may use. A name is imported from its module
when first used, so a screen that needs one use case does not load the whole package (the first
section paints before the engines load)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clubdesk.services.money.fees import cash_box, pay, refund
    from clubdesk.services.money.prize_payments import (
        PrizeContext,
        PrizeLine,
        label_category,
        pay_prize,
        payment_item_label,
        prize_context,
        prize_lines,
        prize_preview,
    )

_HOMES = {
    "PrizeContext": "clubdesk.services.money.prize_payments",
    "PrizeLine": "clubdesk.services.money.prize_payments",
    "cash_box": "clubdesk.services.money.fees",
    "label_category": "clubdesk.services.money.prize_payments",
    "pay": "clubdesk.services.money.fees",
    "pay_prize": "clubdesk.services.money.prize_payments",
    "payment_item_label": "clubdesk.services.money.prize_payments",
    "prize_context": "clubdesk.services.money.prize_payments",
    "prize_lines": "clubdesk.services.money.prize_payments",
    "prize_preview": "clubdesk.services.money.prize_payments",
    "refund": "clubdesk.services.money.fees",
}

__all__ = [
    "PrizeContext",
    "PrizeLine",
    "cash_box",
    "label_category",
    "pay",
    "pay_prize",
    "payment_item_label",
    "prize_context",
    "prize_lines",
    "prize_preview",
    "refund",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from the module that defines it on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
