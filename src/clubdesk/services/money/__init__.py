"""Money in and out: fees and refunds, the cash box, prize payments.

The package's face: what ui/, cli/ and web/ may use. Everything else is the package's own."""

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
