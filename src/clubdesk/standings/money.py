"""Money for the prize engine: integer minor units with a currency code, and exact splits.

Money is never a float here. An amount is an ``int`` of the currency's *minor unit* (cents for EUR,
kuruş for TRY). How many decimal digits a currency has comes from Babel's CLDR data
(:func:`babel.numbers.get_currency_precision`):

* ``EUR`` 2 digits (1 € = 100 cents), ``TRY`` 2 digits (1 ₺ = 100 kuruş);
* ``IDR`` **0 digits**: ISO 4217 still lists two (sen), but sen have not been in circulation for
  decades and CLDR (hence Babel) gives 0. ClubDesk follows CLDR, so Rp 5.000 is stored as ``5000``
  and one rupiah is the smallest unit a prize is split to. An exponent can be overridden in
  ``CURRENCY_EXPONENT_OVERRIDES``; nothing else in the engine depends on the value.

The split helpers never create or lose a minor unit: the parts always add up to the total exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from babel.numbers import get_currency_precision

from clubdesk.i18n import _

# Exponents that differ from CLDR (none by default; CLDR already says IDR = 0).
CURRENCY_EXPONENT_OVERRIDES: dict[str, int] = {}


class MoneyError(ValueError):
    """An amount or currency that cannot be used; ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message


@lru_cache(maxsize=64)
def _cldr_exponent(code: str) -> int:
    return int(get_currency_precision(code))


def currency_exponent(currency: str) -> int:
    """Number of decimal digits of the currency's minor unit: IDR 0, EUR 2, TRY 2."""
    code = currency.strip().upper()
    if len(code) != 3 or not code.isalpha():
        raise MoneyError("bad-currency", _("A currency is a three-letter code such as EUR, IDR or TRY."))
    if code in CURRENCY_EXPONENT_OVERRIDES:
        return CURRENCY_EXPONENT_OVERRIDES[code]
    return _cldr_exponent(code)


@dataclass(frozen=True, order=True)
class Money:
    """An amount in integer minor units of ``currency`` (``Money(1250, "EUR")`` is 12,50 €)."""

    amount: int
    currency: str

    def __post_init__(self) -> None:
        if isinstance(self.amount, bool) or not isinstance(self.amount, int):
            raise MoneyError("bad-amount", _("Money is stored as a whole number of minor units."))
        object.__setattr__(self, "currency", self.currency.strip().upper())
        currency_exponent(self.currency)  # validates the code

    def _check(self, other: Money) -> None:
        if other.currency != self.currency:
            raise MoneyError(
                "currency-mismatch",
                _("Cannot combine amounts in {a} and {b}.").format(a=self.currency, b=other.currency),
            )

    def __add__(self, other: Money) -> Money:
        self._check(other)
        return Money(self.amount + other.amount, self.currency)

    def __sub__(self, other: Money) -> Money:
        self._check(other)
        return Money(self.amount - other.amount, self.currency)

    def major_str(self) -> str:
        """The amount in major units as a plain decimal string ("12.50", "5000"), for CSV and JSON."""
        return minor_to_major_str(self.amount, self.currency)


def parse_amount(text: str, currency: str) -> int:
    """A decimal amount in major units ("250", "12.50") as integer minor units.

    Refuses more decimals than the currency has (``"12.345"`` EUR, ``"5000.50"`` IDR) instead of rounding.
    """
    exp = currency_exponent(currency)
    try:
        value = Decimal(text.strip().replace(" ", ""))
    except InvalidOperation:
        raise MoneyError("bad-amount", _("Not an amount: {text}").format(text=text)) from None
    if not value.is_finite():
        raise MoneyError("bad-amount", _("Not an amount: {text}").format(text=text))
    scaled = value.scaleb(exp)
    if scaled != scaled.to_integral_value():
        raise MoneyError(
            "too-many-decimals",
            _("{currency} amounts have at most {n} decimals: {text}").format(
                currency=currency, n=exp, text=text
            ),
        )
    return int(scaled)


def minor_to_major_str(amount: int, currency: str) -> str:
    """Minor units as a plain decimal string in major units: 1250 EUR -> "12.50", 5000 IDR -> "5000"."""
    exp = currency_exponent(currency)
    if exp == 0:
        return str(amount)
    sign = "-" if amount < 0 else ""
    whole, frac = divmod(abs(amount), 10**exp)
    return f"{sign}{whole}.{frac:0{exp}d}"


def format_money(amount: int, currency: str, locale: str = "en") -> str:
    """For people: ``format_money(500000, "IDR", "id") == "Rp 500.000"``-style text, via Babel."""
    from babel.numbers import format_currency

    exp = currency_exponent(currency)
    return str(format_currency(Decimal(amount).scaleb(-exp), currency.upper(), locale=locale))


def split_equally(total: int, ranked_count: int) -> list[int]:
    """Split ``total`` minor units into ``ranked_count`` equal parts (T13c).

    Each part is ``total // n``; the ``total % n`` remaining units go one each to the first parts, i.e. to
    the better-placed by tie-break order when the caller lists the sharers in that order. The parts add up to
    ``total`` exactly and differ by at most one unit.
    """
    if ranked_count <= 0:
        raise MoneyError("no-sharers", _("An amount cannot be split between nobody."))
    if total < 0:
        raise MoneyError("bad-amount", _("A prize cannot be negative."))
    base, rest = divmod(total, ranked_count)
    return [base + 1 if i < rest else base for i in range(ranked_count)]


def allocate_shares(total: int, shares: Sequence[int], whole: int) -> list[int]:
    """Apportion ``total`` by ``shares`` out of ``whole`` (e.g. basis points out of 10 000), exactly.

    The amount handed out is ``floor(total * sum(shares) / whole)``; each part is first
    ``floor(total * share / whole)``, and the units lost to rounding go one each to the parts in list order
    (for a prize plan: to the better places first). With shares that add up to ``whole`` the parts add up to
    ``total`` exactly.
    """
    if whole <= 0 or any(s < 0 for s in shares) or sum(shares) > whole:
        raise MoneyError("bad-shares", _("Prize shares must be positive and add up to at most 100%."))
    if total < 0:
        raise MoneyError("bad-amount", _("A prize pool cannot be negative."))
    handed_out = total * sum(shares) // whole
    parts = [total * s // whole for s in shares]
    leftover = handed_out - sum(parts)
    i = 0
    while leftover > 0:  # leftover < len(shares), every part gets at most one unit
        if shares[i] > 0:
            parts[i] += 1
            leftover -= 1
        i += 1
    return parts
