"""Folding text for search: case and accents are ignored, Turkish dotted/dotless i included.

``fold("Şükrü") == fold("sukru")``, ``fold("Muñoz") == "munoz"``, ``fold("Işık") == fold("ISIK") == "isik"``
and ``fold("İstanbul") == "istanbul"``. Python's own ``lower()`` turns "I" into "i" and "İ" into "i" plus a
combining dot, and leaves "ı" alone; a Turkish user typing "ISIK" means "Işık", an English one typing "isik"
means the same, so all four letters I, İ, ı, i fold to plain "i".
"""

from __future__ import annotations

import unicodedata

from clubdesk.i18n import _

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


# Bidirectional controls (they reorder what a screen or a printed sheet shows) and other invisible marks.
_BIDI = set("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c")


def invisible_problem(value: str) -> str | None:
    """Why a typed name cannot be stored, or None: control characters (terminal escapes, tabs...) and
    bidirectional controls are refused, and a name needs at least one visible letter."""
    for ch in value:
        if ch in _BIDI:
            return _("it contains a hidden direction mark; retype it")
        cat = unicodedata.category(ch)
        if cat == "Cc" or (cat == "Cf" and ch not in "\u200c\u200d"):
            return _("it contains a control or invisible character; retype it")
    if not any(ch.isalpha() for ch in value):
        return _("it needs at least one letter")
    return None


def ascii_digits(value: str) -> bool:
    """Only 0-9 (``str.isdigit`` also accepts Arabic-Indic and other digits)."""
    return value.isascii() and value.isdigit()


def elide_middle(text: str, chars: int) -> str:
    """``text`` cut in the middle with … to at most ``chars`` characters: both ends of a long pair or team
    name stay readable ("Equipo Peña…El Cierre"), where two names often share their first words."""
    text = " ".join(text.split())
    if len(text) <= chars or chars < 3:
        return text
    keep = chars - 1
    head, tail = (keep + 1) // 2, keep // 2
    return text[:head].rstrip() + "…" + text[len(text) - tail :].lstrip()


def side_label(letter: str, name: str, chars: int | None = None) -> str:
    """A table side as every hand list, sheet and approval names it: its letter and its whole pair or team
    name ("A · Equipo Peña El Cierre"), cut in the middle past ``chars``. Two sides never read the same:
    their letters differ even where their names do not."""
    shown = elide_middle(name, chars) if chars is not None else " ".join(name.split())
    return f"{letter} · {shown}" if shown and shown != letter else letter


def signed(n: int) -> str:
    """A score as printed: a negative one with a true minus sign (−50), never a hyphen."""
    return f"\u2212{-n}" if n < 0 else str(n)


def score_text(a: int, b: int) -> str:
    """Two scores side by side: "260–50"; with a negative one, spaced and signed: "260 – −50"."""
    if a < 0 or b < 0:
        return f"{signed(a)} – {signed(b)}"
    return f"{a}–{b}"
