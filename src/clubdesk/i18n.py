"""Translation machinery shared by the engines, services, CLI, UI and reports.

Every user-visible string goes through :func:`_` (or :func:`ngettext`). Strings defined at import
time are marked with :func:`N_` and translated where they are shown. Catalogs live in
``resources/locale/<lang>/LC_MESSAGES/clubdesk.po`` and are compiled with Babel
(``python -m clubdesk.i18n_tools compile``). The pseudo-locale ``xx`` wraps every translated
string in ``⟦…⟧`` so that a test can find strings that were never marked.

This module imports neither Qt nor SQLAlchemy, so the pure engines may use it.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

DOMAIN = "clubdesk"
LANGUAGES: tuple[str, ...] = ("en", "id", "es", "tr")
PSEUDO = "xx"
# each language in its own words (never translated: a user looks for his own language's name)
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "id": "Bahasa Indonesia", "es": "Español", "tr": "Türkçe"}

_current: _gettext.NullTranslations = _gettext.NullTranslations()
_current_lang = "en"
# a web request's own language (the table pages), never the desk window's process-wide one
_local: ContextVar[tuple[str, _gettext.NullTranslations] | None] = ContextVar("clubdesk_lang", default=None)


class _PseudoTranslations(_gettext.NullTranslations):
    """Wraps every string so that unmarked (untranslated) text stands out in tests. It also records every
    msgid asked for (:func:`pseudo_seen`): a string translated at run time but never marked for extraction
    (``_(some_key)``) is wrapped too, yet missing from the template, and a test can find it that way."""

    seen: set[str] = set()

    def gettext(self, message: str) -> str:
        _PseudoTranslations.seen.add(message)
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        _PseudoTranslations.seen.add(msgid1)
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"


def pseudo_seen(clear: bool = False) -> set[str]:
    """The msgids translated in the pseudo-locale since the last clear (singular ids of plural entries)."""
    seen = set(_PseudoTranslations.seen)
    if clear:
        _PseudoTranslations.seen.clear()
    return seen


def locale_dir() -> Path:
    """The folder that holds the gettext catalogs."""
    return Path(__file__).resolve().parent / "resources" / "locale"


def set_language(lang: str | None) -> str:
    """Switch the language used by :func:`_`; returns the language actually in force."""
    global _current, _current_lang
    lang = (lang or "en").strip() or "en"
    if lang == PSEUDO:
        _current = _PseudoTranslations()
    else:
        _current = _gettext.translation(DOMAIN, localedir=str(locale_dir()), languages=[lang], fallback=True)
    _current_lang = lang
    return lang


def catalog_missing(lang: str) -> bool:
    """``lang`` is one of ClubDesk's languages other than English and its compiled catalog is not installed
    (the install builds the ``.mo`` files): gettext would fall back to English without a word."""
    return (
        lang in LANGUAGES
        and lang != "en"
        and not (locale_dir() / lang / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file()
    )


def missing_catalog_warning(lang: str) -> str | None:
    """What the window's status bar and the CLI's stderr say at start-up when ``lang`` has no catalog."""
    if not catalog_missing(lang):
        return None
    return _(
        "The {language} catalog is not installed ({folder}): ClubDesk speaks English. Reinstall ClubDesk, "
        "or in a source checkout run python -m clubdesk.i18n_tools compile."
    ).format(language=LANGUAGE_NAMES[lang], folder=locale_dir() / lang / "LC_MESSAGES")


def translation_in(lang: str, message: str) -> str:
    """``message`` translated into ``lang`` whatever the language in force (the pseudo-locale wraps it)."""
    if lang == PSEUDO:
        return f"⟦{message}⟧"
    return _gettext.translation(DOMAIN, localedir=str(locale_dir()), languages=[lang], fallback=True).gettext(
        message
    )


def retranslate(text: str, msgids: tuple[str, ...]) -> str:
    """A text stored in the language of the day it was written ("Prize money", "Premio en metálico") shown in
    the language in force, when it is one of ``msgids`` in any language; other text is returned as it is."""
    for msgid in msgids:
        if text == msgid or any(text == translation_in(lang, msgid) for lang in LANGUAGES if lang != "en"):
            return _(msgid)
    return text


@lru_cache(maxsize=8)
def _catalog(lang: str) -> _gettext.NullTranslations:
    if lang == PSEUDO:
        return _PseudoTranslations()
    return _gettext.translation(DOMAIN, localedir=str(locale_dir()), languages=[lang], fallback=True)


@contextmanager
def language_context(lang: str) -> Iterator[str]:
    """Within the block (this thread / asyncio task only) :func:`_` translates into ``lang``; the
    process-wide language of the desk window is untouched (each phone in its own language)."""
    lang = lang if lang in LANGUAGES or lang == PSEUDO else "en"
    token = _local.set((lang, _catalog(lang)))
    try:
        yield lang
    finally:
        _local.reset(token)


def current_language() -> str:
    local = _local.get()
    return _current_lang if local is None else local[0]


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    local = _local.get()
    return (_current if local is None else local[1]).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    local = _local.get()
    return (_current if local is None else local[1]).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it now."""
    return message


gettext = _
