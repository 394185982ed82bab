"""argparse's own words ("usage:", "options", "the following arguments are required: …") in ClubDesk's
catalogs: :func:`install` makes argparse translate through :mod:`clubdesk.i18n` instead of the system's
``messages`` domain, and the strings below are marked so that Babel puts them in ClubDesk's template.

The msgids are argparse's own (Python 3.11), placeholders included; argparse formats them itself.
"""

from __future__ import annotations

import argparse

from clubdesk import i18n
from clubdesk.i18n import N_, _

ARGPARSE_MESSAGES: tuple[str, ...] = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)


def _plural_markers() -> None:  # never called: marks argparse's plural messages for extraction
    i18n.ngettext("expected %s argument", "expected %s arguments", 2)


def _gettext(message: str) -> str:
    return _(message)


def _ngettext(singular: str, plural: str, n: int) -> str:
    return i18n.ngettext(singular, plural, n)


def install() -> None:
    """From now on argparse speaks the language set with :func:`clubdesk.i18n.set_language`."""
    argparse._ = _gettext  # type: ignore[attr-defined]
    argparse.ngettext = _ngettext  # type: ignore[attr-defined]
