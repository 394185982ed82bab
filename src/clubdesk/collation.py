"""Alphabetical order of names in the language of the screen or report.

The Unicode Collation Algorithm with its default table (DUCET, through the pure-Python ``pyuca``) puts
"Çelik" next to "Celik" and "Işık" after "Irmak", which is right for English and Indonesian but not for the
Turkish or Spanish alphabet. On top of the DUCET this module applies the CLDR tailorings of those two
languages (the same ones ICU's ``tr`` and ``es`` collators use):

* Turkish (CLDR ``tr``): ``c < ç``, ``g < ğ``, ``ı < i``, ``o < ö``, ``s < ş``, ``u < ü`` as letters of their
  own, and the Turkish case pairs ``I``/``ı`` and ``İ``/``i``: "Cem" < "Çelik" < "Dora", "Işık" < "İnce".
* Spanish (CLDR ``es``): ``n < ñ < o``: "Nuzzo" < "Ñañez" < "Ocaña".

A tailored letter sorts after every word of its base letter at the first (primary) level; accents and case
that are not letters of the alphabet still count only at the DUCET's lower levels. Use :func:`sort_key` (the
current language) or :func:`collator` wherever lists of people are sorted for the reader.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, TypeVar

from clubdesk.i18n import current_language

_T = TypeVar("_T")

# language → {letter: (base letter, position after it)}; the base's own position is 0.
_TAILORINGS: dict[str, dict[str, tuple[str, int]]] = {
    "tr": {
        "ç": ("c", 1),
        "ğ": ("g", 1),
        "ı": ("ı", 0),  # dotless ı is the first of the i letters …
        "i": ("ı", 1),  # … and dotted i comes after it
        "ö": ("o", 1),
        "ş": ("s", 1),
        "ü": ("u", 1),
    },
    "es": {"ñ": ("n", 1)},
}
# Turkish case pairs: I is the capital of ı, İ the capital of i
_LOWER: dict[str, dict[str, str]] = {"tr": {"I": "ı", "İ": "i"}}


@lru_cache(maxsize=1)
def _ducet() -> Any:
    import pyuca

    return pyuca.Collator()


@lru_cache(maxsize=4096)
def _primaries(text: str) -> tuple[int, ...]:
    """The DUCET primary weights of ``text`` (the first level of its sort key)."""
    key: tuple[int, ...] = _ducet().sort_key(text)
    end = key.index(0) if 0 in key else len(key)
    return key[:end]


def _units(lang: str, text: str) -> tuple[tuple[int, ...], ...]:
    """The primary level with the language's letters put in their place: one unit per character."""
    tailoring = _TAILORINGS.get(lang, {})
    lower = _LOWER.get(lang, {})
    units: list[tuple[int, ...]] = []
    for ch in unicodedata.normalize("NFC", text):
        low = lower.get(ch) or ch.lower()
        low = unicodedata.normalize("NFC", low)
        if low in tailoring:
            base, after = tailoring[low]
            units.append((*_primaries("i" if base == "ı" else base), after))
            continue
        weights = _primaries(ch)
        if weights:
            # the letter's primaries with position 0: ties it with its base letter (é with e) at this level
            units.append((*weights, 0))
    return tuple(units)


def sort_key(text: str, lang: str | None = None) -> tuple[Any, ...]:
    """A key that orders ``text`` as the language's alphabet does (default: the language in force)."""
    return _cached_key(text, (lang or current_language() or "en").split("_")[0])


@lru_cache(maxsize=200_000)
def _cached_key(text: str, lang: str) -> tuple[Any, ...]:
    """The register search sorts the same names on every keystroke; each key is computed once."""
    full: tuple[int, ...] = _ducet().sort_key(text)
    if lang not in _TAILORINGS:
        return (full,)
    return (_units(lang, text), full)


def sort_string(text: str, lang: str | None = None) -> str:
    """:func:`sort_key` as a plain string that compares the same way, for Qt's sort roles (a proxy model
    compares strings, not tuples): each weight as five hex digits, "!" after each letter, " " between
    levels."""
    key = sort_key(text, lang)
    levels = []
    for level in key:
        if level and isinstance(level[0], tuple):  # the tailored letters: one unit per character
            levels.append("".join("".join(f"{w:05x}" for w in unit) + "!" for unit in level))
        else:
            levels.append("".join(f"{w:05x}" for w in level))
    return " ".join(levels)


def collator(lang: str | None = None) -> Callable[[str], tuple[Any, ...]]:
    """``sorted(names, key=collator("tr"))``; the language is fixed when called (default: in force now)."""
    fixed = (lang or current_language() or "en").split("_")[0]
    return lambda text: sort_key(text, fixed)


def sorted_names(items: Iterable[_T], name: Callable[[_T], str], lang: str | None = None) -> list[_T]:
    """``items`` in the alphabetical order of their names."""
    key = collator(lang)
    return sorted(items, key=lambda it: key(name(it)))


# --------------------------------------------------------------------------- stored keys

# The languages whose alphabet has a stored key column of its own (members.sort_key_es / sort_key_tr); every
# other language sorts by the DUCET alone (members.sort_key).
STORED_LANGUAGES: tuple[str, ...] = ("es", "tr")


def stored_language(lang: str | None = None) -> str:
    """The stored key a language sorts by: "es", "tr", or "" (the DUCET: English, Indonesian)."""
    fixed = (lang or current_language() or "en").split("_")[0]
    return fixed if fixed in STORED_LANGUAGES else ""


def _weight(out: bytearray, w: int) -> None:
    """One weight, order-preserving and prefix-free: 0-7F one byte, to 3FFF two, to FFFF three bytes (the
    DUCET's secondary and tertiary weights, nearly all below 80, take one byte)."""
    if w < 0x80:
        out.append(w)
    elif w < 0x4000:
        out += bytes((0x80 | (w >> 8), w & 0xFF))
    else:
        out += bytes((0xC0 | (w >> 16), (w >> 8) & 0xFF, w & 0xFF))


def sort_bytes(text: str, lang: str | None = None) -> bytes:
    """:func:`sort_key` as bytes that compare (bytewise, as SQLite and PostgreSQL compare a BLOB / bytea) the
    same way, for the members' stored, indexed sort key. A tailored key's letters are each their
    primaries and position (all above 0) closed by a 0; a 0 then ends the letters, before the DUCET key."""
    out = bytearray()
    for level in sort_key(text, lang):
        if level and isinstance(level[0], tuple):
            for unit in level:
                for i, w in enumerate(unit):
                    _weight(out, w + 1 if i == len(unit) - 1 else w)  # the position 0/1 as 1/2: above 0
                out.append(0)
            out.append(0)
        else:
            for w in level:
                _weight(out, w)
    return bytes(out)
