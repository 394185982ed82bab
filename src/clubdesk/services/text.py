"""Folding text for search: case and accents are ignored, Turkish dotted/dotless i included.

``fold("Şükrü") == fold("sukru")``, ``fold("Muñoz") == "munoz"``, ``fold("Işık") == fold("ISIK") == "isik"``
and ``fold("İstanbul") == "istanbul"``. Python's own ``lower()`` turns "I" into "i" and "İ" into "i" plus a
combining dot, and leaves "ı" alone; a Turkish user typing "ISIK" means "Işık", an English one typing "isik"
means the same, so all four letters I, İ, ı, i fold to plain "i".
"""

from __future__ import annotations

import unicodedata

# Letters that have no decomposition into a base letter plus marks.
_SPECIAL = str.maketrans(
    {
        "ı": "i",
        "İ": "i",
        "I": "i",
        "ø": "o",
        "Ø": "o",
        "đ": "d",
        "Đ": "d",
        "ł": "l",
        "Ł": "l",
        "æ": "ae",
        "Æ": "ae",
        "œ": "oe",
        "Œ": "oe",
        "ð": "d",
        "Ð": "d",
        "þ": "th",
        "Þ": "th",
    }
)


def fold(text: str) -> str:
    """Lower-case, accent-free, single-spaced form of ``text`` for comparing and searching."""
    text = text.translate(_SPECIAL)
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(stripped.casefold().split())


def matches(query: str, *texts: str) -> bool:
    """True when every word of ``query`` occurs (folded) in one of ``texts``."""
    words = fold(query).split()
    if not words:
        return True
    haystack = " ".join(fold(t) for t in texts if t)
    return all(word in haystack for word in words)


def excel_safe(value: str) -> str:
    """A CSV cell that spreadsheet programs show as text: one starting with = + - @ gets a leading apostrophe,
    so "=HYPERLINK(...)" is not run as a formula (the member import removes that apostrophe again)."""
    return "'" + value if value[:1] in ("=", "+", "-", "@") else value
