"""Alphabetical order of names in the language of the screen or report (issue 17).

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
    """Issue 22: the register search sorts the same names on every keystroke; each key is computed once."""
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
