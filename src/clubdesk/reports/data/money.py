"""Money on paper: receipts and the prize list."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True)
class ReceiptLine:
    description: str
    amount: int


@dataclass(frozen=True)
class ReceiptData:
    """A payment receipt carrying the check-in QR (rules T2b, T3a)."""

    event_id: str
    receipt_no: str
    name: str
    checkin_code: str
    currency: str
    lines: tuple[ReceiptLine, ...]
    paid: int
    number: str = ""
    club: str = ""
    method: str = ""
    reference: str = ""
    paid_on: dt.date | None = None
    partner: str = ""
    owed: int | None = None  # still due, from the desk service (None: the lines' total less ``paid``)


# -------------------------------------------------------------------------------------------------- prizes
@dataclass(frozen=True)
class PrizeRow:
    place: str  # "1", "5-8", or a category label
    name: str
    prize: str  # "money", "trophy"... already translated, with its description
    amount: int = 0
    club: str = ""
    paid: bool = False
    paid_on: dt.date | None = None
    method: str = ""


@dataclass(frozen=True)
class PlanLine:
    """One place of the event's prize plan (T13a, T13b): its money (fixed + pool share, as the prize
    engine apportions it) and items, and the entrant(s) holding that place once the event is over."""

    place: str
    amount: int = 0
    items: str = ""
    entrants: tuple[str, ...] = ()
    fixed: int = 0
    share: int = 0  # basis points of the pool (10 000 = 100 %)


@dataclass(frozen=True)
class PrizeListData:
    event_id: str
    currency: str
    rows: tuple[PrizeRow, ...]
    pool: int = 0  # the money pool (T13b)
    plan: tuple[PlanLine, ...] = ()
    has_plan: bool = False
    entrants: int = 0  # entrants of the event
    collected: int = 0  # fees collected net of refunds (T13b)
    pool_rate: int = 0  # basis points
    final: bool = False  # the event is over: the places are known
