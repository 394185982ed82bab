"""Game engines: gaple, Spanish federation dominoes, tavla (CONTRACTS.md §1).

``replay(ruleset, entries, params)`` recomputes a whole score sheet from its entries; the family engines live
in ``gaple.py``, ``domino_es.py`` and ``tavla.py`` and are imported lazily,
when a sheet of theirs is replayed.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from clubdesk.games.errors import EntryError, RulesetError
from clubdesk.games.ruleset import Ruleset, load_ruleset, register_family

__all__ = ["RULESETS", "EntryError", "Ruleset", "RulesetError", "load_ruleset", "register_family", "replay"]

RULESETS: tuple[str, ...] = ("gaple-tournament", "gaple-club", "domino-es", "tavla")
"""The preset ruleset ids (seeds 000, 001, 002, 003)."""

# family -> (module, function) of the engine that replays its sheets
_ENGINES: dict[str, tuple[str, str]] = {
    "gaple": ("clubdesk.games.gaple", "replay_gaple"),
    "domino": ("clubdesk.games.domino_es", "replay_domino"),
    "tavla": ("clubdesk.games.tavla", "replay_tavla"),
}


def replay(
    ruleset: str | Ruleset,
    entries: Sequence[Mapping[str, object]],
    params: Mapping[str, object] | None = None,
) -> dict[str, Any]:
    """Recompute a score sheet from its entries under ``ruleset`` (an id, or a loaded :class:`Ruleset`).

    ``params`` overrides ruleset parameters by name. Raises ``EntryError`` for an impossible entry and
    ``RulesetError`` for an unknown ruleset or a bad override.
    """
    rs = load_ruleset(ruleset, params) if isinstance(ruleset, str) else ruleset
    if params and not isinstance(ruleset, str):
        from clubdesk.games.ruleset import with_overrides

        rs = with_overrides(rs, params)
    module_name, func_name = _ENGINES[rs.family]
    engine = getattr(importlib.import_module(module_name), func_name)
    result: dict[str, Any] = engine(list(entries), rs.params)
    return result
