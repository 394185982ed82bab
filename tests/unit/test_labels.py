"""Words for stored keys and figures in the reader's language (issue 17)."""

from __future__ import annotations

from clubdesk import i18n
from clubdesk import labels as L
from clubdesk.models.event import ENTRANT_STATUSES, ENTRY_TYPES, EVENT_STATUSES, FORMATS


def test_every_stored_key_has_a_word() -> None:
    """A new format or status without a label would show its raw key ("open-round-robin") on screen."""
    assert set(L.FORMAT_LABELS) == set(FORMATS)
    assert set(L.ENTRY_TYPE_LABELS) == set(ENTRY_TYPES)
    assert set(L.EVENT_STATUS_LABELS) == set(EVENT_STATUSES)
    assert set(L.ENTRANT_STATUS_LABELS) == set(ENTRANT_STATUSES)


def test_labels_are_translated_when_shown() -> None:
    i18n.set_language("xx")
    assert L.format_label("swiss") == "⟦Swiss system⟧"
    assert L.ruleset_label("tavla") == "⟦Tavla — tournament⟧"  # in the UI language, English included
    assert L.ruleset_label("gaple-club") == "⟦Gaple — club league⟧"  # the preset's name from its TOML file
    assert L.audit_action_label("publish") == "⟦round published⟧"
    assert L.role_label("referee") == "⟦Referee⟧"
    assert L.status_label("no_show") == "⟦No-show⟧"
    assert L.format_label("no-such-format") == "no-such-format"  # unknown keys are shown as stored


def test_figures_use_the_languages_decimal_comma() -> None:
    assert [L.localized_number("9.5", lang) for lang in ("en", "id", "es", "tr")] == [
        "9.5",
        "9,5",
        "9,5",
        "9,5",
    ]
    assert L.localized_number("1612.25", "tr") == "1.612,25"
    assert L.localized_number("-11", "es") == "-11" and L.localized_number("+5", "id") == "+5"
    assert L.localized_number("7.250", "es") == "7,250"  # the engine's decimals are kept
    assert L.localized_number("3–4", "tr") == "3–4"  # not a figure: as it is
