"""Errors shared by the game engines (CONTRACTS.md §1)."""

from __future__ import annotations


class EntryError(ValueError):
    """An impossible or inconsistent sheet entry.

    ``index`` is the entry's position in the list, ``code`` a stable string such as
    ``"pips-out-of-range"``; ``message`` a translated sentence for people.
    """

    def __init__(self, index: int, code: str, message: str = "") -> None:
        super().__init__(f"entry {index}: {code}" + (f": {message}" if message else ""))
        self.index = index
        self.code = code
        self.message = message


class RulesetError(ValueError):
    """A ruleset file or override that cannot be used: names the file, key and reason."""

    def __init__(self, source: str, key: str, reason: str) -> None:
        super().__init__(f"{source}: {key}: {reason}")
        self.source = source
        self.key = key
        self.reason = reason
